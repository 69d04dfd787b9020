import type { AddressInfo } from 'node:net';
import { createTerminal, type Terminal, type TerminalOptions } from '../../../tools/zk-emulator/terminal.ts';

/**
 * What listen() needs of a test app (test/helpers.ts TestApp), named by its shape: the journeys use this file's emulated
 * terminals and until(), and importing TestApp made their typecheck check the whole server again (38 s of CPU, now 12).
 */
interface Listening {
  app: { listen(opts: { port: number; host: string }): Promise<unknown>; server: { address(): AddressInfo | string | null } };
}

/** Starts the test server on a loopback port so emulated terminals reach it over real HTTP. */
export async function listen(t: Listening): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

const started: Terminal[] = [];
/** An emulated ZK PUSH terminal polling fast (tests should not wait for a real 10 s Delay). */
export function terminal(server: string, sn: string, opts: Partial<TerminalOptions> = {}): Terminal {
  const term = createTerminal({ server, sn, pollMs: 40, retryMs: 100, rebootMs: 200, httpTimeoutMs: 10_000, timezone: 8, ...opts });
  started.push(term);
  return term;
}
export async function stopTerminals() {
  await Promise.all(started.splice(0).map((x) => x.stop()));
}

/**
 * Waits until `check` passes (returns truthy), polling every `stepMs`, or fails with `what` after `ms`. The bound only
 * catches what never happens: a passing test returns as soon as the state holds, so it is wide (30 s). At 10 s, the
 * demo's R&D door, syncing under the PostgreSQL pass beside three journeys (load 9), once had not finished.
 */
export async function until<T>(what: string, check: () => T | Promise<T>, ms = 30_000, stepMs = 30): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
