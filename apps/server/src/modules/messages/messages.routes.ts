import { messagesApi } from '@faceadmin/shared';
import type { App, Core } from '../../module.ts';
import { pageOf } from '../../lib/schemas.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { messagesService } from './messages.service.ts';

export default async function messagesRoutes(app: App, deps: Pick<Core, 'database'>) {
  const { db } = deps.database;
  const tags = ['messages'];
  app.get(messagesApi.list.path, { config: { access: 'company' }, schema: routeSchema(messagesApi.list, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const tn = tenantOf(req);
    const r = await messagesService.list(db, req.lang, tn.companyId, tn.adminId, { unreadOnly: req.query.unread === 1, offset, limit: pageSize });
    return reply.ok({ ...r, page, pageSize });
  });
  app.get(messagesApi.count.path, { config: { access: 'company' }, schema: routeSchema(messagesApi.count, { tags }) }, async (req, reply) => {
    const tn = tenantOf(req);
    return reply.ok({ count: await messagesService.count(db, tn.companyId, tn.adminId) });
  });
  app.post(messagesApi.read.path, { config: { access: 'company' }, schema: routeSchema(messagesApi.read, { tags }) }, async (req, reply) => {
    const tn = tenantOf(req);
    const count = await messagesService.read(db, tn.companyId, tn.adminId, req.body.all ? 'all' : (req.body.ids ?? []));
    return reply.ok({ count });
  });
}
