import { managersApi } from '@faceadmin/shared';
import type { App } from '../../module.ts';
import { pageOf } from '../../lib/schemas.ts';
import { authOf, tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { ManagersService } from './managers.service.ts';

export default async function managersRoutes(app: App, svc: ManagersService) {
  const tags = ['managers'];
  const manage = { access: { right: 'manager' as const } };
  app.get(managersApi.list.path, { config: manage, schema: routeSchema(managersApi.list, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await svc.list(tenantOf(req), { keyword: req.query.keyword?.trim() || undefined, status: req.query.status, offset, limit: pageSize });
    return reply.ok({ ...r, page, pageSize });
  });
  app.post(managersApi.create.path, { config: manage, schema: routeSchema(managersApi.create, { tags }) }, async (req, reply) =>
    reply.ok(await svc.create(authOf(req), req.body)),
  );
  app.post(managersApi.update.path, { config: manage, schema: routeSchema(managersApi.update, { tags }) }, async (req, reply) =>
    reply.ok(await svc.update(authOf(req), req.body)),
  );
  app.post(managersApi.delete.path, { config: manage, schema: routeSchema(managersApi.delete, { tags }) }, async (req, reply) => {
    await svc.remove(authOf(req), req.body.id);
    return reply.ok(null);
  });
  app.get(managersApi.adminRight.path, { config: { access: 'company' }, schema: routeSchema(managersApi.adminRight, { tags }) }, async (req, reply) =>
    reply.ok(svc.adminRight(authOf(req))),
  );
  app.get(managersApi.transferSearch.path, { config: { access: 'init' }, schema: routeSchema(managersApi.transferSearch, { tags }) }, async (req, reply) =>
    reply.ok(await svc.transferSearch(tenantOf(req), req.query.keyword)),
  );
  app.post(managersApi.transfer.path, { config: { access: 'init' }, schema: routeSchema(managersApi.transfer, { tags }) }, async (req, reply) => {
    await svc.transfer(authOf(req), req.body.admin_id);
    return reply.ok(null);
  });
}
