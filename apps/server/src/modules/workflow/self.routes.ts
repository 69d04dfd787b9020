import { selfApi } from '@faceadmin/shared';
import type { FastifyRequest } from 'fastify';
import { pageOf } from '../../lib/schemas.ts';
import type { App } from '../../module.ts';
import { personOf, tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { ApplicationsService, Caller } from './applications.service.ts';
import type { WorkflowFiles } from './files.ts';
import type { SelfService } from './self.service.ts';
import { saveUpload, sendFile } from './uploads.ts';

/**
 * The self-service page's API (issue #11): people sign in with their phone and an SMS code, or a one-time link;
 * everything else needs their person session (X-Person-Token). Not in LAN mode, like the console's approvals.
 */
export default async function selfRoutes(app: App, deps: { applications: ApplicationsService; self: SelfService; files: WorkflowFiles }) {
  const { applications, self, files } = deps;
  const tags = ['self-service'];
  const open = { access: 'public' as const, notLan: true, rateLimit: { max: 20, timeWindow: 60_000 } };
  const config = { access: 'person' as const, notLan: true };
  const caller = (req: FastifyRequest): Caller => ({ kind: 'person', person: personOf(req), lang: req.lang });

  app.post(selfApi.sendCode.path, { config: open, schema: routeSchema(selfApi.sendCode, { tags }) }, async (req, reply) =>
    reply.ok(await self.sendCode(req.body)),
  );
  app.post(selfApi.login.path, { config: open, schema: routeSchema(selfApi.login, { tags }) }, async (req, reply) => reply.ok(await self.login(req.body)));
  app.post(selfApi.linkLogin.path, { config: open, schema: routeSchema(selfApi.linkLogin, { tags }) }, async (req, reply) =>
    reply.ok(await self.linkLogin(req.body.token)),
  );
  app.post(selfApi.fromAdmin.path, { config: { access: 'company', notLan: true }, schema: routeSchema(selfApi.fromAdmin, { tags }) }, async (req, reply) =>
    reply.ok(await self.fromAdmin(tenantOf(req))),
  );
  app.get(selfApi.info.path, { config, schema: routeSchema(selfApi.info, { tags }) }, async (req, reply) => {
    const p = personOf(req);
    const profile = await self.profile(p);
    return reply.ok({ ...profile, pending_tasks: await applications.openTaskCount(p, req.lang) });
  });
  app.post(selfApi.logout.path, { config, schema: routeSchema(selfApi.logout, { tags }) }, async (req, reply) => {
    await self.logout(personOf(req));
    return reply.ok(null);
  });
  app.get(selfApi.apps.path, { config, schema: routeSchema(selfApi.apps, { tags }) }, async (req, reply) =>
    reply.ok({ items: await applications.appsFor(personOf(req), req.lang) }),
  );
  app.get(selfApi.duration.path, { config, schema: routeSchema(selfApi.duration, { tags }) }, async (req, reply) => {
    const p = personOf(req);
    return reply.ok(await applications.duration(p.companyId, p.personId, req.query.from, req.query.to));
  });
  app.post(selfApi.apply.path, { config, schema: routeSchema(selfApi.apply, { tags }) }, async (req, reply) =>
    reply.ok(await applications.apply(caller(req), req.body.app_id, personOf(req).personId, req.body.values)),
  );
  app.get(selfApi.applications.path, { config, schema: routeSchema(selfApi.applications, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const p = personOf(req);
    const r = await applications.list(caller(req), p.timeZone, { status: req.query.status }, offset, pageSize, p.personId);
    return reply.ok({ ...r, page, pageSize });
  });
  app.get(selfApi.application.path, { config, schema: routeSchema(selfApi.application, { tags }) }, async (req, reply) =>
    reply.ok(await applications.detail(caller(req), req.query.id)),
  );
  app.post(selfApi.withdraw.path, { config, schema: routeSchema(selfApi.withdraw, { tags }) }, async (req, reply) =>
    reply.ok(await applications.withdraw(caller(req), req.body.id, req.body.reason ?? '')),
  );
  app.get(selfApi.tasks.path, { config, schema: routeSchema(selfApi.tasks, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await applications.tasks(personOf(req), req.lang, req.query.done === 1, offset, pageSize);
    return reply.ok({ ...r, page, pageSize });
  });
  app.post(selfApi.decide.path, { config, schema: routeSchema(selfApi.decide, { tags }) }, async (req, reply) =>
    reply.ok(await applications.decide(caller(req), req.body)),
  );
  app.get(selfApi.inbox.path, { config, schema: routeSchema(selfApi.inbox, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await self.inbox(personOf(req), req.lang, { unreadOnly: req.query.unread === 1, offset, limit: pageSize });
    return reply.ok({ ...r, page, pageSize });
  });
  app.post(selfApi.read.path, { config, schema: routeSchema(selfApi.read, { tags }) }, async (req, reply) =>
    reply.ok({ count: await self.read(personOf(req), req.body.all ? 'all' : (req.body.ids ?? [])) }),
  );
  app.post(selfApi.upload.path, { config, schema: routeSchema(selfApi.upload, { tags }) }, async (req, reply) =>
    reply.ok(await saveUpload(req, files, personOf(req).companyId, '/self/file')),
  );
  // Names are random (128 bits) and the company's own: a person reads the pictures of the forms they see.
  app.get(selfApi.file.path, { config, schema: routeSchema(selfApi.file, { tags }) }, async (req, reply) =>
    sendFile(reply, files, personOf(req).companyId, req.params.name),
  );
  app.get(selfApi.people.path, { config, schema: routeSchema(selfApi.people, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await applications.pick(personOf(req).companyId, req.query, offset, pageSize, false);
    return reply.ok({ ...r, page, pageSize });
  });
  app.get(selfApi.departments.path, { config, schema: routeSchema(selfApi.departments, { tags }) }, async (req, reply) =>
    reply.ok(await applications.departments(personOf(req).companyId)),
  );
}
