import type { Database, Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import type { HealthRecord } from '../../gateways/terminal-events.ts';
import { localToUtcMs, nowIso } from '../../lib/time.ts';
import type { DeviceRow } from '../devices/devices.repository.ts';
import { healthRepository, type HealthInsert } from './health.repository.ts';
import type { HealthWaiting } from './health-waiting.ts';
import type { EarlyHint, PunchesStored } from './punches.service.ts';

/** Colours per bus message (a NOTIFY carries under 8 kB; a PIN and a local time are short). */
const HINTS_PER_MESSAGE = 50;

/** Health-code records from terminals (spec §3 "Health record"), and the colour on their punches. */
export function healthService(deps: {
  database: Database;
  waiting: HealthWaiting;
  stored: { emit(trx: Executor, e: PunchesStored): Promise<void> };
  /** tells the other instances a colour awaits a punch (sent in the transaction: heard at its commit) */
  early?: (ex: Executor, hint: EarlyHint) => Promise<void>;
  /** with several instances: colours that came before their punch are set again after this long (0: never) */
  recheckMs?: number;
}) {
  const { db } = deps.database;

  /**
   * The punch may have reached another instance before it heard of the colour (or the hint was lost while its bus
   * reconnected): a punch of the key still without a colour gets it now, and its day is recomputed.
   */
  async function recheck(device: DeviceRow, early: HealthRecord[]) {
    await transaction(db, async (trx) => {
      const recompute: PunchesStored['punches'] = [];
      for (const r of early) {
        const p = await healthRepository.colourBare(trx, device.id, r.pin, r.time, r.color!);
        if (p && p.person_id !== null) recompute.push({ companyId: p.company_id, personId: p.person_id, time: p.time });
      }
      if (recompute.length) await deps.stored.emit(trx, { punches: recompute });
    });
  }
  return {
    /**
     * Stores one upload and resolves only after it is committed (the gateway acknowledges after this).
     * A resend adds nothing (unique device, PIN, time). The punch of the same key gets the colour, and its
     * person's day is recomputed (the health model judges a punch by it).
     */
    async ingest(device: DeviceRow, records: HealthRecord[]): Promise<void> {
      if (!records.length) return;
      const now = nowIso();
      const early: HealthRecord[] = [];
      await transaction(db, async (trx) => {
        early.length = 0;
        const pins = [...new Set(records.map((r) => r.pin))];
        const people = new Map(
          (await trx.selectFrom('persons').select(['id', 'number']).where('company_id', '=', device.company_id).where('number', 'in', pins).execute()).map(
            (p) => [p.number, p.id],
          ),
        );
        const rows = records.map((r): HealthInsert => ({
          company_id: device.company_id,
          device_id: device.id,
          person_id: people.get(r.pin) ?? null,
          pin: r.pin,
          local_time: r.time,
          time: new Date(localToUtcMs(r.time, device.tz_offset)).toISOString(),
          name: r.name,
          id_number: r.idNumber,
          temperature: r.temperature,
          color: r.color,
          place: r.place,
          nat_time: r.natTime,
          nat_result: r.natResult,
          trip: r.trip,
          vaccine_count: r.vaccineCount,
          vaccine_time: r.vaccineTime,
          created_at: now,
        }));
        await healthRepository.insertIgnore(trx, rows);
        const recompute: PunchesStored['punches'] = [];
        for (const r of records) {
          const punch = await healthRepository.punchOf(trx, device.id, r.pin, r.time);
          if (!punch) {
            if (r.color) {
              deps.waiting.add(device.id, r.pin, r.time, r.color);
              early.push(r);
            }
            continue;
          }
          if (punch.health === r.color) continue;
          await healthRepository.setPunchHealth(trx, punch.id, r.color);
          if (punch.person_id !== null) recompute.push({ companyId: punch.company_id, personId: punch.person_id, time: punch.time });
        }
        if (recompute.length) await deps.stored.emit(trx, { punches: recompute });
        // The other instances hear of the colours awaiting a punch at the commit: a few messages per upload.
        for (let i = 0; i < early.length; i += HINTS_PER_MESSAGE) {
          const records = early.slice(i, i + HINTS_PER_MESSAGE).map((r) => ({ pin: r.pin, time: r.time, color: r.color! }));
          await deps.early?.(trx, { kind: 'health', device: device.id, records });
        }
      });
      if (early.length && deps.recheckMs) {
        const timer = setTimeout(() => {
          // best effort: the server may be closing (the record stays stored; the punch keeps no colour)
          recheck(device, early).catch(() => undefined);
        }, deps.recheckMs);
        timer.unref();
      }
    },
  };
}
export type HealthService = ReturnType<typeof healthService>;
