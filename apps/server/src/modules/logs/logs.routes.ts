import { logsApi } from '@faceadmin/shared';
import type { App, Core } from '../../module.ts';
import { invalid } from '../../lib/errors.ts';
import { pageOf } from '../../lib/schemas.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { logsService } from './logs.service.ts';

const DAY_MS = 86_400_000;

/**
 * A from/to bound as an ISO instant. A plain date (YYYY-MM-DD) means that UTC day; as "to" it includes the
 * whole day (to is exclusive). Impossible dates (2020-13-45) are a validation error, not a 500.
 */
function bound(field: 'from' | 'to', value: string | undefined): string | undefined {
  if (!value) return undefined;
  const dateOnly = value.length === 10;
  const ms = Date.parse(dateOnly ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms) || (dateOnly && new Date(ms).toISOString().slice(0, 10) !== value)) throw invalid(field, 'reasons.format');
  return new Date(dateOnly && field === 'to' ? ms + DAY_MS : ms).toISOString();
}

export default async function logsRoutes(app: App, deps: Pick<Core, 'database'>) {
  const { db } = deps.database;
  app.get(logsApi.list.path, { config: { access: { right: 'log' } }, schema: routeSchema(logsApi.list, { tags: ['logs'] }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const from = bound('from', req.query.from);
    const to = bound('to', req.query.to);
    const r = await logsService.list(db, req.lang, tenantOf(req).companyId, { ...req.query, from, to, offset, limit: pageSize });
    return reply.ok({ ...r, page, pageSize });
  });
  app.get(logsApi.modules.path, { config: { access: { right: 'log' } }, schema: routeSchema(logsApi.modules, { tags: ['logs'] }) }, async (req, reply) =>
    reply.ok(await logsService.modules(db, tenantOf(req).companyId)),
  );
}
