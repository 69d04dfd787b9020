import { readFile } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { LIMITS } from '@faceadmin/shared';
import { badInput, invalid } from '../../lib/errors.ts';
import { IdBody, pageOf } from '../../lib/schemas.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { fileResponses, responses } from '../../plugins/envelope.ts';
import { PHOTO_MAX_BYTES, photoStore } from './photos.ts';
import {
  CountData,
  ExportBody,
  ImportReportSchema,
  PhotoReportSchema,
  IdsBody,
  NextNumberData,
  OrgOptionsData,
  OrgPersonsBody,
  OrgPersonsData,
  PersonCreate,
  PersonListQuery,
  PersonPage,
  PersonSchema,
  PersonUpdate,
  TransferBody,
  UploadData,
} from './persons.schemas.ts';
import { exportPeople } from './persons.export.ts';
import { importService } from './persons.import.ts';
import { personsService } from './persons.service.ts';

export default async function personsRoutes(app: App) {
  const photos = photoStore(app.config.dataDir);
  const svc = personsService({ database: app.database, photos, sync: app.services.sync });
  const imports = importService({ database: app.database, photos, sync: app.services.sync });
  const tags = ['people'];
  const view = { access: { right: 'person' as const, level: 1 } };
  const edit = { access: { right: 'person' as const, level: 2 } };

  app.get('/person/list', { config: view, schema: { tags, querystring: PersonListQuery, response: responses(PersonPage) } }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await svc.list(tenantOf(req), req.query, offset, pageSize);
    return reply.ok({ ...r, page, pageSize });
  });
  app.get('/person/info', { config: view, schema: { tags, querystring: IdBody, response: responses(PersonSchema) } }, async (req, reply) =>
    reply.ok(await svc.get(tenantOf(req), req.query.id)),
  );
  app.get('/person/nextNumber', { config: edit, schema: { tags, response: responses(NextNumberData) } }, async (req, reply) =>
    reply.ok({ number: await svc.nextNumber(tenantOf(req)) }),
  );
  app.post('/person/create', { config: edit, schema: { tags, body: PersonCreate, response: responses(PersonSchema) } }, async (req, reply) =>
    reply.ok(await svc.create(tenantOf(req), req.body)),
  );
  app.post('/person/update', { config: edit, schema: { tags, body: PersonUpdate, response: responses(PersonSchema) } }, async (req, reply) =>
    reply.ok(await svc.update(tenantOf(req), req.body)),
  );
  app.post('/person/delete', { config: edit, schema: { tags, body: IdBody, response: responses(CountData) } }, async (req, reply) =>
    reply.ok({ count: await svc.remove(tenantOf(req), [req.body.id]) }),
  );
  app.post('/person/deletes', { config: edit, schema: { tags, body: IdsBody, response: responses(CountData) } }, async (req, reply) =>
    reply.ok({ count: await svc.remove(tenantOf(req), req.body.ids) }),
  );
  app.post('/person/transfer', { config: edit, schema: { tags, body: TransferBody, response: responses(CountData) } }, async (req, reply) =>
    reply.ok({ count: await svc.transfer(tenantOf(req), req.body.ids, req.body.department_id, req.body.mode ?? 'move') }),
  );
  app.post('/person/personOrgOptions', { config: view, schema: { tags, response: responses(OrgOptionsData) } }, async (req, reply) =>
    reply.ok(await svc.orgOptions(tenantOf(req))),
  );
  app.post(
    '/person/device_org_persons',
    { config: view, schema: { tags, body: Type.Optional(OrgPersonsBody), response: responses(OrgPersonsData) } },
    async (req, reply) => reply.ok(await svc.orgPersons(tenantOf(req), req.body?.keyword)),
  );

  // Face pictures: multipart upload (field "file"), normalised before anything is stored.
  app.post('/person/upload', { config: edit, schema: { tags, consumes: ['multipart/form-data'], response: responses(UploadData) } }, async (req, reply) => {
    const tenant = tenantOf(req);
    if (!req.isMultipart()) throw invalid('file', 'reasons.required');
    const file = await req.file({ limits: { fileSize: PHOTO_MAX_BYTES, files: 1 } });
    if (!file) throw invalid('file', 'reasons.required');
    const data = await file.toBuffer().catch(() => null);
    if (!data || file.file.truncated) throw badInput('errors.photoTooLarge', 'pic', { mb: PHOTO_MAX_BYTES / 1024 / 1024 });
    return reply.ok(await svc.upload(tenant, data));
  });
  // Spreadsheets: template, import (≤ 2 MB xlsx, checked by content) and a zip of face pictures.
  const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  const download = fileResponses(xlsx);
  app.get('/person/template', { config: edit, schema: { tags, response: download } }, async (req, reply) => {
    const buf = await imports.template(tenantOf(req), req.lang);
    return (reply as FastifyReply).type(xlsx).header('content-disposition', 'attachment; filename="people-template.xlsx"').send(buf);
  });
  async function upload(req: FastifyRequest, cap: number) {
    if (!req.isMultipart()) throw invalid('file', 'reasons.required');
    const fields: Record<string, string> = {};
    let data: Buffer | undefined;
    let truncated = false;
    const tooLarge = () => badInput('errors.fileTooLarge', 'file', { mb: Math.round(cap / 1024 / 1024) });
    try {
      for await (const part of req.parts({ limits: { fileSize: cap, files: 1 } })) {
        if (part.type === 'file') {
          data = await part.toBuffer();
          truncated = part.file.truncated;
        } else fields[part.fieldname] = String(part.value);
      }
    } catch (e) {
      if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      throw e;
    }
    if (!data) throw invalid('file', 'reasons.required');
    if (truncated) throw tooLarge();
    return { data, fields };
  }
  app.post(
    '/person/import',
    { config: edit, schema: { tags, consumes: ['multipart/form-data'], response: responses(ImportReportSchema) } },
    async (req, reply) => {
      const { data, fields } = await upload(req, LIMITS.importMaxBytes);
      const report = await imports.importXlsx(tenantOf(req), req.lang, data, {
        strict: fields.strict === '1',
        createDepartments: fields.create_departments === '1',
      });
      return reply.ok(report);
    },
  );
  app.post(
    '/person/xlsx2',
    { config: edit, schema: { tags, consumes: ['multipart/form-data'], response: responses(PhotoReportSchema) } },
    async (req, reply) => {
      const { data } = await upload(req, 200 * 1024 * 1024);
      return reply.ok(await imports.importPhotos(tenantOf(req), req.lang, data));
    },
  );
  app.post('/person/exportPerson', { config: view, schema: { tags, body: Type.Optional(ExportBody), response: download } }, async (req, reply) => {
    const base = `${req.protocol}://${req.host}`;
    const stream = exportPeople(app.database, tenantOf(req), req.lang, req.body ?? {}, base);
    return (reply as FastifyReply).type(xlsx).header('content-disposition', 'attachment; filename="people.xlsx"').send(stream);
  });

  const Name = Type.Object({ name: Type.String({ maxLength: 64 }) });
  const image = fileResponses('image/jpeg');
  app.get('/person/upload/:name', { config: { ...view, cookieAuth: true }, schema: { tags, params: Name, response: image } }, async (req, reply) =>
    (reply as FastifyReply)
      .header('cache-control', 'private, max-age=3600')
      .type('image/jpeg')
      .send(await readFile(svc.uploadFile(tenantOf(req), req.params.name))),
  );
  app.get('/person/pic/:id', { config: { ...view, cookieAuth: true }, schema: { tags, params: IdBody, response: image } }, async (req, reply) =>
    (reply as FastifyReply)
      .header('cache-control', 'private, max-age=86400')
      .type('image/jpeg')
      .send(await readFile(await svc.photoFile(tenantOf(req), req.params.id))),
  );
}
