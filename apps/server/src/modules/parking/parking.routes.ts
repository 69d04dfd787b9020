import { parkingApi } from '@faceadmin/shared';
import type { App } from '../../module.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { ParkingService } from './parking.service.ts';

/** spec §7 /dzg/*: check and register are public (the binding page), the rest the company's main administrators'. */
export default async function parkingRoutes(app: App, svc: ParkingService) {
  const tags = ['parking'];
  // Public routes that verify codes get the sign-in routes' tighter budget.
  const limited = { rateLimit: { max: 20, timeWindow: 60_000 } };
  app.post(parkingApi.check.path, { config: { access: 'public', ...limited }, schema: routeSchema(parkingApi.check, { tags }) }, async (req, reply) =>
    reply.ok(await svc.check(req.body.code)),
  );
  app.post(parkingApi.register.path, { config: { access: 'public', ...limited }, schema: routeSchema(parkingApi.register, { tags }) }, async (req, reply) =>
    reply.ok(await svc.register(req.body, { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') })),
  );
  app.post(parkingApi.bind.path, { config: { access: 'main' }, schema: routeSchema(parkingApi.bind, { tags }) }, async (req, reply) =>
    reply.ok(await svc.bind(tenantOf(req), req.body)),
  );
  app.get(parkingApi.bindings.path, { config: { access: 'main' }, schema: routeSchema(parkingApi.bindings, { tags }) }, async (req, reply) =>
    reply.ok(await svc.list(tenantOf(req))),
  );
  app.post(parkingApi.unbind.path, { config: { access: 'main' }, schema: routeSchema(parkingApi.unbind, { tags }) }, async (req, reply) => {
    await svc.unbind(tenantOf(req), req.body.id);
    return reply.ok(null);
  });
}
