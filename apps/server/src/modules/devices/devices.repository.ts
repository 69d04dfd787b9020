import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
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
    deviceCache.forget();
  },
  /** Devices that stopped talking: online but not seen since `before`. */
  stale: (db: Executor, before: string) => db.selectFrom('devices').selectAll().where('online', '=', 1).where('last_seen_at', '<', before).execute(),
};

/**
 * Terminals poll and upload constantly; their row is read from memory for up to 2 s. Every write to a
 * device through the console forgets it at once (same process), so a re-registered serial never lands
 * in its old company.
 */
export const deviceCache = {
  rows: new Map<string, { row: DeviceRow; at: number }>(),
  async bySerial(db: Executor, serial: string): Promise<DeviceRow | undefined> {
    const hit = this.rows.get(serial);
    if (hit && Date.now() - hit.at < 2000) return hit.row;
    const row = await devicesRepository.findBySerial(db, serial);
    if (row) this.rows.set(serial, { row, at: Date.now() });
    else this.rows.delete(serial);
    return row;
  },
  forget(serial?: string) {
    if (serial === undefined) this.rows.clear();
    else this.rows.delete(serial);
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
