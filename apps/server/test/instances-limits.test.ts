import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CLIENT_ERROR_LIMITS, CODES, INTEGRATION_LIMITS } from '@faceadmin/shared';
import { t as tr } from '../src/i18n/i18n.ts';
import { clock } from '../src/lib/time.ts';
import { smsCodes } from '../src/modules/auth/sms.service.ts';
import { API, CAPTCHA, call, captcha, DIALECT, makeApp, makeCompany, makeTwin, nextIp, register, type Company, type TestApp } from './helpers.ts';

/**
 * Limits that must hold across every instance behind the load balancer (issue #21), proven with two instances on
 * one PostgreSQL: a client spreading its requests over both gets no more than from one. Each count lives in the
 * database: the route limits (plugins/request-quota.ts), the sign-in rules (sign-in-guard.ts) and their captchas,
 * an API key's budget, the client-error quota.
 */
const pgOnly = DIALECT !== 'postgres' && 'two instances share PostgreSQL only';

let A: TestApp;
let B: TestApp;
let C: Company;
const realNow = clock.now;
const en = (key: string, params: Record<string, string | number> = {}) => tr('en-US', key, params);

before(async () => {
  if (DIALECT !== 'postgres') return;
  A = await makeApp();
  B = await makeTwin(A);
  C = await makeCompany(A, 'Limits Ltd');
});
after(async () => {
  clock.now = realNow;
  await B?.close();
  await A?.close();
});

/** A then B then A…: the way round-robin spreads one client's requests. */
const either = (i: number) => (i % 2 === 0 ? A : B);

test('a route limit (20 captchas a minute per address) counts the requests both instances took', { skip: pgOnly }, async () => {
  const ip = '198.51.100.77';
  const get = (t: TestApp, from = ip) => t.app.inject({ method: 'GET', url: `${API}/user/captcha`, remoteAddress: from, headers: { 'x-lang': 'en-US' } });
  for (let i = 0; i < 20; i++) assert.equal((await get(either(i))).statusCode, 200, `request ${i + 1}`);
  for (const t of [A, B]) {
    const r = await get(t);
    assert.equal(r.statusCode, 429, 'the 21st is refused, on either instance');
    assert.equal(r.json().code, CODES.TOO_MANY);
  }
  assert.equal((await get(B, '198.51.100.78')).statusCode, 200, 'another address has its own budget');
});

test('the sign-in delay counts failures made on both instances, and a captcha issued by one is solved on the other', { skip: pgOnly }, async () => {
  await register(A, 'twinlimit');
  const start = realNow();
  clock.now = () => start;
  try {
    const login = (t: TestApp, password: string, captchaOf?: TestApp) =>
      (async () => {
        const payload: Record<string, string> = { username: 'twinlimit', password };
        if (captchaOf) Object.assign(payload, { captcha_id: await captcha(captchaOf.app), icode: CAPTCHA });
        const r = await t.app.inject({ method: 'POST', url: `${API}/user/login`, remoteAddress: nextIp(), headers: { 'x-lang': 'en-US' }, payload });
        return { status: r.statusCode, ...r.json<{ code: number; message: string; data: { retry_after?: number; captcha?: boolean } | null }>() };
      })();
    for (let i = 0; i < 3; i++) assert.equal((await login(either(i), `wrong-${i}`)).code, CODES.BAD_CREDENTIALS, `failure ${i + 1}`);
    // The fourth try, right password, on B: held back for the three failures, two of which A saw.
    const early = await login(B, 'secret1', A);
    assert.equal(early.status, 429);
    assert.equal(early.message, en('errors.signInDelay', { seconds: 1 }));
    clock.now = () => start + 1000;
    // After the wait, with the captcha A issued solved on B: in.
    const ok = await login(B, 'secret1', A);
    assert.equal(ok.code, CODES.OK, ok.message);
  } finally {
    clock.now = realNow;
  }
});

test('an API key’s budget per minute is one across both instances', { skip: pgOnly }, async () => {
  const on = await call(A.app, 'POST', '/company/update', { token: C.main, body: { name: 'Limits Ltd', phone: '010-1', options: { thirdParty: 1 } } });
  assert.equal(on.code, CODES.OK, on.message);
  const k = await call(B.app, 'POST', '/integration/key/create', { token: C.main, body: { name: 'Twin key', scopes: ['punches:read'] } });
  assert.equal(k.code, CODES.OK, k.message);
  const key = k.data.key as string;
  const start = Math.ceil(realNow() / 60_000) * 60_000 + 1000;
  clock.now = () => start;
  try {
    const use = async (t: TestApp) => {
      const r = await t.app.inject({ method: 'GET', url: `${API}/attendance/list`, headers: { 'x-api-key': key, 'x-lang': 'en-US' } });
      return { status: r.statusCode, ...r.json<{ code: number; message: string }>() };
    };
    for (let i = 0; i < INTEGRATION_LIMITS.keyPerMinute; i++) assert.equal((await use(either(i))).code, CODES.OK, `call ${i + 1}`);
    for (const t of [A, B]) {
      const r = await use(t);
      assert.equal(r.status, 429, 'one more on either instance is over the budget');
      assert.equal(r.message, en('errors.apiKeyThrottled', { name: 'Twin key', max: INTEGRATION_LIMITS.keyPerMinute, seconds: 59 }));
    }
  } finally {
    clock.now = realNow;
  }
});

test('the client-error quota of one address is one across both instances', { skip: pgOnly }, async () => {
  const ip = '198.51.100.91';
  const report = (t: TestApp, n: number) =>
    call<{ stored: boolean }>(t.app, 'POST', '/system/clientError', { body: { kind: 'error', message: `Twin failure ${n}`, url: 'https://fa.example/x' }, ip });
  for (let i = 0; i < CLIENT_ERROR_LIMITS.perWindow; i++) assert.equal((await report(either(i), i)).data.stored, true, `report ${i + 1}`);
  assert.equal((await report(A, 100)).data.stored, false, 'over the quota on A');
  assert.equal((await report(B, 101)).data.stored, false, 'and on B');
});

test('a captcha answered on both instances at once lets one attempt through, not two', { skip: pgOnly }, async () => {
  for (let round = 0; round < 5; round++) {
    const id = await captcha(A.app);
    const verify = (t: TestApp) => t.app.modules.auth.captcha.verify(t.app.database.db, id, CAPTCHA);
    const results = await Promise.all([verify(A), verify(B), verify(A), verify(B)]);
    assert.equal(results.filter(Boolean).length, 1, `round ${round + 1}: one use (${results.join(', ')})`);
  }
});

test('an SMS code guessed on both instances at once still burns after five tries', { skip: pgOnly }, async () => {
  const phone = '13900005150';
  const code = await smsCodes.issue(A.app.database.db, phone, 'register');
  const wrong = code === '000000' ? '111111' : '000000';
  const guesses = Array.from({ length: 12 }, (_, i) => smsCodes.verify(either(i).app.database.db, phone, 'register', wrong));
  assert.deepEqual(await Promise.all(guesses), Array(12).fill(false));
  assert.equal(await smsCodes.verify(B.app.database.db, phone, 'register', code), false, 'the right code comes too late: five tries were spent');
  // A fresh code, right at once on both: consumed once.
  const again = await smsCodes.issue(A.app.database.db, phone, 'register');
  const both = await Promise.all([smsCodes.verify(A.app.database.db, phone, 'register', again), smsCodes.verify(B.app.database.db, phone, 'register', again)]);
  assert.equal(both.filter(Boolean).length, 1, `used once (${both.join(', ')})`);
});

test('a breaker password guessed at two instances (an embedded broker each) is locked after five failures in all', { skip: pgOnly }, async () => {
  const reg = await call(A.app, 'POST', '/breaker/create', { token: C.main, body: { alias: 'Guess me', uuid: 'TWIN-GUESS-1', sort: 1, linenum: 1 } });
  assert.equal(reg.code, CODES.OK, reg.message);
  const auth = (t: TestApp, password: string) => t.app.modules.breakers.service.authenticate('TWIN-GUESS-1', password);
  for (let i = 0; i < 5; i++) assert.equal(await auth(either(i), `guess-${i}`), false);
  assert.equal(await auth(A, reg.data.password as string), false, 'locked on A');
  assert.equal(await auth(B, reg.data.password as string), false, 'and on B');
});
