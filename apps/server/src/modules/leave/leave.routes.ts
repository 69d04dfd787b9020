import { LIMITS, leaveApi } from '@faceadmin/shared';
import { sendXlsx } from '../../lib/xlsx.ts';
import type { App } from '../../module.ts';
import { personOf, tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { uploadOf } from '../../lib/multipart.ts';
import type { LeaveService } from './leave.service.ts';

/** Leave balances (#17 item 15): the attendance right; a person's own on the self-service page. */
export default async function leaveRoutes(app: App, deps: { leave: LeaveService }) {
  const { leave } = deps;
  const tags = ['attendance'];
  const config = { access: { right: 'attendance' as const } };
  app.get(leaveApi.list.path, { config, schema: routeSchema(leaveApi.list, { tags }) }, async (req, reply) =>
    reply.ok(await leave.list(tenantOf(req), req.lang, req.query)),
  );
  app.post(leaveApi.set.path, { config, schema: routeSchema(leaveApi.set, { tags }) }, async (req, reply) =>
    reply.ok(await leave.set(tenantOf(req), req.lang, req.body)),
  );
  app.post(leaveApi.import.path, { config, schema: routeSchema(leaveApi.import, { tags }) }, async (req, reply) => {
    const { data } = await uploadOf(req, LIMITS.importMaxBytes);
    return reply.ok(await leave.importXlsx(tenantOf(req), req.lang, data));
  });
  app.post(leaveApi.export.path, { config, schema: routeSchema(leaveApi.export, { tags }) }, async (req, reply) =>
    sendXlsx(reply, `leave-balances-${req.body.year}.xlsx`, await leave.exportXlsx(tenantOf(req), req.lang, req.body)),
  );
  app.get(leaveApi.policies.path, { config, schema: routeSchema(leaveApi.policies, { tags }) }, async (req, reply) =>
    reply.ok(await leave.policies(tenantOf(req).companyId, req.lang)),
  );
  app.post(leaveApi.savePolicy.path, { config, schema: routeSchema(leaveApi.savePolicy, { tags }) }, async (req, reply) =>
    reply.ok(await leave.savePolicy(tenantOf(req), req.lang, req.body)),
  );
  app.get(
    leaveApi.self.path,
    { config: { access: 'person' as const, notLan: true }, schema: routeSchema(leaveApi.self, { tags: ['self-service'] }) },
    async (req, reply) => {
      const p = personOf(req);
      return reply.ok(await leave.mine(p.companyId, p.personId, req.lang, req.query.year));
    },
  );
}
