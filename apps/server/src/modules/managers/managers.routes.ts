import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { IdBody, pageOf } from '../../lib/schemas.ts';
import { authOf, tenantOf } from '../../plugins/auth.ts';
import { responses } from '../../plugins/envelope.ts';
import {
  AdminRightData,
  ManagerCreate,
  ManagerListQuery,
  ManagerPage,
  ManagerSchema,
  ManagerUpdate,
  TransferBody,
  TransferSearchData,
  TransferSearchQuery,
} from './managers.schemas.ts';
import { managersService } from './managers.service.ts';

export default async function managersRoutes(app: App) {
  const svc = managersService({ database: app.database, config: app.config, sessions: app.services.sessions });
  const tags = ['managers'];
  const manage = { access: { right: 'manager' as const } };
  app.get('/manager/list', { config: manage, schema: { tags, querystring: ManagerListQuery, response: responses(ManagerPage) } }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await svc.list(tenantOf(req), { keyword: req.query.keyword?.trim() || undefined, status: req.query.status, offset, limit: pageSize });
    return reply.ok({ ...r, page, pageSize });
  });
  app.post('/manager/create', { config: manage, schema: { tags, body: ManagerCreate, response: responses(ManagerSchema) } }, async (req, reply) =>
    reply.ok(await svc.create(authOf(req), req.body)),
  );
  app.post('/manager/update', { config: manage, schema: { tags, body: ManagerUpdate, response: responses(ManagerSchema) } }, async (req, reply) =>
    reply.ok(await svc.update(authOf(req), req.body)),
  );
  app.post('/manager/delete', { config: manage, schema: { tags, body: IdBody, response: responses(Type.Null()) } }, async (req, reply) => {
    await svc.remove(authOf(req), req.body.id);
    return reply.ok(null);
  });
  app.get('/admin/get_adminright', { config: { access: 'company' }, schema: { tags, response: responses(AdminRightData) } }, async (req, reply) =>
    reply.ok(svc.adminRight(authOf(req))),
  );
  app.get(
    '/admin/transfer/search',
    { config: { access: 'init' }, schema: { tags, querystring: TransferSearchQuery, response: responses(TransferSearchData) } },
    async (req, reply) => reply.ok(await svc.transferSearch(tenantOf(req), req.query.keyword)),
  );
  app.post('/admin/transfer', { config: { access: 'init' }, schema: { tags, body: TransferBody, response: responses(Type.Null()) } }, async (req, reply) => {
    await svc.transfer(authOf(req), req.body.admin_id);
    return reply.ok(null);
  });
}
