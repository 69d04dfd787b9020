import { WORK_STATUS, type DzgBindBody, type DzgCheck, type DzgRegisterBody, type ParkingBinding, type ParkingBindings } from '@faceadmin/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { badInput, invalid, notFound } from '../../lib/errors.ts';
import type { OutboundPost } from '../../lib/outbound.ts';
import { clock, isoIn, nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { loadOptions } from '../companies/companies.options.ts';
import { companiesRepository } from '../companies/companies.repository.ts';
import { audit } from '../logs/logs.service.ts';
import type { PeopleChange } from '../persons/people-changed.ts';
import { personsRepository } from '../persons/persons.repository.ts';
import { MAX_CODE_LIFETIME_S, pushHeaders, readParkingCode, signatureValid, type ParkingCodePayload } from './parking.code.ts';
import { parkingRepository, type ParkingBindingRow } from './parking.repository.ts';

/** Outbox rows one push carries at most (the rest go in the next run). */
const PUSH_BATCH = 1000;
/** A push answered neither way within this time counts as failed (and is retried). */
export const PUSH_TIMEOUT_MS = 10_000;
/** Retry delays double from 10 s up to an hour while the operator fails. */
export const pushBackoffMs = (attempts: number) => Math.min(3600_000, 10_000 * 2 ** Math.max(0, attempts - 1));

export const presentBinding = (r: ParkingBindingRow): ParkingBinding => ({
  id: r.id,
  dzg_id: r.dzg_id,
  lot_name: r.lot_name,
  bound_by: r.bound_by_name ?? '',
  created_at: r.created_at,
});

/** What the operator receives for one person (docs/api-parking.md). */
export interface PushedPerson {
  number: string;
  name: string;
  phone: string;
  plates: string[];
}

/**
 * Parking-lot binding (spec §2 /dzg, §7): verifies the operator's signed codes, binds and unbinds its accounts,
 * and pushes the company's people to the operator URL after they change (outbox + job, never in the write).
 */
export function parkingService(deps: {
  database: Database;
  auth: AuthService;
  log?: FastifyBaseLogger;
  /** the outbound guard's POST (config.outbound): the operator URL is checked at every push */
  post: OutboundPost;
}) {
  const { db } = deps.database;

  /**
   * A code is valid when its company has parking on with a secret that signed it, it has not expired, and its
   * nonce was not used. Every failure but "expired" and "used" answers the same, so a probe learns nothing.
   */
  async function verify(ex: Executor, code: string): Promise<{ payload: ParkingCodePayload; companyName: string }> {
    const payload = readParkingCode(code);
    const refused = () => badInput('errors.parkingCodeInvalid', 'code');
    if (!payload) throw refused();
    const company = await companiesRepository.find(ex, payload.company_id);
    if (!company) throw refused();
    const { parking } = await loadOptions(ex, company.id);
    if (!parking.enabled || !parking.key || !signatureValid(code, parking.key)) throw refused();
    const nowS = Math.floor(clock.now() / 1000);
    if (payload.exp - nowS > MAX_CODE_LIFETIME_S) throw refused();
    if (payload.exp <= nowS) throw badInput('errors.parkingCodeExpired', 'code');
    if (await parkingRepository.nonceUsed(ex, company.id, payload.nonce)) throw badInput('errors.parkingCodeUsed', 'code');
    return { payload, companyName: company.name };
  }

  async function enqueueAll(trx: Executor, companyId: number) {
    await parkingRepository.enqueue(trx, companyId, [{ person_id: null, number: '', kind: 'all' }], nowIso());
  }

  async function pushCompany(companyId: number): Promise<'sent' | 'failed' | 'dropped'> {
    const options = await loadOptions(db, companyId);
    const bindings = await parkingRepository.bindings(db, companyId);
    const { enabled, url, key } = options.parking;
    if (!enabled || !url || !key || !bindings.length) {
      // Nobody to tell: the next binding sends the whole roster anyway.
      await parkingRepository.dropOutbox(db, companyId);
      return 'dropped';
    }
    const rows = await parkingRepository.outbox(db, companyId, PUSH_BATCH);
    if (!rows.length) return 'dropped';
    const full = rows.some((r) => r.kind === 'all');
    const people: PushedPerson[] = [];
    const removed = new Set<string>();
    const toPerson = (p: { number: string; name: string; phone: string; plates: string }): PushedPerson => ({
      number: p.number,
      name: p.name,
      phone: p.phone,
      plates: p.plates ? p.plates.split(',') : [],
    });
    if (full) {
      for await (const batch of personsRepository.iterate(db, companyId, { workStatus: WORK_STATUS.working })) people.push(...batch.map(toPerson));
    } else {
      const ids = [...new Set(rows.filter((r) => r.kind === 'saved' && r.person_id !== null).map((r) => r.person_id!))];
      for (const p of await personsRepository.findMany(db, companyId, ids)) {
        // spec §4: people who have left are treated like the deleted: the operator removes them
        if (p.work_status === WORK_STATUS.working) people.push(toPerson(p));
        else removed.add(p.number);
      }
      for (const r of rows) if (r.kind === 'deleted' && r.number) removed.add(r.number);
    }
    const body = JSON.stringify({
      event: 'people.sync',
      company_id: companyId,
      dzg_ids: bindings.map((b) => b.dzg_id),
      full,
      people,
      removed: [...removed],
      sent_at: nowIso(),
    });
    const state = await parkingRepository.pushState(db, companyId);
    let error = '';
    try {
      const res = await deps.post(url, {
        headers: pushHeaders(key, body, Math.floor(clock.now() / 1000)),
        body,
        signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
        excerptMax: 0,
      });
      if (res.status < 200 || res.status > 299) error = `HTTP ${res.status}`;
    } catch (e) {
      // a refused address says why ("refused: … is a loopback address"); nothing was sent
      error = e instanceof Error ? e.message.slice(0, 200) : 'failed';
    }
    await transaction(db, async (trx) => {
      if (!error) {
        await parkingRepository.clearOutbox(trx, companyId, rows.at(-1)!.id);
        await parkingRepository.savePushState(trx, companyId, { attempts: 0, next_attempt_at: null, last_error: '', last_pushed_at: nowIso() });
      } else {
        const attempts = (state?.attempts ?? 0) + 1;
        await parkingRepository.savePushState(trx, companyId, { attempts, next_attempt_at: isoIn(pushBackoffMs(attempts)), last_error: error });
      }
    });
    // never the URL's query or the secret: only that it failed and why
    if (error) deps.log?.warn({ companyId, error }, 'parking push failed');
    return error ? 'failed' : 'sent';
  }

  return {
    async check(code: string): Promise<DzgCheck> {
      const { payload, companyName } = await verify(db, code);
      return {
        dzg_id: payload.dzg_id,
        lot_name: payload.lot_name ?? '',
        company: { id: payload.company_id, name: companyName },
        expires_at: new Date(payload.exp * 1000).toISOString(),
        bound: Boolean(await parkingRepository.findByDzg(db, payload.company_id, payload.dzg_id)),
      };
    },

    /**
     * Binds the code's operator account to the signed-in main administrator's current company; the code is used
     * up. A code for another company is refused (the page switches company first when the administrator has it).
     */
    async bind(tenant: Tenant, input: DzgBindBody): Promise<ParkingBinding> {
      return transaction(db, async (trx) => {
        const { payload, companyName } = await verify(trx, input.code);
        if (input.dzg_id !== payload.dzg_id) throw invalid('dzg_id');
        if (payload.company_id !== tenant.companyId) throw badInput('errors.parkingOtherCompany', 'code', { company: companyName });
        const expires = new Date(payload.exp * 1000).toISOString();
        if (!(await parkingRepository.useNonce(trx, tenant.companyId, payload.nonce, expires, nowIso()))) throw badInput('errors.parkingCodeUsed', 'code');
        let binding = await parkingRepository.findByDzg(trx, tenant.companyId, payload.dzg_id);
        if (!binding) {
          await parkingRepository.insertBinding(trx, tenant.companyId, {
            dzg_id: payload.dzg_id,
            lot_name: payload.lot_name ?? '',
            bound_by: tenant.adminId,
            created_at: nowIso(),
          });
          binding = await parkingRepository.findByDzg(trx, tenant.companyId, payload.dzg_id);
          await audit(trx, tenant, 'company', 'company.parkingBind', { dzg_id: payload.dzg_id, lot: payload.lot_name ?? '' });
        }
        // the operator (re)learns the whole roster
        await enqueueAll(trx, tenant.companyId);
        const row = (await parkingRepository.bindings(trx, tenant.companyId)).find((b) => b.id === binding!.id)!;
        return presentBinding(row);
      });
    },

    /** Registration from the binding page: only with a valid code, then exactly /admin/register. */
    async register(input: DzgRegisterBody, meta: { ip: string; userAgent: string }): Promise<{ token: string }> {
      await verify(db, input.code);
      const { code: _code, ...body } = input;
      return deps.auth.register(body, meta);
    },

    async list(tenant: Tenant): Promise<ParkingBindings> {
      const items = (await parkingRepository.bindings(db, tenant.companyId)).map(presentBinding);
      const state = await parkingRepository.pushState(db, tenant.companyId);
      return {
        items,
        total: items.length,
        push: {
          pending: await parkingRepository.pendingCount(db, tenant.companyId),
          attempts: state?.attempts ?? 0,
          last_pushed_at: state?.last_pushed_at ?? null,
          last_error: state?.last_error ?? '',
        },
      };
    },

    async unbind(tenant: Tenant, id: number) {
      await transaction(db, async (trx) => {
        const row = await parkingRepository.findBinding(trx, tenant.companyId, id);
        if (!row) throw notFound();
        await parkingRepository.deleteBinding(trx, tenant.companyId, id);
        await audit(trx, tenant, 'company', 'company.parkingUnbind', { dzg_id: row.dzg_id, lot: row.lot_name });
        if (!(await parkingRepository.countBindings(trx, tenant.companyId))) await parkingRepository.dropOutbox(trx, tenant.companyId);
      });
    },

    /** peopleChanged listener (in the writer's transaction): one outbox row per person, only for bound companies. */
    async peopleChanged(trx: Executor, change: PeopleChange) {
      if (!change.personIds.length || change.terminalsOnly) return;
      const { parking } = await loadOptions(trx, change.companyId);
      if (!parking.enabled || !(await parkingRepository.countBindings(trx, change.companyId))) return;
      const numbers =
        change.kind === 'deleted'
          ? new Map((await personsRepository.findMany(trx, change.companyId, change.personIds)).map((p) => [p.id, p.number]))
          : new Map<number, string>();
      await parkingRepository.enqueue(
        trx,
        change.companyId,
        change.personIds.map((id) => ({ person_id: id, number: numbers.get(id) ?? '', kind: change.kind })),
        nowIso(),
      );
    },

    /** The job: one push per company with changes due; failures back off (10 s doubling, at most an hour). */
    async pushDue(): Promise<Record<number, 'sent' | 'failed' | 'dropped'>> {
      const out: Record<number, 'sent' | 'failed' | 'dropped'> = {};
      for (const companyId of await parkingRepository.dueCompanies(db, nowIso())) out[companyId] = await pushCompany(companyId);
      return out;
    },

    purgeNonces: () => parkingRepository.purgeNonces(db, nowIso()),
  };
}
export type ParkingService = ReturnType<typeof parkingService>;
