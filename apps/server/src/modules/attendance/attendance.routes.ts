import { attendanceApi } from '@faceadmin/shared';
import type { App } from '../../module.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { HolidaysService } from './holidays.service.ts';
import type { RulesService } from './rules.service.ts';

export default async function attendanceRoutes(app: App, deps: { rules: RulesService; holidays: HolidaysService }) {
  const tags = ['attendance'];
  const config = { access: { right: 'attendance' as const } };
  const { rules, holidays } = deps;
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
  app.get(attendanceApi.holidays.path, { config, schema: routeSchema(attendanceApi.holidays, { tags }) }, async (req, reply) =>
    reply.ok(await holidays.list(tenantOf(req), req.query.year)),
  );
  app.post(attendanceApi.createHoliday.path, { config, schema: routeSchema(attendanceApi.createHoliday, { tags }) }, async (req, reply) =>
    reply.ok(await holidays.create(tenantOf(req), req.body)),
  );
  app.post(attendanceApi.updateHoliday.path, { config, schema: routeSchema(attendanceApi.updateHoliday, { tags }) }, async (req, reply) =>
    reply.ok(await holidays.update(tenantOf(req), req.body)),
  );
  app.post(attendanceApi.deleteHoliday.path, { config, schema: routeSchema(attendanceApi.deleteHoliday, { tags }) }, async (req, reply) => {
    await holidays.remove(tenantOf(req), req.body.id);
    return reply.ok(null);
  });
}
