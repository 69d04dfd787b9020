// The sign-in rules of docs/sign-in-protection.md, one test per rule, through the API (SQLite and PostgreSQL).
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { API, CAPTCHA, call, captcha, DIALECT, makeApp, nextIp, nextMobile, register, type TestApp } from '../../../test/helpers.ts';
import { t as tr } from '../../i18n/i18n.ts';
import { SIGN_IN } from '../../lib/throttle.ts';
import { clock } from '../../lib/time.ts';

let t: TestApp;
before(async () => (t = await makeApp()));
after(() => t.close());

const en = (key: string, params: Record<string, string | number> = {}) => tr('en-US', key, params);
const realNow = clock.now;
let frozen = 0;
/** Stops the server clock, so waits are exact; `advance` moves it. Real time comes back after each test. */
function freeze() {
  frozen = realNow();
  clock.now = () => frozen;
}
const advance = (ms: number) => void (frozen += ms);
afterEach(() => void (clock.now = realNow));

interface Tried {
  status: number;
  code: number;
  message: string;
  data: { token?: string; captcha?: boolean; retry_after?: number } | null;
  /** the device token the answer set as a cookie */
  device: string | undefined;
  setCookie: string;
  body: string;
}

/** One sign-in as a browser does it: from `ip`, with its device cookie if it has one, and a solved captcha if asked. */
async function attempt(username: string, password: string, o: { ip: string; device?: string | undefined; captcha?: boolean }): Promise<Tried> {
  const payload: Record<string, string> = { username, password };
  if (o.captcha) Object.assign(payload, { captcha_id: await captcha(t.app), icode: CAPTCHA });
  const res = await t.app.inject({
    method: 'POST',
    url: `${API}/user/login`,
    remoteAddress: o.ip,
    headers: { 'x-lang': 'en-US', ...(o.device ? { cookie: `other=1; fa_device=${o.device}` } : {}) },
    payload,
  });
  const env = res.json<{ code: number; message: string; data: Tried['data'] }>();
  const setCookie = String(res.headers['set-cookie'] ?? '');
  return { ...env, status: res.statusCode, device: /fa_device=([^;]+)/.exec(setCookie)?.[1], setCookie, body: res.body };
}

test(`growing delays per account: three failures answered at once, then 1 s, 2 s, 4 s… whatever the address (${DIALECT})`, async () => {
  await register(t, 'delay1');
  freeze();
  for (let i = 1; i <= 3; i++) {
    const r = await attempt('delay1', `wrong-${i}`, { ip: nextIp(), captcha: i > 3 });
    assert.equal(r.code, CODES.BAD_CREDENTIALS, `failure ${i}`);
    assert.equal(r.data?.retry_after, i < 3 ? 0 : 1, `after failure ${i}`);
  }
  // The 4th try, right password, from a new address: refused without being checked, told how long to wait.
  const early = await attempt('delay1', 'secret1', { ip: nextIp(), captcha: true });
  assert.equal(early.status, 429);
  assert.equal(early.code, CODES.TOO_MANY);
  assert.equal(early.message, en('errors.signInDelay', { seconds: 1 }));
  assert.deepEqual(early.data, { retry_after: 1, captcha: true });
  assert.equal(early.device, undefined, 'no cookie for a refused attempt');
  // Each further failure doubles the wait; a refused attempt counts for nothing (the wait does not grow).
  const waits: number[] = [];
  for (let i = 4; i <= 6; i++) {
    advance(60_000);
    const r = await attempt('delay1', `wrong-${i}`, { ip: nextIp(), captcha: true });
    assert.equal(r.code, CODES.BAD_CREDENTIALS, `failure ${i}`);
    waits.push(r.data!.retry_after!);
    const refused = await attempt('delay1', `wrong-${i}b`, { ip: nextIp(), captcha: true });
    assert.equal(refused.code, CODES.TOO_MANY);
    assert.equal(refused.data!.retry_after, r.data!.retry_after);
  }
  assert.deepEqual(waits, [2, 4, 8]);
  advance(7_999);
  assert.equal((await attempt('delay1', 'secret1', { ip: nextIp(), captcha: true })).code, CODES.TOO_MANY, '1 ms early');
  advance(1);
  const ok = await attempt('delay1', 'secret1', { ip: nextIp(), captcha: true });
  assert.equal(ok.code, CODES.OK, ok.message);
  // A sign-in ends the streak: the next mistake is answered at once again.
  assert.equal((await attempt('delay1', 'wrong-7', { ip: nextIp() })).data?.retry_after, 0);
});

test('captcha: after 3 failures an unknown browser must also solve one; a wrong or missing one is not a password try', async () => {
  await register(t, 'captcha1');
  freeze();
  const ip = nextIp();
  for (let i = 1; i <= 3; i++) {
    const r = await attempt('captcha1', `bad-password-${i}`, { ip });
    assert.equal(r.data?.captcha, i >= 3, `failure ${i} asks for a captcha: ${i >= 3}`);
  }
  advance(1000);
  // Right password, no captcha: asked for the captcha, not refused as bad credentials.
  const noCap = await attempt('captcha1', 'secret1', { ip: nextIp() });
  assert.equal(noCap.code, CODES.CAPTCHA_REQUIRED);
  assert.equal(noCap.message, en('errors.captchaRequired'));
  // The account key is case-insensitive and trimmed: the same count.
  assert.equal((await attempt(' CAPTCHA1 ', 'secret1', { ip: nextIp() })).code, CODES.CAPTCHA_REQUIRED);
  const wrongCap = await call(t.app, 'POST', '/user/login', {
    ip,
    lang: 'en-US',
    body: { username: 'captcha1', password: 'secret1', captcha_id: await captcha(t.app), icode: '0000' },
  });
  assert.equal(wrongCap.code, CODES.CAPTCHA_REQUIRED);
  assert.equal(wrongCap.message, en('errors.captchaIncorrect'));
  // None of those were password tries: the wait is still the one second owed after the 3rd failure, long past.
  const ok = await attempt('captcha1', 'secret1', { ip, captcha: true });
  assert.equal(ok.code, CODES.OK, ok.message);
  // Success ends the streak: the next plain sign-in needs no captcha.
  assert.equal((await attempt('captcha1', 'secret1', { ip: nextIp() })).code, CODES.OK);
});

test(`per-account hourly cap: ${SIGN_IN.accountCap} failures from ${SIGN_IN.accountCap} addresses stop unknown browsers for the hour`, async () => {
  await register(t, 'capped1');
  freeze();
  const start = frozen;
  for (let i = 1; i <= SIGN_IN.accountCap; i++) {
    const r = await attempt('capped1', `guess-${i}`, { ip: nextIp(), captcha: true });
    assert.equal(r.code, CODES.BAD_CREDENTIALS, `guess ${i}: ${r.message}`);
    advance(SIGN_IN.maxDelayMs);
  }
  // Changing address does not help: the right password from a fresh address is refused until the hour is over.
  const refused = await attempt('capped1', 'secret1', { ip: nextIp(), captcha: true });
  assert.equal(refused.status, 429);
  assert.equal(refused.code, CODES.TOO_MANY);
  const minutes = Math.ceil((start + SIGN_IN.windowMs - frozen) / 60_000);
  assert.equal(refused.message, en('errors.signInAccountCap', { minutes }));
  assert.equal(refused.data?.retry_after, Math.ceil((start + SIGN_IN.windowMs - frozen) / 1000));
  advance(start + SIGN_IN.windowMs - frozen);
  const ok = await attempt('capped1', 'secret1', { ip: nextIp(), captcha: true });
  assert.equal(ok.code, CODES.OK, 'the oldest failure is an hour old: one more try is allowed');
});

test(`per-address cap: ${SIGN_IN.addressAccounts} distinct accounts may fail from one address an hour (credential stuffing)`, async () => {
  await register(t, 'office1');
  await register(t, 'office2');
  const office = nextIp();
  // office2 signed in from this browser before: its browser is known.
  const known = await attempt('office2', 'secret1', { ip: office });
  assert.equal(known.code, CODES.OK);
  freeze();
  for (let i = 0; i < SIGN_IN.addressAccounts; i++) {
    const r = await attempt(`stuffed-${i}`, 'Summer2024!', { ip: office });
    assert.equal(r.code, CODES.BAD_CREDENTIALS, `account ${i}`);
  }
  const next = await attempt('stuffed-next', 'Summer2024!', { ip: office });
  assert.equal(next.code, CODES.TOO_MANY);
  assert.equal(next.message, en('errors.signInAddressCap', { minutes: 60 }));
  // A new account from that address is refused, right password or not (it is not checked) …
  assert.equal((await attempt('office1', 'secret1', { ip: office })).code, CODES.TOO_MANY);
  // … but not from another address, nor from a browser known for that account, nor for an account already tried there.
  assert.equal((await attempt('stuffed-next', 'Summer2024!', { ip: nextIp() })).code, CODES.BAD_CREDENTIALS);
  assert.equal((await attempt('office2', 'secret1', { ip: office, device: known.device })).code, CODES.OK);
  assert.equal((await attempt('stuffed-0', 'Summer2024!', { ip: office })).code, CODES.BAD_CREDENTIALS);
  // The cap lifts when the first failures are an hour old.
  advance(SIGN_IN.windowMs);
  assert.equal((await attempt('office1', 'secret1', { ip: office })).code, CODES.OK);
});

test('one person failing many times does not lock out anyone else at the same address (the old NAT lock-out)', async () => {
  await register(t, 'natuser1');
  await register(t, 'natuser2');
  const nat = nextIp();
  for (let i = 0; i < 30; i++) await attempt('natuser1', `typo-${i}`, { ip: nat, captcha: true });
  // Another person behind the same address, in a browser never used here: signs in at once, no captcha.
  const other = await attempt('natuser2', 'secret1', { ip: nat });
  assert.equal(other.code, CODES.OK, other.message);
  assert.ok(other.data?.token);
});

test('a known browser: its right password is never refused while the account is throttled; its own failures are capped', async () => {
  await register(t, 'victim1');
  await register(t, 'bystander1');
  const home = nextIp();
  const first = await attempt('victim1', 'secret1', { ip: home });
  assert.equal(first.code, CODES.OK);
  // The cookie: HttpOnly, SameSite=Lax, sent only to the sign-in route, long-lived; the token is not in the body.
  assert.ok(first.device);
  assert.match(first.setCookie, new RegExp(`Path=${API}/user/login; Max-Age=${SIGN_IN.deviceDays * 86400}; HttpOnly; SameSite=Lax$`));
  assert.ok(!first.body.includes(first.device), 'the device token never appears in an answer body');
  freeze();
  // Someone elsewhere exhausts the account's hour.
  for (let i = 0; i < SIGN_IN.accountCap; i++) {
    await attempt('victim1', `attack-${i}`, { ip: nextIp(), captcha: true });
    advance(SIGN_IN.maxDelayMs);
  }
  assert.equal((await attempt('victim1', 'secret1', { ip: home, captcha: true })).code, CODES.TOO_MANY, 'an unknown browser is refused');
  // The known browser: no wait, no captcha, from any address.
  const back = await attempt('victim1', 'secret1', { ip: nextIp(), device: first.device });
  assert.equal(back.code, CODES.OK, back.message);
  // The token is replaced at each sign-in; the replaced one is known no more (a planted cookie never becomes known).
  assert.ok(back.device && back.device !== first.device);
  assert.equal((await attempt('victim1', 'secret1', { ip: home, device: first.device })).code, CODES.TOO_MANY);
  // The cookie is for that account only: another account in the same browser is judged as unknown.
  let device = back.device;
  const other = await attempt('bystander1', 'secret1', { ip: home, device });
  assert.equal(other.code, CODES.OK);
  device = other.device!;
  // The browser stays known for both accounts after that sign-in.
  const again = await attempt('victim1', 'secret1', { ip: home, device });
  assert.equal(again.code, CODES.OK);
  device = again.device!;
  // Wrong passwords from the known browser are answered without waits or captchas, up to its own hourly cap …
  for (let i = 0; i < SIGN_IN.deviceCap; i++) {
    const r = await attempt('victim1', `typo-${i}`, { ip: home, device });
    assert.equal(r.code, CODES.BAD_CREDENTIALS, `typo ${i}`);
    assert.equal(r.data?.captcha, false);
  }
  // … then it is an unknown browser again for that account, and the account is capped.
  assert.equal((await attempt('victim1', 'secret1', { ip: home, device })).code, CODES.TOO_MANY);
});

test('a password change or reset forgets every known browser of the account; a reset by SMS lifts its cap', async () => {
  const token = await register(t, 'forgetful1');
  const first = await attempt('forgetful1', 'secret1', { ip: nextIp() });
  const changed = await call(t.app, 'POST', '/user/changepwd', { token, body: { orig: 'secret1', new: 'secret2', renew: 'secret2' } });
  assert.equal(changed.code, CODES.OK);
  freeze();
  for (let i = 0; i < SIGN_IN.accountCap; i++) {
    await attempt('forgetful1', `attack-${i}`, { ip: nextIp(), captcha: true });
    advance(SIGN_IN.maxDelayMs);
  }
  assert.equal((await attempt('forgetful1', 'secret2', { ip: nextIp(), device: first.device })).code, CODES.TOO_MANY);
  assert.equal(await knownFor('forgetful1'), 0);
  // A reset by SMS code too; it also lifts the account's cap, so the owner can sign in from a new browser at once.
  const mobile = nextMobile();
  await register(t, 'forgetful2', 'secret1', 'Forgetful Two', mobile);
  await attempt('forgetful2', 'secret1', { ip: nextIp() });
  assert.equal(await knownFor('forgetful2'), 1);
  for (let i = 0; i < SIGN_IN.accountCap; i++) {
    await attempt('forgetful2', `attack-${i}`, { ip: nextIp(), captcha: true });
    advance(SIGN_IN.maxDelayMs);
  }
  assert.equal((await attempt('forgetful2', 'secret1', { ip: nextIp(), captcha: true })).code, CODES.TOO_MANY);
  const sent = await call(t.app, 'POST', '/user/sendsmscode', {
    ip: nextIp(),
    body: { phone: mobile, purpose: 'forget', icode: CAPTCHA, captcha_id: await captcha(t.app) },
  });
  assert.equal(sent.code, CODES.OK);
  const smscode = t.sms.filter((x) => x.phone === mobile && x.purpose === 'forget').at(-1)!.code;
  const reset = await call(t.app, 'POST', '/user/forget', { body: { mobile, smscode, password: 'secret3', repassword: 'secret3' } });
  assert.equal(reset.code, CODES.OK);
  assert.equal(await knownFor('forgetful2'), 0);
  assert.equal((await attempt('forgetful2', 'secret3', { ip: nextIp() })).code, CODES.OK);
});

/** How many browsers are known for the account. */
async function knownFor(username: string): Promise<number> {
  const rows = await t.app.database.db
    .selectFrom('known_devices')
    .innerJoin('admins', 'admins.id', 'known_devices.admin_id')
    .select('known_devices.id')
    .where('admins.username', '=', username)
    .execute();
  return rows.length;
}

test('the hourly purge keeps the last hour of attempts and the browsers used within half a year', async () => {
  await register(t, 'purge1');
  freeze();
  const kept = await attempt('purge1', 'secret1', { ip: nextIp() });
  assert.equal(kept.code, CODES.OK);
  await attempt('purge-ghost', 'nope-nope', { ip: nextIp() });
  const db = t.app.database.db;
  const count = async (table: 'sign_in_attempts' | 'known_devices') => (await db.selectFrom(table).select('id').execute()).length;
  const [attempts, devices] = [await count('sign_in_attempts'), await count('known_devices')];
  await t.app.modules.auth.auth.purgeSignIns();
  assert.equal(await count('sign_in_attempts'), attempts, 'nothing is an hour old yet');
  advance(SIGN_IN.windowMs + 1000);
  await t.app.modules.auth.auth.purgeSignIns();
  assert.ok((await count('sign_in_attempts')) < attempts);
  assert.equal(await count('known_devices'), devices);
  advance(SIGN_IN.deviceDays * 86400_000);
  await t.app.modules.auth.auth.purgeSignIns();
  assert.equal(await count('known_devices'), 0, 'browsers unused for half a year are forgotten');
});
