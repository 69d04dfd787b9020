import type { App } from '../../app.ts';
import { IdBody, pageOf } from '../../lib/schemas.ts';
import { clock } from '../../lib/time.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { fileResponses, responses } from '../../plugins/envelope.ts';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { t } from '../../i18n/i18n.ts';
import {
  AddedData,
  AddPersonsBody,
  CommandBody,
  CommandResultData,
  CountData,
  DeviceCreate,
  DeviceListQuery,
  DevicePage,
  DeviceSchema,
  DeviceUpdate,
  LedgerPage,
  LedgerQuery,
  OptionsBody,
  PersonDevicesData,
  PersonIdsBody,
  QueuedData,
  SyncBody,
  SyncData,
  UnknownData,
} from './devices.schemas.ts';
import { Type } from 'typebox';

/** How long "open the door" waits for the terminal's answer before saying it is on its way. */
export const OPEN_WAIT_MS = 15_000;

export default async function devicesRoutes(app: App) {
  const svc = app.services.devices;
  const tags = ['devices'];
  const view = { access: { right: 'face' as const, level: 1 } };
  const edit = { access: { right: 'face' as const, level: 2 } };

  app.get('/device/list', { config: view, schema: { tags, querystring: DeviceListQuery, response: responses(DevicePage) } }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await svc.list(tenantOf(req), { keyword: req.query.keyword?.trim() || undefined, online: req.query.online, offset, limit: pageSize });
    return reply.ok({ ...r, page, pageSize });
  });
  app.get('/device/info', { config: view, schema: { tags, querystring: IdBody, response: responses(DeviceSchema) } }, async (req, reply) =>
    reply.ok(await svc.info(tenantOf(req), req.query.id)),
  );
  app.post('/device/create', { config: edit, schema: { tags, body: DeviceCreate, response: responses(DeviceSchema) } }, async (req, reply) =>
    reply.ok(await svc.create(tenantOf(req), req.body)),
  );
  app.post('/device/update', { config: edit, schema: { tags, body: DeviceUpdate, response: responses(DeviceSchema) } }, async (req, reply) =>
    reply.ok(await svc.update(tenantOf(req), req.body)),
  );
  app.post('/device/delete', { config: edit, schema: { tags, body: IdBody, response: responses(Type.Null()) } }, async (req, reply) => {
    await svc.remove(tenantOf(req), req.body.id);
    return reply.ok(null);
  });
  app.post('/device/options', { config: edit, schema: { tags, body: OptionsBody, response: responses(QueuedData) } }, async (req, reply) =>
    reply.ok(await svc.options(tenantOf(req), req.body.id, req.body.options, req.body.special)),
  );
  app.post('/device/open', { config: edit, schema: { tags, body: IdBody, response: responses(CommandResultData) } }, async (req, reply) =>
    reply.ok(await svc.open(tenantOf(req), req.lang, req.body.id, OPEN_WAIT_MS)),
  );
  app.post('/device/command', { config: edit, schema: { tags, body: CommandBody, response: responses(CommandResultData) } }, async (req, reply) =>
    reply.ok(await svc.command(tenantOf(req), req.lang, req.body.id, req.body.kind, req.body.from, req.body.to)),
  );
  app.get('/device/persons', { config: view, schema: { tags, querystring: LedgerQuery, response: responses(LedgerPage) } }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await svc.ledger(tenantOf(req), req.lang, {
      deviceId: req.query.id,
      keyword: req.query.keyword?.trim() || undefined,
      state: req.query.state,
      offset,
      limit: pageSize,
    });
    return reply.ok({ ...r, page, pageSize });
  });
  app.post('/device/persons/add', { config: edit, schema: { tags, body: AddPersonsBody, response: responses(AddedData) } }, async (req, reply) =>
    reply.ok(await svc.addPersons(tenantOf(req), req.body.id, req.body.person_ids ?? [], req.body.department_ids ?? [])),
  );
  app.post('/device/persons/remove', { config: edit, schema: { tags, body: PersonIdsBody, response: responses(CountData) } }, async (req, reply) =>
    reply.ok({ count: await svc.removePersons(tenantOf(req), req.body.id, req.body.person_ids ?? []) }),
  );
  app.post('/device/persons/retry', { config: edit, schema: { tags, body: PersonIdsBody, response: responses(CountData) } }, async (req, reply) =>
    reply.ok({ count: await svc.retry(tenantOf(req), req.body.id, req.body.person_ids) }),
  );
  // Sync failures (one device, or all) as a workbook, with the reasons in the reader's language.
  const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  app.post(
    '/device/failures/export',
    { config: view, schema: { tags, body: Type.Object({ id: Type.Optional(Type.Integer({ minimum: 1 })) }), response: fileResponses(xlsx) } },
    async (req, reply) => {
      const tenant = tenantOf(req);
      const rows = [];
      for (let offset = 0; ; offset += 1000) {
        const r = await svc.ledger(tenant, req.lang, { deviceId: req.body.id, state: 'failed', offset, limit: 1000 });
        rows.push(...r.items);
        if (r.items.length < 1000) break;
      }
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet(t(req.lang, 'device.failuresSheet'));
      const cols = ['device_id', 'number', 'name', 'code', 'reason', 'attempts', 'last_attempt_at'] as const;
      ws.addRow(cols.map((c) => t(req.lang, `fields.${c}`)));
      for (const r of rows)
        ws.addRow([r.device_name, r.number, r.name, r.code ?? '', r.reason, r.attempts, (r.last_attempt_at ?? '').replace('T', ' ').slice(0, 19)]);
      const buf = Buffer.from(await wb.xlsx.writeBuffer());
      return (reply as FastifyReply).type(xlsx).header('content-disposition', 'attachment; filename="sync-failures.xlsx"').send(buf);
    },
  );
  // Terminals that called in with a serial no company registered, during the last week (for the add dialog).
  app.get('/device/unknown', { config: edit, schema: { tags, response: responses(UnknownData) } }, async (_req, reply) =>
    reply.ok(await svc.unknown(new Date(clock.now() - 7 * 86400_000).toISOString())),
  );
  app.get(
    '/person/personSelectedDevice',
    { config: { access: { right: 'person', level: 1 } }, schema: { tags: ['people'], querystring: IdBody, response: responses(PersonDevicesData) } },
    async (req, reply) => reply.ok(await svc.personDevices(tenantOf(req), req.lang, req.query.id)),
  );
  app.post(
    '/person/sync',
    { config: { access: { right: 'person', level: 2 } }, schema: { tags: ['people'], body: SyncBody, response: responses(SyncData) } },
    async (req, reply) =>
      reply.ok(await svc.syncPeople(tenantOf(req), req.body.ids, req.body.skip_offline === undefined ? undefined : req.body.skip_offline === 1)),
  );
}
