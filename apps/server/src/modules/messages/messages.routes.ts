import type { App } from '../../app.ts';
import { pageOf } from '../../lib/schemas.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { responses } from '../../plugins/envelope.ts';
import { CountData, MessageListQuery, MessagePage, ReadBody } from './messages.schemas.ts';
import { messagesService } from './messages.service.ts';

export default async function messagesRoutes(app: App) {
  const { db } = app.database;
  const schema = { tags: ['messages'] };
  app.get(
    '/message/list',
    { config: { access: 'company' }, schema: { ...schema, querystring: MessageListQuery, response: responses(MessagePage) } },
    async (req, reply) => {
      const { page, pageSize, offset } = pageOf(req.query);
      const tn = tenantOf(req);
      const r = await messagesService.list(db, req.lang, tn.companyId, tn.adminId, { unreadOnly: req.query.unread === 1, offset, limit: pageSize });
      return reply.ok({ ...r, page, pageSize });
    },
  );
  app.get('/message/count', { config: { access: 'company' }, schema: { ...schema, response: responses(CountData) } }, async (req, reply) => {
    const tn = tenantOf(req);
    return reply.ok({ count: await messagesService.count(db, tn.companyId, tn.adminId) });
  });
  app.post('/message/read', { config: { access: 'company' }, schema: { ...schema, body: ReadBody, response: responses(CountData) } }, async (req, reply) => {
    const tn = tenantOf(req);
    const count = await messagesService.read(db, tn.companyId, tn.adminId, req.body.all ? 'all' : (req.body.ids ?? []));
    return reply.ok({ count });
  });
}
