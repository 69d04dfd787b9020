import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { authOf, tenantOf } from '../../plugins/auth.ts';
import { responses } from '../../plugins/envelope.ts';
import { CompanyInput, CompanyListData, CompanySchema, SetDefaultBody } from './companies.schemas.ts';
import { companiesService } from './companies.service.ts';

export default async function companiesRoutes(app: App) {
  const svc = companiesService(app.database);
  const tags = ['companies'];
  app.get('/company/list', { config: { access: 'session' }, schema: { tags, response: responses(CompanyListData) } }, async (req, reply) =>
    reply.ok(await svc.list(authOf(req))),
  );
  app.post('/company/create', { config: { access: 'session' }, schema: { tags, body: CompanyInput, response: responses(CompanySchema) } }, async (req, reply) =>
    reply.ok(await svc.create(authOf(req), req.body)),
  );
  app.get('/company/info', { config: { access: 'company' }, schema: { tags, response: responses(CompanySchema) } }, async (req, reply) =>
    reply.ok(await svc.info(tenantOf(req))),
  );
  app.post('/company/update', { config: { access: 'main' }, schema: { tags, body: CompanyInput, response: responses(CompanySchema) } }, async (req, reply) =>
    reply.ok(await svc.update(tenantOf(req), req.body)),
  );
  app.post(
    '/admin/setDefaultCompany',
    { config: { access: 'session' }, schema: { tags, body: SetDefaultBody, response: responses(Type.Null()) } },
    async (req, reply) => {
      await svc.setDefault(authOf(req), req.body.company_id);
      return reply.ok(null);
    },
  );
}
