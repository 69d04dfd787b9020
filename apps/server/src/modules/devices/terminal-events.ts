import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { TerminalEvents } from '../../gateways/terminal-events.ts';
import { transaction } from '../../db/transaction.ts';
import { parseJson } from '../../lib/json.ts';
import { nowIso } from '../../lib/time.ts';
import { publish } from '../live/publish.ts';
import { notify } from '../messages/messages.service.ts';
import { personsRepository } from '../persons/persons.repository.ts';
import type { HealthService } from '../punches/health.service.ts';
import type { PunchesService } from '../punches/punches.service.ts';
import { deviceCache, devicesRepository, unknownDevicesRepository, type DeviceRow } from './devices.repository.ts';
import type { PresenceService } from './presence.service.ts';
import type { FirmwareService } from './firmware.service.ts';
import type { SyncService } from './sync.service.ts';
import type { RosterService } from './roster.service.ts';

/** After a roster read is asked, users the terminal uploads are its answer, not enrolments to report (issue #30). */
const ROSTER_READ_QUIET_MS = 30 * 60_000;

/**
 * What every terminal gateway reports, handled once for all protocols (the inbound port of
 * gateways/terminal-events.ts): registration, presence, what the terminal says of itself, the sync
 * ledger's commands and results, punches.
 */
export function terminalEvents(deps: {
  database: Database;
  sync: SyncService;
  firmware: FirmwareService;
  punches: PunchesService;
  health: HealthService;
  presence: PresenceService;
  roster: RosterService;
  log: FastifyBaseLogger;
}): TerminalEvents<DeviceRow> {
  const { db } = deps.database;
  const unknownLogged = new Map<string, number>();
  // Stamps are written at most every 30 s per device instead of on every upload.
  const stampWritten = new Map<string, number>();
  /** Merges protocol facts into the stored JSON; the cached row is dropped so gateways re-read it. */
  const saveFacts = async (d: DeviceRow, facts: Record<string, unknown>, extra: Partial<DeviceRow> = {}) => {
    const info = JSON.stringify({ ...parseJson<Record<string, unknown>>(d.info, {}), ...facts });
    const at = nowIso();
    await devicesRepository.update(db, d.company_id, d.id, { ...extra, info, reported_at: at });
    deviceCache.forgetHere(db, d.serial);
    await reported(d, at);
  };
  /** What the terminal says of itself changed (firmware, counts, settings): the device list and page refetch it. */
  const reported = (d: DeviceRow, at: string) => publish(db, d.company_id, 'device', { id: d.id, name: d.name, online: true, at }, ['face']);

  return {
    async seen(serial, ip) {
      const device = await deviceCache.bySerial(db, serial);
      if (!device) {
        await unknownDevicesRepository.seen(db, serial, ip, nowIso());
        const last = unknownLogged.get(serial) ?? 0;
        if (Date.now() - last > 10 * 60_000 && unknownLogged.size < 10_000) {
          unknownLogged.set(serial, Date.now());
          deps.log.warn({ serial, ip }, 'unregistered terminal');
        }
        return undefined;
      }
      await deps.presence.seen(device);
      return device;
    },

    terminal: (id) => devicesRepository.findById(db, id),
    dialled: (protocol) => devicesRepository.ofProtocol(db, protocol),

    async restarted(d, facts) {
      await saveFacts(d, facts);
      await deps.sync.expire(d.id);
      // A terminal that (re)connects is asked for its settings and counts at once (the console's "Other" tab).
      await transaction(db, (trx) => deps.sync.queue(trx, d, { kind: 'info' }));
    },

    async info(d, info) {
      // An upgraded terminal is back: the version it reports is the upgrade's version after.
      if (info.firmware) await deps.firmware.reported(d, info.firmware);
      const patch: Partial<DeviceRow> = {};
      if (info.firmware !== undefined) patch.firmware = info.firmware;
      if (info.userCount !== undefined) {
        patch.user_count = info.userCount;
        patch.user_count_at = nowIso();
      }
      // The door column also shows the last remote open's result: a reported state replaces it only when it differs.
      if (info.door !== undefined && info.door !== d.open_status) patch.open_status = info.door;
      // The terminal's own capacity wins over the figure typed when the device was added: the terminal refuses
      // users past its memory whatever we record, and refusing people below it (the form's default of 3000 on a
      // terminal that holds 50,000) only leaves them off a terminal that has room. The typed figure stays for
      // terminals that report none (ZK PUSH); the ledger's capacity check and "users / capacity" read this one.
      if (info.capacity !== undefined && info.capacity > 0 && info.capacity !== d.capacity) patch.capacity = Math.min(info.capacity, 1_000_000);
      if (info.facts) return saveFacts(d, info.facts, patch);
      if (!Object.keys(patch).length) return;
      const changed =
        (patch.firmware !== undefined && patch.firmware !== d.firmware) ||
        (patch.user_count !== undefined && patch.user_count !== d.user_count) ||
        patch.open_status !== undefined ||
        patch.capacity !== undefined;
      await devicesRepository.update(db, d.company_id, d.id, patch);
      // The cached row follows (no re-read): counts come with every poll on some firmware, so only a change is announced.
      Object.assign(d, patch);
      if (changed) await reported(d, nowIso());
    },

    // Planning also gives up on commands the terminal never answered.
    poll: (d, wire) => deps.sync.plan(d, wire),
    async commandResults(d, results) {
      // Files (log captures) are on disk before their commands count as answered.
      await deps.firmware.storeFiles(d, results);
      await deps.sync.results(d, results);
    },
    file: (d, url) => deps.firmware.fileFor(d, url),
    commandRejected: (d, commandId, code) => deps.sync.rejected(d, commandId, code),
    punches: (d, records) => deps.punches.ingest(d, records),
    health: (d, records) => deps.health.ingest(d, records),
    punchPhoto: (d, pin, localTime, jpeg) => deps.punches.photo(d, pin, localTime, jpeg),
    async stranger(d, record) {
      await deps.punches.stranger(d, record);
    },

    // What the terminal holds, as a roster read brings it (issue #30): recorded for review, never applied here.
    roster: (d, users) => deps.roster.record(d, users),
    async rosterFace(d, pin, jpeg) {
      if (!(await deps.roster.face(d, pin, jpeg))) deps.log.warn({ device: d.id, pin, bytes: jpeg.length }, 'terminal face skipped: not a JPEG or too large');
    },

    async enrolled(d, pins) {
      // The server is the roster's source of truth: users enrolled at the terminal are reported to the
      // administrators rather than added silently. Not while a roster read brings them all (its review lists them):
      // its uploads may come before or after its answer, so for a while after it was asked.
      const reading = await db
        .selectFrom('device_commands')
        .select('id')
        .where('device_id', '=', d.id)
        .where('kind', '=', 'readRoster')
        .where('created_at', '>', new Date(Date.now() - ROSTER_READ_QUIET_MS).toISOString())
        .executeTakeFirst();
      if (reading) return;
      const known = await personsRepository.byNumbers(db, d.company_id, pins);
      const strangers = pins.filter((p) => !known.has(p));
      if (strangers.length)
        await notify(db, d.company_id, null, 'deviceEnrolled', {
          device: d.name,
          deviceId: d.id,
          count: strangers.length,
          pins: strangers.slice(0, 10).join(', '),
        });
    },

    async stamp(d, kind, value) {
      const column = kind === 'att' ? 'att_stamp' : 'op_stamp';
      if (d[column] === value) return;
      const key = `${d.id}:${column}`;
      if (Date.now() - (stampWritten.get(key) ?? 0) < 30_000) return;
      stampWritten.set(key, Date.now());
      d[column] = value;
      await devicesRepository.update(db, d.company_id, d.id, { [column]: value });
    },
  };
}
