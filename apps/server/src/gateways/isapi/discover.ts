import type { DiscoveredTerminal, Discovery } from '../driver.ts';
import { isapiClient, IsapiTransportError } from './client.ts';
import { ISAPI_CODES, parseDeviceInfo } from './codec.ts';

const DEVICE_INFO = '/ISAPI/System/deviceInfo';
/** A device-info answer is a few hundred bytes; anything past this is not a terminal worth reading. */
const MAX_ANSWER = 64 * 1024;

/** Runs `fn` over `items`, `limit` at a time, keeping their order. */
async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const blank = (ip: string, port: number): Omit<DiscoveredTerminal, 'auth'> => ({ ip, port, model: '', serial: '', firmware: '', deviceName: '' });

/**
 * Without a password: a 401 with a Digest challenge on the ISAPI device-info path proves an ISAPI device; a terminal
 * that shows its device info openly says more. Anything else (no answer, another server) is not a terminal.
 */
async function anonymous(ip: string, port: number, timeoutMs: number): Promise<DiscoveredTerminal | undefined> {
  try {
    const res = await fetch(`http://${ip}:${port}${DEVICE_INFO}`, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    if (res.status === 401) {
      await res.body?.cancel().catch(() => undefined);
      return /^\s*digest\b|,\s*digest\b/i.test(res.headers.get('www-authenticate') ?? '') ? { ...blank(ip, port), auth: 'noPassword' } : undefined;
    }
    if (res.status !== 200 || Number(res.headers.get('content-length') ?? '0') > MAX_ANSWER) {
      await res.body?.cancel().catch(() => undefined);
      return undefined;
    }
    const info = parseDeviceInfo((await res.text()).slice(0, MAX_ANSWER));
    return info
      ? { ...blank(ip, port), auth: 'ok', model: info.model, serial: info.serialNo, firmware: info.firmware, deviceName: info.deviceName }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * ISAPI discovery: every address asked GET /ISAPI/System/deviceInfo; with a password, the terminals that challenged
 * are read through the driver's digest client, one authenticated attempt each (a scan never counts towards a
 * terminal's lock-out more than once).
 */
export const isapiDiscovery: Discovery = async (addresses, o) => {
  const client = isapiClient({ timeoutMs: o.timeoutMs, maxBodyBytes: MAX_ANSWER, perDevice: 1 });
  try {
    const found = await pool(addresses, o.concurrency, async (ip, i): Promise<DiscoveredTerminal | undefined> => {
      const seen = await anonymous(ip, o.port, o.timeoutMs);
      if (!seen || seen.auth === 'ok' || !o.password) return seen;
      try {
        const r = await client.request({ id: i + 1, host: ip, port: o.port, user: o.account, password: o.password }, { method: 'GET', path: DEVICE_INFO });
        const info = r.status === 200 ? parseDeviceInfo(r.text) : undefined;
        return info ? { ...seen, auth: 'ok', model: info.model, serial: info.serialNo, firmware: info.firmware, deviceName: info.deviceName } : seen;
      } catch (e) {
        return e instanceof IsapiTransportError && e.code === ISAPI_CODES.wrongPassword ? { ...seen, auth: 'wrongPassword' } : seen;
      }
    });
    return found.filter((f): f is DiscoveredTerminal => f !== undefined);
  } finally {
    client.close();
  }
};
