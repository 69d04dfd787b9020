import { devicesApi } from '@faceadmin/shared';
import type { App } from '../../module.ts';
import { pages, sendXlsx, xlsxStream } from '../../lib/xlsx.ts';
import type { DevicesService } from './devices.service.ts';
import { pageOf } from '../../lib/schemas.ts';
import { clock } from '../../lib/time.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { t } from '../../i18n/i18n.ts';

/** How long "open the door" waits for the terminal's answer before saying it is on its way. */
export const OPEN_WAIT_MS = 15_000;

export default async function devicesRoutes(app: App, svc: DevicesService) {
  const tags = ['devices'];
  const view = { access: { right: 'face' as const, level: 1 } };
  const edit = { access: { right: 'face' as const, level: 2 } };

  app.get(devicesApi.list.path, { config: view, schema: routeSchema(devicesApi.list, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await svc.list(tenantOf(req), { keyword: req.query.keyword?.trim() || undefined, online: req.query.online, offset, limit: pageSize }, req.lang);
    return reply.ok({ ...r, page, pageSize });
  });
  // The punch, health, alcohol and stranger lists filter by device: an attendance administrator reads the devices'
  // names (already shown on every record they see), never their addresses, serials or state (issue #28).
  const names = { access: { anyOf: [{ right: 'face' as const, level: 1 }, { right: 'attendance' as const }] } };
  app.get(devicesApi.names.path, { config: names, schema: routeSchema(devicesApi.names, { tags }) }, async (req, reply) =>
    reply.ok(await svc.names(tenantOf(req))),
  );
  app.get(devicesApi.info.path, { config: view, schema: routeSchema(devicesApi.info, { tags }) }, async (req, reply) =>
    reply.ok(await svc.info(tenantOf(req), req.query.id, req.lang)),
  );
  app.post(devicesApi.create.path, { config: edit, schema: routeSchema(devicesApi.create, { tags }) }, async (req, reply) =>
    reply.ok(await svc.create(tenantOf(req), req.body, req.lang)),
  );
  app.post(devicesApi.update.path, { config: edit, schema: routeSchema(devicesApi.update, { tags }) }, async (req, reply) =>
    reply.ok(await svc.update(tenantOf(req), req.body, req.lang)),
  );
  app.post(devicesApi.delete.path, { config: edit, schema: routeSchema(devicesApi.delete, { tags }) }, async (req, reply) => {
    await svc.remove(tenantOf(req), req.body.id);
    return reply.ok(null);
  });
  app.post(devicesApi.options.path, { config: edit, schema: routeSchema(devicesApi.options, { tags }) }, async (req, reply) =>
    reply.ok(await svc.options(tenantOf(req), req.body.id, req.body.options, req.body.special)),
  );
  app.post(devicesApi.open.path, { config: edit, schema: routeSchema(devicesApi.open, { tags }) }, async (req, reply) =>
    reply.ok(await svc.open(tenantOf(req), req.lang, req.body.id, req.body.wait === undefined ? OPEN_WAIT_MS : req.body.wait * 1000)),
  );
  app.get(devicesApi.commandResult.path, { config: edit, schema: routeSchema(devicesApi.commandResult, { tags }) }, async (req, reply) =>
    reply.ok(await svc.commandResult(tenantOf(req), req.lang, req.query.id, (req.query.wait ?? 0) * 1000)),
  );
  app.post(devicesApi.command.path, { config: edit, schema: routeSchema(devicesApi.command, { tags }) }, async (req, reply) =>
    reply.ok(await svc.command(tenantOf(req), req.lang, req.body.id, req.body.kind, req.body.from, req.body.to)),
  );
  app.get(devicesApi.ledger.path, { config: view, schema: routeSchema(devicesApi.ledger, { tags }) }, async (req, reply) => {
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
  app.post(devicesApi.addPersons.path, { config: edit, schema: routeSchema(devicesApi.addPersons, { tags }) }, async (req, reply) =>
    reply.ok(await svc.addPersons(tenantOf(req), req.body.id, req.body.person_ids ?? [], req.body.department_ids ?? [])),
  );
  app.post(devicesApi.removePersons.path, { config: edit, schema: routeSchema(devicesApi.removePersons, { tags }) }, async (req, reply) =>
    reply.ok({ count: await svc.removePersons(tenantOf(req), req.body.id, req.body.person_ids ?? []) }),
  );
  app.post(devicesApi.retryPersons.path, { config: edit, schema: routeSchema(devicesApi.retryPersons, { tags }) }, async (req, reply) =>
    reply.ok({ count: await svc.retry(tenantOf(req), req.body.id, req.body.person_ids) }),
  );
  // Sync failures (one device, or all) as a workbook, with the reasons in the reader's language.
  app.post(devicesApi.failuresExport.path, { config: view, schema: routeSchema(devicesApi.failuresExport, { tags }) }, async (req, reply) => {
    const tenant = tenantOf(req);
    const columns = ['device_id', 'number', 'name', 'code', 'reason', 'attempts', 'last_attempt_at'].map((c) => ({
      header: t(req.lang, `fields.${c}`),
      key: c,
    }));
    const rows = pages(async (offset, limit) =>
      (await svc.ledger(tenant, req.lang, { deviceId: req.body.id, state: 'failed', offset, limit })).items.map((r) => ({
        device_id: r.device_name,
        number: r.number,
        name: r.name,
        code: r.code ?? '',
        reason: r.reason,
        attempts: r.attempts,
        last_attempt_at: (r.last_attempt_at ?? '').replace('T', ' ').slice(0, 19),
      })),
    );
    return sendXlsx(reply, 'sync-failures.xlsx', await xlsxStream(t(req.lang, 'device.failuresSheet'), columns, rows));
  });
  // Terminals that called in with a serial no company registered, during the last week (for the add dialog).
  app.get(devicesApi.unknown.path, { config: edit, schema: routeSchema(devicesApi.unknown, { tags }) }, async (_req, reply) =>
    reply.ok(await svc.unknown(new Date(clock.now() - 7 * 86400_000).toISOString())),
  );
  app.get(
    devicesApi.personDevices.path,
    { config: { access: { right: 'person', level: 1 } }, schema: routeSchema(devicesApi.personDevices, { tags: ['people'] }) },
    async (req, reply) => reply.ok(await svc.personDevices(tenantOf(req), req.lang, req.query.id)),
  );
  app.post(
    devicesApi.syncPersons.path,
    { config: { access: { right: 'person', level: 2 } }, schema: routeSchema(devicesApi.syncPersons, { tags: ['people'] }) },
    async (req, reply) =>
      reply.ok(await svc.syncPeople(tenantOf(req), req.body.ids, req.body.skip_offline === undefined ? undefined : req.body.skip_offline === 1)),
  );
}
