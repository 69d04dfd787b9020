import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { IdBody } from '../../lib/schemas.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { responses } from '../../plugins/envelope.ts';
import { CreatedData, DepartmentCreate, DepartmentUpdate, TreeData } from './departments.schemas.ts';
import { departmentsService } from './departments.service.ts';

export default async function departmentsRoutes(app: App) {
  const svc = departmentsService(app.database);
  const tags = ['departments'];
  const view = { access: { right: 'person' as const, level: 1 } };
  const edit = { access: { right: 'person' as const, level: 2 } };
  app.get('/org/tree', { config: view, schema: { tags, response: responses(TreeData) } }, async (req, reply) => reply.ok(await svc.tree(tenantOf(req))));
  app.post('/org/create', { config: edit, schema: { tags, body: DepartmentCreate, response: responses(CreatedData) } }, async (req, reply) =>
    reply.ok(await svc.create(tenantOf(req), req.body)),
  );
  app.post('/org/update', { config: edit, schema: { tags, body: DepartmentUpdate, response: responses(Type.Null()) } }, async (req, reply) => {
    await svc.update(tenantOf(req), req.body);
    return reply.ok(null);
  });
  app.post('/org/delete', { config: edit, schema: { tags, body: IdBody, response: responses(Type.Null()) } }, async (req, reply) => {
    await svc.remove(tenantOf(req), req.body.id);
    return reply.ok(null);
  });
}
