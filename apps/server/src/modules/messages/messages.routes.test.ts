import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, LANGUAGES, type MessageItem } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';
import { t as tr } from '../../i18n/i18n.ts';

let t: TestApp;
let A: Company;
let B: Company;
before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Msg Co A', 'msgowner_a');
  B = await makeCompany(t, 'Msg Co B', 'msgowner_b');
});
after(() => t.close());

const en = (key: string, params: Record<string, string | number> = {}) => tr('en-US', key, params);
type MsgPage = { items: MessageItem[]; total: number; page: number; pageSize: number };
const list = async (token: string, query: Record<string, string | number> = {}, lang = 'en-US') => {
  const r = await call<MsgPage>(t.app, 'GET', '/message/list', { token, lang, query });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data;
};
const count = async (token: string) => {
  const r = await call(t.app, 'GET', '/message/count', { token });
  assert.equal(r.code, CODES.OK);
  return r.data.count as number;
};
const read = (token: string, body: Record<string, unknown>) => call(t.app, 'POST', '/message/read', { token, body });
const readRows = (messageId: number) => t.app.database.db.selectFrom('message_reads').selectAll().where('message_id', '=', messageId).execute();
/** Gives the administrator one more personal message (a password change notice). */
async function passwordNotice(token: string, from: string, to: string): Promise<string> {
  const r = await call(t.app, 'POST', '/user/changepwd', { token, body: { orig: from, new: to, renew: to } });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data.token;
}

test(`a new sub-admin gets a welcome message in their language (${DIALECT})`, async () => {
  const sub = await makeSub(t, A, ['logView']);
  const page = await list(sub.token);
  assert.equal(page.total, 1);
  const m = page.items[0]!;
  assert.equal(m.type, 'welcome');
  assert.equal(m.read, false);
  assert.equal(m.title, 'Welcome to Msg Co A');
  assert.equal(m.content, en('messages.welcome.content', { admin: 'Admin msgowner_a', company: 'Msg Co A' }));
  assert.match(m.created_at, /^\d{4}-\d{2}-\d{2}T/);
  const titles = new Set<string>();
  for (const lang of LANGUAGES) {
    const item = (await list(sub.token, {}, lang)).items[0]!;
    assert.equal(item.title, tr(lang, 'messages.welcome.title', { company: 'Msg Co A' }), lang);
    assert.ok(!item.content.includes('{'), `${lang}: placeholders filled`);
    titles.add(item.title);
  }
  assert.equal(titles.size, 4);
  assert.equal(await count(sub.token), 1);
  // The welcome is personal: the main admin does not get it.
  assert.ok(!(await list(A.main)).items.some((x) => x.type === 'welcome'));
});

test('count, unread=1, read one, read all', async () => {
  const sub = await makeSub(t, A, []);
  let token = await passwordNotice(sub.token, 'secret1', 'secret2');
  token = await passwordNotice(token, 'secret2', 'secret3');
  assert.equal(await count(token), 3);
  const all = await list(token);
  assert.equal(all.total, 3);
  assert.deepEqual(
    all.items.map((m) => m.type),
    ['passwordChanged', 'passwordChanged', 'welcome'],
    'newest first',
  );
  const welcome = all.items[2]!;
  const r1 = await read(token, { ids: [welcome.id] });
  assert.equal(r1.code, CODES.OK);
  assert.deepEqual(r1.data, { count: 2 });
  assert.equal(await count(token), 2);
  const unread = await list(token, { unread: 1 });
  assert.equal(unread.total, 2);
  assert.ok(unread.items.every((m) => !m.read && m.type === 'passwordChanged'));
  const after = await list(token);
  assert.equal(after.items.find((m) => m.id === welcome.id)!.read, true);
  // Reading again is harmless.
  assert.deepEqual((await read(token, { ids: [welcome.id] })).data, { count: 2 });
  assert.equal((await readRows(welcome.id)).length, 1);
  // Nothing to read: nothing changes.
  assert.deepEqual((await read(token, {})).data, { count: 2 });
  assert.deepEqual((await read(token, { ids: [] })).data, { count: 2 });
  const r2 = await read(token, { all: true });
  assert.deepEqual(r2.data, { count: 0 });
  assert.equal(await count(token), 0);
  assert.equal((await list(token, { unread: 1 })).total, 0);
  assert.ok((await list(token)).items.every((m) => m.read));
  // Pagination.
  const p = await list(token, { page: 2, pageSize: 2 });
  assert.equal(p.total, 3);
  assert.equal(p.items.length, 1);
  assert.deepEqual([p.page, p.pageSize], [2, 2]);
  const bad = await call(t.app, 'POST', '/message/read', { token, body: { ids: ['x'] } });
  assert.equal(bad.code, CODES.VALIDATION);
  const badQ = await call(t.app, 'GET', '/message/list', { token, query: { unread: 2 } });
  assert.equal(badQ.code, CODES.VALIDATION);
});

test("reading another company's (or another admin's) message ids does nothing to them", async () => {
  const aSub = await makeSub(t, A, []);
  const bSub = await makeSub(t, B, []);
  const bWelcome = (await list(bSub.token)).items[0]!;
  const aMainMsgs = await list(A.main);
  const aSubWelcome = (await list(aSub.token)).items[0]!;
  // A's main admin tries B's message and A's sub's personal message.
  const before = await count(A.main);
  const r = await read(A.main, { ids: [bWelcome.id, aSubWelcome.id] });
  assert.equal(r.code, CODES.OK);
  assert.equal(r.data.count, before);
  assert.deepEqual(await list(A.main), aMainMsgs);
  assert.equal((await readRows(bWelcome.id)).length, 0, 'no read mark was stored');
  assert.equal((await readRows(aSubWelcome.id)).length, 0);
  assert.equal(await count(bSub.token), 1);
  assert.equal((await list(bSub.token)).items[0]!.read, false);
  assert.equal(await count(aSub.token), 1);
  // "all" only covers the caller's own visible messages.
  await read(A.main, { all: true });
  assert.equal(await count(bSub.token), 1);
  assert.equal(await count(aSub.token), 1);
  assert.equal((await readRows(bWelcome.id)).length, 0);
  // Nobody lists another company's messages.
  assert.ok(!(await list(A.main)).items.some((m) => m.id === bWelcome.id));
});

test('company-wide messages are read per administrator', async () => {
  const c = await makeCompany(t, 'Broadcast Co');
  const heir = await makeSub(t, c, []);
  const other = await makeSub(t, c, []);
  await read(heir.token, { all: true });
  await read(other.token, { all: true });
  assert.equal((await call(t.app, 'POST', '/admin/transfer', { token: c.main, body: { admin_id: heir.id } })).code, CODES.OK);
  for (const token of [c.main, heir.token, other.token]) assert.equal(await count(token), 1);
  const msg = (await list(other.token, { unread: 1 })).items[0]!;
  assert.equal(msg.type, 'transfer');
  await read(other.token, { ids: [msg.id] });
  assert.equal(await count(other.token), 0);
  assert.equal(await count(heir.token), 1, 'still unread for the others');
  assert.equal(await count(c.main), 1);
  // The dashboard's figure agrees.
  assert.equal((await call(t.app, 'GET', '/dashboard/summary', { token: heir.token })).data.unreadMessages, 1);
});
