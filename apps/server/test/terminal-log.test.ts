import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { call, makeApp, makeCompany, type Company, type TestApp } from './helpers.ts';
import { addIsapiTerminal, isapiTerminals } from './isapi.ts';
import { listen, stopTerminals, terminal, until } from './terminals.ts';

/** Every line the server logged, parsed; the app logs at debug so one run shows both views. */
const lines: Record<string, any>[] = [];
const INFO = 30;
const atInfo = () => lines.filter((l) => l.level >= INFO);
const urlOf = (l: Record<string, any>) => String(l.url ?? l.req?.url ?? '');

let t: TestApp;
let server: string;
let A: Company;
before(async () => {
  t = await makeApp(
    { DEVICE_POLL_SECONDS: '1' },
    {
      logger: { level: 'debug', stream: { write: (s: string) => void lines.push(JSON.parse(s)) } },
      // ISAPI terminals dialled often, with short back-offs, as in the ISAPI tests (test/isapi.ts)
      isapi: { heartbeatMs: 300, backoffMs: 100, maxBackoffMs: 400, http: { timeoutMs: 1500 } },
    },
  );
  server = await listen(t);
  A = await makeCompany(t, 'Log Co');
});
const hikvision = isapiTerminals();
after(async () => {
  await stopTerminals();
  await hikvision.stop();
  await t.close();
});

test('terminal polls are logged at debug only; at info the log shows the terminal connecting, its punches and console requests', async () => {
  const created = await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Gate', serial: 'LOG0001', ip: '10.0.0.9', password: 'x' } });
  assert.equal(created.code, CODES.OK, created.message);
  const term = terminal(server, 'LOG0001');
  await term.start();
  const polls = () => lines.filter((l) => urlOf(l).startsWith('/iclock/getrequest'));
  await until('five polls', () => polls().filter((l) => l.msg === 'incoming request').length >= 5);
  const punch = await term.punch({ pin: '1001', time: '2026-11-20 08:00:00' });
  assert.match(punch.reply ?? '', /^OK: 1/);
  await call(t.app, 'GET', '/device/list', { token: A.main });

  // Every poll is logged, at debug.
  assert.deepEqual(
    polls().filter((l) => l.level >= INFO),
    [],
    'poll lines only at debug',
  );
  assert.ok(polls().some((l) => l.msg === 'request completed'));
  // At info: nothing of the polls, nor any per-request line of a terminal that was answered.
  const terminalLines = atInfo().filter((l) => urlOf(l).startsWith('/iclock/'));
  assert.deepEqual(terminalLines, [], 'no terminal request lines at info');
  // …but what the terminals reported.
  assert.ok(atInfo().some((l) => l.msg === 'terminal connected' && l.serial === 'LOG0001'));
  const punches = atInfo().filter((l) => l.msg === 'punches received');
  assert.deepEqual(
    punches.map((l) => [l.serial, l.punches]),
    [['LOG0001', 1]],
  );
  // Console requests keep their lines at info, the completed one naming the request.
  const api = atInfo().find((l) => l.msg === 'request completed' && urlOf(l).endsWith('/device/list'));
  assert.equal(api?.method, 'GET');
  assert.equal(api?.res?.statusCode, 200);
});

test('ISAPI terminals at info: connected (model, firmware), punches received, a refused account and an outage once each; no password or secret', async () => {
  const emu = await hikvision.start({ serial: 'DS-EMU-LOG', password: 'pass-LOG-1234' });
  const id = await addIsapiTerminal(t, A, emu, 'ISAPILOG1', { attendance_scope: 'selected' });
  const connected = () => atInfo().filter((l) => l.msg === 'terminal connected' && l.serial === 'ISAPILOG1');
  const first = (await until('connected at info', () => connected()[0]))!;
  assert.equal(first.model, 'DS-K1T671M');
  assert.equal(first.firmware, 'V3.2.0 build 241120');
  // A recognition posted by the terminal: its punch at info.
  emu.users.set('L1', { employeeNo: 'L1', name: 'Log One', userType: 'normal', valid: { enable: false, beginTime: '', endTime: '' }, password: '' });
  emu.faces.set('L1', Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
  assert.equal((await emu.recognize('L1')).pushed, true);
  const punch = (await until('punches received at info', () => atInfo().find((l) => l.msg === 'punches received' && l.serial === 'ISAPILOG1')))!;
  assert.equal(punch.punches, 1);

  // Unplugged: one line for the outage however many retries fail, then connected again.
  await emu.stop();
  const retries = () => lines.filter((l) => l.msg === 'ISAPI terminal unreachable' && l.device === id).length;
  await until('several failed retries', () => retries() >= 3);
  const outage = atInfo().filter((l) => l.msg === 'terminal unreachable' && l.serial === 'ISAPILOG1');
  assert.equal(outage.length, 1, 'the outage logged once, not per retry');
  await emu.start();
  await until('connected again', () => connected().length === 2);

  // A wrong password: the refusal at info once, not at every retry.
  const locked = await hikvision.start({ serial: 'DS-EMU-LOGPW', password: 'right-LOG-9876' });
  await addIsapiTerminal(t, A, locked, 'ISAPILOG2', { attendance_scope: 'selected', password: 'wrong-LOG-5555' });
  await until('two refused attempts', () => locked.authFailures >= 2);
  const refused = atInfo().filter((l) => l.msg === 'terminal refused the account' && l.serial === 'ISAPILOG2');
  assert.equal(refused.length, 1);

  // Never a password or an event secret, at any level.
  const secret = (await t.app.database.db.selectFrom('devices').select('event_secret').where('id', '=', id).executeTakeFirstOrThrow()).event_secret;
  const all = lines.map((l) => JSON.stringify(l)).join('\n');
  for (const s of ['pass-LOG-1234', 'right-LOG-9876', 'wrong-LOG-5555', secret]) assert.ok(!all.includes(s), `${s.slice(0, 4)}… is in the log`);
});

/** The server's own logger (no logger passed in), built in a child process with LOG_FORMAT=<format>; its stdout. */
function serverOutput(format: string): string {
  const script = [
    `import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';`,
    `import { buildApp } from ${JSON.stringify(new URL('../src/app.ts', import.meta.url).href)};`,
    `import { loadConfig } from ${JSON.stringify(new URL('../src/config.ts', import.meta.url).href)};`,
    `import { openDatabase } from ${JSON.stringify(new URL('../src/db/database.ts', import.meta.url).href)};`,
    `const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-log-'));`,
    `const config = loadConfig({ DATA_DIR: dir, SCRYPT_LOG2N: '10', LOG_FORMAT: ${JSON.stringify(format)} });`,
    `const app = await buildApp({ config, database: openDatabase(config), sms: null });`,
    `await app.ready();`,
    `await app.inject({ method: 'GET', url: '/api/management/system/config' });`,
    `app.log.warn({ serial: 'ABC123', ip: '10.0.0.7' }, 'unregistered terminal');`,
    `await app.close(); fs.rmSync(dir, { recursive: true, force: true });`,
  ].join('\n');
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('LOG_FORMAT=pretty prints readable lines; piped output (auto) stays JSON, one object a line', () => {
  const pretty = serverOutput('pretty');
  assert.match(pretty, /^\d\d:\d\d:\d\d WARN {2}unregistered terminal serial=ABC123 ip=10\.0\.0\.7$/m);
  assert.match(pretty, /^\d\d:\d\d:\d\d INFO {2}GET \/api\/management\/system\/config → 200 \(\d+ ms\)$/m);
  assert.doesNotMatch(pretty, /incoming request|"level"/);

  const piped = serverOutput('auto');
  const json = piped
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>);
  assert.ok(json.some((l) => l.msg === 'unregistered terminal' && l.serial === 'ABC123' && l.level === 40));
});
