import { ALL_RIGHTS, DEFAULT_TIME_ZONE, NO_RIGHTS, type RightKey, type Rights } from '@faceadmin/shared';
import type { Database } from '../../db/database.ts';
import { parseJson } from '../../lib/json.ts';
import type { AuthContext, SessionLookup } from '../../plugins/auth.ts';
import { membershipsRepository } from '../managers/memberships.repository.ts';
import { adminsRepository, type AdminRow } from './admins.repository.ts';
import type { SessionsService } from './sessions.service.ts';

declare module '../../plugins/auth.ts' {
  // Routes and services see the whole administrator row behind a session (declaration merging: the
  // empty body is the point).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface SessionAdmin extends AdminRow {}
}

/** A membership's stored rights, with a main administrator holding all of them. */
export function grantedRights(m: { role: string; rights: string }): Partial<Rights> {
  return m.role === 'main' ? ALL_RIGHTS : { ...NO_RIGHTS, ...parseJson<Partial<Rights>>(m.rights, {}) };
}

export async function resolveContext(database: Database, admin: AdminRow, sessionId: number, ip: string): Promise<AuthContext> {
  const m = admin.current_company_id ? await membershipsRepository.findWithZone(database.db, admin.current_company_id, admin.id) : undefined;
  if (!m || m.status === 'disabled') {
    return { admin, sessionId, companyId: 0, role: null, isInit: false, rights: { is_admin: 0, ...NO_RIGHTS }, ip, timeZone: DEFAULT_TIME_ZONE };
  }
  const role = m.role === 'main' ? 'main' : 'sub';
  const granted = grantedRights(m);
  const rights: Rights = { is_admin: 1, ...NO_RIGHTS };
  for (const k of Object.keys(NO_RIGHTS) as RightKey[]) rights[k] = Number(granted[k] ?? 0) || 0;
  return { admin, sessionId, companyId: m.company_id, role, isInit: m.is_init === 1, rights, ip, timeZone: m.time_zone };
}

/** The session plugin's view of a token: the session, its administrator and their current membership. */
export function sessionLookup(database: Database, sessions: SessionsService): SessionLookup {
  return {
    async check(token, meta) {
      const s = await sessions.check(database.db, token, meta);
      if (s.kind !== 'ok') return s;
      const admin = await adminsRepository.findById(database.db, s.adminId);
      if (!admin) return { kind: 'missing' };
      const context = { ...(await resolveContext(database, admin, s.sessionId, meta.ip)), sessionExpiresAt: s.expiresAt };
      return s.refreshToken ? { kind: 'ok', context, refreshToken: s.refreshToken } : { kind: 'ok', context };
    },
  };
}
