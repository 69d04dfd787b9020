import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, LANGUAGES, NO_RIGHTS } from '@faceadmin/shared';
import {
  CAPTCHA,
  call,
  captcha,
  DIALECT,
  login,
  makeApp,
  makeCompany,
  nextIp,
  nextMobile,
  raw,
  register,
  reopen,
  type TestApp,
  refusedCodes,
} from '../../../test/helpers.ts';
import { t as tr } from '../../i18n/i18n.ts';
import { clock } from '../../lib/time.ts';

let t: TestApp;
before(async () => (t = await makeApp()));
after(() => t.close());

const en = (key: string, params: Record<string, string | number> = {}) => tr('en-US', key, params);
const realNow = clock.now;
/** Moves the server clock by `ms` from now on (cumulative); `restore()` puts real time back. */
function travel(ms: number) {
  const base = clock.now;
  clock.now = () => base() + ms;
}
const restore = () => void (clock.now = realNow);

async function adminRow(username: string) {
  return t.app.database.db.selectFrom('admins').selectAll().where('username', '=', username).executeTakeFirst();
}

/** Signs in with an explicit client address (failure counters are per address and per account). */
const signIn = (username: string, password: string, ip: string, extra: Record<string, string> = {}) =>
  call(t.app, 'POST', '/user/login', { ip, lang: 'en-US', body: { username, password, ...extra } });

test(`a fresh database needs setup and offers registration (${DIALECT})`, async () => {
  const r = await call(t.app, 'GET', '/system/config');
  assert.equal(r.code, CODES.OK);
  assert.equal(r.data.needsSetup, true);
  assert.equal(r.data.registration, true);
  assert.equal(r.data.sms, true);
  assert.equal(r.data.runMode, 'normal');
  await register(t, 'first');
  assert.equal((await call(t.app, 'GET', '/system/config')).data.needsSetup, false);
});

test('login trims the username and answers a token', async () => {
  await register(t, 'trimmed1');
  const r = await signIn('   trimmed1  ', 'secret1', nextIp());
  assert.equal(r.code, CODES.OK);
  assert.equal(typeof r.data.token, 'string');
  assert.ok(r.data.token.length >= 40);
  const info = await call(t.app, 'GET', '/user/info', { token: r.data.token });
  assert.equal(info.data.username, 'trimmed1');
  assert.ok((await adminRow('trimmed1'))!.last_login_at, 'last_login_at is recorded');
});

test('a wrong password answers 40010 with the translated "login information is incorrect" message', async () => {
  await register(t, 'wrongpw1');
  const ip = nextIp();
  const r = await signIn('wrongpw1', 'not-the-password', ip);
  assert.equal(r.status, 400);
  assert.equal(r.code, CODES.BAD_CREDENTIALS);
  assert.match(r.message, /login information is incorrect/i);
  assert.equal(r.message, en('errors.badCredentials'));
  assert.equal(r.data.captcha, false);
  const zh = await call(t.app, 'POST', '/user/login', { ip, body: { username: 'wrongpw1', password: 'nope-nope' } });
  assert.equal(zh.code, CODES.BAD_CREDENTIALS);
  assert.equal(zh.message, tr('zh-CN', 'errors.badCredentials'), 'no X-Lang means zh-CN');
  // An unknown account answers exactly the same (no account enumeration).
  const ghost = await signIn('nobody-here', 'whatever1', ip);
  assert.equal(ghost.code, CODES.BAD_CREDENTIALS);
  assert.equal(ghost.message, r.message);
  assert.equal(r.data.token, undefined);
});

test('/user/info before and after a company: roles, company, companys, rights', async () => {
  const token = await register(t, 'infouser', 'secret1', 'Info User');
  const a = await call(t.app, 'GET', '/user/info', { token });
  assert.equal(a.code, CODES.OK);
  assert.ok(Array.isArray(a.data.roles) && a.data.roles.length > 0, 'roles is a non-empty array');
  assert.equal(a.data.company, 0);
  assert.deepEqual(a.data.companys, []);
  assert.deepEqual(a.data.rights, { is_admin: 0, ...NO_RIGHTS });
  assert.equal(a.data.is_init, 0);
  assert.equal(a.data.name, 'Info User');
  assert.equal(a.data.username, 'infouser');
  for (const k of ['id', 'mobile', 'avatar', 'introduction', 'alarm_ring', 'debug']) assert.ok(k in a.data, k);
  const c = await call(t.app, 'POST', '/company/create', { token, body: { name: 'Info Co', phone: '12345' } });
  assert.equal(c.code, CODES.OK);
  const b = await call(t.app, 'GET', '/user/info', { token });
  assert.equal(b.data.company, c.data.id);
  assert.deepEqual(b.data.companys, [{ id: c.data.id, name: 'Info Co' }]);
  assert.deepEqual(b.data.roles, ['main']);
  assert.equal(b.data.is_init, 1);
  assert.equal(b.data.rights.is_admin, 1);
  assert.equal(b.data.rights.manager, 1);
  assert.equal(b.data.rights.log, 1);
});

test('logout ends this token only; missing, garbage and oversized tokens answer 50008', async () => {
  const token = await register(t, 'logout1');
  const other = await login(t.app, 'logout1', 'secret1');
  const out = await call(t.app, 'POST', '/user/logout', { token });
  assert.equal(out.code, CODES.OK);
  const after = await call(t.app, 'GET', '/user/info', { token, lang: 'en-US' });
  assert.equal(after.status, 401);
  assert.equal(after.code, CODES.ILLEGAL_TOKEN);
  assert.equal(after.message, en('errors.illegalToken'));
  assert.equal((await call(t.app, 'GET', '/user/info', { token: other })).code, CODES.OK, 'the other session lives on');
  assert.equal((await call(t.app, 'POST', '/user/logout', { token })).code, CODES.ILLEGAL_TOKEN, 'logging out twice');
  for (const bad of [undefined, 'garbage', 'x'.repeat(43), 'y'.repeat(500)]) {
    const r = await call(t.app, 'GET', '/user/info', { token: bad });
    assert.equal(r.code, CODES.ILLEGAL_TOKEN, String(bad).slice(0, 10));
    assert.equal(r.status, 401);
  }
});

test('an expired session answers 50014, then the token is gone (50008)', async () => {
  const token = await register(t, 'expire1');
  const ttl = t.app.config.sessionTtl * 1000;
  try {
    travel(ttl - 5000);
    const before = await call(t.app, 'GET', '/user/info', { token });
    assert.equal(before.code, CODES.OK, 'still alive just before the end');
    travel(5001);
    const r = await call(t.app, 'GET', '/user/info', { token, lang: 'en-US' });
    assert.equal(r.status, 401);
    assert.equal(r.code, CODES.TOKEN_EXPIRED);
    assert.equal(r.message, en('errors.tokenExpired'));
    assert.equal((await call(t.app, 'GET', '/user/info', { token })).code, CODES.ILLEGAL_TOKEN);
  } finally {
    restore();
  }
});

test('sliding renewal: past half the TTL the answer carries a refreshToken; the old token works 60 s more', async () => {
  const token = await register(t, 'sliding1');
  const ttl = t.app.config.sessionTtl * 1000;
  const early = await call(t.app, 'GET', '/user/info', { token });
  assert.equal(early.refreshToken, undefined, 'no renewal early on');
  try {
    travel(ttl / 2 + 1000);
    const r = await call(t.app, 'GET', '/user/info', { token });
    assert.equal(r.code, CODES.OK);
    assert.equal(typeof r.refreshToken, 'string');
    const fresh = r.refreshToken!;
    assert.notEqual(fresh, token);
    const viaFresh = await call(t.app, 'GET', '/user/info', { token: fresh });
    assert.equal(viaFresh.code, CODES.OK);
    assert.equal(viaFresh.refreshToken, undefined, 'the new token is not renewed again');
    assert.equal(viaFresh.data.username, 'sliding1');
    travel(59_000);
    const grace = await call(t.app, 'GET', '/user/info', { token });
    assert.equal(grace.code, CODES.OK, 'old token within the grace period');
    assert.equal(grace.refreshToken, undefined, 'no second renewal from the old token');
    travel(2000);
    assert.equal((await call(t.app, 'GET', '/user/info', { token })).code, CODES.TOKEN_EXPIRED, 'old token after the grace period');
    assert.equal((await call(t.app, 'GET', '/user/info', { token: fresh })).code, CODES.OK);
  } finally {
    restore();
  }
});

test('changepwd: mismatch, wrong current, same as old are refused and change nothing', async () => {
  const c = await makeCompany(t, 'Pwd Co', 'pwduser1');
  const cases: [Record<string, string>, string, string][] = [
    [{ orig: 'secret1', new: 'secret2', renew: 'secret3' }, 'renew', en('errors.passwordMismatch')],
    [{ orig: 'wrong-one', new: 'secret2', renew: 'secret2' }, 'orig', en('errors.origPasswordWrong')],
    [{ orig: 'secret1', new: 'secret1', renew: 'secret1' }, 'new', en('errors.samePassword')],
    [
      { orig: 'secret1', new: 'short', renew: 'short' },
      'new',
      en('errors.validation', { field: en('fields.new'), reason: en('reasons.minLength', { limit: 6 }) }),
    ],
    [{ orig: 'secret1', new: 'secret2' }, 'renew', en('errors.validation', { field: en('fields.renew'), reason: en('reasons.required') })],
    [{ new: 'secret2', renew: 'secret2' }, 'orig', en('errors.validation', { field: en('fields.orig'), reason: en('reasons.required') })],
  ];
  const hashBefore = (await adminRow('pwduser1'))!.password_hash;
  for (const [body, field, message] of cases) {
    const r = await call(t.app, 'POST', '/user/changepwd', { token: c.main, lang: 'en-US', body });
    assert.ok(refusedCodes.includes(r.code), JSON.stringify(body));
    assert.ok([400, 422].includes(r.status));
    assert.deepEqual(r.data, { field });
    assert.equal(r.message, message);
  }
  assert.equal((await adminRow('pwduser1'))!.password_hash, hashBefore);
  assert.equal((await call(t.app, 'GET', '/user/info', { token: c.main })).code, CODES.OK, 'the session survives refused changes');
});

test('changepwd success: new token + refreshToken, other tokens ended, new password signs in, old does not', async () => {
  const c = await makeCompany(t, 'Pwd Co 2', 'pwduser2');
  const second = await login(t.app, 'pwduser2', 'secret1');
  const r = await call(t.app, 'POST', '/user/changepwd', { token: c.main, body: { orig: 'secret1', new: 'brandnew9', renew: 'brandnew9' } });
  assert.equal(r.code, CODES.OK);
  assert.equal(typeof r.data.token, 'string');
  assert.equal(r.refreshToken, r.data.token);
  assert.equal((await call(t.app, 'GET', '/user/info', { token: c.main })).code, CODES.ILLEGAL_TOKEN);
  assert.equal((await call(t.app, 'GET', '/user/info', { token: second })).code, CODES.ILLEGAL_TOKEN);
  assert.equal((await call(t.app, 'GET', '/user/info', { token: r.data.token })).code, CODES.OK);
  assert.equal((await signIn('pwduser2', 'secret1', nextIp())).code, CODES.BAD_CREDENTIALS);
  const fresh = await login(t.app, 'pwduser2', 'brandnew9');
  const logs = await call(t.app, 'GET', '/log/list', { token: fresh, query: { module: 'auth' } });
  assert.ok(
    logs.data.items.some((l: { action: string }) => l.action === 'auth.changepwd'),
    'the change is logged',
  );
  const msgs = await call(t.app, 'GET', '/message/list', { token: fresh });
  assert.ok(
    msgs.data.items.some((m: { type: string }) => m.type === 'passwordChanged'),
    'a message tells the admin',
  );
});

/** A registration body that would succeed: a fresh mobile with a real SMS code and a fresh captcha. */
async function regBody(username: string, over: Record<string, unknown> = {}) {
  const mobile = (over.mobile as string | undefined) ?? nextMobile();
  const ip = nextIp();
  if (/^\+?[1-9][0-9]{5,14}$/.test(mobile)) {
    const s = await call(t.app, 'POST', '/user/sendsmscode', {
      ip,
      body: { phone: mobile, purpose: 'register', icode: CAPTCHA, captcha_id: await captcha(t.app, ip) },
    });
    assert.equal(s.code, CODES.OK, s.message);
  }
  const smscode = t.sms.filter((x) => x.phone === mobile).at(-1)?.code ?? '123456';
  const body: Record<string, unknown> = {
    name: 'Reg Name',
    username,
    password: 'secret1',
    repassword: 'secret1',
    mobile,
    smscode,
    icode: CAPTCHA,
    captcha_id: await captcha(t.app, ip),
    ...over,
  };
  for (const [k, v] of Object.entries(over)) if (v === undefined) delete body[k];
  return body;
}

test('registration validation: every rule of spec §5 is enforced and nothing is created', async () => {
  const v = (field: string, reason: string, limit = 0) => ({
    field,
    message: en('errors.validation', { field: en(`fields.${field}`), reason: en(`reasons.${reason}`, { limit }) }),
  });
  const cases: [string, Record<string, unknown>, number, { field: string; message: string }][] = [
    ['name too short', { name: 'A' }, CODES.VALIDATION, v('name', 'minLength', 2)],
    ['name missing', { name: undefined }, CODES.VALIDATION, v('name', 'required')],
    ['name only spaces', { name: '    ' }, CODES.VALIDATION, v('name', 'required')],
    ['name one letter padded', { name: ' a ' }, CODES.VALIDATION, v('name', 'minLength', 2)],
    ['account missing', { username: undefined }, CODES.VALIDATION, v('username', 'required')],
    ['account empty', { username: '' }, CODES.VALIDATION, v('username', 'minLength', 1)],
    ['account 21 chars', { username: 'a'.repeat(21) }, CODES.VALIDATION, v('username', 'maxLength', 20)],
    ['account with spaces', { username: 'has space' }, CODES.VALIDATION, v('username', 'pattern')],
    ['password 5 chars', { password: '12345', repassword: '12345' }, CODES.VALIDATION, v('password', 'minLength', 6)],
    ['repeat differs', { repassword: 'secret2' }, CODES.VALIDATION, { field: 'repassword', message: en('errors.passwordMismatch') }],
    ['mobile invalid', { mobile: '12ab' }, CODES.VALIDATION, v('mobile', 'pattern')],
    ['mobile missing', { mobile: undefined }, CODES.VALIDATION, v('mobile', 'required')],
    ['sms code wrong', { smscode: '000000x' }, CODES.RULE, { field: 'smscode', message: en('errors.smsIncorrect') }],
    ['sms code missing', { smscode: undefined }, CODES.VALIDATION, v('smscode', 'required')],
    ['captcha missing', { icode: undefined }, CODES.VALIDATION, v('icode', 'required')],
    ['captcha wrong', { icode: '9999' }, CODES.CAPTCHA_REQUIRED, { field: 'icode', message: en('errors.captchaIncorrect') }],
    ['captcha unknown', { captcha_id: 'no-such-captcha' }, CODES.CAPTCHA_REQUIRED, { field: 'icode', message: en('errors.captchaIncorrect') }],
  ];
  let n = 0;
  for (const [label, over, code, want] of cases) {
    const username = over.username === undefined && 'username' in over ? undefined : ((over.username as string | undefined) ?? `regv${++n}`);
    const body = await regBody(username ?? 'unused', over);
    const r = await call(t.app, 'POST', '/admin/register', { lang: 'en-US', ip: nextIp(), body });
    assert.ok(code === CODES.VALIDATION ? refusedCodes.includes(r.code) : r.code === code, `${label}: ${r.code} ${r.message}`);
    assert.equal(r.data?.field, want.field, label);
    assert.equal(r.message, want.message, label);
    assert.equal(r.data?.token, undefined, label);
    if (typeof body.username === 'string') assert.equal(await adminRow(body.username), undefined, `${label}: no account created`);
  }
});

test('a captcha is single-use: a refused registration consumes it', async () => {
  const body = await regBody('reuse1', { smscode: '999999' });
  const first = await call(t.app, 'POST', '/admin/register', { body });
  assert.equal(first.code, CODES.RULE, 'wrong SMS code, captcha consumed');
  const again = await call(t.app, 'POST', '/admin/register', { body: { ...body, smscode: t.sms.filter((x) => x.phone === body.mobile).at(-1)!.code } });
  assert.equal(again.code, CODES.CAPTCHA_REQUIRED);
  assert.equal(again.data.captcha, true);
  assert.equal(await adminRow('reuse1'), undefined);
  // With a fresh captcha the same SMS code still works (a wrong try did not burn it).
  const ok = await call(t.app, 'POST', '/admin/register', {
    body: { ...body, smscode: t.sms.filter((x) => x.phone === body.mobile).at(-1)!.code, captcha_id: await captcha(t.app) },
  });
  assert.equal(ok.code, CODES.OK, ok.message);
  assert.ok(await adminRow('reuse1'));
  // A used SMS code cannot register a second account.
  const twice = await call(t.app, 'POST', '/admin/register', {
    body: { ...body, username: 'reuse2', smscode: t.sms.filter((x) => x.phone === body.mobile).at(-1)!.code, captcha_id: await captcha(t.app) },
  });
  assert.equal(twice.code, CODES.RULE);
  assert.equal(twice.data.field, 'smscode');
  assert.equal(await adminRow('reuse2'), undefined);
});

test('a duplicate account answers 40009 and keeps the first account', async () => {
  await register(t, 'dupe1', 'secret1', 'First Owner');
  const body = await regBody('dupe1', { name: 'Second Owner', password: 'other-pass', repassword: 'other-pass' });
  const r = await call(t.app, 'POST', '/admin/register', { lang: 'en-US', body });
  assert.equal(r.status, 409);
  assert.equal(r.code, CODES.CONFLICT);
  assert.equal(r.message, en('errors.accountTaken', { username: 'dupe1' }));
  const rows = await t.app.database.db.selectFrom('admins').selectAll().where('username', '=', 'dupe1').execute();
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.name, 'First Owner');
  assert.equal((await signIn('dupe1', 'secret1', nextIp())).code, CODES.OK);
});

test('sendsmscode: wrong captcha sends nothing; a second code within 60 s answers 40029', async () => {
  const phone = nextMobile();
  const wrong = await call(t.app, 'POST', '/user/sendsmscode', { body: { phone, purpose: 'register', icode: '1111', captcha_id: await captcha(t.app) } });
  assert.equal(wrong.code, CODES.CAPTCHA_REQUIRED);
  assert.equal(t.sms.filter((x) => x.phone === phone).length, 0);
  const first = await call(t.app, 'POST', '/user/sendsmscode', { body: { phone, purpose: 'register', icode: CAPTCHA, captcha_id: await captcha(t.app) } });
  assert.equal(first.code, CODES.OK);
  assert.deepEqual(first.data, { cooldown: 60 });
  const sent = t.sms.filter((x) => x.phone === phone);
  assert.equal(sent.length, 1);
  assert.equal(sent[0]!.purpose, 'register');
  assert.match(sent[0]!.code, /^\d{6}$/);
  const second = await call(t.app, 'POST', '/user/sendsmscode', {
    lang: 'en-US',
    body: { phone, purpose: 'register', icode: CAPTCHA, captcha_id: await captcha(t.app) },
  });
  assert.equal(second.status, 429);
  assert.equal(second.code, CODES.TOO_MANY);
  assert.match(second.message, /wait \d+ seconds/);
  assert.equal(t.sms.filter((x) => x.phone === phone).length, 1, 'no second SMS');
  try {
    travel(61_000);
    const third = await call(t.app, 'POST', '/user/sendsmscode', { body: { phone, purpose: 'register', icode: CAPTCHA, captcha_id: await captcha(t.app) } });
    assert.equal(third.code, CODES.OK, 'allowed again after the cooldown');
    assert.equal(t.sms.filter((x) => x.phone === phone).length, 2);
  } finally {
    restore();
  }
});

test('without an SMS sender: sendsmscode, register and forget answer 40050 and the config says so', async () => {
  const off = await makeApp({}, { sms: false });
  try {
    const cfg = await call(off.app, 'GET', '/system/config');
    assert.equal(cfg.data.registration, false);
    assert.equal(cfg.data.sms, false);
    const capId = await captcha(off.app);
    const s = await call(off.app, 'POST', '/user/sendsmscode', {
      lang: 'en-US',
      body: { phone: nextMobile(), purpose: 'register', icode: CAPTCHA, captcha_id: capId },
    });
    assert.equal(s.code, CODES.UNAVAILABLE);
    assert.equal(s.message, en('errors.smsUnavailable'));
    const r = await call(off.app, 'POST', '/admin/register', {
      lang: 'en-US',
      body: {
        name: 'No Sms',
        username: 'nosms1',
        password: 'secret1',
        repassword: 'secret1',
        mobile: nextMobile(),
        smscode: '123456',
        icode: CAPTCHA,
        captcha_id: await captcha(off.app),
      },
    });
    assert.equal(r.code, CODES.UNAVAILABLE);
    assert.equal(r.message, en('errors.registrationClosed'));
    const f = await call(off.app, 'POST', '/user/forget', { body: { mobile: nextMobile(), smscode: '123456', password: 'secret1', repassword: 'secret1' } });
    assert.equal(f.code, CODES.UNAVAILABLE);
    assert.equal(await off.app.database.db.selectFrom('admins').select('id').executeTakeFirst(), undefined, 'no account was created');
  } finally {
    await off.close();
  }
});

test('forgot password via SMS resets the password and ends the sessions', async () => {
  const mobile = nextMobile();
  const token = await register(t, 'forgot1', 'secret1', 'Forgetful', mobile);
  const send = async (phone: string) =>
    call(t.app, 'POST', '/user/sendsmscode', { ip: nextIp(), body: { phone, purpose: 'forget', icode: CAPTCHA, captcha_id: await captcha(t.app) } });
  // An unknown number gets the same answer but no SMS (no account enumeration).
  const unknown = nextMobile();
  assert.equal((await send(unknown)).code, CODES.OK);
  assert.equal(t.sms.filter((x) => x.phone === unknown).length, 0);
  assert.equal((await send(mobile)).code, CODES.OK);
  const sms = t.sms.filter((x) => x.phone === mobile && x.purpose === 'forget').at(-1)!;
  assert.ok(sms);
  const hash = (await adminRow('forgot1'))!.password_hash;
  const bad = await call(t.app, 'POST', '/user/forget', { body: { mobile, smscode: '000000', password: 'resetpw1', repassword: 'resetpw1' } });
  assert.equal(bad.code, CODES.RULE);
  assert.equal(bad.data.field, 'smscode');
  const mismatch = await call(t.app, 'POST', '/user/forget', { body: { mobile, smscode: sms.code, password: 'resetpw1', repassword: 'resetpw2' } });
  assert.equal(mismatch.code, CODES.RULE);
  assert.equal(mismatch.data.field, 'repassword');
  assert.equal((await adminRow('forgot1'))!.password_hash, hash, 'refused resets change nothing');
  assert.equal((await call(t.app, 'GET', '/user/info', { token })).code, CODES.OK);
  const ok = await call(t.app, 'POST', '/user/forget', { body: { mobile, smscode: sms.code, password: 'resetpw1', repassword: 'resetpw1' } });
  assert.equal(ok.code, CODES.OK);
  assert.equal((await call(t.app, 'GET', '/user/info', { token })).code, CODES.ILLEGAL_TOKEN, 'sessions ended');
  assert.equal((await signIn('forgot1', 'secret1', nextIp())).code, CODES.BAD_CREDENTIALS);
  assert.equal((await signIn('forgot1', 'resetpw1', nextIp())).code, CODES.OK);
  // The code is consumed.
  const again = await call(t.app, 'POST', '/user/forget', { body: { mobile, smscode: sms.code, password: 'resetpw3', repassword: 'resetpw3' } });
  assert.equal(again.code, CODES.RULE);
});

test('X-Lang: the same error in zh-CN, zh_tw, en-US and ja reads in four languages', async () => {
  const messages = new Set<string>();
  for (const lang of LANGUAGES) {
    const r = await call(t.app, 'GET', '/user/info', { lang });
    assert.equal(r.code, CODES.ILLEGAL_TOKEN);
    assert.equal(r.message, tr(lang, 'errors.illegalToken'), lang);
    messages.add(r.message);
  }
  assert.equal(messages.size, 4);
  assert.equal((await call(t.app, 'GET', '/user/info', { lang: 'zh-TW' })).message, tr('zh_tw', 'errors.illegalToken'), 'browser spelling zh-TW');
  assert.equal((await call(t.app, 'GET', '/user/info', { lang: 'xx-YY' })).message, tr('zh-CN', 'errors.illegalToken'), 'unknown language falls back to zh-CN');
  // Success messages are translated too.
  for (const lang of LANGUAGES) assert.equal((await call(t.app, 'GET', '/system/config', { lang })).message, tr(lang, 'common.success'), lang);
  assert.equal((await call(t.app, 'GET', '/system/config', { lang: 'en-US' })).message, 'Success');
});

test('ADMIN_USERNAME/ADMIN_PASSWORD create the initial admin on an empty database only', async () => {
  const boot = await makeApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'rootpass1' });
  try {
    const cfg = await call(boot.app, 'GET', '/system/config');
    assert.equal(cfg.data.needsSetup, false);
    const token = await login(boot.app, 'root', 'rootpass1');
    const info = await call(boot.app, 'GET', '/user/info', { token });
    assert.equal(info.data.username, 'root');
    assert.equal(info.data.company, 0);
    const row = await boot.app.database.db.selectFrom('admins').selectAll().where('username', '=', 'root').executeTakeFirstOrThrow();
    assert.match(row.password_hash, /^scrypt\$/, 'stored hashed');
    // Restarting with other credentials on a non-empty database adds nobody and changes nothing.
    const again = await reopen(boot, { adminUsername: 'other', adminPassword: 'otherpass1' });
    try {
      assert.equal((await call(again, 'POST', '/user/login', { body: { username: 'other', password: 'otherpass1' } })).code, CODES.BAD_CREDENTIALS);
      const same = await reopen(boot, { adminUsername: 'root', adminPassword: 'changedpw1' });
      await same.close();
      assert.equal((await call(again, 'POST', '/user/login', { body: { username: 'root', password: 'changedpw1' } })).code, CODES.BAD_CREDENTIALS);
      assert.equal((await call(again, 'POST', '/user/login', { body: { username: 'root', password: 'rootpass1' } })).code, CODES.OK);
      const all = await again.database.db.selectFrom('admins').select('username').execute();
      assert.deepEqual(
        all.map((a) => a.username),
        ['root'],
      );
    } finally {
      await again.close();
    }
  } finally {
    await boot.close();
  }
  // Without the variables nobody is created.
  const plain = await makeApp();
  try {
    assert.equal((await call(plain.app, 'GET', '/system/config')).data.needsSetup, true);
  } finally {
    await plain.close();
  }
});

test('no answer carries password hashes or raw passwords (info, manager list, log list)', async () => {
  const c = await makeCompany(t, 'Secret Co', 'secretowner');
  const pw = 'Sup3r-Secret-Pw';
  const m = await call(t.app, 'POST', '/manager/create', {
    token: c.main,
    body: { name: 'Hidden Pw', username: 'hiddenpw', password: pw, repassword: pw, rights: ['logView'] },
  });
  assert.equal(m.code, CODES.OK);
  const u = await call(t.app, 'POST', '/manager/update', {
    token: c.main,
    body: { id: m.data.id, name: 'Hidden Pw', password: `${pw}2`, repassword: `${pw}2` },
  });
  assert.equal(u.code, CODES.OK);
  const sub = await login(t.app, 'hiddenpw', `${pw}2`);
  const answers = [
    await raw(t.app, 'GET', '/user/info', { token: c.main }),
    await raw(t.app, 'GET', '/user/info', { token: sub }),
    await raw(t.app, 'GET', '/manager/list', { token: c.main }),
    await raw(t.app, 'GET', '/log/list', { token: c.main, query: { pageSize: 100 } }),
    await raw(t.app, 'GET', '/dashboard/summary', { token: c.main }),
    await raw(t.app, 'GET', '/admin/get_adminright', { token: sub }),
  ];
  for (const a of answers) {
    assert.equal(a.status, 200, a.text);
    for (const secret of ['password_hash', 'scrypt$', pw, 'secret1', 'repassword', 'token_hash'])
      assert.ok(!a.text.includes(secret), `answer contains ${secret}: ${a.text.slice(0, 200)}`);
  }
  assert.ok(answers[2]!.text.includes('hiddenpw'), 'the manager list did list the account');
  assert.ok(answers[3]!.text.includes('manager.create'), 'the log did record the creation');
});
