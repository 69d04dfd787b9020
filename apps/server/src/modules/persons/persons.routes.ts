import type { FastifyReply } from 'fastify';
import type { App } from '../../module.ts';
import type { Database } from '../../db/database.ts';
import { LIMITS, personsApi, XLSX_TYPE } from '@faceadmin/shared';
import { badInput, invalid } from '../../lib/errors.ts';
import { pageOf } from '../../lib/schemas.ts';
import { uploadOf } from '../../lib/multipart.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import { t } from '../../i18n/i18n.ts';
import { authOf, tenantOf } from '../../plugins/auth.ts';
import type { AdminLinkService } from './admin-link.service.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { PHOTO_MAX_BYTES } from './photos.ts';
import { sendStored } from '../../lib/files/reply.ts';
import { exportPeople } from './persons.export.ts';
import type { ImportService } from './persons.import.ts';
import type { PersonsService } from './persons.service.ts';

export default async function personsRoutes(app: App, deps: { database: Database; persons: PersonsService; imports: ImportService; links: AdminLinkService }) {
  const { persons: svc, imports, links } = deps;
  const tags = ['people'];
  const view = { access: { right: 'person' as const, level: 1 } };
  const edit = { access: { right: 'person' as const, level: 2 } };
  // The department and people pickers (names and numbers only): an attendance administrator names the departments and
  // people a rule covers and filters results and reports by department (spec §3 attendance rule: persons and tags).
  const picker = { access: { anyOf: [{ right: 'person' as const, level: 1 }, { right: 'attendance' as const }] } };

  app.get(personsApi.list.path, { config: { ...view, apiScope: 'people:read' }, schema: routeSchema(personsApi.list, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await svc.list(tenantOf(req), req.query, offset, pageSize);
    return reply.ok({ ...r, page, pageSize });
  });
  app.get(personsApi.info.path, { config: { ...view, apiScope: 'people:read' }, schema: routeSchema(personsApi.info, { tags }) }, async (req, reply) =>
    reply.ok(await svc.get(tenantOf(req), req.query.id)),
  );
  app.get(personsApi.nextNumber.path, { config: edit, schema: routeSchema(personsApi.nextNumber, { tags }) }, async (req, reply) =>
    reply.ok({ number: await svc.nextNumber(tenantOf(req)) }),
  );
  app.post(personsApi.create.path, { config: { ...edit, apiScope: 'people:write' }, schema: routeSchema(personsApi.create, { tags }) }, async (req, reply) =>
    reply.ok(await svc.create(tenantOf(req), req.body)),
  );
  app.post(personsApi.update.path, { config: { ...edit, apiScope: 'people:write' }, schema: routeSchema(personsApi.update, { tags }) }, async (req, reply) =>
    reply.ok(await svc.update(tenantOf(req), req.body)),
  );
  app.post(personsApi.delete.path, { config: edit, schema: routeSchema(personsApi.delete, { tags }) }, async (req, reply) =>
    reply.ok({ count: await svc.remove(tenantOf(req), [req.body.id]) }),
  );
  app.post(personsApi.deleteMany.path, { config: edit, schema: routeSchema(personsApi.deleteMany, { tags }) }, async (req, reply) =>
    reply.ok({ count: await svc.remove(tenantOf(req), req.body.ids) }),
  );
  app.post(personsApi.erase.path, { config: edit, schema: routeSchema(personsApi.erase, { tags }) }, async (req, reply) =>
    reply.ok(await svc.erase(tenantOf(req), req.body.id, t(req.lang, 'values.erasedName', { id: req.body.id }))),
  );
  // spec §7: a person who is also an administrator account (one identity); linking is the main administrators'.
  const main = { access: 'main' as const };
  app.post(personsApi.bindAdmin.path, { config: main, schema: routeSchema(personsApi.bindAdmin, { tags }) }, async (req, reply) =>
    reply.ok(await links.bind(tenantOf(req), req.body.person_id, req.body.admin_id)),
  );
  app.post(personsApi.fetchAdmin.path, { config: main, schema: routeSchema(personsApi.fetchAdmin, { tags }) }, async (req, reply) =>
    reply.ok(await links.fetch(tenantOf(req), req.body?.person_id)),
  );
  app.post(personsApi.unbindAdmin.path, { config: { access: 'company' }, schema: routeSchema(personsApi.unbindAdmin, { tags }) }, async (req, reply) =>
    reply.ok({ count: await links.unbind(authOf(req), tenantOf(req), req.body.company_id, req.body.person_id) }),
  );
  app.post(personsApi.transfer.path, { config: edit, schema: routeSchema(personsApi.transfer, { tags }) }, async (req, reply) =>
    reply.ok({ count: await svc.transfer(tenantOf(req), req.body.ids, req.body.department_id, req.body.mode ?? 'move') }),
  );
  app.post(personsApi.departmentOptions.path, { config: picker, schema: routeSchema(personsApi.departmentOptions, { tags }) }, async (req, reply) =>
    reply.ok(await svc.orgOptions(tenantOf(req))),
  );
  app.post(personsApi.orgPersons.path, { config: picker, schema: routeSchema(personsApi.orgPersons, { tags }) }, async (req, reply) =>
    reply.ok(await svc.orgPersons(tenantOf(req), req.body?.keyword)),
  );

  // Face pictures: multipart upload (field "file"), normalised before anything is stored.
  app.post(personsApi.upload.path, { config: { ...edit, apiScope: 'people:write' }, schema: routeSchema(personsApi.upload, { tags }) }, async (req, reply) => {
    const tenant = tenantOf(req);
    if (!req.isMultipart()) throw invalid('file', 'reasons.required');
    const file = await req.file({ limits: { fileSize: PHOTO_MAX_BYTES, files: 1 } });
    if (!file) throw invalid('file', 'reasons.required');
    const data = await file.toBuffer().catch(() => null);
    if (!data || file.file.truncated) throw badInput('errors.photoTooLarge', 'pic', { mb: PHOTO_MAX_BYTES / 1024 / 1024 });
    return reply.ok(await svc.upload(tenant, data));
  });
  // Spreadsheets: template, import (≤ 2 MB xlsx, checked by content) and a zip of face pictures.
  app.get(personsApi.template.path, { config: edit, schema: routeSchema(personsApi.template, { tags }) }, async (req, reply) => {
    const buf = await imports.template(tenantOf(req), req.lang);
    return (reply as FastifyReply).type(XLSX_TYPE).header('content-disposition', 'attachment; filename="people-template.xlsx"').send(buf);
  });
  app.post(personsApi.import.path, { config: edit, schema: routeSchema(personsApi.import, { tags }) }, async (req, reply) => {
    const { data, fields } = await uploadOf(req, LIMITS.importMaxBytes);
    const report = await imports.importXlsx(tenantOf(req), req.lang, data, {
      strict: fields.strict === '1',
      createDepartments: fields.create_departments === '1',
    });
    return reply.ok(report);
  });
  app.post(personsApi.importPhotos.path, { config: edit, schema: routeSchema(personsApi.importPhotos, { tags }) }, async (req, reply) => {
    const { data } = await uploadOf(req, 200 * 1024 * 1024);
    return reply.ok(await imports.importPhotos(tenantOf(req), req.lang, data));
  });
  app.post(personsApi.export.path, { config: { ...view, apiScope: 'people:read' }, schema: routeSchema(personsApi.export, { tags }) }, async (req, reply) => {
    const base = `${req.protocol}://${req.host}`;
    const stream = await exportPeople(deps.database, tenantOf(req), req.lang, req.body ?? {}, base);
    return sendXlsx(reply, 'people.xlsx', stream);
  });

  app.get(
    personsApi.uploadedPhoto.path,
    { config: { ...view, cookieAuth: true }, schema: routeSchema(personsApi.uploadedPhoto, { tags }) },
    async (req, reply) =>
      sendStored(
        (reply as FastifyReply).header('cache-control', 'private, max-age=3600').type('image/jpeg'),
        await svc.uploadFile(tenantOf(req), req.params.name),
      ),
  );
  app.get(personsApi.photo.path, { config: { ...view, cookieAuth: true }, schema: routeSchema(personsApi.photo, { tags }) }, async (req, reply) =>
    sendStored((reply as FastifyReply).header('cache-control', 'private, max-age=86400').type('image/jpeg'), await svc.photoFile(tenantOf(req), req.params.id)),
  );
}
