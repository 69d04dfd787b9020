import assert from 'node:assert/strict';
import { type AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { call, DIALECT, login, makeApp, makeCompany, makeSub, makeTwin, type Company, type TestApp } from '../../../test/helpers.ts';
import { addPersonWithFace } from '../../../test/files.ts';
import { openLive, type LiveClient } from '../../../test/live-client.ts';
import { listen, stopTerminals, terminal } from '../../../test/terminals.ts';
import { sha256 } from '../../lib/crypto.ts';
import { sessionsRepository } from '../auth/sessions.repository.ts';
import { createLiveHub } from './live.hub.ts';

/**
 * Issue #28: open live streams follow the session. Sign-out, a password change, removal from the company, session
 * expiry and a rights change end that administrator's streams at once (on every instance), not at the stream's
 * 10-minute lifetime; the console reconnects and is refused, or reads the new rights.
 */
let t: TestApp;
let server: string;
let A: Company;
const open: LiveClient[] = [];

before(async () => {
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  server = await listen(t);
  A = await makeCompany(t, 'Streams A');
});
after(async () => {
  for (const c of open) c.close();
  await stopTerminals();
  await t.close();
});

async function live(token: string, opts: Parameters<typeof openLive>[2] = {}, url = server) {
  const c = await openLive(url, token, opts);
  assert.equal(c.refusal, null, `the stream opens: ${JSON.stringify(c.refusal)}`);
  open.push(c);
  return c;
}

/** Resolves when the server ended the stream; fails when it has not within `ms` (the stream would run 10 minutes). */
async function ends(c: LiveClient, what: string, ms = 5000) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the stream did not end: ${what}`)), ms);
  });
  try {
    await Promise.race([c.ended, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A reconnect with this token is refused with this code (the console's session-expired path). */
async function refused(token: string, code: number) {
  const again = await openLive(server, token);
  open.push(again);
  assert.equal(again.refusal?.code, code, `refused with ${code}: ${JSON.stringify(again.refusal)}`);
}

test('a sub-administrator whose attendance right is removed gets no further punch: the stream ends with the change', async () => {
  await addPersonWithFace(t, A, { number: '2801', name: 'Lin Feng', department: 'Gate dept' });
  const d = await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Gate S1', serial: 'STREAMS1', ip: '10.1.1.1', password: 'x' } });
  assert.equal(d.code, CODES.OK, d.message);
  const gate = terminal(server, 'STREAMS1');
  await gate.start();

  const sub = await makeSub(t, A, ['attendance']);
  const watched = await live(sub.token, { topics: 'punch' });
  const control = await live(A.main, { topics: 'punch' });
  await gate.punch({ pin: '2801', time: new Date(Date.now() - 20_000) });
  const first = await watched.waitFor('the punch while the right is held', (e) => e.event === 'punch' && e.data.number === '2801');
  await control.waitFor('the punch (main)', (e) => e.event === 'punch' && e.data.id === first.data.id);

  const edit = await call(t.app, 'POST', '/manager/update', { token: A.main, body: { id: sub.id, name: `Sub ${sub.username}`, rights: ['logView'] } });
  assert.equal(edit.code, CODES.OK, edit.message);
  await ends(watched, 'the right was removed');

  await gate.punch({ pin: '2801', time: new Date(Date.now() - 10_000) });
  const second = await control.waitFor('the next punch (main, the control)', (e) => e.event === 'punch' && e.data.id !== first.data.id);
  assert.deepEqual(
    watched.events.filter((e) => e.event === 'punch').map((e) => e.data.id),
    [first.data.id],
    'nothing after the change reached the stream',
  );
  // the console reconnects with what it saw last: the session stands, the new rights filter the catch-up
  const back = await live(sub.token, { topics: 'punch,messages', lastEventId: first.id! });
  await call(t.app, 'POST', '/message/read', { token: sub.token, body: { all: true } });
  await back.waitFor('a later event of its own, after the catch-up', (e) => e.event === 'messages');
  assert.ok(!back.events.some((e) => e.event === 'punch' && e.data.id === second.data.id), 'the catch-up has no punch either');
});

test("sign-out ends that session's streams; the administrator's other session keeps its own", async () => {
  const sub = await makeSub(t, A, ['attendance']);
  const other = await login(t.app, sub.username, 'secret1');
  const mine = await live(sub.token);
  const theirs = await live(other);
  assert.equal((await call(t.app, 'POST', '/user/logout', { token: sub.token })).code, CODES.OK);
  await ends(mine, 'signed out');
  await refused(sub.token, CODES.ILLEGAL_TOKEN);
  // the other session's stream still receives: an event addressed to this administrator arrives
  await call(t.app, 'POST', '/message/read', { token: other, body: { all: true } });
  await theirs.waitFor('its own messages event', (e) => e.event === 'messages');
});

test("a password change ends the administrator's other sessions and their streams", async () => {
  const sub = await makeSub(t, A, ['attendance']);
  const other = await login(t.app, sub.username, 'secret1');
  const theirs = await live(other);
  const r = await call(t.app, 'POST', '/user/changepwd', { token: sub.token, body: { orig: 'secret1', new: 'secret2', renew: 'secret2' } });
  assert.equal(r.code, CODES.OK, r.message);
  await ends(theirs, 'the password changed');
  await refused(other, CODES.ILLEGAL_TOKEN);
  // the new token opens a stream
  await live(r.data.token as string);
});

test('an administrator removed from the company, or disabled, loses their streams at once', async () => {
  const removed = await makeSub(t, A, ['attendance']);
  const s1 = await live(removed.token);
  assert.equal((await call(t.app, 'POST', '/manager/delete', { token: A.main, body: { id: removed.id } })).code, CODES.OK);
  await ends(s1, 'removed from the company');
  await refused(removed.token, CODES.ILLEGAL_TOKEN);

  const disabled = await makeSub(t, A, ['attendance']);
  const s2 = await live(disabled.token);
  const edit = await call(t.app, 'POST', '/manager/update', { token: A.main, body: { id: disabled.id, name: 'Off', status: 'disabled' } });
  assert.equal(edit.code, CODES.OK, edit.message);
  await ends(s2, 'disabled');
});

test('a stream ends when its session expires, not at its lifetime', async () => {
  const sub = await makeSub(t, A, ['attendance']);
  const row = await sessionsRepository.findByHash(t.app.database.db, sha256(sub.token));
  assert.ok(row);
  await sessionsRepository.expireAt(t.app.database.db, row.id, new Date(Date.now() + 1500).toISOString());
  const s = await live(sub.token);
  await ends(s, 'the session expired');
  await refused(sub.token, CODES.TOKEN_EXPIRED);
});

test("a stream opened past its session's half-life does not renew the session (no answer could carry the new token)", async () => {
  const sub = await makeSub(t, A, ['attendance']);
  const db = t.app.database.db;
  const row = await sessionsRepository.findByHash(db, sha256(sub.token));
  assert.ok(row);
  const halfLife = (t.app.config.sessionTtl * 1000) / 2;
  await db
    .updateTable('sessions')
    .set({ created_at: new Date(Date.now() - halfLife - 60_000).toISOString() })
    .where('id', '=', row.id)
    .execute();
  const sessions = async () => (await db.selectFrom('sessions').select('id').where('admin_id', '=', sub.id).execute()).length;
  const s = await live(sub.token);
  assert.equal(await sessions(), 1, 'no session the console cannot know of');
  // so the console's sign-out (its token's session) ends the stream
  assert.equal((await call(t.app, 'POST', '/user/logout', { token: sub.token })).code, CODES.OK);
  await ends(s, 'signed out');
});

test('a change heard while a stream was still being opened ends it instead of streaming on what was read before', () => {
  const hub = createLiveHub();
  const before = performance.now();
  hub.endStreams({ admin: 7, session: 70 });
  assert.equal(hub.changedSince(7, before), true, 'its session or rights may have been read before the change');
  assert.equal(hub.changedSince(8, before), false, 'another administrator is not concerned');
  assert.equal(hub.changedSince(7, performance.now() + 1), false, 'a request that arrived after the change read the new state');
});

test('several instances: sign-out on one ends the stream open on the other', { skip: DIALECT !== 'postgres' && 'PostgreSQL only' }, async () => {
  const twin = await makeTwin(t);
  try {
    await twin.app.listen({ port: 0, host: '127.0.0.1' });
    const twinServer = `http://127.0.0.1:${(twin.app.server.address() as AddressInfo).port}`;
    const sub = await makeSub(t, A, ['attendance']);
    const onTwin = await live(sub.token, {}, twinServer);
    assert.equal((await call(t.app, 'POST', '/user/logout', { token: sub.token })).code, CODES.OK);
    await ends(onTwin, 'signed out on the other instance');

    // and a rights change made on one ends the streams on the other
    const other = await makeSub(t, A, ['attendance']);
    const s = await live(other.token, {}, twinServer);
    const edit = await call(t.app, 'POST', '/manager/update', { token: A.main, body: { id: other.id, name: 'No attendance', rights: ['logView'] } });
    assert.equal(edit.code, CODES.OK, edit.message);
    await ends(s, 'the right was removed on the other instance');
  } finally {
    await twin.close();
  }
});
