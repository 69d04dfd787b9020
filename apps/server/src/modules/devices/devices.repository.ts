import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import { busOf } from '../../db/bus.ts';
import type { Db, Executor } from '../../db/database.ts';
import { dbOf } from '../../db/transaction.ts';
import type { DeviceTable } from '../../db/schema.ts';
import { likeKeyword } from '../../lib/schemas.ts';

export type DeviceRow = Selectable<DeviceTable>;
export type DeviceFields = Omit<DeviceRow, 'id' | 'company_id'>;

/** A new device's row: the given fields over the defaults (offline, nothing learned from the terminal yet). */
export function newDeviceRow(f: Pick<DeviceFields, 'name' | 'serial' | 'ip' | 'password' | 'created_at'> & Partial<DeviceFields>): DeviceFields {
  return {
    protocol: 'zk-push',
    account: '',
    port: 80,
    event_secret: randomBytes(18).toString('base64url'),
    capacity: 3000,
    direction: 'in',
    attendance: 1,
    attendance_scope: 'selected',
    restrict_inout: 0,
    upload_face_image: 1,
    upload_strangers: 0,
    function_type: 'attendance',
    tz_offset: 480,
    options: '{}',
    special: '{}',
    firmware: '',
    user_count: 0,
    user_count_at: null,
    reported_at: null,
    info: '{}',
    online: 0,
    last_seen_at: null,
    open_status: 'unknown',
    clock_drift: 0,
    att_stamp: '0',
    op_stamp: '0',
    photo_stamp: '0',
    updated_at: f.created_at,
    ...f,
  };
}

/** Devices of one company; findBySerial is the single global lookup (a terminal names itself only by serial). */
export const devicesRepository = {
  async list(db: Executor, companyId: number, f: { keyword?: string | undefined; online?: number | undefined; offset: number; limit: number }) {
    let q = db.selectFrom('devices').where('company_id', '=', companyId);
    if (f.online !== undefined) q = q.where('online', '=', f.online);
    if (f.keyword) {
      const p = likeKeyword(f.keyword);
      q = q.where((eb) => eb.or([eb(eb.fn('lower', ['name']), 'like', p), eb(eb.fn('lower', ['serial']), 'like', p), eb('ip', 'like', p)]));
    }
    const [items, total] = await Promise.all([
      q.selectAll().orderBy('name').orderBy('id').limit(f.limit).offset(f.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },
  names: (db: Executor, companyId: number) =>
    db.selectFrom('devices').select(['id', 'name']).where('company_id', '=', companyId).orderBy('name').orderBy('id').execute(),
  all: (db: Executor, companyId: number) => db.selectFrom('devices').selectAll().where('company_id', '=', companyId).orderBy('name').execute(),
  find: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('devices').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
  /** Protocol gateways only: a woken delivery knows its device by id, whatever the company. */
  findById: (db: Executor, id: number) => db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst(),
  /** Protocol deliveries only: the terminals a dialled protocol calls, across companies. */
  ofProtocol: (db: Executor, protocol: string) => db.selectFrom('devices').selectAll().where('protocol', '=', protocol).orderBy('id').execute(),
  /** Protocol gateways only: the serial is how a terminal identifies itself. */
  findBySerial: (db: Executor, serial: string) => db.selectFrom('devices').selectAll().where('serial', '=', serial).executeTakeFirst(),
  serialTaken: async (db: Executor, serial: string, exceptId = 0) =>
    Boolean(await db.selectFrom('devices').select('id').where('serial', '=', serial).where('id', '!=', exceptId).executeTakeFirst()),
  async insert(db: Executor, companyId: number, row: DeviceFields): Promise<number> {
    const r = await db
      .insertInto('devices')
      .values({ ...row, company_id: companyId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },
  async update(db: Executor, companyId: number, id: number, patch: Partial<DeviceFields>) {
    await db.updateTable('devices').set(patch).where('company_id', '=', companyId).where('id', '=', id).execute();
  },
  async delete(db: Executor, companyId: number, id: number) {
    await db.deleteFrom('devices').where('company_id', '=', companyId).where('id', '=', id).execute();
    await deviceCache.forget(db);
  },
  /** Devices that stopped talking: online but not seen since `before`. */
  stale: (db: Executor, before: string) => db.selectFrom('devices').selectAll().where('online', '=', 1).where('last_seen_at', '<', before).execute(),
};

/** The bus topic (db/bus.ts) on which an instance tells the others to forget cached device rows: a serial, or null for all. */
export const DEVICE_FORGET_TOPIC = 'device.forget';

type CachedRows = Map<string, { row: DeviceRow; at: number }>;
const caches = new WeakMap<Db, CachedRows>();
const cacheOf = (executor: Executor): CachedRows | undefined => {
  const db = dbOf(executor);
  if (!db) return undefined;
  return caches.get(db) ?? caches.set(db, new Map()).get(db)!;
};

/**
 * Terminals poll and upload constantly; their row is read from memory for up to 2 s, one cache per database (per
 * server instance). Every write to a device through the console forgets it at once here and, through the bus at
 * its commit, on every other instance of the same database, so a re-registered serial never lands in its old company
 * whichever instance the terminal calls.
 */
export const deviceCache = {
  async bySerial(db: Executor, serial: string): Promise<DeviceRow | undefined> {
    const rows = cacheOf(db);
    const hit = rows?.get(serial);
    if (hit && Date.now() - hit.at < 2000) return hit.row;
    const row = await devicesRepository.findBySerial(db, serial);
    if (row) rows?.set(serial, { row, at: Date.now() });
    else rows?.delete(serial);
    return row;
  },
  /** Whether this instance holds the serial's row now (tests). */
  holds(db: Executor, serial: string): boolean {
    const hit = cacheOf(db)?.get(serial);
    return !!hit && Date.now() - hit.at < 2000;
  },
  /** Forgets here at once; the other instances forget when the executor's transaction commits. */
  async forget(executor: Executor, serial?: string) {
    this.forgetHere(executor, serial);
    await busOf(executor)?.send(executor, DEVICE_FORGET_TOPIC, serial ?? null);
  },
  /** Forgets on this instance only (what the bus's message does here). */
  forgetHere(executor: Executor, serial?: string | null) {
    const rows = cacheOf(executor);
    if (!rows) return;
    if (serial === undefined || serial === null) rows.clear();
    else rows.delete(serial);
  },
};

export const unknownDevicesRepository = {
  async seen(db: Executor, serial: string, ip: string, at: string) {
    await db
      .insertInto('unknown_devices')
      .values({ serial, ip, first_seen_at: at, last_seen_at: at, requests: 1 })
      .onConflict((oc) => oc.column('serial').doUpdateSet((eb) => ({ ip, last_seen_at: at, requests: eb('unknown_devices.requests', '+', 1) })))
      .execute();
  },
  list: (db: Executor, since: string) =>
    db.selectFrom('unknown_devices').selectAll().where('last_seen_at', '>=', since).orderBy('last_seen_at', 'desc').limit(100).execute(),
  async forget(db: Executor, serial: string) {
    await db.deleteFrom('unknown_devices').where('serial', '=', serial).execute();
  },
};
