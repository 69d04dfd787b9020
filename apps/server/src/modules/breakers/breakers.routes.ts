import { breakersApi } from '@faceadmin/shared';
import type { App } from '../../module.ts';
import { pageOf } from '../../lib/schemas.ts';
import { authOf, tenantOf, type Access } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { BreakersService } from './breakers.service.ts';

/** Reads: the breaker right or face-device view; writes: face-device edit (issue #12; docs/api-breakers.md). */
const VIEW: Access = { anyOf: [{ right: 'breaker' }, { right: 'face', level: 1 }] };
const EDIT: Access = { right: 'face', level: 2 };

export default async function breakersRoutes(app: App, service: BreakersService) {
  const tags = ['breakers'];
  const view = { access: VIEW };
  const edit = { access: EDIT };
  const api = breakersApi;

  app.get(api.list.path, { config: view, schema: routeSchema(api.list, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await service.list(tenantOf(req), { keyword: req.query.keyword?.trim().toLowerCase(), online: req.query.online, offset, limit: pageSize });
    return reply.ok({ ...r, page, pageSize });
  });
  app.get(api.info.path, { config: view, schema: routeSchema(api.info, { tags }) }, async (req, reply) =>
    reply.ok(await service.info(tenantOf(req), req.query.id)),
  );
  app.post(api.create.path, { config: edit, schema: routeSchema(api.create, { tags }) }, async (req, reply) =>
    reply.ok(await service.create(tenantOf(req), req.body)),
  );
  app.post(api.update.path, { config: edit, schema: routeSchema(api.update, { tags }) }, async (req, reply) =>
    reply.ok(await service.update(tenantOf(req), req.body)),
  );
  app.post(api.delete.path, { config: edit, schema: routeSchema(api.delete, { tags }) }, async (req, reply) => {
    await service.delete(tenantOf(req), req.body.id);
    return reply.ok(null);
  });
  app.post(api.password.path, { config: edit, schema: routeSchema(api.password, { tags }) }, async (req, reply) =>
    reply.ok(await service.setPassword(tenantOf(req), req.body.id, req.body.password)),
  );
  app.get(api.lineInfo.path, { config: view, schema: routeSchema(api.lineInfo, { tags }) }, async (req, reply) =>
    reply.ok(await service.lineInfo(tenantOf(req), req.query.id)),
  );
  app.post(api.lineUpdate.path, { config: edit, schema: routeSchema(api.lineUpdate, { tags }) }, async (req, reply) =>
    reply.ok(await service.lineUpdate(req.lang, tenantOf(req), req.body)),
  );
  app.post(api.lineSwitch.path, { config: edit, schema: routeSchema(api.lineSwitch, { tags }) }, async (req, reply) =>
    reply.ok(await service.switchLine(req.lang, tenantOf(req), req.body.id, req.body.oc)),
  );
  app.post(api.lineSelfCheck.path, { config: edit, schema: routeSchema(api.lineSelfCheck, { tags }) }, async (req, reply) =>
    reply.ok(await service.selfCheck(req.lang, tenantOf(req), req.body.id)),
  );
  app.get(api.lineEnergy.path, { config: view, schema: routeSchema(api.lineEnergy, { tags }) }, async (req, reply) =>
    reply.ok(await service.energy(tenantOf(req), req.query.id, req.query.by, authOf(req).timeZone)),
  );
  app.get(api.power.path, { config: view, schema: routeSchema(api.power, { tags }) }, async (req, reply) =>
    reply.ok(await service.power(tenantOf(req), req.query, authOf(req).timeZone)),
  );
  app.get(api.timers.path, { config: view, schema: routeSchema(api.timers, { tags }) }, async (req, reply) =>
    reply.ok(await service.timers(req.lang, tenantOf(req), req.query.breaker_id)),
  );
  app.post(api.timerCreate.path, { config: edit, schema: routeSchema(api.timerCreate, { tags }) }, async (req, reply) =>
    reply.ok(await service.timerCreate(req.lang, tenantOf(req), req.body)),
  );
  app.post(api.timerUpdate.path, { config: edit, schema: routeSchema(api.timerUpdate, { tags }) }, async (req, reply) =>
    reply.ok(await service.timerUpdate(req.lang, tenantOf(req), req.body)),
  );
  app.post(api.timerDelete.path, { config: edit, schema: routeSchema(api.timerDelete, { tags }) }, async (req, reply) => {
    await service.timerDelete(tenantOf(req), req.body.id);
    return reply.ok(null);
  });
  app.get(api.alarms.path, { config: view, schema: routeSchema(api.alarms, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const q = req.query;
    const r = await service.alarms(tenantOf(req), { breakerId: q.breaker_id, lineId: q.line_id, type: q.type, active: q.active, offset, limit: pageSize });
    return reply.ok({ ...r, page, pageSize });
  });
}
