import { sendStored } from '../../lib/files/reply.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SITE_LIMITS, sitesApi } from '@faceadmin/shared';
import type { App } from '../../module.ts';
import { invalid } from '../../lib/errors.ts';
import { uploadOf } from '../../lib/multipart.ts';
import { tenantOf, type Access } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { SitesService } from './sites.service.ts';

/** Reads: face-device view or the breaker right (the map shows both); writes: face-device edit (issue #16). */
const VIEW: Access = { anyOf: [{ right: 'face', level: 1 }, { right: 'breaker' }] };
const EDIT: Access = { right: 'face', level: 2 };

/** The floor plan of a multipart request: form field site_id and the file (field "file"), at most 10 MB. */
async function planUpload(req: FastifyRequest): Promise<{ siteId: number; data: Buffer }> {
  let siteId = 0;
  const { data } = await uploadOf(req, SITE_LIMITS.imageMaxBytes, (fields) => {
    siteId = Number(fields.site_id);
    if (!/^[1-9][0-9]{0,9}$/.test(fields.site_id ?? '') || siteId > 2_147_483_647) throw invalid('site_id', 'reasons.required');
  });
  if (data.length === 0) throw invalid('file', 'reasons.required');
  return { siteId, data };
}

export default async function sitesRoutes(app: App, service: SitesService) {
  const tags = ['sites'];
  const view = { access: VIEW };
  const edit = { access: EDIT };
  const api = sitesApi;

  app.get(api.list.path, { config: view, schema: routeSchema(api.list, { tags }) }, async (req, reply) => reply.ok(await service.list(tenantOf(req))));
  app.get(api.info.path, { config: view, schema: routeSchema(api.info, { tags }) }, async (req, reply) =>
    reply.ok(await service.info(tenantOf(req), req.query.id)),
  );
  app.post(api.create.path, { config: edit, schema: routeSchema(api.create, { tags }) }, async (req, reply) =>
    reply.ok(await service.create(tenantOf(req), req.body)),
  );
  app.post(api.update.path, { config: edit, schema: routeSchema(api.update, { tags }) }, async (req, reply) =>
    reply.ok(await service.update(tenantOf(req), req.body)),
  );
  app.post(api.delete.path, { config: edit, schema: routeSchema(api.delete, { tags }) }, async (req, reply) => {
    await service.delete(tenantOf(req), req.body.id);
    return reply.ok(null);
  });
  app.post(api.image.path, { config: edit, schema: routeSchema(api.image, { tags }) }, async (req, reply) => {
    const tenant = tenantOf(req);
    const { siteId, data } = await planUpload(req);
    return reply.ok(await service.image(tenant, siteId, data));
  });
  // Read by the map's <img> too, which sends the session cookie and no X-Token.
  app.get(api.imageFile.path, { config: { ...view, cookieAuth: true }, schema: routeSchema(api.imageFile, { tags }) }, async (req, reply) => {
    const file = await service.imageFile(tenantOf(req), req.params.id);
    return sendStored(
      (reply as FastifyReply).header('x-content-type-options', 'nosniff').header('cache-control', 'private, max-age=86400').type(file.mime),
      file,
    );
  });
  app.post(api.place.path, { config: edit, schema: routeSchema(api.place, { tags }) }, async (req, reply) =>
    reply.ok(await service.place(tenantOf(req), req.body)),
  );
  app.post(api.unplace.path, { config: edit, schema: routeSchema(api.unplace, { tags }) }, async (req, reply) => {
    await service.unplace(tenantOf(req), req.body);
    return reply.ok(null);
  });
}
