import { createHash, randomBytes } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { FIRMWARE_LIMITS, type FirmwareUpgrade, type Language, type LogCapture, type UpgradeState } from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import type { CommandResult, DeviceDriver } from '../../gateways/driver.ts';
import { t } from '../../i18n/i18n.ts';
import { badInput, conflict, invalid, notFound } from '../../lib/errors.ts';
import { FileTooLarge, type FileStore, type StoredFile } from '../../lib/files/store.ts';
import { nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { audit } from '../logs/logs.service.ts';
import { devicesRepository, type DeviceRow } from './devices.repository.ts';
import { firmwareRepository } from './firmware.repository.ts';
import type { SyncService } from './sync.service.ts';

const FILE_NAME = /^[a-f0-9]{32}\.(bin|log)$/;
/** The path a terminal is given to fetch an upgrade's file (ZK: `/iclock/file?url=`; the protocol echoes it). */
export const upgradeUrl = (upgradeId: number) => `firmware/${upgradeId}/emfw.cfg`;
const URL_PATTERN = /^firmware\/([1-9][0-9]{0,9})\/emfw\.cfg$/;

/**
 * Whether the version a terminal reports after its restart is the firmware's: the same, or the same followed by
 * the build the terminal adds (ISAPI shows "V3.3.0 build 250101" for firmware V3.3.0).
 */
export const sameVersion = (reported: string, expected: string) => reported === expected || reported.startsWith(`${expected} `);

type UpgradeRow = Awaited<ReturnType<typeof firmwareRepository.upgrades>>[number];
type LogRow = Awaited<ReturnType<typeof firmwareRepository.logs>>[number];

/**
 * Fleet work on terminals (issue #20, spec §8): firmware uploaded once per company (size-capped, hashed, stored
 * in the file store as firmware/<company>/<name>) and sent to one or many terminals, each upgrade followed from its command to the
 * version the terminal reports after its restart; and a terminal's own log file fetched for support (stored
 * as device-logs/<company>/<name>). Protocol-free: a driver writes the `upgrade` and `getLog` operations.
 */
export function firmwareService(deps: { database: Database; sync: SyncService; driver: (protocol: string) => DeviceDriver; files: FileStore }) {
  const { db } = deps.database;
  const { files } = deps;
  const keyOf = (kind: 'firmware' | 'device-logs', companyId: number, name: string) => (FILE_NAME.test(name) ? `${kind}/${companyId}/${name}` : undefined);
  const newName = (ext: 'bin' | 'log') => `${randomBytes(16).toString('hex')}.${ext}`;
  async function device(trx: Executor, tenant: Tenant, id: number): Promise<DeviceRow> {
    const d = await devicesRepository.find(trx, tenant.companyId, id);
    if (!d) throw notFound();
    return d;
  }
  const reasonOf = (lang: Language, protocol: string, code: number | null, result: string) =>
    code === null || result === 'timeout' ? t(lang, 'device.fleet.noAnswer') : t(lang, deps.driver(protocol).codeKey(code), { code });

  function presentUpgrade(lang: Language, r: UpgradeRow): FirmwareUpgrade {
    let state: UpgradeState;
    let reason = '';
    if (r.command_state === 'queued' || r.command_state === 'sent') state = r.downloaded_at ? 'downloading' : r.command_state;
    else if (r.command_state === 'done') {
      if (r.version_after === null) state = 'rebooting';
      else if (sameVersion(r.version_after, r.firmware_version)) state = 'done';
      else {
        // spec §8 "upgrade unknown version": back after the restart, but not with the version it was sent.
        state = 'failed';
        reason = t(lang, 'device.fleet.unknownVersion', { version: r.version_after });
      }
    } else {
      state = 'failed';
      reason =
        r.return_code !== null && deps.driver(r.protocol).wrongFirmware?.(r.return_code) === true
          ? t(lang, 'device.fleet.unknownVersion', { version: r.firmware_version })
          : t(lang, 'device.fleet.upgradeFailed', { reason: reasonOf(lang, r.protocol, r.return_code, r.result) });
    }
    return {
      id: r.id,
      device_id: r.device_id,
      device_name: r.device_name,
      firmware_id: r.firmware_id,
      firmware_name: r.firmware_name,
      firmware_version: r.firmware_version,
      state,
      version_before: r.version_before,
      version_after: r.version_after,
      code: r.command_state === 'failed' ? r.return_code : null,
      reason,
      created_at: r.created_at,
    };
  }

  function presentLog(lang: Language, protocol: string, r: LogRow): LogCapture {
    const pending = r.command_state === 'queued' || r.command_state === 'sent';
    const ok = r.command_state === 'done' && r.file !== '';
    let reason = '';
    if (!pending && !ok)
      reason = t(lang, 'device.fleet.logFailed', {
        reason: r.command_state === 'done' ? t(lang, 'device.fleet.noFile') : reasonOf(lang, protocol, r.return_code, r.result),
      });
    return {
      id: r.id,
      device_id: r.device_id,
      state: pending ? 'pending' : ok ? 'done' : 'failed',
      file_name: r.file_name,
      size: r.size,
      code: r.command_state === 'failed' ? r.return_code : null,
      reason,
      created_at: r.created_at,
    };
  }

  return {
    list: async (tenant: Tenant) =>
      (await firmwareRepository.list(db, tenant.companyId)).map((f) => ({
        id: f.id,
        name: f.name,
        version: f.version,
        size: f.size,
        sha256: f.sha256,
        created_at: f.created_at,
      })),

    /**
     * Stores a firmware file once, streamed into the file store (never whole in memory) while its hashes are
     * taken: the same bytes uploaded again are refused, naming the first upload.
     */
    async upload(tenant: Tenant, input: { name: string; version: string; data: Buffer | Readable }) {
      const name = input.name.trim();
      const version = input.version.trim();
      if (!name) throw invalid('name', 'reasons.required');
      if (name.length > FIRMWARE_LIMITS.nameMax) throw invalid('name', 'reasons.maxLength', { limit: FIRMWARE_LIMITS.nameMax });
      if (!version) throw invalid('version', 'reasons.required');
      if (version.length > FIRMWARE_LIMITS.versionMax || /[\t\r\n,]/.test(version)) throw invalid('version', 'reasons.invalid');
      const file = newName('bin');
      const key = keyOf('firmware', tenant.companyId, file)!;
      const md5 = createHash('md5');
      const source = Buffer.isBuffer(input.data) ? Readable.from([input.data]) : input.data;
      const hashing = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          md5.update(chunk);
          cb(null, chunk);
        },
      });
      source.on('error', (e) => hashing.destroy(e));
      let stored;
      try {
        stored = await files.put(key, source.pipe(hashing), { maxBytes: FIRMWARE_LIMITS.maxBytes, contentType: 'application/octet-stream' });
      } catch (e) {
        if (e instanceof FileTooLarge) throw badInput('errors.fileTooLarge', 'file', { mb: FIRMWARE_LIMITS.maxBytes / 1024 / 1024 });
        throw e;
      }
      const { size, sha256 } = stored;
      try {
        if (!size) throw invalid('file', 'reasons.required');
        const same = await firmwareRepository.bySha(db, tenant.companyId, sha256);
        if (same) throw conflict('device.fleet.sameFile', { name: same.name, version: same.version });
        const id = await transaction(db, async (trx) => {
          const id = await firmwareRepository.insert(trx, {
            company_id: tenant.companyId,
            name,
            version,
            size,
            sha256,
            md5: md5.digest('hex'),
            file,
            created_at: nowIso(),
          });
          await audit(trx, tenant, 'device', 'device.firmware.upload', { name, version });
          return id;
        });
        return (await this.list(tenant)).find((f) => f.id === id)!;
      } catch (e) {
        await files.delete(key);
        throw e;
      }
    },

    async remove(tenant: Tenant, id: number) {
      const f = await firmwareRepository.find(db, tenant.companyId, id);
      if (!f) throw notFound();
      if (await firmwareRepository.inFlight(db, tenant.companyId, id)) throw conflict('device.fleet.inUse');
      await transaction(db, async (trx) => {
        await firmwareRepository.remove(trx, tenant.companyId, id);
        await audit(trx, tenant, 'device', 'device.firmware.delete', { name: f.name, version: f.version });
      });
      const key = keyOf('firmware', tenant.companyId, f.file);
      if (key) await files.delete(key);
    },

    /** Queues the firmware for each terminal (it restarts once it has it); one upgrade in flight per terminal. */
    async upgrade(tenant: Tenant, lang: Language, firmwareId: number, deviceIds: number[]) {
      const f = await firmwareRepository.find(db, tenant.companyId, firmwareId);
      if (!f) throw notFound();
      const ids = [...new Set(deviceIds)];
      const devices: DeviceRow[] = [];
      for (const id of ids) devices.push(await device(db, tenant, id));
      const created = await transaction(db, async (trx) => {
        // one upgrade in flight per terminal, checked where it is written
        const busy = await firmwareRepository.upgradingAny(trx, deps.database.dialect, tenant.companyId, ids);
        if (busy) throw badInput('device.fleet.busy', 'device_ids', { name: busy.device_name });
        const out: number[] = [];
        for (const d of devices) {
          const command = await deps.sync.queue(trx, d, { kind: 'upgrade', url: '', md5: f.md5, size: f.size });
          const id = await firmwareRepository.insertUpgrade(trx, {
            company_id: tenant.companyId,
            device_id: d.id,
            firmware_id: f.id,
            command_id: command,
            version_before: d.firmware,
            created_at: nowIso(),
          });
          // The url names the upgrade, so the download can be checked against the terminal asking for it.
          await trx
            .updateTable('device_commands')
            .set({ payload: JSON.stringify({ kind: 'upgrade', url: upgradeUrl(id), md5: f.md5, size: f.size }) })
            .where('id', '=', command)
            .execute();
          out.push(id);
        }
        await audit(trx, tenant, 'device', 'device.firmware.upgrade', { name: f.name, version: f.version, devices: devices.map((d) => d.name).join(', ') });
        return out;
      });
      return (await firmwareRepository.upgrades(db, tenant.companyId, { ids: created, limit: created.length })).map((r) => presentUpgrade(lang, r));
    },

    async upgrades(tenant: Tenant, lang: Language, f: { deviceId?: number | undefined; firmwareId?: number | undefined }) {
      return (await firmwareRepository.upgrades(db, tenant.companyId, { ...f, limit: 200 })).map((r) => presentUpgrade(lang, r));
    },

    async captureLog(tenant: Tenant, lang: Language, deviceId: number) {
      const d = await device(db, tenant, deviceId);
      const id = await transaction(db, async (trx) => {
        const command = await deps.sync.queue(trx, d, { kind: 'getLog' });
        const id = await firmwareRepository.insertLog(trx, { company_id: tenant.companyId, device_id: d.id, command_id: command, created_at: nowIso() });
        await audit(trx, tenant, 'device', 'device.log.capture', { name: d.name });
        return id;
      });
      return presentLog(lang, d.protocol, (await firmwareRepository.logs(db, tenant.companyId, { id, limit: 1 }))[0]!);
    },

    async logs(tenant: Tenant, lang: Language, deviceId: number) {
      const d = await device(db, tenant, deviceId);
      return (await firmwareRepository.logs(db, tenant.companyId, { deviceId, limit: 50 })).map((r) => presentLog(lang, d.protocol, r));
    },

    /** A captured file to download: its stream and a file name for the browser. */
    async logFile(tenant: Tenant, id: number): Promise<{ file: StoredFile; name: string }> {
      const r = (await firmwareRepository.logs(db, tenant.companyId, { id, limit: 1 }))[0];
      const key = r && r.file ? keyOf('device-logs', tenant.companyId, r.file) : undefined;
      if (!r || !key) throw notFound();
      const d = await device(db, tenant, r.device_id);
      const file = await files.get(key);
      if (!file) throw notFound();
      const base = (r.file_name.split(/[\\/]/).pop() || 'device.log').replace(/[^A-Za-z0-9._-]/g, '_');
      return { file, name: `${d.serial}-${r.created_at.slice(0, 10)}-${base}` };
    },

    // ---- the inbound port (any protocol)

    /** A terminal fetches an upgrade's file: only its own upgrade, only while the command is out. */
    async fileFor(d: DeviceRow, url: string): Promise<{ stream: Readable; size: number } | undefined> {
      const m = URL_PATTERN.exec(url.replace(/^.*?(firmware\/)/, '$1'));
      if (!m) return undefined;
      const u = await firmwareRepository.upgradeForDownload(db, d.id, Number(m[1]));
      const key = u ? keyOf('firmware', u.company_id, u.file) : undefined;
      const file = key ? await files.get(key) : undefined;
      if (!u || !file) return undefined;
      await firmwareRepository.downloaded(db, u.id, nowIso());
      return { stream: file.stream, size: file.size };
    },

    /** The firmware a terminal reports: the version after, for upgrades it accepted before restarting. */
    reported: (d: DeviceRow, version: string) => firmwareRepository.reported(db, d.id, version),

    /** Files in command results (log captures) are stored before the results are applied. */
    async storeFiles(d: DeviceRow, results: CommandResult[]) {
      for (const r of results) {
        if (!r.file) continue;
        const capture = await firmwareRepository.logForCommand(db, d.id, r.id);
        if (!capture || capture.file) continue;
        const file = newName('log');
        await files.put(keyOf('device-logs', d.company_id, file)!, r.file.data, { contentType: 'text/plain' });
        await firmwareRepository.logStored(db, capture.id, { file, file_name: r.file.name.slice(0, 200), size: r.file.data.length });
      }
    },
  };
}
export type FirmwareService = ReturnType<typeof firmwareService>;
