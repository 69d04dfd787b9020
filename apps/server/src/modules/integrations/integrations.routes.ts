import { integrationsApi } from '@faceadmin/shared';
import { pageOf } from '../../lib/schemas.ts';
import type { App } from '../../module.ts';
import { authOf, tenantOf } from '../../plugins/auth.ts';
import { CHANGES_SCOPES, type ChangesService } from './changes.service.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { KeysService } from './keys.service.ts';
import type { WebhooksService } from './webhooks.service.ts';

/**
 * System → Integrations (issue #19): main administrators only (keys act as a main administrator would, within their
 * scopes, so only one may hand them out), and only while the company's option thirdParty is on (the services say so).
 */
export default async function integrationsRoutes(app: App, deps: { keys: KeysService; webhooks: WebhooksService; changes: ChangesService }) {
  const { keys, webhooks, changes } = deps;
  const tags = ['integrations'];
  const config = { access: 'main' as const };
  const api = integrationsApi;

  app.get(api.keys.path, { config, schema: routeSchema(api.keys, { tags }) }, async (req, reply) => reply.ok(await keys.list(tenantOf(req))));
  app.post(api.createKey.path, { config, schema: routeSchema(api.createKey, { tags }) }, async (req, reply) =>
    reply.ok(await keys.create(tenantOf(req), req.body)),
  );
  app.post(api.revokeKey.path, { config, schema: routeSchema(api.revokeKey, { tags }) }, async (req, reply) =>
    reply.ok(await keys.revoke(tenantOf(req), req.body.id)),
  );

  app.get(api.webhooks.path, { config, schema: routeSchema(api.webhooks, { tags }) }, async (req, reply) => reply.ok(await webhooks.list(tenantOf(req))));
  app.post(api.createWebhook.path, { config, schema: routeSchema(api.createWebhook, { tags }) }, async (req, reply) =>
    reply.ok(await webhooks.create(tenantOf(req), req.body)),
  );
  app.post(api.updateWebhook.path, { config, schema: routeSchema(api.updateWebhook, { tags }) }, async (req, reply) =>
    reply.ok(await webhooks.update(tenantOf(req), req.body)),
  );
  app.post(api.deleteWebhook.path, { config, schema: routeSchema(api.deleteWebhook, { tags }) }, async (req, reply) => {
    await webhooks.remove(tenantOf(req), req.body.id);
    return reply.ok(null);
  });
  app.post(api.rotateSecret.path, { config, schema: routeSchema(api.rotateSecret, { tags }) }, async (req, reply) =>
    reply.ok(await webhooks.rotate(tenantOf(req), req.body.id)),
  );
  app.post(api.resumeWebhook.path, { config, schema: routeSchema(api.resumeWebhook, { tags }) }, async (req, reply) =>
    reply.ok(await webhooks.resume(tenantOf(req), req.body.id)),
  );
  app.post(api.testWebhook.path, { config, schema: routeSchema(api.testWebhook, { tags }) }, async (req, reply) =>
    reply.ok(await webhooks.test(tenantOf(req), req.body.id)),
  );
  app.get(api.deliveries.path, { config, schema: routeSchema(api.deliveries, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    return reply.ok({ ...(await webhooks.deliveries(tenantOf(req), req.query, offset, pageSize)), page, pageSize });
  });
  // The changes feed: for a reconciling integrator (a key with any of the scopes it serves), or a main administrator.
  app.get(api.changes.path, { config: { ...config, apiScope: CHANGES_SCOPES }, schema: routeSchema(api.changes, { tags }) }, async (req, reply) =>
    reply.ok(await changes.page(tenantOf(req), authOf(req).apiScopes, req.query.cursor, req.query.limit)),
  );
  app.post(api.redeliver.path, { config, schema: routeSchema(api.redeliver, { tags }) }, async (req, reply) =>
    reply.ok(await webhooks.redeliver(tenantOf(req), req.body.id)),
  );
}
