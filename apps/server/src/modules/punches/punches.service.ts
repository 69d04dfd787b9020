import type { FileStore, StoredFile } from '../../lib/files/store.ts';
import type { Database, Executor } from '../../db/database.ts';
import type { PunchRecord, RefusalReason, StrangerRecord } from '../../gateways/terminal-events.ts';
import { DEVICE_OPTION_DEFAULTS } from '@faceadmin/shared';
import { parseJson } from '../../lib/json.ts';
import { clock, localToUtcMs, nowIso } from '../../lib/time.ts';
import { perObject } from '../../lib/memo.ts';
import type { DeviceRow } from '../devices/devices.repository.ts';
import { notify } from '../messages/messages.service.ts';
import { punchesRepository, punchWriter, type PunchInsert } from './punches.repository.ts';
import { transaction } from '../../db/transaction.ts';
import { transactionalHook } from '../../lib/hooks.ts';
import { chunks } from '../../lib/chunks.ts';
import { recordChanges } from '../../db/changes.ts';
import type { HealthWaiting } from './health-waiting.ts';
import { announcePunches, LIVE_AGE_MS, LIVE_PER_UPLOAD, publishPhoto } from './punches.live.ts';

/**
 * `punches.stranger`: 0 a punch; 1 a stranger (a punch under a PIN the company does not know yet, or a face the
 * terminal did not know: PIN '0'); 2 a user the terminal knew and refused. A refusal keeps its person by PIN (`pin` =
 * the person's number, who may not exist here yet), never by `person_id`, which stays null: every reading of a
 * person's punches (attendance, presence, counts) takes only what the terminal accepted (docs/zk-push-protocol.md
 * §5.2). A person saved later with a stranger's number takes its punches (claimStrangers), never its refusals.
 */
export const STRANGER = { none: 0, unknown: 1, refused: 2 } as const;

/** A refused face's `status`: the §11.8 photo type the terminal sent (1 attendance failed, 2 blacklist, 4 verification failed). */
export const REFUSAL_STATUS: Record<RefusalReason, number> = { failed: 1, blacklist: 2, verifyFailed: 4 };

/** A device clock more than this far off raises a message (it shifts punches between days and shifts). */
export const DRIFT_LIMIT_S = 120;

/** Punch photos: punches/<company>/<device>/<YYYYMMDDhhmmss>-<PIN>.jpg in the file store, named from what the device sent. */
export function punchPhotoStore(files: FileStore) {
  const nameOf = (pin: string, localTime: string) => `${localTime.replace(/\D/g, '')}-${pin}.jpg`;
  const keyOf = (companyId: number, deviceId: number, name: string) =>
    /^\d{14}-[A-Za-z0-9]{1,24}\.jpg$/.test(name) ? `punches/${companyId}/${deviceId}/${name}` : undefined;
  /** Photos that arrived before their punch, awaiting it (so the hot path never touches the store to ask). */
  const early = new Set<string>();
  return {
    async save(companyId: number, deviceId: number, pin: string, localTime: string, data: Buffer): Promise<string> {
      const name = nameOf(pin, localTime);
      const key = keyOf(companyId, deviceId, name);
      // a PIN the key cannot carry is stored under a name no reader accepts: the photo is dropped as before
      if (key) await files.put(key, data, { contentType: 'image/jpeg' });
      return name;
    },
    awaitPunch(deviceId: number, name: string) {
      early.add(`${deviceId}/${name}`);
      if (early.size > 10_000) early.delete(early.values().next().value!);
    },
    /** The name of a photo that came before this punch (taking it), or '' (at once when none is waiting). */
    claim(deviceId: number, pin: string, localTime: string): string {
      if (!early.size) return '';
      const name = nameOf(pin, localTime);
      return early.delete(`${deviceId}/${name}`) ? name : '';
    },
    /** The photo as a stream, or undefined when there is none. */
    async open(companyId: number, deviceId: number, name: string): Promise<StoredFile | undefined> {
      const key = keyOf(companyId, deviceId, name);
      return key ? files.get(key) : undefined;
    },
  };
}
export type PunchPhotoStore = ReturnType<typeof punchPhotoStore>;

interface Pending {
  device: DeviceRow;
  records: PunchRecord[];
  /** records of the past on purpose (an old software's file): no clock check */
  history: boolean;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** Requests written together in one transaction at most. */
const GROUP_MAX = 256;

/** Punches of known people were stored (in the writer's transaction): attendance recomputes their days. */
export interface PunchesStored {
  punches: { companyId: number; personId: number; time: string }[];
  /** earlier punches a person took over by number when saved (claimStrangers), rather than new uploads */
  claimed?: boolean;
}
export const punchesStoredHook = () => transactionalHook<Executor, PunchesStored>();

/** What awaits a punch that has not come yet: a capture photo (its stored name) or a health record's colour. */
export type EarlyHint =
  { kind: 'photo'; device: number; name: string } | { kind: 'health'; device: number; records: { pin: string; time: string; color: string }[] };

export function punchesService(deps: {
  database: Database;
  photos: PunchPhotoStore;
  health?: HealthWaiting;
  /** tells the other instances what awaits a punch (punches.module.ts; nothing with one instance) */
  early?: (ex: Executor, hint: EarlyHint) => Promise<void>;
  /** with several instances: a photo that came before its punch is linked again after this long (0: never) */
  recheckMs?: number;
}) {
  const { db } = deps.database;
  const stored = punchesStoredHook();
  const writer = punchWriter();
  const queue: Pending[] = [];
  let writing = false;
  /** Told after each commit how many records each upload brought (the metrics count them by protocol). */
  const ingested: ((protocol: string, records: number) => void)[] = [];

  /** The device's breath-alcohol threshold (mg/100 mL), read from its options once per cached row. */
  const alcoholLimit = perObject((d: DeviceRow) =>
    Number(parseJson<{ alcohol_threshold?: number }>(d.options, {}).alcohol_threshold ?? DEVICE_OPTION_DEFAULTS.alcohol_threshold),
  );

  /** The rows of one upload, and the UTC instant of its newest record (for the clock check). */
  function rowsOf(device: DeviceRow, records: PunchRecord[], people: Map<string, number>, now: string): { rows: PunchInsert[]; newest: number } {
    let newest = -Infinity;
    const rows = records.map((r): PunchInsert => {
      const utc = localToUtcMs(r.time, device.tz_offset);
      if (utc > newest) newest = utc;
      const personId = people.get(r.pin);
      return {
        company_id: device.company_id,
        device_id: device.id,
        person_id: personId ?? null,
        pin: r.pin,
        local_time: r.time,
        time: new Date(utc).toISOString(),
        status: r.status,
        verify: r.verify,
        workcode: r.workcode,
        temperature: r.temperature,
        mask: r.mask,
        alcohol: r.alcohol,
        alcohol_over: r.alcohol === null ? null : r.alcohol >= alcoholLimit(device) ? 1 : 0,
        // The photo may have arrived first (§11.3 uploads are separate requests).
        photo: deps.photos.claim(device.id, r.pin, r.time),
        // Likewise its health-code record (HEALTHLOG), when the terminal sent that first.
        health: deps.health?.claim(device.id, r.pin, r.time) ?? null,
        stranger: personId === undefined ? 1 : 0,
        created_at: now,
      };
    });
    return { rows, newest };
  }

  /** One transaction for every upload waiting: group commit. Each caller is answered only after it commits. */
  async function writeGroup(group: Pending[]): Promise<void> {
    const now = nowIso();
    await transaction(db, async (trx) => {
      const byCompany = new Map<number, Set<string>>();
      for (const g of group)
        for (const r of g.records) (byCompany.get(g.device.company_id) ?? byCompany.set(g.device.company_id, new Set()).get(g.device.company_id)!).add(r.pin);
      const people = new Map<number, Map<string, number>>();
      for (const [companyId, pins] of byCompany) people.set(companyId, await writer.personIds(trx, companyId, [...pins]));
      const rows: PunchInsert[] = [];
      /** per upload, the keys of the records it sent, in its order (which of them are news is known once stored) */
      const uploads: string[][] = [];
      const nowMs = clock.now();
      for (const g of group) {
        const { rows: mine, newest } = rowsOf(g.device, g.records, people.get(g.device.company_id)!, now);
        for (const r of mine) rows.push(r);
        uploads.push(mine.filter((r) => Math.abs(Date.parse(r.time) - nowMs) <= LIVE_AGE_MS).map((r) => `${r.device_id}/${r.pin}/${r.local_time}`));
        // Clock check on live punches only (a backlog is old on purpose): a record from the future, or a
        // single real-time record far in the past, means the terminal's clock is off.
        const drift = Math.round((newest - clock.now()) / 1000);
        if (g.history) continue;
        const suspicious = drift > DRIFT_LIMIT_S || (g.records.length === 1 && drift < -10 * 60);
        if (suspicious && Math.abs(g.device.clock_drift) <= DRIFT_LIMIT_S) {
          // One message however many instances see the drift at once: the one whose write turns it on sends it.
          const turned = await trx
            .updateTable('devices')
            .set({ clock_drift: drift })
            .where('id', '=', g.device.id)
            .where('clock_drift', '>=', -DRIFT_LIMIT_S)
            .where('clock_drift', '<=', DRIFT_LIMIT_S)
            .returning('id')
            .executeTakeFirst();
          g.device.clock_drift = drift;
          if (turned) await notify(trx, g.device.company_id, null, 'clockDrift', { device: g.device.name, seconds: drift });
          continue;
        }
        // Stored when it changes by more than the limit (a terminal with a wrong clock must not cost a write per punch).
        const value = suspicious ? drift : 0;
        if (Math.abs(value - g.device.clock_drift) > DRIFT_LIMIT_S || (value === 0 && g.device.clock_drift !== 0)) {
          await trx.updateTable('devices').set({ clock_drift: value }).where('id', '=', g.device.id).execute();
          g.device.clock_drift = value;
        }
      }
      // All the group's rows in shared multi-row statements; duplicates are skipped by the unique key.
      const inserted = await writer.insertIgnore(trx, rows);
      // The newest few new records of each upload, when taken just now, are news for the watchers' screens; every
      // new one is for the integrators.
      const byKey = new Map(inserted.map((r) => [`${r.device_id}/${r.pin}/${r.local_time}`, r.id]));
      const live = new Set<number>();
      for (const keys of uploads)
        for (const id of keys
          .map((k) => byKey.get(k))
          .filter((x) => x !== undefined)
          .slice(-LIVE_PER_UPLOAD))
          live.add(id);
      await announcePunches(trx, inserted, live);
      // Attendance follows what was stored: a retried upload that stored nothing recalculates nothing.
      const known = rows.filter((r) => r.person_id !== null && byKey.has(`${r.device_id}/${r.pin}/${r.local_time}`));
      if (known.length) await stored.emit(trx, { punches: known.map((r) => ({ companyId: r.company_id, personId: r.person_id!, time: r.time })) });
    });
  }

  async function drain() {
    try {
      while (queue.length) {
        const group = queue.splice(0, GROUP_MAX);
        try {
          await writeGroup(group);
          group.forEach((g) => g.resolve());
          for (const g of group) for (const fn of ingested) fn(g.device.protocol, g.records.length);
        } catch (e) {
          group.forEach((g) => g.reject(e));
        }
      }
    } finally {
      writing = false;
    }
  }

  return {
    /** Listened to by attendance: the punches of known people a commit stored (a retried upload's are not). */
    stored,
    /** Observes committed uploads (records each, by the device's protocol); an observer must not throw. */
    onIngested(fn: (protocol: string, records: number) => void) {
      ingested.push(fn);
    },
    /**
     * Stores a batch of punches and resolves only after it is committed, so the gateway's "OK" never
     * precedes the data. Uploads arriving while a transaction runs share the next one (group commit).
     * Unknown PINs are kept as strangers. `history`: records of the past on purpose (an old software's file), no clock check.
     */
    ingest(device: DeviceRow, records: PunchRecord[], opts: { history?: boolean } = {}): Promise<void> {
      if (!records.length) return Promise.resolve();
      return new Promise((resolve, reject) => {
        queue.push({ device, records, history: opts.history ?? false, resolve, reject });
        // SQLite calls complete synchronously, so a transaction would finish before the next upload is
        // even parsed: waiting one turn of the event loop lets the uploads of this I/O phase share it.
        if (!writing) {
          writing = true;
          setImmediate(() => void drain());
        }
      });
    },

    /**
     * A face the terminal refused (no ATTLOG comes with it): stored as a punch row with `stranger` 1 (an unknown face,
     * PIN '0') or 2 (a user the terminal knew, by PIN, whether or not the company has that number), its photo saved first, resolving only after the commit. The
     * (device, PIN, local time) key makes a resend add nothing. Resolves to the new row's id, or null for a resend.
     */
    async stranger(device: DeviceRow, r: StrangerRecord): Promise<number | null> {
      const pin = r.pin || '0';
      const photo = await deps.photos.save(device.company_id, device.id, pin, r.time, r.jpeg);
      const createdAt = nowIso();
      return transaction(db, async (trx) => {
        const row = await trx
          .insertInto('punches')
          .values({
            company_id: device.company_id,
            device_id: device.id,
            person_id: null,
            pin,
            local_time: r.time,
            time: new Date(localToUtcMs(r.time, device.tz_offset)).toISOString(),
            status: REFUSAL_STATUS[r.reason],
            verify: 15,
            workcode: '',
            temperature: null,
            mask: null,
            alcohol: null,
            alcohol_over: null,
            health: null,
            photo,
            // a PIN is a user the terminal knows: refused, whether or not the company has that number (yet)
            stranger: pin === '0' ? STRANGER.unknown : STRANGER.refused,
            created_at: createdAt,
          })
          .onConflict((oc) => oc.columns(['device_id', 'pin', 'local_time']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!row) return null;
        // announced with its photo (no `photo` event follows) and a stranger alarm; only when new, so a retry is silent
        await announcePunches(trx, [{ id: row.id, company_id: device.company_id }], new Set([row.id]));
        return row.id;
      });
    },

    /**
     * People saved with a number (created, renumbered, imported, taken over from a terminal) take the punches stored
     * earlier under that number as a stranger's: a terminal's log from before they existed here (issue #30). Their
     * days recalculate (attendance hears `stored`; closed periods stay as they are) and the changes feed lists the
     * punches again. Refusals (stranger 2) and unknown faces (PIN '0') stay what they are. Answers how many it took.
     */
    async claimStrangers(trx: Executor, companyId: number, personIds: readonly number[]): Promise<number> {
      const claimed: { id: number; person_id: number | null; time: string }[] = [];
      for (const part of chunks(personIds))
        claimed.push(
          ...(await trx
            .updateTable('punches')
            .set((eb) => ({
              person_id: eb
                .selectFrom('persons')
                .select('persons.id')
                .where('persons.company_id', '=', companyId)
                .whereRef('persons.number', '=', 'punches.pin'),
              stranger: STRANGER.none,
            }))
            .where('company_id', '=', companyId)
            .where('stranger', '=', STRANGER.unknown)
            .where('pin', '<>', '0')
            .where('pin', 'in', (eb) =>
              eb.selectFrom('persons').select('persons.number').where('persons.company_id', '=', companyId).where('persons.id', 'in', part),
            )
            .returning(['id', 'person_id', 'time'])
            .execute()),
        );
      const mine = claimed.filter((r) => r.person_id !== null);
      if (!mine.length) return 0;
      await recordChanges(
        trx,
        companyId,
        'punch',
        mine.map((r) => ({ ref: r.id })),
      );
      await stored.emit(trx, { punches: mine.map((r) => ({ companyId, personId: r.person_id!, time: r.time })), claimed: true });
      return mine.length;
    },

    async photo(device: DeviceRow, pin: string, localTime: string, data: Buffer) {
      const name = await deps.photos.save(device.company_id, device.id, pin, localTime, data);
      const id = await punchesRepository.setPhoto(db, device.id, pin, localTime, name);
      if (id !== null) return publishPhoto(db, device.company_id, id);
      deps.photos.awaitPunch(device.id, name);
      await deps.early?.(db, { kind: 'photo', device: device.id, name });
      if (deps.recheckMs) {
        // The punch may have reached another instance before it heard of the photo: linked now if it is still bare.
        const timer = setTimeout(() => {
          punchesRepository
            .setPhoto(db, device.id, pin, localTime, name, { onlyBare: true })
            .then((later) => (later === null ? undefined : publishPhoto(db, device.company_id, later)))
            // best effort: the server may be closing (the photo stays stored; the punch lists without it)
            .catch(() => undefined);
        }, deps.recheckMs);
        timer.unref();
      }
    },
  };
}
export type PunchesService = ReturnType<typeof punchesService>;
