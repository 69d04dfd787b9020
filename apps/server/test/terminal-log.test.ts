import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { call, makeApp, makeCompany, type Company, type TestApp } from './helpers.ts';
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
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' }, { logger: { level: 'debug', stream: { write: (s: string) => void lines.push(JSON.parse(s)) } } });
  server = await listen(t);
  A = await makeCompany(t, 'Log Co');
});
after(async () => {
  await stopTerminals();
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
