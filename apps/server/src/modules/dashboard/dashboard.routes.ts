import { dashboardApi } from '@faceadmin/shared';
import type { App, Core } from '../../module.ts';
import { clock } from '../../lib/time.ts';
import { authOf, tenantOf, type Access } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { logsRepository } from '../logs/logs.repository.ts';
import { presentLog } from '../logs/logs.presenter.ts';
import { managersRepository } from '../managers/managers.repository.ts';
import { messagesRepository } from '../messages/messages.repository.ts';
import type { DashboardService } from './dashboard.service.ts';

/** Attendance figures, flow and recognitions are punch records and day results: the attendance right (as their lists). */
const ATTENDANCE: Access = { right: 'attendance' };
/** Terminals (face view) or breakers (breaker right or face view): the route answers the blocks the caller may see. */
const DEVICES: Access = { anyOf: [{ right: 'face', level: 1 }, { right: 'breaker' }] };
/** Breaker alarms (breaker right or face view) and punch alarms (attendance). */
const ALARMS: Access = { anyOf: [{ right: 'attendance' }, { right: 'face', level: 1 }, { right: 'breaker' }] };

/** The dashboard's blocks (spec §2 /dashboard, issue #16), each its own route so each loads and refreshes alone. */
export default async function dashboardRoutes(app: App, deps: Pick<Core, 'database'> & { service: DashboardService }) {
  const { db } = deps.database;
  const { service } = deps;
  const tags = ['dashboard'];
  const api = dashboardApi;

  app.get(api.summary.path, { config: { access: 'company' }, schema: routeSchema(api.summary, { tags }) }, async (req, reply) => {
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
  });

  // Attendance is the company's whole: a site groups devices, not people (site_id is checked, then not applied).
  app.get(api.attendance.path, { config: { access: ATTENDANCE }, schema: routeSchema(api.attendance, { tags }) }, async (req, reply) => {
    const tn = tenantOf(req);
    await service.scope(tn, req.query.site_id);
    return reply.ok(await service.attendance(tn));
  });

  app.get(api.trend.path, { config: { access: ATTENDANCE }, schema: routeSchema(api.trend, { tags }) }, async (req, reply) => {
    const tn = tenantOf(req);
    await service.scope(tn, req.query.site_id);
    return reply.ok({ items: await service.trend(tn, req.query.days ?? 30) });
  });

  app.get(api.devices.path, { config: { access: DEVICES }, schema: routeSchema(api.devices, { tags }) }, async (req, reply) => {
    const tn = tenantOf(req);
    return reply.ok(await service.devices(tn, authOf(req).rights, await service.scope(tn, req.query.site_id)));
  });

  app.get(api.alarms.path, { config: { access: ALARMS }, schema: routeSchema(api.alarms, { tags }) }, async (req, reply) => {
    const tn = tenantOf(req);
    return reply.ok(await service.alarms(tn, authOf(req).rights, await service.scope(tn, req.query.site_id)));
  });

  app.get(api.flow.path, { config: { access: ATTENDANCE }, schema: routeSchema(api.flow, { tags }) }, async (req, reply) => {
    const tn = tenantOf(req);
    return reply.ok(await service.flow(tn, await service.scope(tn, req.query.site_id)));
  });

  // the latest recognitions are what the doors saw: for the attendance right or face view (the guard desk's history)
  app.get(
    api.recognitions.path,
    { config: { access: { anyOf: [{ right: 'attendance' }, { right: 'face', level: 1 }] } }, schema: routeSchema(api.recognitions, { tags }) },
    async (req, reply) => {
      const tn = tenantOf(req);
      return reply.ok({ items: await service.recognitions(tn, await service.scope(tn, req.query.site_id), req.query.limit ?? 12) });
    },
  );

  app.get(api.sites.path, { config: { access: 'company' }, schema: routeSchema(api.sites, { tags }) }, async (req, reply) => {
    return reply.ok({ items: await service.sites(tenantOf(req)) });
  });

  app.get(api.consoles.path, { config: { access: DEVICES }, schema: routeSchema(api.consoles, { tags }) }, async (req, reply) => {
    const tn = tenantOf(req);
    return reply.ok(await service.consoles(tn, authOf(req).rights, await service.scope(tn, req.query.site_id)));
  });
}
