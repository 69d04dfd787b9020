import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { API_PREFIX as API, CODES, type Envelope, type FunctionRight } from '@faceadmin/shared';
import { buildApp, type App, type BuildOptions } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import type { SmsSender } from '../src/modules/auth/sms.service.ts';
import { copyTemplate, dropDatabase, onServer } from './template.ts';

export { API };
export const CAPTCHA = '4242';
/** Which database this run uses: the test script runs the suite once per dialect. */
export const DIALECT = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

export interface SentSms {
  phone: string;
  purpose: string;
  code: string;
}

export interface TestApp {
  app: App;
  sms: SentSms[];
  close(): Promise<void>;
}

/**
 * A fresh database: a temp SQLite file, or a new PostgreSQL database when the run is on PostgreSQL. Empty, or with
 * `migrated` a copy of the run's migrated template when there is one (test/template.ts; else empty, and the app migrates it).
 */
export async function freshDatabase(opts: { migrated?: boolean } = {}): Promise<{ dataDir: string; databaseUrl: string | undefined; drop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-test-'));
  const template = opts.migrated ? process.env.TEST_TEMPLATE : undefined;
  let databaseUrl: string | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  const server = process.env.TEST_DATABASE_URL;
  if (server) {
    const name = `t_${randomBytes(6).toString('hex')}`;
    await (template ? copyTemplate(server, name, template) : onServer(server, `CREATE DATABASE ${name}`));
    const u = new URL(server);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDb = () => dropDatabase(server, name);
  } else if (template) {
    fs.copyFileSync(template, path.join(dataDir, 'faceadmin.sqlite'));
  }
  return {
    dataDir,
    databaseUrl,
    async drop() {
      await dropDb?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh server on a fresh database. */
export async function makeApp(
  env: Record<string, string> = {},
  opts: {
    sms?: boolean;
    protocols?: BuildOptions['protocols'];
    logger?: BuildOptions['logger'];
    live?: BuildOptions['live'];
    isapi?: BuildOptions['isapi'];
  } = {},
): Promise<TestApp> {
  const fresh = await freshDatabase({ migrated: true });
  const config = loadConfig({
    DATA_DIR: fresh.dataDir,
    SCRYPT_LOG2N: '10',
    LOG_LEVEL: 'silent',
    // Every test server embeds the breakers' MQTT broker on a port of its own.
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    // Most tests upload plain test pictures: the face check has its own tests (persons/face-check.routes.test.ts)
    // on real photos, which pass FACE_CHECK: 'on'.
    FACE_CHECK: 'off',
    ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
    ...env,
  });
  const database = openDatabase(config);
  const sms: SentSms[] = [];
  const sender: SmsSender | null = opts.sms === false ? null : { send: async (phone, purpose, code) => void sms.push({ phone, purpose, code }) };
  const app = await buildApp({
    config,
    database,
    captchaText: () => CAPTCHA,
    sms: sender,
    logger: opts.logger ?? false,
    ...(opts.protocols ? { protocols: opts.protocols } : {}),
    ...(opts.live ? { live: opts.live } : {}),
    ...(opts.isapi ? { isapi: opts.isapi } : {}),
  });
  await app.ready();
  return {
    app,
    sms,
    async close() {
      await app.close();
      await fresh.drop();
    },
  };
}

/**
 * A second instance of `first`'s server on the same PostgreSQL database, with its own DATA_DIR and broker port, as on
 * a second machine (issue #21). Close it before `first` (which drops the database).
 */
export async function makeTwin(first: TestApp, env: Record<string, string> = {}, opts: { isapi?: BuildOptions['isapi'] } = {}): Promise<TestApp> {
  const url = first.app.config.databaseUrl;
  if (!url) throw new Error('makeTwin needs PostgreSQL (TEST_DATABASE_URL)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-twin-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SCRYPT_LOG2N: '10',
    LOG_LEVEL: 'silent',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    FACE_CHECK: 'off',
    DATABASE_URL: url,
    // every instance hashes device secrets under one key (docs/deploy.md): the first's, shared through the setting
    DEVICE_SECRET_KEY: fs.readFileSync(path.join(first.app.config.dataDir, 'keys', 'device-secrets.key'), 'utf8').trim(),
    ...env,
  });
  const database = openDatabase(config);
  const sms: SentSms[] = [];
  const app = await buildApp({
    config,
    database,
    captchaText: () => CAPTCHA,
    sms: { send: async (phone, purpose, code) => void sms.push({ phone, purpose, code }) },
    logger: false,
    ...(opts.isapi ? { isapi: opts.isapi } : {}),
  });
  await app.ready();
  return {
    app,
    sms,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CallOptions {
  token?: string | undefined;
  /** a person session of the self-service page (X-Person-Token) */
  personToken?: string | undefined;
  body?: unknown;
  query?: Record<string, string | number>;
  lang?: string;
  ip?: string;
}

export interface Answer<T = any> extends Envelope<T> {
  status: number;
}

/** Calls the API as the console does (X-Token, X-Lang) and returns the envelope plus the HTTP status. */
export async function call<T = any>(app: App, method: 'GET' | 'POST', url: string, o: CallOptions = {}): Promise<Answer<T>> {
  const res = await request(app, method, url, o);
  // Downloads (xlsx, images) are not envelopes: a 200 with another content type counts as success.
  if (res.statusCode === 200 && !String(res.headers['content-type'] ?? '').includes('json'))
    return { code: 20000, message: '', data: res.rawPayload as T, status: 200 };
  return { ...res.json<Envelope<T>>(), status: res.statusCode };
}

/**
 * Applies a take-over review (`path`: /device/roster/apply or /device/roster/site/apply) and waits until the apply,
 * which runs in the background, is over: its result as `data`; a refused request's answer, or a failed apply's job,
 * as they are.
 */
export async function applyReview(app: App, path: string, o: CallOptions): Promise<Answer<any>> {
  const started = await call(app, 'POST', path, o);
  if (started.code !== CODES.OK) return started;
  // a hang guard only: an apply in these tests takes a second or two
  for (const until = Date.now() + 120_000; Date.now() < until;) {
    const info = await call(app, 'GET', '/device/roster/apply/info', { ...o, body: undefined, query: { id: started.data.id } });
    if (info.code !== CODES.OK) return info;
    // a failed apply is no success (its reason in the message)
    if (info.data.state === 'failed') return { ...info, code: -1, message: `the apply failed: ${info.data.reason}` };
    if (info.data.state === 'done') return { ...info, data: info.data.result };
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the apply ${started.data.id} did not end within 2 minutes`);
}

/** One API request as the console sends it (X-Token, X-Lang, client address). */
function request(app: App, method: 'GET' | 'POST', url: string, o: CallOptions) {
  const headers: Record<string, string> = {};
  if (o.token) headers['x-token'] = o.token;
  if (o.personToken) headers['x-person-token'] = o.personToken;
  if (o.lang) headers['x-lang'] = o.lang;
  return app.inject({
    method,
    url: API + url,
    headers,
    ...(o.query ? { query: Object.fromEntries(Object.entries(o.query).map(([k, v]) => [k, String(v)])) } : {}),
    ...(o.body !== undefined ? { payload: o.body as object } : {}),
    ...(o.ip ? { remoteAddress: o.ip } : {}),
  });
}

let seq = 0;
/** A mobile number no other call in this process used (random numbers collided and hit the SMS cooldown). */
export const nextMobile = () => `139${String(process.pid % 1000).padStart(3, '0')}${String(++seq).padStart(5, '0')}`;
/** A client address no other call in this process used. */
export const nextIp = () => {
  const n = ++seq;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

/** A fresh captcha id whose answer is CAPTCHA. */
export async function captcha(app: App, ip = nextIp()): Promise<string> {
  const r = await call(app, 'GET', '/user/captcha', { ip });
  if (r.code !== 20000) throw new Error(`captcha: ${r.code} ${r.message}`);
  return r.data.captcha_id as string;
}

/** The raw answer text (to search it for secrets) and status. */
export async function raw(app: App, method: 'GET' | 'POST', url: string, o: CallOptions = {}): Promise<{ status: number; text: string; contentType: string }> {
  const res = await request(app, method, url, o);
  return { status: res.statusCode, text: res.body, contentType: String(res.headers['content-type'] ?? '') };
}

/** A second server on the same database as `t` (e.g. to see what start-up does to existing data); close it yourself. */
export async function reopen(t: TestApp, env: { adminUsername?: string; adminPassword?: string } = {}): Promise<App> {
  const config = { ...t.app.config, ...env };
  const database = openDatabase(config);
  const app = await buildApp({ config, database, captchaText: () => CAPTCHA, sms: null, logger: false });
  await app.ready();
  return app;
}

/** The API routes a live server serves, as "METHOD /path" under API, read from its route tree (HEAD twins left out). */
export function apiRoutes(app: App): string[] {
  const out = new Set<string>();
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const full = ((depth > 0 ? stack[depth - 1]! : '') + m[2]!).replace(/\/+/g, '/');
    stack[depth] = full;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '').split(', ').filter((x) => x && x !== 'HEAD')) {
      if (full.startsWith(`${API}/`)) out.add(`${method} ${full.slice(API.length)}`);
    }
  }
  return [...out].sort();
}

export async function login(app: App, username: string, password: string): Promise<string> {
  const r = await call(app, 'POST', '/user/login', { body: { username, password } });
  if (r.code !== 20000) throw new Error(`login ${username} failed: ${r.code} ${r.message}`);
  return r.data.token as string;
}

/** Registers a fresh administrator through the public API (captcha + SMS), returning its token. */
export async function register(t: TestApp, username: string, password = 'secret1', name = `Admin ${username}`, mobile = nextMobile()): Promise<string> {
  // Each registration comes from its own address, so the per-address budgets of the code-sending routes never interfere.
  const ip = nextIp();
  const s = await call(t.app, 'POST', '/user/sendsmscode', {
    ip,
    body: { phone: mobile, purpose: 'register', icode: CAPTCHA, captcha_id: await captcha(t.app, ip) },
  });
  if (s.code !== 20000) throw new Error(`sms: ${s.message}`);
  const code = t.sms.filter((x) => x.phone === mobile).at(-1)!.code;
  const r = await call(t.app, 'POST', '/admin/register', {
    ip,
    body: { name, username, password, repassword: password, mobile, smscode: code, icode: CAPTCHA, captcha_id: await captcha(t.app, ip) },
  });
  if (r.code !== 20000) throw new Error(`register ${username}: ${r.code} ${r.message}`);
  return r.data.token as string;
}

export interface Company {
  id: number;
  /** token of its initial main administrator */
  main: string;
  mainId: number;
}

/** A company with its own initial administrator. */
export async function makeCompany(t: TestApp, name: string, username = `own${randomBytes(3).toString('hex')}`): Promise<Company> {
  const token = await register(t, username);
  const r = await call(t.app, 'POST', '/company/create', { token, body: { name, phone: '010-1234567' } });
  if (r.code !== 20000) throw new Error(`company: ${r.message}`);
  const info = await call(t.app, 'GET', '/user/info', { token });
  return { id: r.data.id, main: token, mainId: info.data.id };
}

/** A sub-administrator of the company with the given function rights; returns its token and id. */
export async function makeSub(
  t: TestApp,
  company: Company,
  rights: FunctionRight[],
  username = `sub${randomBytes(3).toString('hex')}`,
  role: 'sub' | 'main' = 'sub',
) {
  const r = await call(t.app, 'POST', '/manager/create', {
    token: company.main,
    body: { name: `Sub ${username}`, username, password: 'secret1', repassword: 'secret1', rights, role },
  });
  if (r.code !== 20000) throw new Error(`sub: ${r.code} ${r.message}`);
  return { id: r.data.id as number, username, token: await login(t.app, username, 'secret1') };
}

/** A refusal of what the client sent: its shape (the schema, 400) or a rule the shape cannot say (422). */
export const refusedCodes: readonly number[] = [CODES.VALIDATION, CODES.RULE];
