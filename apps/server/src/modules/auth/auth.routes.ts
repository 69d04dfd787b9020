import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { authOf } from '../../plugins/auth.ts';
import { responses } from '../../plugins/envelope.ts';
import { adminsRepository } from './admins.repository.ts';
import {
  CaptchaSchema,
  ChangePwdBody,
  ForgetBody,
  LoginBody,
  PublicConfigSchema,
  RegisterBody,
  SessionUserSchema,
  SmsBody,
  SmsData,
  TokenData,
} from './auth.schemas.ts';

export default async function authRoutes(app: App) {
  const { db } = app.database;
  const svc = app.services.auth;
  const tags = ['session'];
  const meta = (req: { ip: string; headers: Record<string, unknown> }) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });
  // Sign-in and code-sending routes get a tighter request budget than the rest of the API.
  const limited = { rateLimit: { max: 20, timeWindow: 60_000 } };

  app.get('/system/config', { config: { access: 'public' }, schema: { tags, response: responses(PublicConfigSchema) } }, async (_req, reply) =>
    reply.ok({
      runMode: app.config.runMode,
      registration: app.services.sms !== null,
      sms: app.services.sms !== null,
      needsSetup: (await adminsRepository.count(db)) === 0,
      title: app.config.title,
      version: app.appVersion,
    }),
  );
  app.get('/user/captcha', { config: { access: 'public', ...limited }, schema: { tags, response: responses(CaptchaSchema) } }, async (_req, reply) =>
    reply.ok(await app.services.captcha.create(db)),
  );
  app.post('/user/login', { config: { access: 'public' }, schema: { tags, body: LoginBody, response: responses(TokenData) } }, async (req, reply) =>
    reply.ok(await svc.login(req.body, meta(req))),
  );
  app.post(
    '/user/sendsmscode',
    { config: { access: 'public', ...limited }, schema: { tags, body: SmsBody, response: responses(SmsData) } },
    async (req, reply) => reply.ok(await svc.sendSmsCode(req.body)),
  );
  app.post(
    '/user/forget',
    { config: { access: 'public', ...limited }, schema: { tags, body: ForgetBody, response: responses(Type.Null()) } },
    async (req, reply) => {
      await svc.forget(req.body);
      return reply.ok(null);
    },
  );
  app.post(
    '/admin/register',
    { config: { access: 'public', ...limited }, schema: { tags, body: RegisterBody, response: responses(TokenData) } },
    async (req, reply) => reply.ok(await svc.register(req.body, meta(req))),
  );
  app.get('/user/info', { config: { access: 'session' }, schema: { tags, response: responses(SessionUserSchema) } }, async (req, reply) =>
    reply.ok(await svc.info(authOf(req))),
  );
  app.post('/user/logout', { config: { access: 'session' }, schema: { tags, response: responses(Type.Null()) } }, async (req, reply) => {
    await svc.logout(authOf(req));
    return reply.ok(null);
  });
  app.post('/user/changepwd', { config: { access: 'session' }, schema: { tags, body: ChangePwdBody, response: responses(TokenData) } }, async (req, reply) => {
    const r = await svc.changePassword(authOf(req), req.body, meta(req));
    req.refreshToken = r.token;
    return reply.ok(r);
  });
}
