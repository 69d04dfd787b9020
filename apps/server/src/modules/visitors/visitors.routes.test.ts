import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import ExcelJS from 'exceljs';
import { API, call, CAPTCHA, captcha, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';
import { form, personSessionWithFace, picture } from '../../../test/files.ts';
import { openLive } from '../../../test/live-client.ts';
import { listen, stopTerminals, terminal, until } from '../../../test/terminals.ts';

let t: TestApp;
let server: string;
let A: Company;
let B: Company;
let door: number;
let closedDoor: number;
let doorB: number;
let personToken: string;

const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const device = async (c: Company, serial: string, name: string, allowvisit: 0 | 1, scope?: 'all') => {
  const r = await call(t.app, 'POST', '/device/create', {
    token: c.main,
    body: { name, serial, ip: '192.168.1.40', password: 'dev-secret', ...(scope ? { attendance_scope: scope } : {}) },
  });
  assert.equal(r.code, CODES.OK, r.message);
  if (allowvisit) {
    const o = await call(t.app, 'POST', '/device/options', { token: c.main, body: { id: r.data.id, options: { allowvisit: 1 } } });
    assert.equal(o.code, CODES.OK, o.message);
  }
  return r.data.id as number;
};
const invitation = (over: Record<string, unknown> = {}) => ({
  name: 'Vera Visitor',
  phone: '13800001111',
  company: 'Acme Ltd',
  reason: 'Contract meeting',
  starts_at: iso(Date.now() - 60_000),
  ends_at: iso(Date.now() + 2 * HOUR),
  device_ids: [door],
  ...over,
});
const invite = (body: unknown, token = A.main) => call(t.app, 'POST', '/visitor/invite', { token, body, lang: 'en-US' });
const tokenOf = (link: string) => link.split('/visit/')[1]!;
const face = async (token: string, data: Buffer, name = 'me.jpg') => {
  const f = form({ name, data });
  const res = await t.app.inject({ method: 'POST', url: `${API}/visit/${token}/face`, headers: { ...f.headers, 'x-lang': 'en-US' }, payload: f.payload });
  return { ...res.json<{ code: number; message: string; data: any }>(), status: res.statusCode };
};
const ledger = async (deviceId: number, token = A.main) =>
  (await call(t.app, 'GET', '/device/persons', { token, query: { id: deviceId, pageSize: 100 } })).data.items as {
    person_id: number;
    name: string;
    state: string;
    removing: boolean;
  }[];
const visitorRow = (id: number) => t.app.database.db.selectFrom('visitors').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

before(async () => {
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  server = await listen(t);
  A = await makeCompany(t, 'Visitors A');
  B = await makeCompany(t, 'Visitors B');
  door = await device(A, 'VISA01', 'Lobby gate', 1);
  closedDoor = await device(A, 'VISA02', 'Server room', 0);
  doorB = await device(B, 'VISB01', 'B gate', 1);
  personToken = await personSessionWithFace(t, A, { number: 'E100', name: 'Person E100' });
});
after(async () => {
  await stopTerminals();
  await t.close();
});

test(`the doors offered are the company's devices with allowvisit on; others, and another company's, are refused naming the field (${DIALECT})`, async () => {
  const doors = await call(t.app, 'GET', '/visitor/doors', { token: A.main });
  assert.deepEqual(doors.data.items, [{ id: door, name: 'Lobby gate' }]);
  for (const ids of [[closedDoor], [door, doorB], [999999]]) {
    const r = await invite(invitation({ device_ids: ids }));
    assert.equal(r.code, CODES.RULE, JSON.stringify(ids));
    assert.equal(r.data?.field, 'device_ids');
    assert.match(r.message, /does not let visitors in/);
  }
});

test(`windows must be real, forward, not over and at most 7 days; the schema refuses impossible instants (${DIALECT})`, async () => {
  const now = Date.now();
  const cases: [Record<string, unknown>, number, string][] = [
    [{ starts_at: iso(now + 2 * HOUR), ends_at: iso(now + HOUR) }, CODES.RULE, 'ends_at'],
    [{ starts_at: iso(now - 3 * HOUR), ends_at: iso(now - HOUR) }, CODES.RULE, 'ends_at'],
    [{ starts_at: iso(now), ends_at: iso(now + 8 * 24 * HOUR) }, CODES.RULE, 'ends_at'],
    [{ starts_at: '2026-02-30T10:00:00Z' }, CODES.VALIDATION, 'starts_at'],
    [{ ends_at: '2026-12-01 10:00' }, CODES.VALIDATION, 'ends_at'],
  ];
  for (const [over, code, field] of cases) {
    const r = await invite(invitation(over));
    assert.equal(r.code, code, JSON.stringify(over) + r.message);
    assert.equal(r.data?.field, field);
  }
});

test(`an administrator invites: the link is answered once (hash stored), sent by SMS, and the visitor is on no door before a face (${DIALECT})`, async () => {
  const r = await invite(invitation());
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal(r.data.visitor.state, 'invited');
  assert.equal(r.data.visitor.has_face, false);
  assert.equal(r.data.visitor.inviter.startsWith('Admin'), true);
  assert.deepEqual(r.data.visitor.doors, [{ id: door, name: 'Lobby gate' }]);
  assert.match(r.data.link, /^http:\/\/[^/]+\/visit\/[A-Za-z0-9_-]{32}$/);
  assert.equal(r.data.sms_sent, true);
  const sms = t.sms.at(-1)!;
  assert.deepEqual(sms, { phone: '13800001111', purpose: 'visit', code: r.data.link });
  const row = await visitorRow(r.data.visitor.id);
  assert.notEqual(row.token_hash, tokenOf(r.data.link), 'only the hash is kept');
  assert.equal(JSON.stringify(r.data.visitor).includes(row.token_hash), false);
  assert.equal((await ledger(door)).length, 0);
  const list = await call(t.app, 'GET', '/visitor/list', { token: A.main });
  assert.equal(list.data.items[0].id, r.data.visitor.id);
  // another company sees nothing of it and cannot cancel it
  assert.equal((await call(t.app, 'GET', '/visitor/list', { token: B.main })).data.total, 0);
  assert.equal((await call(t.app, 'POST', '/visitor/cancel', { token: B.main, body: { id: r.data.visitor.id } })).code, CODES.NOT_FOUND);
});

test(`the visitor's page: a wrong token is not found; the face upload has the people's photo checks with the reason; a face puts the visitor on the invitation's doors only (${DIALECT})`, async () => {
  const r = await invite(invitation({ name: 'Page Visitor' }));
  const token = tokenOf(r.data.link);
  assert.equal((await call(t.app, 'GET', `/visit/${'x'.repeat(32)}`)).code, CODES.NOT_FOUND);
  assert.equal((await face('y'.repeat(32), await picture())).code, CODES.NOT_FOUND);
  const shown = await call(t.app, 'GET', `/visit/${token}`, { lang: 'en-US' });
  assert.equal(shown.code, CODES.OK, shown.message);
  assert.deepEqual(
    { name: shown.data.name, host: shown.data.host, reason: shown.data.reason, doors: shown.data.doors, has_face: shown.data.has_face },
    { name: 'Page Visitor', host: 'Visitors A', reason: 'Contract meeting', doors: ['Lobby gate'], has_face: false },
  );
  const notImage = await face(token, Buffer.from('hello'), 'x.jpg');
  assert.equal(notImage.code, CODES.RULE);
  assert.match(notImage.message, /JPEG or PNG/);
  const tiny = await face(token, await picture(60, 60));
  assert.equal(tiny.code, CODES.RULE);
  assert.match(tiny.message, /too small/);
  assert.equal((await ledger(door)).filter((l) => l.name === 'Page Visitor').length, 0, 'refused faces put no one on a door');
  const ok = await face(token, await picture());
  assert.equal(ok.code, CODES.OK, ok.message);
  assert.equal(ok.data.has_face, true);
  assert.equal(ok.data.state, 'active');
  assert.equal((await ledger(door)).filter((l) => l.name === 'Page Visitor').length, 1);
  assert.equal((await ledger(closedDoor)).length, 0);
  // cancelled: the page and the upload refuse the token, the door's ledger row is being removed
  const c = await call(t.app, 'POST', '/visitor/cancel', { token: A.main, body: { id: r.data.visitor.id } });
  assert.equal(c.data.state, 'cancelled');
  assert.equal((await call(t.app, 'GET', `/visit/${token}`, { lang: 'en-US' })).code, CODES.RULE);
  assert.equal((await face(token, await picture())).code, CODES.RULE);
  // never reached the door (no terminal took it yet): the ledger drops the row at once, nothing to delete there
  assert.deepEqual(
    (await ledger(door)).filter((l) => l.name === 'Page Visitor'),
    [],
  );
});

test(`a visitor is in none of the people's lists: people, search, export, next number, pickers, rules, devices taking everyone, person edits (${DIALECT})`, async () => {
  const everyone = await device(A, 'VISA03', 'Canteen', 0, 'all');
  const before = (await call(t.app, 'GET', '/person/list', { token: A.main, query: { pageSize: 100 } })).data;
  const r = await invite(invitation({ name: 'Hidden Visitor', phone: '13812345678' }));
  await face(tokenOf(r.data.link), await picture());
  const person = await t.app.database.db.selectFrom('visitors').select('person_id').where('id', '=', r.data.visitor.id).executeTakeFirstOrThrow();
  const pin = (await t.app.database.db.selectFrom('persons').select('number').where('id', '=', person.person_id).executeTakeFirstOrThrow()).number;
  assert.match(pin, /^9\d{8}$/, 'a numeric PIN');
  const people = await call(t.app, 'GET', '/person/list', { token: A.main, query: { pageSize: 100 } });
  assert.equal(people.data.total, before.total);
  assert.equal((await call(t.app, 'GET', '/person/list', { token: A.main, query: { keyword: 'Hidden' } })).data.total, 0);
  assert.equal((await call(t.app, 'GET', '/person/list', { token: A.main, query: { keyword: pin } })).data.total, 0);
  const xlsx = await call(t.app, 'POST', '/person/exportPerson', { token: A.main, body: {} });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(xlsx.data);
  const cells = JSON.stringify(wb.worksheets.map((w) => w.getSheetValues()));
  assert.equal(cells.includes('Hidden Visitor'), false);
  const next = await call(t.app, 'GET', '/person/nextNumber', { token: A.main });
  assert.equal(String(next.data.number ?? next.data).startsWith('9000'), false);
  const picks = await call(t.app, 'GET', '/self/people', { personToken, query: { keyword: 'Hidden' } });
  assert.equal(picks.code, CODES.OK, picks.message);
  assert.equal(picks.data.total, 0);
  const rule = await call(t.app, 'POST', '/attendance/rule/create', {
    token: A.main,
    body: { name: 'Visitors?', mode: 'free', shifts: [], day_boundary: '05:00', required_min: 450, person_ids: [person.person_id], department_ids: [] },
  });
  assert.equal(rule.code, CODES.RULE);
  assert.equal(rule.data.field, 'person_ids');
  assert.equal(
    (await ledger(everyone)).some((l) => l.person_id === person.person_id),
    false,
    'a device taking everyone does not take visitors',
  );
  assert.equal((await call(t.app, 'GET', '/person/info', { token: A.main, query: { id: person.person_id } })).code, CODES.NOT_FOUND);
  for (const [url, body] of [
    ['/person/delete', { id: person.person_id }],
    ['/person/erase', { id: person.person_id }],
  ] as const)
    assert.equal((await call(t.app, 'POST', url, { token: A.main, body })).code, CODES.NOT_FOUND, url);
  // the visitor's phone signs nobody in to the self-service page
  const sent = t.sms.length;
  const sendCode = await call(t.app, 'POST', '/self/sendcode', {
    body: { phone: '13812345678', icode: CAPTCHA, captcha_id: await captcha(t.app) },
    lang: 'en-US',
  });
  assert.equal(sendCode.code, CODES.OK, sendCode.message);
  assert.equal(t.sms.slice(sent).length, 0, 'no sign-in code for a visitor');
  await call(t.app, 'POST', '/device/delete', { token: A.main, body: { id: everyone } });
});

test(`an employee invites from the self-service page, sees and cancels their own invitations only (${DIALECT})`, async () => {
  const doors = await call(t.app, 'GET', '/self/visitor/doors', { personToken });
  assert.deepEqual(doors.data.items, [{ id: door, name: 'Lobby gate' }]);
  const r = await call(t.app, 'POST', '/self/visitor/invite', { personToken, body: invitation({ name: 'Guest Of Employee' }) });
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal(r.data.visitor.inviter, 'Person E100');
  const mine = await call(t.app, 'GET', '/self/visitor/list', { personToken });
  assert.deepEqual(
    mine.data.items.map((v: { name: string }) => v.name),
    ['Guest Of Employee'],
  );
  const bad = await call(t.app, 'POST', '/self/visitor/invite', { personToken, body: invitation({ device_ids: [closedDoor] }), lang: 'en-US' });
  assert.equal(bad.code, CODES.RULE);
  // an administrator's invitation is not the employee's to cancel
  const adminsOwn = await invite(invitation({ name: 'Admin Guest' }));
  assert.equal((await call(t.app, 'POST', '/self/visitor/cancel', { personToken, body: { id: adminsOwn.data.visitor.id } })).code, CODES.NOT_FOUND);
  const c = await call(t.app, 'POST', '/self/visitor/cancel', { personToken, body: { id: r.data.visitor.id } });
  assert.equal(c.data.state, 'cancelled');
});

test(`a sub-administrator needs the person-edit right to invite and the log right to read the visit log (${DIALECT})`, async () => {
  const viewer = await makeSub(t, A, ['userView']);
  const logger = await makeSub(t, A, ['logView']);
  const editor = await makeSub(t, A, ['userEdit']);
  assert.equal((await invite(invitation(), viewer.token)).code, CODES.NO_AUTHORITY);
  assert.equal((await invite(invitation(), logger.token)).code, CODES.NO_AUTHORITY);
  assert.equal((await call(t.app, 'GET', '/visitor/log', { token: viewer.token })).code, CODES.NO_AUTHORITY);
  assert.equal((await call(t.app, 'GET', '/visitor/log', { token: logger.token })).code, CODES.OK);
  const r = await invite(invitation({ name: 'Sub Guest' }), editor.token);
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal(r.data.visitor.inviter, `Sub ${editor.username}`);
});

test(`the door: the visitor is synced with the window as the terminal's validity; inside it the door opens (visit log success with photo, the inviter told), after it refused (failure); the job ends the visit and the door forgets them (${DIALECT})`, async () => {
  const start = Date.now() - 60_000;
  const end = Date.now() + HOUR;
  const r = await invite(invitation({ name: 'Door Visitor', starts_at: iso(start), ends_at: iso(end) }));
  const visitorId = r.data.visitor.id as number;
  await face(tokenOf(r.data.link), await picture());
  const row = await visitorRow(visitorId);
  const pin = (await t.app.database.db.selectFrom('persons').select('number').where('id', '=', row.person_id).executeTakeFirstOrThrow()).number;
  const term = terminal(server, 'VISA01');
  await term.start();
  await until('the visitor on the door', () => term.users.get(pin) && term.photos.has(pin));
  const local = (ms: number) => new Date(Math.floor(ms / 1000) * 1000 + 8 * HOUR).toISOString().slice(0, 19).replace('T', ' ');
  const user = term.users.get(pin)!;
  assert.deepEqual([user.startDatetime, user.endDatetime], [local(start), local(end)], "the window in the terminal's clock (UTC+8)");
  await until('synced', async () => (await ledger(door)).find((l) => l.person_id === row.person_id)?.state === 'synced');

  // the guard desk hears the arrival (live `visitor`), an auditor with the log right only too
  const auditor = await makeSub(t, A, ['logView']);
  const live = await openLive(server, auditor.token, { topics: 'visitor' });
  // the door watcher's punch says it is a visitor's, and whose guest (webhooks carry the same)
  const watcher = await openLive(server, A.main, { topics: 'punch' });
  const inside = await term.recognize({ pin, time: local(Date.now()), photo: await picture(200, 200) });
  assert.equal(inside.outcome, 'opened');
  const arrival = await live.waitFor('the arrival', (e) => e.event === 'visitor');
  live.close();
  const seen = await watcher.waitFor("the visitor's punch", (e) => e.event === 'punch');
  watcher.close();
  assert.deepEqual(seen.data.visitor, { id: visitorId, inviter: r.data.visitor.inviter });
  assert.ok(seen.data.visitor.inviter.startsWith('Admin'));
  assert.equal(seen.data.late, false);
  assert.deepEqual({ id: arrival.data.id, name: arrival.data.name }, { id: visitorId, name: 'Door Visitor' });
  const outside = await term.recognize({ pin, time: local(end + 60_000) });
  assert.equal(outside.outcome, 'refused');
  const readLog = () => call(t.app, 'GET', '/visitor/log', { token: A.main, query: { keyword: 'door visitor' } });
  await until('two visits', async () => {
    const l = await readLog();
    return l.data.total === 2 && l.data.items.some((v: { pic_url: string; status: string }) => v.status === 'success' && v.pic_url);
  });
  const log = await readLog();
  const byStatus = Object.fromEntries(log.data.items.map((v: { status: string }) => [v.status, v]));
  assert.deepEqual(
    { visitor: byStatus.success.visitor, door: byStatus.success.door, inviter: byStatus.success.inviter.startsWith('Admin'), failure: byStatus.failure.door },
    { visitor: 'Door Visitor', door: 'Lobby gate', inviter: true, failure: 'Lobby gate' },
  );
  const img = await t.app.inject({ method: 'GET', url: byStatus.success.pic_url, headers: { cookie: `Admin-Token=${A.main}` } });
  assert.equal(img.statusCode, 200);
  assert.equal(img.headers['content-type'], 'image/jpeg');
  // filters: status, door, days; another company sees none of it
  assert.equal((await call(t.app, 'GET', '/visitor/log', { token: A.main, query: { status: 'failure', keyword: 'door visitor' } })).data.total, 1);
  assert.equal((await call(t.app, 'GET', '/visitor/log', { token: A.main, query: { device_id: closedDoor } })).data.total, 0);
  assert.equal((await call(t.app, 'GET', '/visitor/log', { token: A.main, query: { from: '2020-01-01', to: '2020-01-02' } })).data.total, 0);
  assert.equal((await call(t.app, 'GET', '/visitor/log', { token: A.main, query: { from: '2026-01-02', to: '2026-01-01' } })).code, CODES.RULE);
  assert.equal((await call(t.app, 'GET', '/visitor/log', { token: B.main })).data.total, 0);
  assert.equal((await call(t.app, 'GET', `/visitor/log/photo/${byStatus.success.id}`, { token: B.main })).code, CODES.NOT_FOUND);
  // the inviter's message, and the arrival on the visitor
  const messages = await call(t.app, 'GET', '/message/list', { token: A.main, lang: 'en-US' });
  assert.ok(messages.data.items.some((m: { title: string }) => m.title === 'Your visitor Door Visitor has arrived'));
  assert.notEqual((await visitorRow(visitorId)).arrived_at, null);
  // export
  const xlsx = await call(t.app, 'POST', '/visitor/log/export', { token: A.main, lang: 'en-US', body: { keyword: 'door visitor' } });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(xlsx.data);
  const sheet = wb.worksheets[0]!;
  assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), ['Inviter', 'Visitor', 'Phone', 'Door', 'Open time', 'Open status', 'Capture photo']);
  assert.equal(sheet.rowCount, 3);

  // the window passes: the job ends the visit, the ledger deletes the user on the door
  await t.app.database.db
    .updateTable('visitors')
    .set({ ends_at: iso(Date.now() - 1000) })
    .where('id', '=', visitorId)
    .execute();
  assert.ok((await t.app.modules.visitors.visitors.endDue()) >= 1);
  assert.equal((await visitorRow(visitorId)).state, 'ended');
  await until('removed from the door', () => !term.users.has(pin));
  await until('the ledger row gone', async () => !(await ledger(door)).some((l) => l.person_id === row.person_id));
  assert.equal((await call(t.app, 'GET', `/visit/${tokenOf(r.data.link)}`)).code, CODES.RULE, 'an ended invitation refuses its link');
});
