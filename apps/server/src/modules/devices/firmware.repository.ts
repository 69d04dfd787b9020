import type { Executor } from '../../db/database.ts';

/** Firmware files, upgrades and log captures (issue #20). Every method is scoped by company but the port's. */
export const firmwareRepository = {
  list: (db: Executor, companyId: number) => db.selectFrom('firmware').selectAll().where('company_id', '=', companyId).orderBy('id', 'desc').execute(),
  find: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('firmware').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
  bySha: (db: Executor, companyId: number, sha256: string) =>
    db.selectFrom('firmware').selectAll().where('company_id', '=', companyId).where('sha256', '=', sha256).executeTakeFirst(),
  async insert(
    db: Executor,
    row: { company_id: number; name: string; version: string; size: number; sha256: string; md5: string; file: string; created_at: string },
  ) {
    return (await db.insertInto('firmware').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },
  remove: (db: Executor, companyId: number, id: number) => db.deleteFrom('firmware').where('company_id', '=', companyId).where('id', '=', id).execute(),
  /** Upgrades of this firmware whose command is not answered yet (the file must stay). */
  inFlight: (db: Executor, companyId: number, firmwareId: number) =>
    db
      .selectFrom('firmware_upgrades as u')
      .innerJoin('device_commands as c', 'c.id', 'u.command_id')
      .select('u.id')
      .where('u.company_id', '=', companyId)
      .where('u.firmware_id', '=', firmwareId)
      .where('c.state', 'in', ['queued', 'sent'])
      .executeTakeFirst(),

  async insertUpgrade(
    db: Executor,
    row: { company_id: number; device_id: number; firmware_id: number; command_id: number; version_before: string; created_at: string },
  ) {
    return (await db.insertInto('firmware_upgrades').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },
  /**
   * The first of these terminals with an upgrade still in flight (its command queued or sent), by name. On PostgreSQL
   * the terminals' rows are locked first, so two requests for one terminal at once cannot both find none.
   */
  async upgradingAny(trx: Executor, dialect: 'sqlite' | 'postgres', companyId: number, deviceIds: number[]) {
    if (!deviceIds.length) return undefined;
    if (dialect === 'postgres')
      await trx.selectFrom('devices').select('id').where('company_id', '=', companyId).where('id', 'in', deviceIds).orderBy('id').forNoKeyUpdate().execute();
    return trx
      .selectFrom('firmware_upgrades as u')
      .innerJoin('device_commands as c', 'c.id', 'u.command_id')
      .innerJoin('devices as d', 'd.id', 'u.device_id')
      .select('d.name as device_name')
      .where('u.company_id', '=', companyId)
      .where('u.device_id', 'in', deviceIds)
      .where('c.state', 'in', ['queued', 'sent'])
      .executeTakeFirst();
  },
  /** Upgrades with what their progress is read from: the command, the firmware and the device. */
  upgrades(db: Executor, companyId: number, f: { ids?: number[]; deviceId?: number | undefined; firmwareId?: number | undefined; limit: number }) {
    let q = db
      .selectFrom('firmware_upgrades as u')
      .innerJoin('device_commands as c', 'c.id', 'u.command_id')
      .innerJoin('firmware as f', 'f.id', 'u.firmware_id')
      .innerJoin('devices as d', 'd.id', 'u.device_id')
      .select([
        'u.id',
        'u.device_id',
        'u.firmware_id',
        'u.version_before',
        'u.version_after',
        'u.downloaded_at',
        'u.created_at',
        'c.state as command_state',
        'c.return_code',
        'c.result',
        'f.name as firmware_name',
        'f.version as firmware_version',
        'd.name as device_name',
        'd.protocol',
      ])
      .where('u.company_id', '=', companyId);
    if (f.ids) q = q.where('u.id', 'in', f.ids.length ? f.ids : [0]);
    if (f.deviceId) q = q.where('u.device_id', '=', f.deviceId);
    if (f.firmwareId) q = q.where('u.firmware_id', '=', f.firmwareId);
    return q.orderBy('u.id', 'desc').limit(f.limit).execute();
  },
  /** Port: the upgrade a terminal downloads, only its own and only while its command is out. */
  upgradeForDownload: (db: Executor, deviceId: number, upgradeId: number) =>
    db
      .selectFrom('firmware_upgrades as u')
      .innerJoin('device_commands as c', 'c.id', 'u.command_id')
      .innerJoin('firmware as f', 'f.id', 'u.firmware_id')
      .select(['u.id', 'u.company_id', 'f.file', 'f.size'])
      .where('u.device_id', '=', deviceId)
      .where('u.id', '=', upgradeId)
      .where('c.state', 'in', ['queued', 'sent'])
      .executeTakeFirst(),
  downloaded: (db: Executor, id: number, at: string) => db.updateTable('firmware_upgrades').set({ downloaded_at: at }).where('id', '=', id).execute(),
  /** Port: the version a terminal reports after it accepted an upgrade and restarted. */
  reported: (db: Executor, deviceId: number, version: string) =>
    db
      .updateTable('firmware_upgrades')
      .set({ version_after: version })
      .where('device_id', '=', deviceId)
      .where('version_after', 'is', null)
      .where('command_id', 'in', (eb) => eb.selectFrom('device_commands').select('id').where('device_id', '=', deviceId).where('state', '=', 'done'))
      .execute(),

  async insertLog(db: Executor, row: { company_id: number; device_id: number; command_id: number; created_at: string }) {
    return (await db.insertInto('device_logs').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },
  logs(db: Executor, companyId: number, f: { deviceId?: number; id?: number; limit: number }) {
    let q = db
      .selectFrom('device_logs as l')
      .innerJoin('device_commands as c', 'c.id', 'l.command_id')
      .select(['l.id', 'l.device_id', 'l.file_name', 'l.file', 'l.size', 'l.created_at', 'c.state as command_state', 'c.return_code', 'c.result'])
      .where('l.company_id', '=', companyId);
    if (f.deviceId) q = q.where('l.device_id', '=', f.deviceId);
    if (f.id) q = q.where('l.id', '=', f.id);
    return q.orderBy('l.id', 'desc').limit(f.limit).execute();
  },
  /** Port: the capture a command's file belongs to. */
  logForCommand: (db: Executor, deviceId: number, commandId: number) =>
    db.selectFrom('device_logs').selectAll().where('device_id', '=', deviceId).where('command_id', '=', commandId).executeTakeFirst(),
  logStored: (db: Executor, id: number, patch: { file: string; file_name: string; size: number }) =>
    db.updateTable('device_logs').set(patch).where('id', '=', id).execute(),
};
