import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { pageOf } from '../../lib/schemas.ts';
import { responses } from '../../plugins/envelope.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { LogListQuery, LogPage } from './logs.schemas.ts';
import { logsService } from './logs.service.ts';

export default async function logsRoutes(app: App) {
  const { db } = app.database;
  app.get('/log/list', { config: { access: { right: 'log' } }, schema: { tags: ['logs'], querystring: LogListQuery, response: responses(LogPage) } }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const from = req.query.from ? new Date(req.query.from).toISOString() : undefined;
    const to = req.query.to ? new Date(req.query.to).toISOString() : undefined;
    const r = await logsService.list(db, req.lang, tenantOf(req).companyId, { ...req.query, from, to, offset, limit: pageSize });
    return reply.ok({ ...r, page, pageSize });
  });
  app.get('/log/modules', { config: { access: { right: 'log' } }, schema: { tags: ['logs'], response: responses(Type.Array(Type.String())) } }, async (req, reply) =>
    reply.ok(await logsService.modules(db, tenantOf(req).companyId)),
  );
}
