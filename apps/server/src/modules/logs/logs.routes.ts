import { logsApi } from '@faceadmin/shared';
import type { App, Core } from '../../module.ts';
import { pageOf } from '../../lib/schemas.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { authOf, tenantOf } from '../../plugins/auth.ts';
import { zonedToUtcMs } from '../../lib/time.ts';
import { logsService } from './logs.service.ts';

const DAY_MS = 86_400_000;

/**
 * A from/to bound as an ISO instant. A plain date (YYYY-MM-DD) means that day in the company's time zone; as
 * "to" it includes the whole day (to is exclusive: the next day's start, so a 23-hour DST day stays right).
 * The schema has already refused impossible dates.
 */
function bound(field: 'from' | 'to', value: string | undefined, zone: string): string | undefined {
  if (!value) return undefined;
  if (value.length !== 10) return new Date(Date.parse(value)).toISOString();
  const day = field === 'to' ? new Date(Date.parse(`${value}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10) : value;
  return new Date(zonedToUtcMs(day, zone)).toISOString();
}

export default async function logsRoutes(app: App, deps: Pick<Core, 'database'>) {
  const { db } = deps.database;
  app.get(logsApi.list.path, { config: { access: { right: 'log' } }, schema: routeSchema(logsApi.list, { tags: ['logs'] }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const zone = authOf(req).timeZone;
    const from = bound('from', req.query.from, zone);
    const to = bound('to', req.query.to, zone);
    const r = await logsService.list(db, req.lang, tenantOf(req).companyId, { ...req.query, from, to, offset, limit: pageSize });
    return reply.ok({ ...r, page, pageSize });
  });
  app.get(logsApi.modules.path, { config: { access: { right: 'log' } }, schema: routeSchema(logsApi.modules, { tags: ['logs'] }) }, async (req, reply) =>
    reply.ok(await logsService.modules(db, tenantOf(req).companyId)),
  );
}
