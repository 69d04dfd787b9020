import assert from 'node:assert/strict';
import { CODES } from '@faceadmin/shared';
import { createIsapiTerminal, type IsapiTerminal, type IsapiTerminalOptions } from '../../../tools/isapi-emulator/terminal.ts';
import type { BuildOptions } from '../src/app.ts';
import { call, makeApp, type Company, type TestApp } from './helpers.ts';
import { listen } from './terminals.ts';

/**
 * What the Hikvision ISAPI tests share (src/gateways/isapi/*.test.ts): a server that dials quickly, emulated
 * terminals (tools/isapi-emulator) and adding one as a device.
 */

/** A server whose ISAPI delivery dials often and backs off briefly, listening for the terminals' posts (`server`). */
export async function makeIsapiApp(isapi: BuildOptions['isapi'] = {}, logger: BuildOptions['logger'] = false): Promise<{ t: TestApp; server: string }> {
  const t = await makeApp(
    {},
    { logger, isapi: { heartbeatMs: 300, backoffMs: 100, maxBackoffMs: 400, http: { timeoutMs: 1500, maxBodyBytes: 256 * 1024 }, ...isapi } },
  );
  return { t, server: await listen(t) };
}

/** Emulated terminals started by a test file (`defaults` under each one's options); `stop()` unplugs them all. */
export function isapiTerminals(defaults: IsapiTerminalOptions = {}) {
  const all: IsapiTerminal[] = [];
  return {
    all,
    async start(opts: IsapiTerminalOptions = {}) {
      const emu = await createIsapiTerminal({ ...defaults, ...opts });
      all.push(emu);
      return emu;
    },
    stop: () => Promise.all(all.map((x) => x.stop())),
  };
}

/** Adds the emulated terminal as a device of the company (attendance scope "all" unless `extra` says otherwise). */
export async function addIsapiTerminal(t: TestApp, c: Company, emu: IsapiTerminal, serial: string, extra: Record<string, unknown> = {}): Promise<number> {
  const r = await call(t.app, 'POST', '/device/create', {
    token: c.main,
    body: {
      name: serial,
      serial,
      protocol: 'isapi',
      ip: '127.0.0.1',
      port: emu.port,
      account: 'admin',
      password: emu.options.password,
      attendance_scope: 'all',
      ...extra,
    },
  });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data.id as number;
}
