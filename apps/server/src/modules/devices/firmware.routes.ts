import type { FastifyReply, FastifyRequest } from 'fastify';
import { FIRMWARE_LIMITS, firmwareApi } from '@faceadmin/shared';
import type { App } from '../../module.ts';
import { badInput, invalid } from '../../lib/errors.ts';
import { sendStored } from '../../lib/files/reply.ts';
import { tenantOf, type Tenant } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { FirmwareService } from './firmware.service.ts';

/**
 * The firmware of a multipart request: form fields name and version, then the file (field "file"), at most 64 MB,
 * streamed into the store as it comes (never whole in memory).
 */
async function firmwareUpload(req: FastifyRequest, svc: FirmwareService, tenant: Tenant) {
  if (!req.isMultipart()) throw invalid('file', 'reasons.required');
  const cap = FIRMWARE_LIMITS.maxBytes;
  const fields: Record<string, string> = {};
  let saved: Awaited<ReturnType<FirmwareService['upload']>> | undefined;
  const tooLarge = () => badInput('errors.fileTooLarge', 'file', { mb: cap / 1024 / 1024 });
  try {
    // one byte past the cap comes through, so the store sees the file is too large and keeps nothing
    for await (const part of req.parts({ limits: { fileSize: cap + 1, files: 1 } })) {
      if (part.type === 'file') {
        try {
          saved = await svc.upload(tenant, { name: fields.name ?? '', version: fields.version ?? '', data: part.file });
        } finally {
          // what the service did not read (a refused name) is drained, so the request ends
          part.file.resume();
        }
        if (part.file.truncated) throw tooLarge();
      } else fields[part.fieldname] = String(part.value);
    }
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw e;
  }
  if (!saved) throw invalid('file', 'reasons.required');
  return saved;
}

/** Firmware and log capture (issue #20): face-device view to read, edit to change. */
export default async function firmwareRoutes(app: App, svc: FirmwareService) {
  const tags = ['devices'];
  const view = { access: { right: 'face' as const, level: 1 } };
  const edit = { access: { right: 'face' as const, level: 2 } };
  const api = firmwareApi;

  app.get(api.list.path, { config: view, schema: routeSchema(api.list, { tags }) }, async (req, reply) => reply.ok(await svc.list(tenantOf(req))));
  app.post(api.upload.path, { config: edit, schema: routeSchema(api.upload, { tags }) }, async (req, reply) => {
    return reply.ok(await firmwareUpload(req, svc, tenantOf(req)));
  });
  app.post(api.delete.path, { config: edit, schema: routeSchema(api.delete, { tags }) }, async (req, reply) => {
    await svc.remove(tenantOf(req), req.body.id);
    return reply.ok(null);
  });
  app.post(api.upgrade.path, { config: edit, schema: routeSchema(api.upgrade, { tags }) }, async (req, reply) =>
    reply.ok(await svc.upgrade(tenantOf(req), req.lang, req.body.firmware_id, req.body.device_ids)),
  );
  app.get(api.upgrades.path, { config: view, schema: routeSchema(api.upgrades, { tags }) }, async (req, reply) =>
    reply.ok(await svc.upgrades(tenantOf(req), req.lang, { deviceId: req.query.device_id, firmwareId: req.query.firmware_id })),
  );
  app.post(api.captureLog.path, { config: edit, schema: routeSchema(api.captureLog, { tags }) }, async (req, reply) =>
    reply.ok(await svc.captureLog(tenantOf(req), req.lang, req.body.id)),
  );
  app.get(api.logs.path, { config: view, schema: routeSchema(api.logs, { tags }) }, async (req, reply) =>
    reply.ok(await svc.logs(tenantOf(req), req.lang, req.query.id)),
  );
  // A download link (an <a href>) sends the session cookie and no X-Token.
  app.get(api.logFile.path, { config: { ...view, cookieAuth: true }, schema: routeSchema(api.logFile, { tags }) }, async (req, reply) => {
    const { file, name } = await svc.logFile(tenantOf(req), req.params.id);
    return sendStored(
      (reply as FastifyReply)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `attachment; filename="${name}"`)
        .type('application/octet-stream'),
      file,
    );
  });
}
