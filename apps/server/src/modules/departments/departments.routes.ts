import { departmentsApi } from '@faceadmin/shared';
import type { App } from '../../module.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { DepartmentsService } from './departments.service.ts';

export default async function departmentsRoutes(app: App, svc: DepartmentsService) {
  const tags = ['departments'];
  const view = { access: { right: 'person' as const, level: 1 } };
  const edit = { access: { right: 'person' as const, level: 2 } };
  app.get(departmentsApi.tree.path, { config: view, schema: routeSchema(departmentsApi.tree, { tags }) }, async (req, reply) =>
    reply.ok(await svc.tree(tenantOf(req))),
  );
  app.post(departmentsApi.create.path, { config: edit, schema: routeSchema(departmentsApi.create, { tags }) }, async (req, reply) =>
    reply.ok(await svc.create(tenantOf(req), req.body)),
  );
  app.post(departmentsApi.update.path, { config: edit, schema: routeSchema(departmentsApi.update, { tags }) }, async (req, reply) => {
    await svc.update(tenantOf(req), req.body);
    return reply.ok(null);
  });
  app.post(departmentsApi.delete.path, { config: edit, schema: routeSchema(departmentsApi.delete, { tags }) }, async (req, reply) => {
    await svc.remove(tenantOf(req), req.body.id);
    return reply.ok(null);
  });
}
