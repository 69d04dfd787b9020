import type { Database } from '../../db/database.ts';
import { clock, nowIso } from '../../lib/time.ts';
import { notify } from '../messages/messages.service.ts';
import { devicesRepository, type DeviceRow } from './devices.repository.ts';
import { transaction } from '../../db/transaction.ts';
import { publish } from '../live/publish.ts';

/**
 * Online status from the terminal's own traffic. 2.4.1 does not define "offline" (notes §9): a terminal is
 * offline when nothing arrived for max(3 × Delay, Delay + ErrorDelay) + 10 s.
 */
export function offlineAfterMs(delayS: number, errorDelayS: number) {
  return (Math.max(3 * delayS, delayS + errorDelayS) + 10) * 1000;
}

export function presenceService(deps: { database: Database; offlineAfterMs: number }) {
  const { db } = deps.database;
  // A terminal's last contact is written once a third of the offline limit has passed since the stored one (17 s at
  // a 10 s Delay: every second poll), so one that keeps calling is never found silent, and a fleet at rest does not
  // write a row per poll (bench/zk-fleet.bench.ts: 5,000 terminals wrote 500 rows/s at every 5 s). The stored time is
  // the row's, which every instance reads: several instances behind nginx write no more often than one.
  const writeEveryMs = deps.offlineAfterMs / 3;
  return {
    /** Marks a device seen: its last contact written when it is due (above), and at once when it comes back. */
    async seen(device: DeviceRow) {
      const now = clock.now();
      const stored = device.last_seen_at ? Date.parse(device.last_seen_at) : 0;
      if (device.online && now - stored < writeEveryMs) return;
      // The address the administrator entered stays (no connecting address is stored): behind NAT it is the router's.
      const at = nowIso();
      const back = !device.online;
      await devicesRepository.update(db, device.company_id, device.id, { online: 1, last_seen_at: at });
      device.online = 1;
      device.last_seen_at = at;
      if (back) await publish(db, device.company_id, 'device', { id: device.id, name: device.name, online: true, at }, ['face']);
    },
    /** Turns silent devices offline, with a message to the company's administrators. */
    async sweep(): Promise<number> {
      const before = new Date(clock.now() - deps.offlineAfterMs).toISOString();
      const stale = await devicesRepository.stale(db, before);
      for (const d of stale) {
        await transaction(db, async (trx) => {
          await devicesRepository.update(trx, d.company_id, d.id, { online: 0 });
          const at = nowIso();
          await publish(trx, d.company_id, 'device', { id: d.id, name: d.name, online: false, at }, ['face']);
          await publish(
            trx,
            d.company_id,
            'alarm',
            { source: 'device', kind: 'offline', subject: d.name, device_id: d.id, breaker_id: null, punch_id: null, value: null, at },
            ['face'],
          );
          await notify(trx, d.company_id, null, 'deviceOffline', {
            device: d.name,
            serial: d.serial,
            since: (d.last_seen_at ?? '').replace('T', ' ').slice(0, 19) + ' UTC',
          });
        });
      }
      return stale.length;
    },
  };
}
export type PresenceService = ReturnType<typeof presenceService>;
