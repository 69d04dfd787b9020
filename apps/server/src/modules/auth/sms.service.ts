import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/database.ts';
import { randomDigits, sha256 } from '../../lib/crypto.ts';
import { clock, isoIn, nowIso } from '../../lib/time.ts';

/** Where SMS codes go. Real gateways sit behind the webhook; development writes codes to the log. */
export interface SmsSender {
  send(phone: string, purpose: string, code: string): Promise<void>;
}

export function createSmsSender(config: Config, log: FastifyBaseLogger): SmsSender | null {
  if (config.smsSender === 'log') {
    return { send: async (phone, purpose, code) => log.warn({ phone, purpose, smsCode: code }, 'SMS code (development sender: SMS_SENDER=log)') };
  }
  if (config.smsSender === 'webhook') {
    const url = config.smsWebhookUrl!;
    return {
      async send(phone, purpose, code) {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ phone, purpose, code }),
          signal: AbortSignal.timeout(10_000),
        });
        if (!res.ok) throw new Error(`SMS webhook answered ${res.status}`);
      },
    };
  }
  return null;
}

const TTL_MS = 10 * 60_000;
export const SMS_COOLDOWN_S = 60;
const MAX_ATTEMPTS = 5;

export const smsCodes = {
  /** Seconds until another code may be sent to this phone for this purpose (0 = now). */
  async cooldown(db: Executor, phone: string, purpose: string): Promise<number> {
    const last = await db
      .selectFrom('sms_codes')
      .select('created_at')
      .where('phone', '=', phone)
      .where('purpose', '=', purpose)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    if (!last) return 0;
    const left = SMS_COOLDOWN_S * 1000 - (clock.now() - Date.parse(last.created_at));
    return left > 0 ? Math.ceil(left / 1000) : 0;
  },
  async issue(db: Executor, phone: string, purpose: string): Promise<string> {
    const code = randomDigits(6);
    await db.deleteFrom('sms_codes').where('expires_at', '<', nowIso()).execute();
    await db
      .insertInto('sms_codes')
      .values({ phone, purpose, code_hash: sha256(code), attempts: 0, expires_at: isoIn(TTL_MS), created_at: nowIso() })
      .execute();
    return code;
  },
  /**
   * Checks the newest code; five tries burn it. A correct code is consumed. Each try is counted before the code is
   * compared, in one statement, so tries made at once (on several instances) cannot share one count.
   */
  async verify(db: Executor, phone: string, purpose: string, code: string): Promise<boolean> {
    const row = await db
      .selectFrom('sms_codes')
      .select(['id', 'code_hash', 'expires_at'])
      .where('phone', '=', phone)
      .where('purpose', '=', purpose)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    if (!row || Date.parse(row.expires_at) <= clock.now()) return false;
    const counted = await db
      .updateTable('sms_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', row.id)
      .where('attempts', '<', MAX_ATTEMPTS)
      .returning('id')
      .executeTakeFirst();
    if (!counted || row.code_hash !== sha256(code.trim())) return false;
    // Consumed once: of two right answers at the same moment, one wins.
    const taken = await db.deleteFrom('sms_codes').where('id', '=', row.id).returning('id').executeTakeFirst();
    if (!taken) return false;
    await db.deleteFrom('sms_codes').where('phone', '=', phone).where('purpose', '=', purpose).execute();
    return true;
  },
};
