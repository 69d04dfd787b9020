import { dashboardApi } from '@faceadmin/shared';
import type { App, Core } from '../../module.ts';
import { clock } from '../../lib/time.ts';
import { authOf, tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { logsRepository } from '../logs/logs.repository.ts';
import { presentLog } from '../logs/logs.presenter.ts';
import { managersRepository } from '../managers/managers.repository.ts';
import { messagesRepository } from '../messages/messages.repository.ts';

/** The figures that exist so far; people, devices and attendance join as their features land. */
export default async function dashboardRoutes(app: App, deps: Pick<Core, 'database'>) {
  const { db } = deps.database;
  app.get(
    dashboardApi.summary.path,
    { config: { access: 'company' }, schema: routeSchema(dashboardApi.summary, { tags: ['dashboard'] }) },
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
