import { attendanceApi } from '@faceadmin/shared';
import type { App } from '../../module.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import type { DaysService } from './days.service.ts';
import type { HolidaysService } from './holidays.service.ts';
import type { PeriodsService } from './periods.service.ts';
import type { ReportsService } from './reports.service.ts';
import type { RulesService } from './rules.service.ts';
import type { ScheduleService } from './schedule.service.ts';

export default async function attendanceRoutes(
  app: App,
  deps: { rules: RulesService; holidays: HolidaysService; days: DaysService; schedule: ScheduleService; reports: ReportsService; periods: PeriodsService },
) {
  const tags = ['attendance'];
  const config = { access: { right: 'attendance' as const } };
  // spec §2: holidays and the free schedule are not there in LAN mode (docs/lan-mode.md).
  const notLan = { ...config, notLan: true };
  const { rules, holidays, days, schedule, reports, periods } = deps;
  app.get(attendanceApi.rules.path, { config, schema: routeSchema(attendanceApi.rules, { tags }) }, async (req, reply) =>
    reply.ok(await rules.list(tenantOf(req))),
  );
  app.get(attendanceApi.rule.path, { config, schema: routeSchema(attendanceApi.rule, { tags }) }, async (req, reply) =>
    reply.ok(await rules.info(tenantOf(req), req.query.id)),
  );
  app.post(attendanceApi.createRule.path, { config, schema: routeSchema(attendanceApi.createRule, { tags }) }, async (req, reply) =>
    reply.ok(await rules.create(tenantOf(req), req.body)),
  );
  app.post(attendanceApi.updateRule.path, { config, schema: routeSchema(attendanceApi.updateRule, { tags }) }, async (req, reply) =>
    reply.ok(await rules.update(tenantOf(req), req.body)),
  );
  app.post(attendanceApi.deleteRule.path, { config, schema: routeSchema(attendanceApi.deleteRule, { tags }) }, async (req, reply) => {
    await rules.remove(tenantOf(req), req.body.id);
    return reply.ok(null);
  });
  app.get(attendanceApi.holidays.path, { config: notLan, schema: routeSchema(attendanceApi.holidays, { tags }) }, async (req, reply) =>
    reply.ok(await holidays.list(tenantOf(req), req.query.year)),
  );
  app.post(attendanceApi.createHoliday.path, { config: notLan, schema: routeSchema(attendanceApi.createHoliday, { tags }) }, async (req, reply) =>
    reply.ok(await holidays.create(tenantOf(req), req.body)),
  );
  app.post(attendanceApi.updateHoliday.path, { config: notLan, schema: routeSchema(attendanceApi.updateHoliday, { tags }) }, async (req, reply) =>
    reply.ok(await holidays.update(tenantOf(req), req.body)),
  );
  app.post(attendanceApi.deleteHoliday.path, { config: notLan, schema: routeSchema(attendanceApi.deleteHoliday, { tags }) }, async (req, reply) => {
    await holidays.remove(tenantOf(req), req.body.id);
    return reply.ok(null);
  });
  app.get(attendanceApi.latestDay.path, { config, schema: routeSchema(attendanceApi.latestDay, { tags }) }, async (req, reply) =>
    reply.ok(await days.latest(tenantOf(req))),
  );
  app.get(
    attendanceApi.days.path,
    { config: { ...config, apiScope: 'attendance:read' }, schema: routeSchema(attendanceApi.days, { tags }) },
    async (req, reply) => reply.ok(await days.list(tenantOf(req), req.query)),
  );
  app.get(
    attendanceApi.month.path,
    { config: { ...config, apiScope: 'attendance:read' }, schema: routeSchema(attendanceApi.month, { tags }) },
    async (req, reply) => reply.ok(await days.month(tenantOf(req), req.query, req.lang)),
  );
  app.get(attendanceApi.leaveTypes.path, { config, schema: routeSchema(attendanceApi.leaveTypes, { tags }) }, async (req, reply) =>
    reply.ok(await days.leaveTypes(tenantOf(req), req.lang)),
  );
  app.get(
    attendanceApi.day.path,
    { config: { ...config, apiScope: 'attendance:read' }, schema: routeSchema(attendanceApi.day, { tags }) },
    async (req, reply) => reply.ok(await days.info(tenantOf(req), req.query.person_id, req.query.date)),
  );
  app.post(attendanceApi.setManual.path, { config, schema: routeSchema(attendanceApi.setManual, { tags }) }, async (req, reply) =>
    reply.ok(await days.setManual(tenantOf(req), req.body)),
  );
  app.post(attendanceApi.recalculate.path, { config, schema: routeSchema(attendanceApi.recalculate, { tags }) }, async (req, reply) =>
    reply.ok(await days.recalculate(tenantOf(req), req.body.from, req.body.to)),
  );
  app.get(attendanceApi.recalculateStatus.path, { config, schema: routeSchema(attendanceApi.recalculateStatus, { tags }) }, async (req, reply) =>
    reply.ok(await days.status(tenantOf(req))),
  );
  app.get(attendanceApi.absences.path, { config, schema: routeSchema(attendanceApi.absences, { tags }) }, async (req, reply) =>
    reply.ok(await days.absences(tenantOf(req), req.query)),
  );
  app.post(attendanceApi.createAbsence.path, { config, schema: routeSchema(attendanceApi.createAbsence, { tags }) }, async (req, reply) =>
    reply.ok(await days.createAbsence(tenantOf(req), req.body)),
  );
  app.post(attendanceApi.deleteAbsence.path, { config, schema: routeSchema(attendanceApi.deleteAbsence, { tags }) }, async (req, reply) => {
    await days.deleteAbsence(tenantOf(req), req.body.id);
    return reply.ok(null);
  });
  app.get(attendanceApi.schedule.path, { config: notLan, schema: routeSchema(attendanceApi.schedule, { tags }) }, async (req, reply) =>
    reply.ok(await schedule.grid(tenantOf(req), req.query)),
  );
  app.post(attendanceApi.saveSchedule.path, { config: notLan, schema: routeSchema(attendanceApi.saveSchedule, { tags }) }, async (req, reply) =>
    reply.ok(await schedule.save(tenantOf(req), req.body)),
  );
  app.get(
    attendanceApi.personMonth.path,
    { config: { ...config, apiScope: 'attendance:read' }, schema: routeSchema(attendanceApi.personMonth, { tags }) },
    async (req, reply) => reply.ok(await reports.personMonth(tenantOf(req), req.query)),
  );
  app.post(
    attendanceApi.exportDays.path,
    { config: { ...config, apiScope: 'attendance:read' }, schema: routeSchema(attendanceApi.exportDays, { tags }) },
    async (req, reply) => sendXlsx(reply, 'attendance-days.xlsx', await reports.exportDays(tenantOf(req), req.body, req.lang)),
  );
  app.post(
    attendanceApi.exportMonth.path,
    { config: { ...config, apiScope: 'attendance:read' }, schema: routeSchema(attendanceApi.exportMonth, { tags }) },
    async (req, reply) => sendXlsx(reply, `attendance-${req.body.month}.xlsx`, await reports.exportMonth(tenantOf(req), req.body, req.lang)),
  );
  // Closed periods (#17): days neither recalculated nor edited until reopened.
  app.get(attendanceApi.periods.path, { config, schema: routeSchema(attendanceApi.periods, { tags }) }, async (req, reply) =>
    reply.ok(await periods.list(tenantOf(req))),
  );
  app.post(attendanceApi.closePeriod.path, { config, schema: routeSchema(attendanceApi.closePeriod, { tags }) }, async (req, reply) =>
    reply.ok(await periods.close(tenantOf(req), req.body)),
  );
  // Reopening queues the period's recalculation (#18): the answer is its progress, as "attendance update" answers.
  app.post(attendanceApi.reopenPeriod.path, { config, schema: routeSchema(attendanceApi.reopenPeriod, { tags }) }, async (req, reply) =>
    reply.ok(await periods.reopen(tenantOf(req), req.body.id)),
  );
}
