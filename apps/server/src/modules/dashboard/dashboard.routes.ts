import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { clock } from '../../lib/time.ts';
import { authOf, tenantOf } from '../../plugins/auth.ts';
import { responses } from '../../plugins/envelope.ts';
import { logsRepository } from '../logs/logs.repository.ts';
import { LogItemSchema } from '../logs/logs.schemas.ts';
import { presentLog } from '../logs/logs.service.ts';
import { managersRepository } from '../managers/managers.repository.ts';
import { messagesRepository } from '../messages/messages.repository.ts';

const Summary = Type.Object({
  managers: Type.Integer(),
  subManagers: Type.Integer(),
  unreadMessages: Type.Integer(),
  operationsToday: Type.Integer(),
  recentLogs: Type.Array(LogItemSchema),
});
const Query = Type.Object({ tzOffset: Type.Optional(Type.Integer({ minimum: -840, maximum: 840 })) });

/** The figures that exist so far; people, devices and attendance join as their features land. */
export default async function dashboardRoutes(app: App) {
  const { db } = app.database;
  app.get(
    '/dashboard/summary',
    { config: { access: 'company' }, schema: { tags: ['dashboard'], querystring: Query, response: responses(Summary) } },
    async (req, reply) => {
      const tn = tenantOf(req);
      // "today" in the viewer's time zone: tzOffset is minutes east of UTC (like -Date#getTimezoneOffset()).
      const offset = (req.query.tzOffset ?? 0) * 60_000;
      const local = new Date(clock.now() + offset);
      const since = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - offset).toISOString();
      const canLog = authOf(req).rights.log > 0;
      const [counts, unread, today, recent] = await Promise.all([
        managersRepository.counts(db, tn.companyId),
        messagesRepository.countUnread(db, tn.companyId, tn.adminId),
        logsRepository.countSince(db, tn.companyId, since),
        canLog ? logsRepository.list(db, tn.companyId, { offset: 0, limit: 10 }, false) : Promise.resolve({ items: [], total: 0 }),
      ]);
      return reply.ok({
        managers: counts.total,
        subManagers: counts.sub,
        unreadMessages: unread,
        operationsToday: today,
        recentLogs: recent.items.map((r) => presentLog(req.lang, r)),
      });
    },
  );
}
