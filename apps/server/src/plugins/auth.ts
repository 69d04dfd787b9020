import { API_KEY_HEADER, CODES, type AdminRole, type ApiScope, type RightKey, type Rights, type RunMode } from '@faceadmin/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, noAuthority } from '../lib/errors.ts';

/**
 * What a route requires (habit 5: declared, checked before any data is read):
 * - 'public': nobody needs to be signed in
 * - 'session': a signed-in administrator, even with company 0 (spec §2)
 * - 'company': signed in with a current company
 * - 'main' / 'init': the main role / the initial administrator of the current company
 * - { right, level }: a sub-account right (spec §6); main accounts hold every right
 * - 'person': a signed-in person (employee) of the self-service page, with their own session (X-Person-Token);
 *   an administrator's token is no person session
 */
export type RightRule = { right: RightKey; level?: number };
/**
 * `anyOf`: one of the rights suffices (breaker reads: the breaker right or face-device view); `allOf`: each is needed
 * (a take-over creates people from a terminal: device edit and people edit).
 */
export type Access =
  'public' | 'session' | 'company' | 'main' | 'init' | 'person' | RightRule | { anyOf: readonly RightRule[] } | { allOf: readonly RightRule[] };

/**
 * The signed-in administrator. The auth module widens this interface with its row type (declaration
 * merging), so this plugin needs nothing from the module that stores administrators.
 */
export interface SessionAdmin {
  id: number;
  name: string;
}

export interface AuthContext {
  admin: SessionAdmin;
  sessionId: number;
  /** When the session expires (ms since the epoch); none for an API key. Open live streams end then (issue #28). */
  sessionExpiresAt?: number;
  /** 0 when the administrator has no (enabled) company yet */
  companyId: number;
  role: AdminRole | null;
  isInit: boolean;
  rights: Rights;
  ip: string;
  /** The current company's IANA time zone (the default zone while there is none). */
  timeZone: string;
  /** An API key's scopes among those its route names (undefined: an administrator's session) */
  apiScopes?: readonly ApiScope[];
}

/** The scope every tenant-owned repository call takes. */
export interface Tenant {
  companyId: number;
  /** The company's IANA zone, when the tenant comes from a session (dates a client sends are days in it). */
  timeZone?: string;
  adminId: number;
  adminName: string;
  ip: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * Also accept the console's Admin-Token cookie (GET only), for images an <img> tag loads and cannot
     * send X-Token with. Never on writes, so a cookie cannot be used for cross-site requests that change data.
     */
    cookieAuth?: boolean;
    /** spec §2/§6: the feature does not exist in LAN mode (workflow): refused there whoever calls. */
    notLan?: boolean;
    /**
     * The API-key scope this route serves (issue #19, docs/api-integrations.md): only routes that name one accept an
     * X-Api-Key, and only from a key holding that scope (any of them, when the route names several: the handler then
     * serves what the key's scopes open, `AuthContext.apiScopes`). Every other route refuses a key.
     */
    apiScope?: ApiScope | readonly ApiScope[];
    /**
     * false: this request never renews the session (the console's other calls do). For the live stream, whose answer
     * carries no envelope to bring a renewed token back, and for sign-out, which would end the new session and leave
     * the old token its grace.
     */
    renewSession?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    person: PersonContext | null;
  }
}

/** A signed-in person (employee) of the self-service page: one person of one company. */
export interface PersonContext {
  sessionId: number;
  personId: number;
  companyId: number;
  name: string;
  /** the company's IANA zone */
  timeZone: string;
  ip: string;
}
export type PersonSessionResult = { kind: 'ok'; context: PersonContext } | { kind: 'missing' } | { kind: 'expired' };
/** What a person token stands for; the workflow module provides it. */
export interface PersonSessionLookup {
  check(token: string, meta: { ip: string }): Promise<PersonSessionResult>;
}
/** The header the self-service page sends its person token in (never a cookie: no cross-site writes). */
export const PERSON_TOKEN_HEADER = 'x-person-token';

/** The signed-in person; routes declared 'person' always have one. */
export function personOf(req: FastifyRequest): PersonContext {
  if (!req.person) throw new AppError(CODES.ILLEGAL_TOKEN, 401, 'errors.illegalToken');
  return req.person;
}

/** The signed-in context; routes declared 'session' or stricter always have one. */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw new AppError(CODES.ILLEGAL_TOKEN, 401, 'errors.illegalToken');
  return req.auth;
}

export function tenantOf(req: FastifyRequest): Tenant {
  const a = authOf(req);
  if (!a.companyId) throw new AppError(CODES.NO_AUTHORITY, 403, 'errors.noCompany');
  return tenantFrom(a);
}

/** Who acts, for which company, from where: what services and the operation log need of a signed-in context. */
export function tenantFrom(ctx: AuthContext): Tenant {
  return { companyId: ctx.companyId, adminId: ctx.admin.id, adminName: ctx.admin.name, ip: ctx.ip, timeZone: ctx.timeZone };
}

/** The console keeps its session token in the Admin-Token cookie (spec §9). */
export function cookieToken(header: string | undefined): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [k, ...v] = part.trim().split('=');
    if (k === 'Admin-Token') return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/** What a token stands for; the auth module provides it (sessions, administrators, memberships). */
export type SessionResult = { kind: 'ok'; context: AuthContext; refreshToken?: string } | { kind: 'missing' } | { kind: 'expired' };
export interface SessionLookup {
  /** `renew: false`: answer the session as it is, never a renewed one (a request whose answer cannot carry the token). */
  check(token: string, meta: { ip: string; userAgent: string; renew?: boolean }): Promise<SessionResult>;
}

/**
 * What an API key stands for: the integrations module checks it (hash, revoked, expired, company option, scope,
 * per-minute budget, operation log) and answers the context it acts in, or throws the refusal.
 */
export interface ApiKeyLookup {
  /** `scopes`: the route's; the key needs one of them */
  check(key: string, meta: { scopes: readonly ApiScope[]; route: string; ip: string }): Promise<AuthContext>;
}

function allowed(ctx: AuthContext, access: Exclude<Access, 'public' | 'session' | 'person'>): void {
  if (!ctx.companyId) throw new AppError(CODES.NO_AUTHORITY, 403, 'errors.noCompany');
  if (access === 'company') return;
  if (access === 'main') {
    if (ctx.role !== 'main') throw noAuthority('errors.mainOnly');
    return;
  }
  if (access === 'init') {
    if (!ctx.isInit) throw noAuthority('errors.initOnly');
    return;
  }
  const holds = (r: RightRule) => ctx.rights[r.right] >= (r.level ?? 1);
  if ('allOf' in access ? !access.allOf.every(holds) : !('anyOf' in access ? access.anyOf : [access]).some(holds)) throw noAuthority();
}

export default fp(async function auth(
  app: FastifyInstance,
  opts: { sessions: SessionLookup; apiPrefix: string; persons?: PersonSessionLookup; runMode?: RunMode; keys?: ApiKeyLookup },
) {
  app.decorateRequest('auth', null);
  app.decorateRequest('person', null);
  const lan = () => noAuthority('errors.lanMode');
  // A route without a declared access rule is a programming error, caught at start-up, not in production.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(opts.apiPrefix) && !route.config?.access) throw new Error(`${route.method} ${route.url} declares no access rule`);
    // The OpenAPI document says which routes need no X-Token: the ones that check none.
    if (route.config?.access === 'public' && route.schema) route.schema = { ...route.schema, security: [] };
  });
  app.addHook('onRequest', async (req) => {
    const access = req.routeOptions.config?.access;
    const notLan = req.routeOptions.config?.notLan === true && opts.runMode === 'lan';
    if (!access || access === 'public') {
      if (notLan) throw lan();
      return;
    }
    if (access === 'person') {
      // No person signs in in LAN mode, so these answer "not in LAN mode" before asking for a token.
      if (notLan) throw lan();
      const raw = req.headers[PERSON_TOKEN_HEADER];
      const token = (Array.isArray(raw) ? raw[0] : raw)?.trim();
      if (!token || token.length > 200 || !opts.persons) throw new AppError(CODES.ILLEGAL_TOKEN, 401, 'errors.illegalToken');
      const s = await opts.persons.check(token, { ip: req.ip });
      if (s.kind === 'expired') throw new AppError(CODES.TOKEN_EXPIRED, 401, 'errors.tokenExpired');
      if (s.kind === 'missing') throw new AppError(CODES.ILLEGAL_TOKEN, 401, 'errors.illegalToken');
      req.person = s.context;
      return;
    }
    const rawKey = req.headers[API_KEY_HEADER];
    if (rawKey !== undefined) {
      const key = (Array.isArray(rawKey) ? rawKey[0] : rawKey)?.trim();
      if (!key || key.length > 200 || !opts.keys) throw new AppError(CODES.ILLEGAL_TOKEN, 401, 'errors.apiKeyInvalid');
      const scope = req.routeOptions.config?.apiScope;
      if (!scope) throw noAuthority('errors.apiKeyRoute');
      const scopes: readonly ApiScope[] = typeof scope === 'string' ? [scope] : scope;
      req.auth = await opts.keys.check(key, { scopes, route: `${req.method} ${req.routeOptions.url ?? req.url}`, ip: req.ip });
      if (access !== 'session') allowed(req.auth, access);
      if (notLan) throw lan();
      return;
    }
    const raw = req.headers['x-token'];
    let token = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (!token && req.routeOptions.config?.cookieAuth && req.method === 'GET') token = cookieToken(req.headers.cookie);
    if (!token || token.length > 200) throw new AppError(CODES.ILLEGAL_TOKEN, 401, 'errors.illegalToken');
    const meta = { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? ''), renew: req.routeOptions.config?.renewSession !== false };
    const s = await opts.sessions.check(token, meta);
    if (s.kind === 'expired') throw new AppError(CODES.TOKEN_EXPIRED, 401, 'errors.tokenExpired');
    if (s.kind === 'missing') throw new AppError(CODES.ILLEGAL_TOKEN, 401, 'errors.illegalToken');
    if (s.refreshToken) req.refreshToken = s.refreshToken;
    req.auth = s.context;
    if (access !== 'session') allowed(req.auth, access);
    if (notLan) throw lan();
  });
});
