import {
  DEFAULT_LANGUAGE,
  DEVICE_OPTION_DEFAULTS,
  type DeviceCreate,
  type DeviceOptions,
  type DeviceSpecial,
  type DeviceUpdate,
  type Language,
  WORK_STATUS,
  type CommandKind,
} from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import type { DeviceDriver, DeviceOp } from '../../gateways/driver.ts';
import { utcToLocal } from '../../lib/time.ts';
import { has, t } from '../../i18n/i18n.ts';
import { inChunks } from '../../lib/chunks.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { likeKeyword } from '../../lib/schemas.ts';
import { clock, nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { departmentsRepository } from '../departments/departments.repository.ts';
import { descendantsOf } from '../departments/departments.service.ts';
import { audit } from '../logs/logs.service.ts';
import { sitesRepository } from '../sites/sites.repository.ts';
import { picUrl } from '../persons/persons.presenter.ts';
import { personsRepository } from '../persons/persons.repository.ts';
import { deviceCache, devicesRepository, newDeviceRow, unknownDevicesRepository, type DeviceFields, type DeviceRow } from './devices.repository.ts';
import { ledgerRepository } from './ledger.repository.ts';
import type { SyncService } from './sync.service.ts';
import { connectionError, connectionUntil, presentDevice } from './devices.presenter.ts';
import { transaction } from '../../db/transaction.ts';

/** The stored reason key in the reader's language; device error codes we have no text for say so with the code. */
function reasonOf(lang: Language, key: string, code: number | null): string {
  if (!key) return '';
  const text = t(lang, key, { code: code ?? '' });
  if (text !== key) return text;
  const errCode = key.startsWith('device.errors.') ? key.slice('device.errors.'.length) : String(code ?? '');
  return `${t(lang, 'device.errors.unknown')} (${errCode})`;
}

/** The code a command given up unanswered is reported with (the PUSH protocol's "timed out"). */
const NO_ANSWER = -1003;

/** The device columns the console sets on create (besides name, serial, ip and password). */
const CLIENT_SETTINGS = [
  'protocol',
  'port',
  'account',
  'capacity',
  'direction',
  'attendance',
  'attendance_scope',
  'restrict_inout',
  'upload_face_image',
  'upload_strangers',
  'function_type',
  'tz_offset',
] as const satisfies readonly (keyof DeviceCreate & keyof DeviceFields)[];

export function devicesService(deps: { database: Database; sync: SyncService; driver: (protocol: string) => DeviceDriver }) {
  const { db } = deps.database;
  const { sync } = deps;

  async function summaries(companyId: number, ids: number[]) {
    const rows = await ledgerRepository.summary(db, companyId, ids);
    const out = new Map<number, { total: number; synced: number; pending: number; failed: number }>();
    for (const id of ids) out.set(id, { total: 0, synced: 0, pending: 0, failed: 0 });
    for (const r of rows) {
      const s = out.get(r.device_id)!;
      const n = Number(r.n);
      s.total += n;
      if (r.state === 'synced' || r.state === 'pending' || r.state === 'failed') s[r.state] += n;
    }
    return out;
  }

  /** Why the server cannot work with a (dialled) terminal, with the meaning of the protocol's code. */
  function problemOf(d: DeviceRow, lang: Language): string {
    const code = connectionError(d.info);
    if (!code) return '';
    const key = deps.driver(d.protocol).codeKey(code);
    // A problem that lasts until a time (a locked account) says when, on the terminal's clock: `<key>Until`.
    const until = connectionUntil(d.info);
    if (until && has(lang, `${key}Until`)) return t(lang, `${key}Until`, { code, until: utcToLocal(until, d.tz_offset).slice(0, 16) });
    return t(lang, key, { code });
  }

  async function load(trx: Executor, tenant: Tenant, id: number): Promise<DeviceRow> {
    const d = await devicesRepository.find(trx, tenant.companyId, id);
    if (!d) throw notFound();
    return d;
  }

  async function workingIds(trx: Executor, companyId: number): Promise<number[]> {
    return (
      await trx
        .selectFrom('persons')
        .select('id')
        .where('company_id', '=', companyId)
        .where('work_status', '=', WORK_STATUS.working)
        .where('kind', '=', 'employee')
        .execute()
    ).map((r) => r.id);
  }

  return {
    async list(
      tenant: Tenant,
      f: { keyword?: string | undefined; online?: number | undefined; offset: number; limit: number },
      lang: Language = DEFAULT_LANGUAGE,
    ) {
      const r = await devicesRepository.list(db, tenant.companyId, f);
      const s = await summaries(
        tenant.companyId,
        r.items.map((d) => d.id),
      );
      return { items: r.items.map((d) => presentDevice(d, s.get(d.id)!, problemOf(d, lang))), total: r.total };
    },

    /** The devices' ids and names only (filters): nothing of their address, serial or state. */
    names: (tenant: Tenant) => devicesRepository.names(db, tenant.companyId),

    async info(tenant: Tenant, id: number, lang: Language = DEFAULT_LANGUAGE) {
      const d = await load(db, tenant, id);
      return presentDevice(d, (await summaries(tenant.companyId, [d.id])).get(d.id)!, problemOf(d, lang));
    },

    async create(tenant: Tenant, input: DeviceCreate, lang: Language = DEFAULT_LANGUAGE) {
      return transaction(db, async (trx) => {
        if (await devicesRepository.serialTaken(trx, input.serial)) throw conflict('errors.serialTaken', { serial: input.serial });
        const now = nowIso();
        // Omitted fields keep the defaults (an explicit undefined must not override them).
        // Only the settings a client may choose are taken from the input (never its id, counters or stamps),
        // and omitted ones keep the defaults (an explicit undefined must not override them).
        const given = Object.fromEntries(CLIENT_SETTINGS.filter((k) => input[k] !== undefined).map((k) => [k, input[k]])) as Partial<DeviceFields>;
        const row = newDeviceRow({ ...given, name: input.name.trim(), serial: input.serial, ip: input.ip, password: input.password, created_at: now });
        const id = await devicesRepository.insert(trx, tenant.companyId, row);
        await unknownDevicesRepository.forget(trx, input.serial);
        const d = (await devicesRepository.find(trx, tenant.companyId, id))!;
        if (d.attendance_scope === 'all') await sync.assign(trx, tenant.companyId, d, await workingIds(trx, tenant.companyId));
        // A dialled terminal is called at once (its model, firmware and counts are read, or why not is shown).
        if (deps.driver(d.protocol).delivery === 'dialled') await sync.queue(trx, d, { kind: 'info' });
        await audit(trx, tenant, 'device', 'device.create', { id, name: row.name, serial: row.serial });
        return id;
      }).then((id) => this.info(tenant, id, lang));
    },

    async update(tenant: Tenant, input: DeviceUpdate, lang: Language = DEFAULT_LANGUAGE) {
      await transaction(db, async (trx) => {
        const d = await load(trx, tenant, input.id);
        if (input.serial !== d.serial && (await devicesRepository.serialTaken(trx, input.serial, d.id)))
          throw conflict('errors.serialTaken', { serial: input.serial });
        const patch: Partial<DeviceFields> = {
          name: input.name.trim(),
          serial: input.serial,
          ip: input.ip,
          protocol: input.protocol ?? d.protocol,
          port: input.port ?? d.port,
          account: input.account ?? d.account,
          ...(input.password ? { password: input.password } : {}),
          capacity: input.capacity ?? d.capacity,
          direction: input.direction ?? d.direction,
          attendance: input.attendance ?? d.attendance,
          attendance_scope: input.attendance_scope ?? d.attendance_scope,
          restrict_inout: input.restrict_inout ?? d.restrict_inout,
          upload_face_image: input.upload_face_image ?? d.upload_face_image,
          upload_strangers: input.upload_strangers ?? d.upload_strangers,
          function_type: input.function_type ?? d.function_type,
          tz_offset: input.tz_offset ?? d.tz_offset,
          updated_at: nowIso(),
        };
        await devicesRepository.update(trx, tenant.companyId, d.id, patch);
        await deviceCache.forget(trx, d.serial);
        if (patch.attendance_scope === 'all' && d.attendance_scope !== 'all')
          await sync.assign(trx, tenant.companyId, { ...d, ...patch }, await workingIds(trx, tenant.companyId));
        // A dialled terminal is called again at once with its new address or password (a refused one is retried).
        if (deps.driver(patch.protocol!).delivery === 'dialled') await sync.queue(trx, { ...d, ...patch }, { kind: 'info' });
        await audit(trx, tenant, 'device', 'device.update', { id: d.id, name: patch.name!, serial: input.serial });
      });
      return this.info(tenant, input.id, lang);
    },

    async remove(tenant: Tenant, id: number) {
      await transaction(db, async (trx) => {
        const d = await load(trx, tenant, id);
        const people = (await trx.selectFrom('device_persons').select('person_id').where('device_id', '=', id).execute()).map((r) => r.person_id);
        await devicesRepository.delete(trx, tenant.companyId, id);
        await sitesRepository.forget(trx, tenant.companyId, 'device', id);
        await ledgerRepository.refreshPersonStatus(trx, tenant.companyId, people);
        await audit(trx, tenant, 'device', 'device.delete', { id, name: d.name, serial: d.serial });
      });
    },

    /** Saves options and queues one SET OPTION per changed key (§12.4.1: one key per command). */
    async options(tenant: Tenant, id: number, options: DeviceOptions | undefined, special: DeviceSpecial | undefined) {
      const out = await transaction(db, async (trx) => {
        const d = await load(trx, tenant, id);
        const oldOptions = { ...DEVICE_OPTION_DEFAULTS, ...parseJson<Record<string, unknown>>(d.options, {}) };
        const oldSpecial = parseJson<Record<string, unknown>>(d.special, {});
        const newOptions = { ...oldOptions, ...(options ?? {}) };
        const newSpecial = { ...oldSpecial, ...(special ?? {}) };
        let queued = 0;
        for (const [k, v] of Object.entries({ ...(options ?? {}), ...(special ?? {}) })) {
          const before = k in (options ?? {}) ? oldOptions[k as keyof typeof oldOptions] : oldSpecial[k];
          if (before === v || v === undefined) continue;
          await sync.queue(trx, d, { kind: 'options', values: { [k]: v } });
          queued++;
        }
        await devicesRepository.update(trx, tenant.companyId, id, {
          options: JSON.stringify(newOptions),
          special: JSON.stringify(newSpecial),
          updated_at: nowIso(),
        });
        await audit(trx, tenant, 'device', 'device.options', { id, name: d.name, keys: Object.keys({ ...(options ?? {}), ...(special ?? {}) }).join(', ') });
        return { queued, serial: d.serial };
      });
      // After the commit: the gateway's cached row (its alcohol threshold, say) is read again at once.
      await deviceCache.forget(db, out.serial);
      return { queued: out.queued };
    },

    /** Door open: queued for the terminal's next poll; answers as soon as the terminal reports, or says it is pending. */
    async open(tenant: Tenant, lang: Language, id: number, waitMs: number) {
      const d = await load(db, tenant, id);
      const commandId = await transaction(db, async (trx) => {
        const c = await sync.queue(trx, d, { kind: 'unlock', seconds: 5 });
        await audit(trx, tenant, 'device', 'device.open', { id, name: d.name });
        return c;
      });
      return this.awaitResult(lang, d, commandId, waitMs);
    },

    async command(tenant: Tenant, lang: Language, id: number, kind: CommandKind, from?: string, to?: string) {
      const d = await load(db, tenant, id);
      let op: DeviceOp;
      if (kind === 'queryPunches') {
        const end = to ?? utcToLocal(new Date(clock.now()).toISOString(), d.tz_offset).slice(0, 10);
        op = { kind, from: `${from ?? end} 00:00:00`, to: `${end} 23:59:59` };
      } else op = { kind };
      const commandId = await transaction(db, async (trx) => {
        // CHECK re-uploads from the stamps, so they are reset first (notes §10.13).
        if (kind === 'check') {
          await devicesRepository.update(trx, tenant.companyId, id, { att_stamp: '0', op_stamp: '0', photo_stamp: '0' });
          await deviceCache.forget(trx, d.serial);
        }
        // A roster read (issue #30) on ZK PUSH: the user log's stamp alone goes back to 0, so the CHECK that follows
        // brings every user and enrolment face again, never the punch or capture logs (notes §12.3, §12.5).
        if (kind === 'readRoster') {
          await devicesRepository.update(trx, tenant.companyId, id, { op_stamp: '0' });
          await deviceCache.forget(trx, d.serial);
        }
        const c = await sync.queue(trx, d, op);
        await audit(trx, tenant, 'device', 'device.command', { id, name: d.name, command: kind });
        return c;
      });
      return this.awaitResult(lang, d, commandId, 0);
    },

    /** A queued command's outcome (this company's commands only), waiting up to `waitMs` while it is pending. */
    async commandResult(tenant: Tenant, lang: Language, commandId: number, waitMs: number) {
      const row = () =>
        db
          .selectFrom('device_commands')
          .select(['device_id', 'state', 'return_code'])
          .where('company_id', '=', tenant.companyId)
          .where('id', '=', commandId)
          .executeTakeFirst();
      const c = await row();
      if (!c) throw notFound();
      const d = await load(db, tenant, c.device_id);
      if (c.state === 'failed' && c.return_code === null) return this.present(lang, d, commandId, { code: NO_ANSWER });
      if (c.state === 'done' || c.state === 'failed') return this.present(lang, d, commandId, { code: c.return_code ?? 0 });
      const r = waitMs > 0 ? await sync.waitFor(commandId, waitMs) : null;
      if (r) return this.present(lang, d, commandId, r);
      // Answered between the read and the wait, or given up by the ledger: the row says which.
      const again = await row();
      if (again && (again.state === 'done' || again.state === 'failed')) return this.present(lang, d, commandId, { code: again.return_code ?? NO_ANSWER });
      return {
        command_id: commandId,
        state: 'pending' as const,
        code: null,
        message: t(lang, d.online ? 'device.pending' : 'device.pendingOffline'),
        offline: !d.online,
      };
    },

    present(lang: Language, d: DeviceRow, commandId: number, r: { code: number }) {
      return {
        command_id: commandId,
        state: r.code === 0 ? ('success' as const) : ('failure' as const),
        code: r.code,
        message: t(lang, deps.driver(d.protocol).codeKey(r.code), { code: r.code }),
      };
    },

    async awaitResult(lang: Language, d: DeviceRow, commandId: number, waitMs: number) {
      const r = waitMs > 0 ? await sync.waitFor(commandId, waitMs) : null;
      if (!r)
        return {
          command_id: commandId,
          state: 'pending',
          code: null,
          message: t(lang, d.online ? 'device.pending' : 'device.pendingOffline'),
          offline: !d.online,
        };
      return {
        command_id: commandId,
        state: r.code === 0 ? 'success' : 'failure',
        code: r.code,
        message: t(lang, deps.driver(d.protocol).codeKey(r.code), { code: r.code }),
      };
    },

    /** People on a device (personManage) or, without a device, every failure of the company. */
    async ledger(
      tenant: Tenant,
      lang: Language,
      f: { deviceId?: number | undefined; keyword?: string | undefined; state?: string | undefined; offset: number; limit: number },
    ) {
      if (f.deviceId) await load(db, tenant, f.deviceId);
      let q = db
        .selectFrom('device_persons as l')
        .innerJoin('devices as d', 'd.id', 'l.device_id')
        .leftJoin('persons as p', 'p.id', 'l.person_id')
        .where('l.company_id', '=', tenant.companyId);
      if (f.deviceId) q = q.where('l.device_id', '=', f.deviceId);
      if (f.state) q = q.where('l.state', '=', f.state);
      if (f.keyword) q = q.where('p.search', 'like', likeKeyword(f.keyword));
      const [rows, total] = await Promise.all([
        q
          .select([
            'l.person_id',
            'l.device_id',
            'd.name as device_name',
            'l.pin',
            'p.name',
            'p.number',
            'p.photo',
            'p.revision',
            'l.state',
            'l.desired_rev',
            'l.last_code',
            'l.last_error',
            'l.attempts',
            'l.last_attempt_at',
          ])
          .orderBy('l.state')
          .orderBy('p.number')
          .limit(f.limit)
          .offset(f.offset)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        items: rows.map((r) => ({
          person_id: r.person_id,
          device_id: r.device_id,
          device_name: r.device_name,
          number: r.number ?? r.pin,
          name: r.name ?? '',
          pic_url: r.photo ? picUrl({ id: r.person_id, photo: r.photo, revision: r.revision ?? 1 }) : '',
          state: r.state,
          removing: r.desired_rev === 0,
          code: r.last_code,
          reason: reasonOf(lang, r.last_error, r.last_code),
          attempts: r.attempts,
          last_attempt_at: r.last_attempt_at,
        })),
        total: Number(total.n),
      };
    },

    async addPersons(tenant: Tenant, id: number, personIds: number[], departmentIds: number[]) {
      return transaction(db, async (trx) => {
        const d = await load(trx, tenant, id);
        const ids = new Set(personIds);
        if (departmentIds.length) {
          const all = await departmentsRepository.all(trx, tenant.companyId);
          const depts = new Set(departmentIds.flatMap((x) => [...descendantsOf(all, x)]));
          const rows = await trx
            .selectFrom('person_departments')
            .select('person_id')
            .where('company_id', '=', tenant.companyId)
            .where('department_id', 'in', [...depts])
            .execute();
          for (const r of rows) ids.add(r.person_id);
        }
        const known = (
          await inChunks([...ids], (part) =>
            trx.selectFrom('persons').select('id').where('company_id', '=', tenant.companyId).where('id', 'in', part).execute(),
          )
        ).map((r) => r.id);
        if (known.length !== personIds.filter((p) => ids.has(p)).length && personIds.some((p) => !known.includes(p))) throw notFound();
        const r = await sync.assign(trx, tenant.companyId, d, known);
        await audit(trx, tenant, 'device', 'device.addPersons', { id, name: d.name, count: r.added });
        return r;
      });
    },

    async removePersons(tenant: Tenant, id: number, personIds: number[]) {
      return transaction(db, async (trx) => {
        const d = await load(trx, tenant, id);
        const n = await sync.unassign(trx, tenant.companyId, d, personIds);
        await audit(trx, tenant, 'device', 'device.removePersons', { id, name: d.name, count: n });
        return n;
      });
    },

    async retry(tenant: Tenant, id: number, personIds: number[] | undefined) {
      return transaction(db, async (trx) => {
        const d = await load(trx, tenant, id);
        const ids =
          personIds ??
          (await trx.selectFrom('device_persons').select('person_id').where('device_id', '=', d.id).where('state', '=', 'failed').execute()).map(
            (r) => r.person_id,
          );
        await sync.retry(trx, tenant.companyId, ids, d.id);
        return ids.length;
      });
    },

    async unknown(since: string) {
      return unknownDevicesRepository.list(db, since);
    },

    /** A person's devices with their sync state (spec §7 /person/personSelectedDevice). */
    async personDevices(tenant: Tenant, lang: Language, personId: number) {
      const rows = await db
        .selectFrom('device_persons as l')
        .innerJoin('devices as d', 'd.id', 'l.device_id')
        .select(['d.id', 'd.name', 'd.online', 'l.state', 'l.desired_rev', 'l.last_code', 'l.last_error'])
        .where('l.company_id', '=', tenant.companyId)
        .where('l.person_id', '=', personId)
        .orderBy('d.name')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        online: r.online === 1,
        state: r.state,
        removing: r.desired_rev === 0,
        code: r.last_code,
        reason: reasonOf(lang, r.last_error, r.last_code),
      }));
    },

    /** Resend people to all their devices; tells which of those devices are offline (spec §8's question). */
    async syncPeople(tenant: Tenant, requested: number[], skipOffline: boolean | undefined) {
      return transaction(db, async (trx) => {
        // Only the company's own people are counted and resent: another company's ids are not found.
        const ids = (await personsRepository.findMany(trx, tenant.companyId, [...new Set(requested)])).map((p) => p.id).sort((a, b) => a - b);
        if (!ids.length) throw notFound();
        const found = await inChunks(ids, (part) =>
          trx
            .selectFrom('device_persons as l')
            .innerJoin('devices as d', 'd.id', 'l.device_id')
            .select(['d.id', 'd.name', 'd.online'])
            .distinct()
            .where('l.company_id', '=', tenant.companyId)
            .where('l.person_id', 'in', part)
            .execute(),
        );
        const rows = [...new Map(found.map((r) => [r.id, r])).values()];
        const offline = rows.filter((r) => !r.online).map((r) => ({ id: r.id, name: r.name }));
        // spec §8: with offline devices among the targets, nothing is queued until the administrator has
        // answered "skip this device update?" (yes: skip_offline=1 sends to the online ones; no: skip_offline=0 queues all).
        if (skipOffline === undefined && offline.length) return { people: ids.length, devices: 0, offline };
        const targets = rows.filter((r) => r.online || skipOffline === false);
        for (const d of targets) await sync.retry(trx, tenant.companyId, ids, d.id);
        await audit(trx, tenant, 'person', 'person.sync', { count: ids.length, devices: targets.length });
        return { people: ids.length, devices: targets.length, offline };
      });
    },
  };
}

export type DevicesService = ReturnType<typeof devicesService>;
