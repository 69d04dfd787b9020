import { randomBytes } from 'node:crypto';
import {
  API_SCOPES,
  CODES,
  INTEGRATION_LIMITS,
  ALL_RIGHTS,
  type ApiKeyCreated,
  type ApiKeyInput,
  type ApiKeyItem,
  type ApiScope,
  type CompanyOptions,
  type Rights,
} from '@faceadmin/shared';
import type { Database } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import type { DeviceSecrets } from '../../lib/device-secret.ts';
import { AppError, badInput, invalid, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { clock, endOfDayIn, nowIso } from '../../lib/time.ts';
import type { ApiKeyLookup, AuthContext, SessionAdmin, Tenant } from '../../plugins/auth.ts';
import { audit } from '../logs/logs.service.ts';
import { keysRepository } from './integrations.repository.ts';
import { presentKey } from './integrations.presenter.ts';
import { dayIn, requireThirdParty } from './third-party.ts';

const KEY_PATTERN = /^(fa_[0-9a-f]{8})_[A-Za-z0-9_-]{43}$/;
const refused = (key: string, params: Record<string, string | number> = {}) => new AppError(CODES.NO_AUTHORITY, 403, key, params);

/**
 * API keys (issue #19): per company, scoped, expiring, revocable; the key is shown once and stored as a salted
 * HMAC under the server key (lib/device-secret.ts: a 256-bit key needs no slow hash, and every request checks one).
 */
export function keysService(database: Database, secrets: DeviceSecrets) {
  const { db } = database;
  return {
    async list(tenant: Tenant): Promise<{ items: ApiKeyItem[]; total: number }> {
      await requireThirdParty(db, tenant.companyId);
      const rows = await keysRepository.list(db, tenant.companyId);
      return { items: rows.map(presentKey), total: rows.length };
    },

    async create(tenant: Tenant, input: ApiKeyInput): Promise<ApiKeyCreated> {
      const { zone } = await requireThirdParty(db, tenant.companyId);
      const expires = input.expires_on ?? null;
      if (expires && expires < dayIn(zone, clock.now())) throw invalid('expires_on', 'reasons.notPast');
      return transaction(db, async (trx) => {
        if ((await keysRepository.count(trx, tenant.companyId)) >= INTEGRATION_LIMITS.keysPerCompany)
          throw badInput('errors.integrationLimit', undefined, { max: INTEGRATION_LIMITS.keysPerCompany });
        const prefix = `fa_${randomBytes(4).toString('hex')}`;
        const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
        const scopes = API_SCOPES.filter((s) => input.scopes.includes(s));
        const id = await keysRepository.insert(trx, tenant.companyId, {
          name: input.name.trim(),
          prefix,
          key_hash: secrets.hash(key),
          scopes: JSON.stringify(scopes),
          expires_on: expires,
          // an instant, fixed now: a later change of the company's zone does not move it (#28)
          expires_at: expires ? endOfDayIn(expires, zone) : null,
          created_by: tenant.adminName,
          created_at: nowIso(),
        });
        await audit(trx, tenant, 'integration', 'integration.key.create', { name: input.name.trim(), prefix, scopes: scopes.join(', ') });
        return { ...presentKey((await keysRepository.find(trx, tenant.companyId, id))!), key };
      });
    },

    async revoke(tenant: Tenant, id: number): Promise<ApiKeyItem> {
      await requireThirdParty(db, tenant.companyId);
      return transaction(db, async (trx) => {
        const row = await keysRepository.find(trx, tenant.companyId, id);
        if (!row) throw notFound();
        if (!row.revoked_at) {
          await keysRepository.revoke(trx, tenant.companyId, id, nowIso());
          await audit(trx, tenant, 'integration', 'integration.key.revoke', { name: row.name, prefix: row.prefix });
        }
        return presentKey((await keysRepository.find(trx, tenant.companyId, id))!);
      });
    },

    /** The auth plugin's view of an X-Api-Key: the context the key acts in, or the refusal. */
    lookup: {
      async check(key, meta): Promise<AuthContext> {
        const m = KEY_PATTERN.exec(key);
        const invalidKey = () => new AppError(CODES.ILLEGAL_TOKEN, 401, 'errors.apiKeyInvalid');
        if (!m) throw invalidKey();
        const row = await keysRepository.byPrefix(db, m[1]!);
        if (!row || (await secrets.verify(key, row.key_hash)).result !== 'ok') throw invalidKey();
        if (row.revoked_at) throw refused('errors.apiKeyRevoked', { name: row.name });
        const now = clock.now();
        if (row.expires_at && now >= Date.parse(row.expires_at)) throw refused('errors.apiKeyExpired', { name: row.name, date: row.expires_on ?? '' });
        const options = parseJson<Partial<CompanyOptions>>(row.company_options, {});
        if (!options.thirdParty) throw refused('errors.thirdPartyOff');
        const scopes = parseJson<ApiScope[]>(row.scopes, []);
        const held = meta.scopes.filter((x) => scopes.includes(x));
        if (!held.length) throw refused('errors.apiKeyScope', { name: row.name, scope: meta.scopes.join(' | ') });

        // The budget and the operation log: one counter row per key and minute ('*'), one per key, minute and route.
        const minuteMs = Math.floor(now / 60_000) * 60_000;
        const minute = new Date(minuteMs).toISOString();
        const tenant: Tenant = { companyId: row.company_id, adminId: 0, adminName: row.name, ip: meta.ip, timeZone: row.time_zone };
        const over = await transaction(db, async (trx) => {
          const total = await keysRepository.countUse(trx, row.id, minute, '*');
          if (total > INTEGRATION_LIMITS.keyPerMinute) return true;
          if ((await keysRepository.countUse(trx, row.id, minute, meta.route)) === 1) {
            // At most one log row per key, route and minute: a client polling a list would otherwise bury the log.
            await audit(trx, tenant, 'integration', 'integration.key.use', { key: row.name, route: meta.route });
            await keysRepository.touch(trx, row.id, new Date(now).toISOString());
          }
          return false;
        });
        if (over)
          throw new AppError(CODES.TOO_MANY, 429, 'errors.apiKeyThrottled', {
            name: row.name,
            max: INTEGRATION_LIMITS.keyPerMinute,
            seconds: Math.max(1, Math.ceil((minuteMs + 60_000 - now) / 1000)),
          });
        return { ...contextOf(row.id, row.name, row.company_id, row.time_zone, meta.ip), apiScopes: held };
      },
    } satisfies ApiKeyLookup,
  };
}
export type KeysService = ReturnType<typeof keysService>;

/** A key acts as a main administrator of its company named after the key, on the routes its scopes open. */
function contextOf(keyId: number, name: string, companyId: number, timeZone: string, ip: string): AuthContext {
  const rights: Rights = { is_admin: 1, ...ALL_RIGHTS };
  const admin = { id: 0, name, apiKeyId: keyId } as unknown as SessionAdmin;
  return { admin, sessionId: 0, companyId, role: 'main', isInit: false, rights, ip, timeZone };
}
