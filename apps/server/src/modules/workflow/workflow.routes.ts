import { DEFAULT_TIME_ZONE, LIMITS, workflowApi, XLSX_TYPE } from '@faceadmin/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageOf } from '../../lib/schemas.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import type { App } from '../../module.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { ApplicationsService, Caller } from './applications.service.ts';
import type { AppsService } from './apps.service.ts';
import type { SelfService } from './self.service.ts';
import type { WorkflowFiles } from './files.ts';
import { uploadOf } from '../../lib/multipart.ts';
import { saveUpload, sendFile } from './uploads.ts';
import type { WorkflowSheets } from './workflow.import.ts';

/** The console's approvals (spec §2 /workflow): right `workflow` = 1, and none of it in LAN mode (spec §6). */
export default async function workflowRoutes(
  app: App,
  deps: { apps: AppsService; applications: ApplicationsService; self: SelfService; sheets: WorkflowSheets; files: WorkflowFiles },
) {
  const { apps, applications, self, sheets, files } = deps;
  const tags = ['workflow'];
  const config = { access: { right: 'workflow' as const, level: 1 }, notLan: true };
  const admin = (req: FastifyRequest): Caller => ({ kind: 'admin', tenant: tenantOf(req), lang: req.lang });
  const zoneOf = (req: FastifyRequest) => tenantOf(req).timeZone ?? DEFAULT_TIME_ZONE;

  app.get(workflowApi.apps.path, { config, schema: routeSchema(workflowApi.apps, { tags }) }, async (req, reply) =>
    reply.ok(await apps.list(tenantOf(req), req.lang)),
  );
  app.get(workflowApi.app.path, { config, schema: routeSchema(workflowApi.app, { tags }) }, async (req, reply) =>
    reply.ok(await apps.get(tenantOf(req), req.lang, req.query.id)),
  );
  app.post(workflowApi.createApp.path, { config, schema: routeSchema(workflowApi.createApp, { tags }) }, async (req, reply) =>
    reply.ok(await apps.create(tenantOf(req), req.lang, req.body)),
  );
  app.post(workflowApi.updateApp.path, { config, schema: routeSchema(workflowApi.updateApp, { tags }) }, async (req, reply) =>
    reply.ok(await apps.update(tenantOf(req), req.lang, req.body)),
  );
  app.post(workflowApi.enableApp.path, { config, schema: routeSchema(workflowApi.enableApp, { tags }) }, async (req, reply) =>
    reply.ok(await apps.enable(tenantOf(req), req.lang, req.body.id, req.body.enabled)),
  );
  app.post(workflowApi.copyApp.path, { config, schema: routeSchema(workflowApi.copyApp, { tags }) }, async (req, reply) =>
    reply.ok(await apps.copy(tenantOf(req), req.lang, req.body.id, req.body.name)),
  );
  app.post(workflowApi.deleteApp.path, { config, schema: routeSchema(workflowApi.deleteApp, { tags }) }, async (req, reply) => {
    await apps.remove(tenantOf(req), req.lang, req.body.id);
    return reply.ok(null);
  });
  app.get(workflowApi.form.path, { config, schema: routeSchema(workflowApi.form, { tags }) }, async (req, reply) =>
    reply.ok(await apps.form(tenantOf(req), req.query.id, req.query.version)),
  );
  app.post(workflowApi.saveForm.path, { config, schema: routeSchema(workflowApi.saveForm, { tags }) }, async (req, reply) =>
    reply.ok(await apps.saveForm(tenantOf(req), req.lang, req.body.app_id, req.body.schema)),
  );
  app.get(workflowApi.process.path, { config, schema: routeSchema(workflowApi.process, { tags }) }, async (req, reply) =>
    reply.ok(await apps.process(tenantOf(req), req.query.id, req.query.version)),
  );
  app.post(workflowApi.saveProcess.path, { config, schema: routeSchema(workflowApi.saveProcess, { tags }) }, async (req, reply) =>
    reply.ok(await apps.saveProcess(tenantOf(req), req.lang, req.body.app_id, req.body.process)),
  );

  app.get(
    workflowApi.applications.path,
    { config: { ...config, apiScope: 'approvals:read' }, schema: routeSchema(workflowApi.applications, { tags }) },
    async (req, reply) => {
      const { page, pageSize, offset } = pageOf(req.query);
      const r = await applications.list(admin(req), zoneOf(req), req.query, offset, pageSize);
      return reply.ok({ ...r, page, pageSize });
    },
  );
  app.get(
    workflowApi.application.path,
    { config: { ...config, apiScope: 'approvals:read' }, schema: routeSchema(workflowApi.application, { tags }) },
    async (req, reply) => reply.ok(await applications.detail(admin(req), req.query.id)),
  );
  app.post(workflowApi.applyFor.path, { config, schema: routeSchema(workflowApi.applyFor, { tags }) }, async (req, reply) =>
    reply.ok(await applications.apply(admin(req), req.body.app_id, req.body.person_id, req.body.values)),
  );
  app.post(workflowApi.decide.path, { config, schema: routeSchema(workflowApi.decide, { tags }) }, async (req, reply) =>
    reply.ok(await applications.decide(admin(req), req.body)),
  );
  app.post(workflowApi.withdraw.path, { config, schema: routeSchema(workflowApi.withdraw, { tags }) }, async (req, reply) =>
    reply.ok(await applications.withdraw(admin(req), req.body.id, req.body.reason ?? '')),
  );
  app.post(workflowApi.export.path, { config, schema: routeSchema(workflowApi.export, { tags }) }, async (req, reply) =>
    sendXlsx(reply, 'approvals.xlsx', await sheets.export(tenantOf(req), req.lang, req.body ?? {})),
  );
  app.get(workflowApi.template.path, { config, schema: routeSchema(workflowApi.template, { tags }) }, async (req, reply) => {
    tenantOf(req);
    const buf = await sheets.template(req.lang);
    return (reply as FastifyReply).type(XLSX_TYPE).header('content-disposition', 'attachment; filename="approvals-template.xlsx"').send(buf);
  });
  app.post(workflowApi.import.path, { config, schema: routeSchema(workflowApi.import, { tags }) }, async (req, reply) => {
    const { data } = await uploadOf(req, LIMITS.importMaxBytes);
    return reply.ok(await sheets.importXlsx(tenantOf(req), req.lang, data));
  });
  app.post(workflowApi.upload.path, { config, schema: routeSchema(workflowApi.upload, { tags }) }, async (req, reply) =>
    reply.ok(await saveUpload(req, files, tenantOf(req).companyId, '/workflow/file')),
  );
  app.get(workflowApi.file.path, { config: { ...config, cookieAuth: true }, schema: routeSchema(workflowApi.file, { tags }) }, async (req, reply) =>
    sendFile(reply, files, tenantOf(req).companyId, req.params.name),
  );
  app.get(workflowApi.duration.path, { config, schema: routeSchema(workflowApi.duration, { tags }) }, async (req, reply) =>
    reply.ok(await applications.duration(tenantOf(req).companyId, req.query.person_id ?? null, req.query.from, req.query.to)),
  );
  app.post(workflowApi.link.path, { config, schema: routeSchema(workflowApi.link, { tags }) }, async (req, reply) =>
    reply.ok(await self.createLink(tenantOf(req), req.body.person_id)),
  );
  app.get(workflowApi.people.path, { config, schema: routeSchema(workflowApi.people, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await applications.pick(tenantOf(req).companyId, req.query, offset, pageSize, true);
    return reply.ok({ ...r, page, pageSize });
  });
  app.get(workflowApi.departments.path, { config, schema: routeSchema(workflowApi.departments, { tags }) }, async (req, reply) =>
    reply.ok(await applications.departments(tenantOf(req).companyId)),
  );
}
