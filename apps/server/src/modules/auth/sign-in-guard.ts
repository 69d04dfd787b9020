import { CODES } from '@faceadmin/shared';
import type { Executor } from '../../db/database.ts';
import { newToken, sha256 } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { judge, SIGN_IN, type Verdict } from '../../lib/throttle.ts';
import { clock, nowIso } from '../../lib/time.ts';
import { knownDevices, signInAttempts } from './sign-in.repository.ts';

/** The device cookie: HttpOnly, sent only to the sign-in route, never in an answer body or a log. */
export const DEVICE_COOKIE = 'fa_device';
/** A browser is remembered for at most this many administrators (the most recently used). */
const ACCOUNTS_PER_BROWSER = 10;
const DEVICE_MS = SIGN_IN.deviceDays * 86400_000;

/** The device token from a Cookie header, when it is one this server could have issued. */
export function readDeviceCookie(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === DEVICE_COOKIE) {
      const v = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(v) ? v : undefined;
    }
  }
  return undefined;
}

/** The Set-Cookie value for a device token (Secure when the console is served over HTTPS). */
export function deviceCookie(token: string, path: string, secure: boolean): string {
  const maxAge = Math.floor(DEVICE_MS / 1000);
  return `${DEVICE_COOKIE}=${token}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The envelope error of a refused attempt: which rule, and how long to wait (also in data.retry_after, seconds). */
export function refusal(v: Verdict & { refused: NonNullable<Verdict['refused']> }): AppError {
  const seconds = Math.ceil(v.refused.waitMs / 1000);
  const minutes = Math.ceil(v.refused.waitMs / 60_000);
  const data = { retry_after: seconds, captcha: v.captcha };
  if (v.refused.rule === 'delay') return new AppError(CODES.TOO_MANY, 429, 'errors.signInDelay', { seconds }, data);
  if (v.refused.rule === 'account') return new AppError(CODES.TOO_MANY, 429, 'errors.signInAccountCap', { minutes }, data);
  return new AppError(CODES.TOO_MANY, 429, 'errors.signInAddressCap', { minutes }, data);
}

/**
 * The sign-in rules over the stored attempts (docs/sign-in-protection.md). Attempts are stored rather than counted in
 * memory so that every instance on one PostgreSQL, and a restarted server, see the same counts.
 */
export function signInGuard(db: Executor) {
  const windowStart = () => new Date(clock.now() - SIGN_IN.windowMs).toISOString();
  return {
    /**
     * The known-device id when the cookie names this browser for this administrator, it was used within
     * SIGN_IN.deviceDays, and it has not failed SIGN_IN.deviceCap times this hour (then it is judged as unknown).
     */
    async knownDevice(cookie: string | undefined, adminId: number | undefined): Promise<number | null> {
      if (!cookie || adminId === undefined) return null;
      const d = await knownDevices.find(db, sha256(cookie), adminId, new Date(clock.now() - DEVICE_MS).toISOString());
      if (!d) return null;
      return (await signInAttempts.deviceFailures(db, d.id, windowStart())) < SIGN_IN.deviceCap ? d.id : null;
    },

    /**
     * Records the attempt before its password is checked (so parallel guesses count each other), then judges it
     * when it comes from an unknown browser. A refused attempt is removed again: it was never checked.
     */
    async admit(a: { account: string; address: string; deviceId: number | null }): Promise<{ id: number; verdict: Verdict | null }> {
      const id = await signInAttempts.record(db, { account: a.account, address: a.address, device_id: a.deviceId, at: nowIso() });
      if (a.deviceId !== null) return { id, verdict: null };
      const since = windowStart();
      const verdict = judge(
        a.account,
        await signInAttempts.byAccount(db, a.account, since, id),
        await signInAttempts.byAddress(db, a.address, since, id),
        clock.now(),
      );
      if (verdict.refused) await signInAttempts.drop(db, id);
      return { id, verdict };
    },

    /** Forgets an admitted attempt that was refused before its password was checked (e.g. a wrong captcha). */
    drop: (id: number) => signInAttempts.drop(db, id),

    succeeded: (id: number) => signInAttempts.succeeded(db, id),

    /**
     * Remembers this browser for the administrator and answers its new device token. The token is replaced on every
     * sign-in (the browser's other accounts move to it), so a cookie planted in someone's browser before they sign in
     * never becomes theirs.
     */
    async remember(trx: Executor, adminId: number, cookie: string | undefined): Promise<string> {
      const token = newToken();
      const hash = sha256(token);
      const now = nowIso();
      const known = cookie ? await knownDevices.admins(trx, sha256(cookie)) : [];
      if (known.length) await knownDevices.rename(trx, sha256(cookie!), hash);
      const mine = known.find((k) => k.admin_id === adminId);
      if (mine) await knownDevices.touch(trx, mine.id, now);
      else await knownDevices.insert(trx, { token_hash: hash, admin_id: adminId, created_at: now, last_used_at: now });
      const others = known.filter((k) => k !== mine);
      await knownDevices.delete(
        trx,
        others.slice(ACCOUNTS_PER_BROWSER - 1).map((k) => k.id),
      );
      return token;
    },

    /** Forgets an account's counted attempts (after a password reset by SMS code). */
    clearAccount: (trx: Executor, account: string) => signInAttempts.deleteForAccount(trx, account),

    /** After a password change or reset no browser is known any more for that administrator. */
    forgetDevices: (trx: Executor, adminId: number) => knownDevices.deleteForAdmin(trx, adminId),

    /** Hourly: attempts older than the window, devices unused for SIGN_IN.deviceDays. */
    async purge() {
      await signInAttempts.deleteBefore(db, windowStart());
      await knownDevices.deleteUnusedBefore(db, new Date(clock.now() - DEVICE_MS).toISOString());
    },
  };
}
export type SignInGuard = ReturnType<typeof signInGuard>;
