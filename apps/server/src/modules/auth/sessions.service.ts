import type { Executor } from '../../db/database.ts';
import { newToken, sha256 } from '../../lib/crypto.ts';
import { clock, isoIn, nowIso } from '../../lib/time.ts';
import { endStreams } from '../live/publish.ts';
import { sessionsRepository } from './sessions.repository.ts';

/** How long a replaced token keeps working, so requests already in flight do not fail. */
const GRACE_MS = 60_000;

export type SessionCheck =
  { kind: 'ok'; sessionId: number; adminId: number; expiresAt: number; refreshToken?: string } | { kind: 'missing' } | { kind: 'expired' };

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

    /**
     * Resolves a token; past half its life a session is renewed (sliding) and the new token returned, unless `renew`
     * is false (an answer that cannot carry the new token).
     */
    async check(db: Executor, token: string, meta: { ip: string; userAgent: string; renew?: boolean }): Promise<SessionCheck> {
      const row = await sessionsRepository.findByHash(db, sha256(token));
      if (!row) return { kind: 'missing' };
      const now = clock.now();
      const expiresAt = Date.parse(row.expires_at);
      if (expiresAt <= now) {
        await sessionsRepository.deleteById(db, row.id);
        return { kind: 'expired' };
      }
      if (meta.renew !== false && now - Date.parse(row.created_at) > ttl / 2 && expiresAt - now > GRACE_MS) {
        const fresh = await this.open(db, row.admin_id, meta);
        const graceEnd = now + GRACE_MS;
        await sessionsRepository.expireAt(db, row.id, new Date(graceEnd).toISOString());
        // the old token's live streams end with its grace (the console reconnects with the new token before then)
        await endStreams(db, { admin: row.admin_id, session: row.id, until: graceEnd });
        return { kind: 'ok', sessionId: fresh.id, adminId: row.admin_id, expiresAt: now + ttl, refreshToken: fresh.token };
      }
      if (now - Date.parse(row.last_seen_at) > 60_000) await sessionsRepository.touch(db, row.id, nowIso());
      return { kind: 'ok', sessionId: row.id, adminId: row.admin_id, expiresAt };
    },
    /** Ends one session (sign-out) and its open live streams, on every instance, when the transaction commits. */
    async end(db: Executor, adminId: number, sessionId: number) {
      await sessionsRepository.deleteById(db, sessionId);
      await endStreams(db, { admin: adminId, session: sessionId });
    },
    /** Ends every session of an administrator but `exceptId`, and their open live streams. */
    async endAllFor(db: Executor, adminId: number, exceptId?: number) {
      await sessionsRepository.deleteForAdmin(db, adminId, exceptId);
      await endStreams(db, exceptId === undefined ? { admin: adminId } : { admin: adminId, except: exceptId });
    },
  };
}
export type SessionsService = ReturnType<typeof sessionsService>;
