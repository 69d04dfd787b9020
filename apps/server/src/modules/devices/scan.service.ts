import type { DeviceScanAnswer, DeviceScanBody, DeviceScanHit } from '@faceadmin/shared';
import type { Database } from '../../db/database.ts';
import type { Discovery } from '../../gateways/driver.ts';
import { CODES, type RunMode } from '@faceadmin/shared';
import { AppError, invalid } from '../../lib/errors.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { devicesRepository } from './devices.repository.ts';

/** At most this many addresses per scan (a /24). */
export const SCAN_MAX_ADDRESSES = 256;
/** Addresses asked at once. */
export const SCAN_CONCURRENCY = 32;
/** How long one address may take to answer (an empty address of the LAN never answers: this bounds the scan). */
export const SCAN_TIMEOUT_MS = 2000;

const toInt = (ip: string): number | undefined => {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip.trim());
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
};
/** A terminal's serial as the device list stores it (letters and digits, at most 32: the end of long Hikvision serials). */
export const storedSerial = (raw: string) => raw.replace(/[^A-Za-z0-9]/g, '').slice(-32);

const toIp = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

/** Private networks (RFC 1918) and loopback: the server never probes the internet or link-local addresses (cloud metadata). */
export function isPrivate(n: number): boolean {
  const a = n >>> 24;
  const b = (n >>> 16) & 255;
  return a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

/**
 * "192.168.1.10-192.168.1.60", "192.168.1.10-60" (same first three parts), "192.168.1.0/24" (network and broadcast
 * left out) or one address → the addresses, in order. Throws a 422 naming the range field.
 */
export function parseRange(raw: string): string[] {
  const text = raw.trim().replace(/\s*[-–—~]\s*/g, '-');
  let from: number | undefined;
  let to: number | undefined;
  const cidr = /^([\d.]+)\/(\d{1,2})$/.exec(text);
  const dash = /^([\d.]+)-([\d.]+)$/.exec(text);
  if (cidr) {
    const base = toInt(cidr[1]!);
    const bits = Number(cidr[2]);
    if (base === undefined || bits > 32) throw invalid('range', 'reasons.scanRange');
    if (bits < 24) throw invalid('range', 'reasons.scanTooMany', { count: 2 ** (32 - bits), limit: SCAN_MAX_ADDRESSES });
    const size = 2 ** (32 - bits);
    const net = base - (base % size);
    [from, to] = size > 2 ? [net + 1, net + size - 2] : [net, net + size - 1];
  } else if (dash) {
    from = toInt(dash[1]!);
    to = /^\d{1,3}$/.test(dash[2]!) && from !== undefined ? (Number(dash[2]) <= 255 ? from - (from & 255) + Number(dash[2]) : undefined) : toInt(dash[2]!);
  } else {
    from = to = toInt(text);
  }
  if (from === undefined || to === undefined) throw invalid('range', 'reasons.scanRange');
  if (from > to) throw invalid('range', 'reasons.scanOrder');
  const count = to - from + 1;
  if (count > SCAN_MAX_ADDRESSES) throw invalid('range', 'reasons.scanTooMany', { count, limit: SCAN_MAX_ADDRESSES });
  const out: string[] = [];
  for (let n = from; n <= to; n++) {
    if (!isPrivate(n)) throw invalid('range', 'reasons.scanPrivate');
    out.push(toIp(n));
  }
  return out;
}

/**
 * Finds terminals in an address range through the protocols' discovery (ISAPI: GET /ISAPI/System/deviceInfo). ZK PUSH
 * terminals are not probed: they dial the server, and the ones that called without being added are listed by
 * GET /device/unknown. LAN mode only.
 */
export function scanService(deps: { database: Database; discover: Discovery | undefined; runMode: RunMode; timeoutMs?: number }) {
  const timeoutMs = deps.timeoutMs ?? SCAN_TIMEOUT_MS;
  return {
    async scan(tenant: Tenant, input: DeviceScanBody): Promise<DeviceScanAnswer> {
      // A cloud server (normal mode) serves many companies: none of them may probe the network it runs in.
      if (deps.runMode !== 'lan') throw new AppError(CODES.UNAVAILABLE, 400, 'errors.scanLanOnly');
      const started = Date.now();
      const addresses = parseRange(input.range);
      const port = input.port ?? 80;
      const found = deps.discover
        ? await deps.discover(addresses, {
            port,
            account: input.account?.trim() || 'admin',
            password: input.password ?? '',
            timeoutMs,
            concurrency: SCAN_CONCURRENCY,
          })
        : [];
      const mine = await devicesRepository.all(deps.database.db, tenant.companyId);
      return {
        scanned: addresses.length,
        ms: Date.now() - started,
        found: found.map((f): DeviceScanHit => {
          const serial = storedSerial(f.serial);
          const d = mine.find((m) => (serial && m.serial === serial) || (m.protocol === 'isapi' && m.ip === f.ip && m.port === f.port));
          return {
            ip: f.ip,
            port: f.port,
            protocol: 'isapi',
            auth: f.auth,
            model: f.model,
            serial,
            firmware: f.firmware,
            device_name: f.deviceName,
            device_id: d?.id ?? 0,
          };
        }),
      };
    },
  };
}
export type ScanService = ReturnType<typeof scanService>;
