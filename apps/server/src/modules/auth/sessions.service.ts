import type { Executor } from '../../db/database.ts';
import { newToken, sha256 } from '../../lib/crypto.ts';
import { clock, isoIn, nowIso } from '../../lib/time.ts';
import { sessionsRepository } from './sessions.repository.ts';

/** How long a replaced token keeps working, so requests already in flight do not fail. */
const GRACE_MS = 60_000;

export type SessionCheck = { kind: 'ok'; sessionId: number; adminId: number; refreshToken?: string } | { kind: 'missing' } | { kind: 'expired' };

export function sessionsService(ttlSeconds: number) {
  const ttl = ttlSeconds * 1000;
  return {
    async open(db: Executor, adminId: number, meta: { ip: string; userAgent: string }): Promise<{ token: string; id: number }> {
      const token = newToken();
      const id = await sessionsRepository.create(db, {
        token_hash: sha256(token),
        admin_id: adminId,
        created_at: nowIso(),
        expires_at: isoIn(ttl),
        ip: meta.ip,
        user_agent: meta.userAgent.slice(0, 200),
      });
      return { token, id };
    },

    /** Resolves a token; past half its life a session is renewed (sliding) and the new token returned. */
    async check(db: Executor, token: string, meta: { ip: string; userAgent: string }): Promise<SessionCheck> {
      const row = await sessionsRepository.findByHash(db, sha256(token));
      if (!row) return { kind: 'missing' };
      const now = clock.now();
      if (Date.parse(row.expires_at) <= now) {
        await sessionsRepository.deleteById(db, row.id);
        return { kind: 'expired' };
      }
      if (now - Date.parse(row.created_at) > ttl / 2 && Date.parse(row.expires_at) - now > GRACE_MS) {
        const fresh = await this.open(db, row.admin_id, meta);
        await sessionsRepository.expireAt(db, row.id, isoIn(GRACE_MS));
        return { kind: 'ok', sessionId: fresh.id, adminId: row.admin_id, refreshToken: fresh.token };
      }
      if (now - Date.parse(row.last_seen_at) > 60_000) await sessionsRepository.touch(db, row.id, nowIso());
      return { kind: 'ok', sessionId: row.id, adminId: row.admin_id };
    },
    end: (db: Executor, sessionId: number) => sessionsRepository.deleteById(db, sessionId),
    endAllFor: (db: Executor, adminId: number, exceptId?: number) => sessionsRepository.deleteForAdmin(db, adminId, exceptId),
  };
}
export type SessionsService = ReturnType<typeof sessionsService>;
