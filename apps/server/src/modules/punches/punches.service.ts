import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../../db/database.ts';
import type { AttRecord } from '../../devices/zk-push/codec.ts';
import { localToUtc } from '../../devices/zk-push/codec.ts';
import { clock, nowIso } from '../../lib/time.ts';
import type { DeviceRow } from '../devices/devices.repository.ts';
import { notify } from '../messages/messages.service.ts';
import { personsRepository } from '../persons/persons.repository.ts';
import { punchesRepository, type PunchInsert } from './punches.repository.ts';

/** A device clock more than this far off raises a message (it shifts punches between days and shifts). */
export const DRIFT_LIMIT_S = 120;

/** Punch photos: DATA_DIR/punches/<company>/<device>/<YYYYMMDDhhmmss>-<PIN>.jpg, named from what the device sent. */
export function punchPhotoStore(dataDir: string) {
  const dir = (companyId: number, deviceId: number) => path.join(dataDir, 'punches', String(companyId), String(deviceId));
  const nameOf = (pin: string, localTime: string) => `${localTime.replace(/\D/g, '')}-${pin}.jpg`;
  return {
    nameOf,
    async save(companyId: number, deviceId: number, pin: string, localTime: string, data: Buffer): Promise<string> {
      const name = nameOf(pin, localTime);
      await fs.promises.mkdir(dir(companyId, deviceId), { recursive: true });
      await fs.promises.writeFile(path.join(dir(companyId, deviceId), name), data);
      return name;
    },
    exists: (companyId: number, deviceId: number, name: string) => fs.existsSync(path.join(dir(companyId, deviceId), name)),
    pathOf(companyId: number, deviceId: number, name: string): string | undefined {
      if (!/^\d{14}-[A-Za-z0-9]{1,24}\.jpg$/.test(name)) return undefined;
      const file = path.join(dir(companyId, deviceId), name);
      return fs.existsSync(file) ? file : undefined;
    },
  };
}
export type PunchPhotoStore = ReturnType<typeof punchPhotoStore>;

export function punchesService(deps: { database: Database; photos: PunchPhotoStore }) {
  const { db } = deps.database;
  return {
    /**
     * Stores a batch of punches in one transaction and only then lets the gateway acknowledge it.
     * Unknown PINs are kept as strangers. Returns how many were new.
     */
    async ingest(device: DeviceRow, records: AttRecord[]): Promise<number> {
      if (!records.length) return 0;
      const now = nowIso();
      const people = await personsRepository.byNumbers(db, device.company_id, [...new Set(records.map((r) => r.pin))]);
      const rows: PunchInsert[] = records.map((r) => {
        const photoName = deps.photos.nameOf(r.pin, r.time);
        return {
          company_id: device.company_id,
          device_id: device.id,
          person_id: people.get(r.pin)?.id ?? null,
          pin: r.pin,
          local_time: r.time,
          time: localToUtc(r.time, device.tz_offset),
          status: r.status,
          verify: r.verify,
          workcode: r.workcode,
          temperature: r.temperature,
          mask: r.mask,
          // The photo may have arrived first (§11.3 uploads are separate requests).
          photo: deps.photos.exists(device.company_id, device.id, photoName) ? photoName : '',
          stranger: people.has(r.pin) ? 0 : 1,
          created_at: now,
        };
      });
      return db.transaction().execute(async (trx) => {
        const added = await punchesRepository.insertIgnore(trx, rows);
        // Clock check on live punches only (a backlog is old on purpose): a record from the future, or a
        // single real-time record far in the past, means the terminal's clock is off.
        const newest = Math.max(...rows.map((r) => Date.parse(r.time)));
        const drift = Math.round((newest - clock.now()) / 1000);
        const suspicious = drift > DRIFT_LIMIT_S || (records.length === 1 && drift < -10 * 60);
        if (suspicious && Math.abs(device.clock_drift) <= DRIFT_LIMIT_S) {
          await notify(trx, device.company_id, null, 'clockDrift', { device: device.name, seconds: drift });
        }
        if (suspicious || Math.abs(device.clock_drift) > DRIFT_LIMIT_S) {
          await trx
            .updateTable('devices')
            .set({ clock_drift: suspicious ? drift : 0 })
            .where('id', '=', device.id)
            .execute();
        }
        return added;
      });
    },

    async photo(device: DeviceRow, pin: string, localTime: string, data: Buffer) {
      const name = await deps.photos.save(device.company_id, device.id, pin, localTime, data);
      await punchesRepository.setPhoto(db, device.id, pin, localTime, name);
    },
  };
}
export type PunchesService = ReturnType<typeof punchesService>;
