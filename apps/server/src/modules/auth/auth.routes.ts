import { API_PREFIX, authApi } from '@faceadmin/shared';
import type { App, Core } from '../../module.ts';
import type { AuthService } from './auth.service.ts';
import type { CaptchaService } from './captcha.service.ts';
import type { SmsSender } from './sms.service.ts';
import { authOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { adminsRepository } from './admins.repository.ts';
import { deviceCookie, readDeviceCookie } from './sign-in-guard.ts';

export interface AuthRoutesDeps extends Core {
  auth: AuthService;
  captcha: CaptchaService;
  sms: SmsSender | null;
}

export default async function authRoutes(app: App, deps: AuthRoutesDeps) {
  const { db } = deps.database;
  const svc = deps.auth;
  const tags = ['session'];
  const meta = (req: { ip: string; headers: Record<string, unknown> }) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });
  // Sign-in and code-sending routes get a tighter request budget than the rest of the API.
  const limited = { rateLimit: { max: 20, timeWindow: 60_000 } };
  // The SMS routes (codes, registration, reset by code) are gone in LAN mode (no SMS without the internet).
  const sms = { ...limited, notLan: true };

  app.get(authApi.config.path, { config: { access: 'public' }, schema: routeSchema(authApi.config, { tags }) }, async (_req, reply) =>
    reply.ok({
      runMode: deps.config.runMode,
      registration: deps.sms !== null,
      sms: deps.sms !== null,
      needsSetup: (await adminsRepository.count(db)) === 0,
      title: deps.config.title,
      version: deps.version,
    }),
  );
  app.get(authApi.captcha.path, { config: { access: 'public', ...limited }, schema: routeSchema(authApi.captcha, { tags }) }, async (_req, reply) =>
    reply.ok(await deps.captcha.create(db)),
  );
  // The device cookie goes only to this route (its path), so no other request carries it.
  const loginPath = `${API_PREFIX}${authApi.login.path}`;
  app.post(authApi.login.path, { config: { access: 'public' }, schema: routeSchema(authApi.login, { tags }) }, async (req, reply) => {
    const r = await svc.login(req.body, { ...meta(req), device: readDeviceCookie(req.headers.cookie) });
    reply.header('set-cookie', deviceCookie(r.device, loginPath, req.protocol === 'https'));
    return reply.ok({ token: r.token });
  });
  app.post(authApi.sendSmsCode.path, { config: { access: 'public', ...sms }, schema: routeSchema(authApi.sendSmsCode, { tags }) }, async (req, reply) =>
    reply.ok(await svc.sendSmsCode(req.body)),
  );
  app.post(authApi.forget.path, { config: { access: 'public', ...sms }, schema: routeSchema(authApi.forget, { tags }) }, async (req, reply) => {
    await svc.forget(req.body);
    return reply.ok(null);
  });
  app.post(authApi.register.path, { config: { access: 'public', ...sms }, schema: routeSchema(authApi.register, { tags }) }, async (req, reply) =>
    reply.ok(await svc.register(req.body, meta(req))),
  );
  app.get(authApi.info.path, { config: { access: 'session' }, schema: routeSchema(authApi.info, { tags }) }, async (req, reply) =>
    reply.ok(await svc.info(authOf(req))),
  );
  // Not renewed on the way out: the token's own session (and its live streams) ends, not a fresh one.
  app.post(authApi.logout.path, { config: { access: 'session', renewSession: false }, schema: routeSchema(authApi.logout, { tags }) }, async (req, reply) => {
    await svc.logout(authOf(req));
    return reply.ok(null);
  });
  app.post(authApi.changePassword.path, { config: { access: 'session' }, schema: routeSchema(authApi.changePassword, { tags }) }, async (req, reply) => {
    const r = await svc.changePassword(authOf(req), req.body, meta(req));
    req.refreshToken = r.token;
    return reply.ok(r);
  });
}
