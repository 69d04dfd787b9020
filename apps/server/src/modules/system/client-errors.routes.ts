import { CLIENT_ERROR_LIMITS, systemApi } from '@faceadmin/shared';
import { pageOf } from '../../lib/schemas.ts';
import type { App } from '../../module.ts';
import { tenantOf, type SessionLookup } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { clientErrorsService, Reporter } from './client-errors.service.ts';

const tags = ['system'];

export default async function clientErrorsRoutes(app: App, deps: { svc: ReturnType<typeof clientErrorsService>; sessions: SessionLookup }) {
  const { svc, sessions } = deps;

  // Any console reports, signed in or not (its sign-in page fails too): the session, when one is sent and valid,
  // only says which company the error belongs to. An invalid or expired token is not an error here.
  app.post(
    systemApi.reportClientError.path,
    { config: { access: 'public' }, bodyLimit: CLIENT_ERROR_LIMITS.bodyMax, schema: routeSchema(systemApi.reportClientError, { tags }) },
    async (req, reply) => {
      const who: Reporter = { companyId: 0, sessionId: null, ip: req.ip };
      const raw = req.headers['x-token'];
      const token = (Array.isArray(raw) ? raw[0] : raw)?.trim();
      const userAgent = String(req.headers['user-agent'] ?? '');
      if (token && token.length <= 200) {
        const s = await sessions.check(token, { ip: req.ip, userAgent });
        if (s.kind === 'ok') {
          who.companyId = s.context.companyId;
          who.sessionId = s.context.sessionId;
          if (s.refreshToken) req.refreshToken = s.refreshToken;
        }
      }
      return reply.ok(await svc.report(who, req.body, userAgent));
    },
  );

  // Main administrators only (like the diagnostics): errors are the server's, scoped to their company and the company-less ones.
  app.get(systemApi.clientErrors.path, { config: { access: 'main' }, schema: routeSchema(systemApi.clientErrors, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await svc.list(tenantOf(req).companyId, offset, pageSize);
    return reply.ok({ ...r, page, pageSize });
  });
  app.post(systemApi.deleteClientErrors.path, { config: { access: 'main' }, schema: routeSchema(systemApi.deleteClientErrors, { tags }) }, async (req, reply) =>
    reply.ok(await svc.remove(tenantOf(req), req.body)),
  );
}
