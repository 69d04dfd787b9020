import { sql } from 'kysely';
import { WORK_STATUS } from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../db/bus.ts';
import type { CommandResult, Delivery, DeviceDriver, DeviceOp, Planned, Wire } from '../../gateways/driver.ts';
import { chunks } from '../../lib/chunks.ts';
import { parseJson } from '../../lib/json.ts';
import { clock, isoIn, nowIso, utcToLocal } from '../../lib/time.ts';
import { loadOptions } from '../companies/companies.options.ts';
import { notify } from '../messages/messages.service.ts';
import { publish } from '../live/publish.ts';
import { personsRepository, type PersonRow } from '../persons/persons.repository.ts';
import type { PhotoStore } from '../persons/photos.ts';
import type { DeviceRow } from './devices.repository.ts';
import { ledgerRepository } from './ledger.repository.ts';
import { syncSignals } from './sync.signals.ts';
import { transaction } from '../../db/transaction.ts';

/** A command not answered within this time (the terminal went away mid-batch) is given up and its work redone. */
export const COMMAND_TIMEOUT_MS = 3 * 60_000;
/** A firmware upgrade downloads and checks a file of many MB before it answers: given longer (a restart still ends it). */
export const UPGRADE_TIMEOUT_MS = 20 * 60_000;
/**
 * Ledger rows read per batch at most (unless the wire says fewer): enough for a reply of people without faces,
 * while for people with faces the wire's byte budget binds first.
 */
export const ROWS_PER_BATCH = 400;
/** Local capacity refusal, same meaning as the terminal's own "capacity full" answer. */
export const CAPACITY_CODE = -1001;

export const backoffMs = (attempts: number) => Math.min(3600_000, 30_000 * 2 ** Math.max(0, attempts - 1));

/** Device-local 'YYYY-MM-DD HH:mm:ss' for a date (limited-time access is a local notion on the terminal). */
const localDate = (date: string | null, endOfDay: boolean) => (date ? `${date} ${endOfDay ? '23:59:59' : '00:00:00'}` : null);

/**
 * What a terminal must hold for a person: the user record and, when there is one, the face. A visitor's window
 * (instants) is written in the terminal's own clock (`tzOffset`, minutes east of UTC): the terminal refuses the
 * user outside it by itself (#19). The card number goes only when the company's rfid option is on (spec §3);
 * switching it re-plans everyone holding a card (companies bumps their revision), so terminals gain or lose the cards.
 */
export function opsForPerson(p: PersonRow, tzOffset = 480, cards = true): DeviceOp[] {
  const window = p.valid_from && p.valid_until ? { start: utcToLocal(p.valid_from, tzOffset), end: utcToLocal(p.valid_until, tzOffset) } : null;
  return [
    {
      kind: 'user',
      pin: p.number,
      name: p.name,
      // spec §6: a person can be a device administrator (ZKTeco privilege 14).
      pri: p.is_admin ? 14 : 0,
      password: p.is_admin && p.admin_password ? p.admin_password : p.door_password,
      card: cards ? p.rfid : '',
      start: window ? window.start : localDate(p.access_from, false),
      end: window ? window.end : localDate(p.access_to, true),
      ...(p.gender === 'male' || p.gender === 'female' ? { gender: p.gender } : {}),
    },
  ];
}

/** spec §4: people who have left are not synced; their desired state on every device is "absent". */
export const desiredRevision = (p: Pick<PersonRow, 'work_status' | 'revision'>) => (p.work_status === WORK_STATUS.working ? p.revision : 0);

/**
 * The sync ledger (issue 4): per (person, device) what should be on the device and what is. Changes only
 * move `desired_rev`; the terminal's polls pull exactly the commands needed, in batches it can take, so a
 * sync never wipes a device and doors keep working throughout.
 */
export function syncService(deps: {
  database: Database;
  photos: PhotoStore;
  driver: (protocol: string) => DeviceDriver;
  /** deliveries of dialled and published protocols by protocol (polled ones have none); filled once built */
  deliveries?: ReadonlyMap<string, Delivery>;
  /** tells every instance a command's result and which devices got work (db/bus.ts) */
  bus: Bus;
  log?: FastifyBaseLogger;
}) {
  const { db } = deps.database;
  const { bus } = deps;
  const deliveries = deps.deliveries ?? new Map<string, Delivery>();

  // Waking the deliveries of devices that got work, and one-off commands' results, between instances.
  const { wakeAfterCommit, commandDone, waitFor } = syncSignals({ database: deps.database, deliveries, bus, log: deps.log });

  /** The devices that hold (or are to hold) these people, for waking; read only when a delivery exists. */
  async function devicesOf(trx: Executor, companyId: number, personIds: number[]) {
    if (!deliveries.size) return [];
    return (await ledgerRepository.rowsForPersons(trx, companyId, personIds)).map((r) => r.device_id);
  }

  async function personChanges(trx: Executor, companyId: number, persons: PersonRow[]) {
    const rows = (
      await ledgerRepository.rowsForPersons(
        trx,
        companyId,
        persons.map((p) => p.id),
      )
    ).sort((a, b) => a.device_id - b.device_id || a.person_id - b.person_id);
    const byId = new Map(persons.map((p) => [p.id, p]));
    const now = nowIso();
    for (const r of rows) {
      const p = byId.get(r.person_id)!;
      const desired = desiredRevision(p);
      if (desired === 0) {
        if (r.desired_rev !== 0) await ledgerRepository.retire(trx, companyId, r.device_id, r.person_id, now);
      } else if (desired !== r.desired_rev || (r.state === 'synced' && r.pin !== p.number))
        await ledgerRepository.setDesired(trx, companyId, r.device_id, r.person_id, { desired_rev: desired, updated_at: now });
    }
    await ledgerRepository.refreshPersonStatus(
      trx,
      companyId,
      persons.map((p) => p.id),
    );
    return rows.length;
  }

  /** Ledger rows for people already loaded (no status refresh: callers do it once). */
  async function assignLoaded(trx: Executor, companyId: number, device: DeviceRow, loaded: PersonRow[]): Promise<{ added: number; skippedLeft: number }> {
    const persons = [...loaded].sort((a, b) => a.id - b.id);
    const existing = new Map(
      (
        await ledgerRepository.rowsForDevice(
          trx,
          companyId,
          device.id,
          persons.map((p) => p.id),
        )
      ).map((r) => [r.person_id, r]),
    );
    const now = nowIso();
    const fresh = [];
    let skippedLeft = 0;
    for (const p of persons) {
      const desired = desiredRevision(p);
      if (!desired) {
        skippedLeft++;
        continue;
      }
      const row = existing.get(p.id);
      if (!row) fresh.push({ company_id: companyId, device_id: device.id, person_id: p.id, pin: p.number, desired_rev: desired, updated_at: now });
      else if (row.desired_rev !== desired) await ledgerRepository.setDesired(trx, companyId, device.id, p.id, { desired_rev: desired, updated_at: now });
    }
    await ledgerRepository.insertMany(trx, fresh);
    return { added: fresh.length, skippedLeft };
  }

  /** Commands given the upgrade's time: an upgrade, and a roster read (thousands of users and faces, issue #30). */
  const LONG_COMMANDS: DeviceOp['kind'][] = ['upgrade', 'readRoster'];
  /** Commands a handshake does not lose: they cause it (ZK PUSH CHECK re-reads the options). */
  const RESTART_SURVIVORS: DeviceOp['kind'][] = ['check', 'readRoster'];
  /** Gives up on commands sent before `olderThanMs` and never answered, so their work is planned again. */
  async function expireSent(trx: Executor, deviceId: number, olderThanMs: number) {
    const cutoffOf = (ms: number) => new Date(clock.now() - ms + (ms === 0 ? 1 : 0)).toISOString();
    const cutoff = cutoffOf(olderThanMs);
    const upgradeCutoff = cutoffOf(olderThanMs === 0 ? 0 : Math.max(olderThanMs, UPGRADE_TIMEOUT_MS));
    const stale = await trx
      .selectFrom('device_commands')
      .select(['id', 'person_id'])
      .where('device_id', '=', deviceId)
      .where('state', '=', 'sent')
      .where((eb) =>
        eb.or([
          eb.and([eb('kind', 'not in', LONG_COMMANDS), eb('sent_at', '<', cutoff)]),
          eb.and([eb('kind', 'in', LONG_COMMANDS), eb('sent_at', '<', upgradeCutoff)]),
        ]),
      )
      // A CHECK (and a roster read, which is one) makes the terminal read its options again: the handshake that follows
      // is its doing, not a restart, and its answer comes after it. Never answered, it times out as any command does.
      .$if(olderThanMs === 0, (q) => q.where('kind', 'not in', RESTART_SURVIVORS))
      .execute();
    if (!stale.length) return;
    await trx
      .updateTable('device_commands')
      .set({ state: 'failed', result: 'timeout', done_at: nowIso() })
      .where(
        'id',
        'in',
        stale.map((s) => s.id),
      )
      .execute();
    const persons = [...new Set(stale.map((s) => s.person_id).filter((p): p is number => p !== null))];
    if (persons.length)
      await trx.updateTable('device_persons').set({ inflight: 0 }).where('device_id', '=', deviceId).where('person_id', 'in', persons).execute();
  }

  /** Rows one batch may plan: the ledger's cap, or the wire's when it is lower. */
  const rowsPerBatch = <E>(wire: Wire<E>) => Math.max(1, Math.min(ROWS_PER_BATCH, wire.maxBatchPeople ?? ROWS_PER_BATCH));

  /**
   * The faces the next poll is about to send, read before its transaction opens: no file I/O while the
   * database is held (on SQLite every upload and poll waits for it).
   */
  /** Whether the terminal has a command queued or sent and not answered yet (the queue's index answers it). */
  async function hasOpenCommands(deviceId: number): Promise<boolean> {
    const row = await db
      .selectFrom('device_commands')
      .select('id')
      .where('device_id', '=', deviceId)
      .where('state', 'in', ['queued', 'sent'])
      .limit(1)
      .executeTakeFirst();
    return !!row;
  }

  async function prefetchFaces<E>(device: DeviceRow, wire: Wire<E>, due: { person_id: number; desired_rev: number }[]): Promise<Map<string, string>> {
    const faces = new Map<string, string>();
    if (!due.length) return faces;
    const persons = new Map(
      (
        await personsRepository.findMany(
          db,
          device.company_id,
          due.map((r) => r.person_id),
        )
      ).map((p) => [p.id, p]),
    );
    // In planning order, and only as many as can fit the reply: the rest would be read for nothing.
    let bytes = 0;
    for (const r of due) {
      const p = persons.get(r.person_id);
      if (!p?.photo || r.desired_rev === 0 || faces.has(p.photo)) continue;
      const face = await deps.photos.base64(device.company_id, p.photo);
      if (!face) continue;
      faces.set(p.photo, face);
      bytes += face.length;
      if (bytes > wire.maxBatchBytes) break;
    }
    return faces;
  }

  return {
    /** Puts people on a device (left people are skipped: spec §4). Returns how many were newly added. */
    async assign(trx: Executor, companyId: number, device: DeviceRow, personIds: number[]): Promise<{ added: number; skippedLeft: number }> {
      const persons = await personsRepository.findMany(trx, companyId, personIds);
      const out = await assignLoaded(trx, companyId, device, persons);
      await ledgerRepository.refreshPersonStatus(trx, companyId, personIds);
      wakeAfterCommit(trx, [device.id]);
      return out;
    },

    /** Takes people off a device: a delete is queued where the device holds them. */
    async unassign(trx: Executor, companyId: number, device: DeviceRow, personIds: number[]): Promise<number> {
      const rows = await ledgerRepository.rowsForDevice(trx, companyId, device.id, personIds);
      const now = nowIso();
      for (const r of rows) await ledgerRepository.retire(trx, companyId, device.id, r.person_id, now);
      await ledgerRepository.refreshPersonStatus(trx, companyId, personIds);
      wakeAfterCommit(trx, [device.id]);
      return rows.length;
    },

    /**
     * After any write to people: existing ledger rows follow the new revisions, and devices that take
     * everyone (attendance scope "all") get the people they do not have yet.
     */
    async touch(trx: Executor, companyId: number, personIds: number[]) {
      if (!personIds.length) return;
      const persons = await personsRepository.findMany(trx, companyId, personIds);
      await personChanges(trx, companyId, persons);
      const everyone = await trx.selectFrom('devices').selectAll().where('company_id', '=', companyId).where('attendance_scope', '=', 'all').execute();
      // A visitor goes only to the doors of the invitation (#19), never to the devices that take everyone.
      const employees = persons.filter((p) => p.kind !== 'visitor');
      for (const d of everyone) await assignLoaded(trx, companyId, d, employees);
      // personChanges refreshed the sync status before the new rows: once more when there were any.
      if (everyone.length) await ledgerRepository.refreshPersonStatus(trx, companyId, personIds);
      wakeAfterCommit(trx, await devicesOf(trx, companyId, personIds));
    },

    /** Before people are deleted: their devices are told to forget them. */
    async personsDeleted(trx: Executor, companyId: number, personIds: number[]) {
      const rows = await ledgerRepository.rowsForPersons(trx, companyId, personIds);
      const now = nowIso();
      for (const r of rows) await ledgerRepository.retire(trx, companyId, r.device_id, r.person_id, now);
      wakeAfterCommit(
        trx,
        rows.map((r) => r.device_id),
      );
    },

    /** Forces a resend (retry) of the given people on the given device, or everywhere. */
    async retry(trx: Executor, companyId: number, personIds: number[], deviceId?: number) {
      for (const part of chunks(personIds)) {
        let q = trx
          .updateTable('device_persons')
          .set({ state: 'pending', next_attempt_at: null, attempts: 0 })
          .where('company_id', '=', companyId)
          .where('person_id', 'in', part)
          .where('inflight', '=', 0);
        if (deviceId) q = q.where('device_id', '=', deviceId);
        await q.execute();
        // A "synced" row resent: applied_rev drops so the user record is written again.
        let q2 = trx
          .updateTable('device_persons')
          .set({ applied_rev: 0 })
          .where('company_id', '=', companyId)
          .where('person_id', 'in', part)
          .where('desired_rev', '>', 0);
        if (deviceId) q2 = q2.where('device_id', '=', deviceId);
        await q2.execute();
      }
      await ledgerRepository.refreshPersonStatus(trx, companyId, personIds);
      wakeAfterCommit(trx, deviceId ? [deviceId] : await devicesOf(trx, companyId, personIds));
    },

    /** Queues a one-off command (door open, options, info, reboot, punch query). */
    async queue(trx: Executor, device: DeviceRow, op: DeviceOp): Promise<number> {
      const r = await trx
        .insertInto('device_commands')
        .values({
          company_id: device.company_id,
          device_id: device.id,
          person_id: null,
          revision: 0,
          kind: op.kind,
          payload: JSON.stringify(op),
          state: 'queued',
          created_at: nowIso(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      wakeAfterCommit(trx, [device.id]);
      return r.id;
    },

    /** Resolves when a queued command has a result, on whichever instance it arrives, or with null after `ms` (sync.signals.ts). */
    waitFor,

    /** Gives up on every command in flight: the terminal restarted (a handshake) and lost them. */
    async expire(deviceId: number) {
      await transaction(db, (trx) => expireSent(trx, deviceId, 0));
    },

    /** The terminal took a command but could not use its data (ERRORLOG, e.g. no face found in the photo). */
    async rejected(device: DeviceRow, commandId: number, errCode: string) {
      const personId = await transaction(db, async (trx) => {
        const c = await trx.selectFrom('device_commands').selectAll().where('device_id', '=', device.id).where('id', '=', commandId).executeTakeFirst();
        if (!c || c.person_id === null) return null;
        const row = (await ledgerRepository.rowsForDevice(trx, device.company_id, device.id, [c.person_id]))[0];
        if (!row) return null;
        await trx
          .updateTable('device_persons')
          .set({
            state: 'failed',
            inflight: 0,
            last_code: null,
            last_error: `device.errors.${errCode}`,
            next_attempt_at: isoIn(backoffMs(row.attempts)),
            updated_at: nowIso(),
          })
          .where('device_id', '=', device.id)
          .where('person_id', '=', c.person_id)
          .execute();
        await notify(trx, device.company_id, null, 'syncFailed', { device: device.name, count: 1, code: errCode });
        return c.person_id;
      });
      if (personId) await ledgerRepository.refreshPersonStatus(db, device.company_id, [personId]);
    },

    /**
     * The commands for one poll: queued one-offs first, then ledger work (deletions before additions),
     * within the driver's reply budget. Everything planned is recorded as sent in one transaction.
     */
    async plan<E>(device: DeviceRow, wire: Wire<E>): Promise<Planned<E>[]> {
      const refreshAfter: number[] = [];
      // A lane of one-offs (e.g. door opens) plans no ledger work.
      const laneOnly = wire.lane && 'only' in wire.lane ? wire.lane.only : undefined;
      const laneExcept = wire.lane && 'except' in wire.lane ? wire.lane.except : undefined;
      const dueBefore = laneOnly ? [] : await ledgerRepository.due(db, device.id, nowIso(), rowsPerBatch(wire));
      // An idle poll (most of them: a terminal polls every few seconds) plans nothing and opens no transaction: no
      // ledger work due, no command queued or awaiting its answer (one that times out is found by the poll after it is
      // sent, so there is one). Work that becomes due meanwhile is planned by the next poll, as it would have been.
      if (!dueBefore.length && !(await hasOpenCommands(device.id))) return [];
      const faces = await prefetchFaces(device, wire, dueBefore);
      const planned = await transaction(db, async (trx) => {
        await expireSent(trx, device.id, COMMAND_TIMEOUT_MS);
        const now = nowIso();
        const out: Planned<E>[] = [];
        let bytes = 0;
        let oneOffs = trx.selectFrom('device_commands').selectAll().where('device_id', '=', device.id).where('state', '=', 'queued');
        if (laneOnly) oneOffs = oneOffs.where('kind', 'in', [...laneOnly]);
        if (laneExcept?.length) oneOffs = oneOffs.where('kind', 'not in', [...laneExcept]);
        const queued = await oneOffs.orderBy('id').limit(20).execute();
        const sentIds: number[] = [];
        for (const c of queued) {
          const encoded = wire.encode(parseJson<DeviceOp>(c.payload, { kind: 'check' }), c.id);
          const size = wire.size(encoded);
          if (out.length && bytes + size > wire.maxBatchBytes) break;
          out.push({ id: c.id, encoded });
          bytes += size;
          sentIds.push(c.id);
        }
        if (sentIds.length) await trx.updateTable('device_commands').set({ state: 'sent', sent_at: now }).where('id', 'in', sentIds).execute();
        if (laneOnly) return out;

        const due = await ledgerRepository.due(trx, device.id, now, rowsPerBatch(wire));
        if (!due.length) return out;
        const cards = (await loadOptions(trx, device.company_id)).rfid === 1;
        const persons = new Map(
          (
            await personsRepository.findMany(
              trx,
              device.company_id,
              due.map((r) => r.person_id),
            )
          ).map((p) => [p.id, p]),
        );
        let occupied = await ledgerRepository.occupied(trx, device.id);
        const touched: number[] = [];
        for (const row of due) {
          const p = persons.get(row.person_id);
          const desired = p ? row.desired_rev : 0;
          const ops: DeviceOp[] = [];
          if (desired === 0) ops.push({ kind: 'deleteUser', pin: row.pin });
          else {
            if (row.applied_rev > 0 && row.pin !== p!.number) ops.push({ kind: 'deleteUser', pin: row.pin });
            ops.push(...opsForPerson(p!, device.tz_offset, cards));
            if (p!.photo) {
              const jpegBase64 = faces.get(p!.photo) ?? (await deps.photos.base64(device.company_id, p!.photo));
              if (jpegBase64) ops.push({ kind: 'photo', pin: p!.number, jpegBase64 });
            }
            if (row.applied_rev === 0 && occupied >= device.capacity) {
              await trx
                .updateTable('device_persons')
                .set({
                  state: 'failed',
                  last_code: CAPACITY_CODE,
                  last_error: 'device.codes.capacity',
                  attempts: row.attempts + 1,
                  last_attempt_at: now,
                  next_attempt_at: isoIn(backoffMs(row.attempts + 1)),
                })
                .where('device_id', '=', device.id)
                .where('person_id', '=', row.person_id)
                .execute();
              touched.push(row.person_id);
              continue;
            }
          }
          // Insert the commands first to learn their ids; drop the row's batch if it does not fit this reply.
          const planned: Planned<E>[] = [];
          for (const op of ops) {
            const c = await trx
              .insertInto('device_commands')
              .values({
                company_id: device.company_id,
                device_id: device.id,
                person_id: row.person_id,
                revision: desired,
                kind: op.kind,
                payload: '{}',
                state: 'sent',
                created_at: now,
                sent_at: now,
              })
              .returning('id')
              .executeTakeFirstOrThrow();
            planned.push({ id: c.id, encoded: wire.encode(op, c.id) });
          }
          const size = planned.reduce((s, c) => s + wire.size(c.encoded), 0);
          if (out.length && bytes + size > wire.maxBatchBytes) {
            await trx
              .deleteFrom('device_commands')
              .where(
                'id',
                'in',
                planned.map((c) => c.id),
              )
              .execute();
            break;
          }
          out.push(...planned);
          bytes += size;
          if (row.applied_rev === 0 && desired > 0) occupied++;
          await trx
            .updateTable('device_persons')
            .set({ inflight: 1, attempts: row.attempts + 1, last_attempt_at: now, ...(p ? { pin: row.desired_rev ? p.number : row.pin } : {}) })
            .where('device_id', '=', device.id)
            .where('person_id', '=', row.person_id)
            .execute();
          // Old PIN to delete is carried by the command; the row now tracks the new PIN.
        }
        refreshAfter.push(...touched);
        return out;
      });
      // Outside the transaction: device-driven work never holds ledger locks while taking person locks
      // (the console takes them the other way round), so the two cannot deadlock on PostgreSQL.
      if (refreshAfter.length) {
        await ledgerRepository.refreshPersonStatus(db, device.company_id, refreshAfter);
        // the people list and the device's people page show the new sync states
        await publish(db, device.company_id, 'sync', { person_ids: refreshAfter.slice(0, 500), device_id: device.id }, ['person', 'face']);
      }
      return planned;
    },

    /**
     * Applies the terminal's answers. A ledger row becomes synced when every command of its batch
     * succeeded; any failure marks it failed with the code, to be retried with backoff.
     */
    async results(device: DeviceRow, results: CommandResult[]) {
      if (!results.length) return;
      const refreshAfter: number[] = [];
      await transaction(db, async (trx) => {
        const now = nowIso();
        const ids = results.map((r) => r.id);
        const cmds = await trx.selectFrom('device_commands').selectAll().where('device_id', '=', device.id).where('id', 'in', ids).execute();
        const byId = new Map(cmds.map((c) => [c.id, c]));
        const rowsTouched = new Set<number>();
        for (const r of results) {
          const c = byId.get(r.id);
          if (!c || (c.state !== 'sent' && c.state !== 'queued')) continue;
          const ok = deps.driver(device.protocol).isOk(c.kind as DeviceOp['kind'], r.code);
          await trx
            .updateTable('device_commands')
            .set({ state: ok ? 'done' : 'failed', return_code: r.code, result: r.data ? JSON.stringify(r.data) : '', done_at: now })
            .where('id', '=', c.id)
            .execute();
          if (c.person_id !== null) rowsTouched.add(c.person_id);
          // A user the terminal no longer holds leaves what its roster read brought (a take-over's review, issue #30).
          if (c.kind === 'deleteUser' && ok) {
            const pin = parseJson<{ pin?: string }>(c.payload, {}).pin;
            if (pin) await trx.deleteFrom('terminal_users').where('device_id', '=', device.id).where('pin', '=', pin).execute();
          }
          // A setting the terminal refused (an option its firmware lacks: -1002) is told to the administrators.
          if (c.kind === 'options' && !ok) {
            const values = parseJson<{ values?: Record<string, unknown> }>(c.payload, {}).values ?? {};
            for (const key of Object.keys(values).slice(0, 5))
              await notify(trx, device.company_id, null, 'optionRefused', {
                device: device.name,
                settingKey: `fields.${key}`,
                reasonKey: deps.driver(device.protocol).codeKey(r.code),
                code: r.code,
              });
          }
          // console screens that wait on a door or a command see its outcome at once
          if (c.person_id === null && c.kind !== 'info')
            await publish(trx, device.company_id, 'command', { device_id: device.id, kind: c.kind, ok, code: r.code }, ['face']);
          // whoever waits for it (a door open), on any instance, hears it at the commit
          if (c.person_id === null) await commandDone(trx, { id: r.id, code: r.code });
          if (c.kind === 'unlock')
            await trx
              .updateTable('devices')
              .set({ open_status: ok ? 'success' : 'failure' })
              .where('id', '=', device.id)
              .execute();
        }
        const failures: { person: number; code: number }[] = [];
        for (const personId of [...rowsTouched].sort((a, b) => a - b)) {
          const row = (await ledgerRepository.rowsForDevice(trx, device.company_id, device.id, [personId]))[0];
          if (!row) continue;
          const batch = await trx
            .selectFrom('device_commands')
            .select(['state', 'return_code', 'revision', 'kind'])
            .where('device_id', '=', device.id)
            .where('person_id', '=', personId)
            .where('sent_at', '=', row.last_attempt_at)
            .execute();
          if (batch.some((b) => b.state === 'sent')) continue;
          const failed = batch.find((b) => b.state === 'failed');
          const revision = batch[0]?.revision ?? row.desired_rev;
          if (failed) {
            failures.push({ person: personId, code: failed.return_code ?? 0 });
            await trx
              .updateTable('device_persons')
              .set({
                state: 'failed',
                inflight: 0,
                last_code: failed.return_code,
                last_error: deps.driver(device.protocol).codeKey(failed.return_code ?? 0),
                next_attempt_at: isoIn(backoffMs(row.attempts)),
                updated_at: now,
              })
              .where('device_id', '=', device.id)
              .where('person_id', '=', personId)
              .execute();
          } else {
            // The desired revision may have moved since this batch was planned (an edit committed meanwhile),
            // so the comparison happens in the statement itself, on the row as it is now.
            const removed =
              revision === 0
                ? await trx
                    .deleteFrom('device_persons')
                    .where('device_id', '=', device.id)
                    .where('person_id', '=', personId)
                    .where('desired_rev', '=', 0)
                    .executeTakeFirst()
                : undefined;
            if (!removed || Number(removed.numDeletedRows) === 0) {
              await trx
                .updateTable('device_persons')
                .set({
                  inflight: 0,
                  applied_rev: revision,
                  state: sql<string>`case when desired_rev = ${revision} then 'synced' else 'pending' end`,
                  attempts: sql<number>`case when desired_rev = ${revision} then 0 else attempts end`,
                  last_code: null,
                  last_error: '',
                  next_attempt_at: null,
                  updated_at: now,
                })
                .where('device_id', '=', device.id)
                .where('person_id', '=', personId)
                .execute();
            }
          }
        }
        refreshAfter.push(...rowsTouched);
        // The terminal's own user count changed: ask it (INFO) once per answered batch, so the console's
        // "users / capacity" is what the terminal holds, not what the handshake said before the sync.
        if (rowsTouched.size) {
          const asking = await trx
            .selectFrom('device_commands')
            .select('id')
            .where('device_id', '=', device.id)
            .where('kind', '=', 'info')
            .where('state', 'in', ['queued', 'sent'])
            .executeTakeFirst();
          if (!asking) await this.queue(trx, device, { kind: 'info' });
        }
        if (failures.length) await notify(trx, device.company_id, null, 'syncFailed', { device: device.name, count: failures.length, code: failures[0]!.code });
      });
      if (refreshAfter.length) {
        await ledgerRepository.refreshPersonStatus(db, device.company_id, refreshAfter);
        // the people list and the device's people page show the new sync states
        await publish(db, device.company_id, 'sync', { person_ids: refreshAfter.slice(0, 500), device_id: device.id }, ['person', 'face']);
      }
    },
  };
}
export type SyncService = ReturnType<typeof syncService>;
