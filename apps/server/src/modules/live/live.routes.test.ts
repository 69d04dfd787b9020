import assert from 'node:assert/strict';
import net, { type AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { API, call, DIALECT, makeApp, makeCompany, makeSub, reopen, type Company, type TestApp } from '../../../test/helpers.ts';
import { personWithFace, picture } from '../../../test/files.ts';
import { openLive, type LiveClient } from '../../../test/live-client.ts';
import { listen, stopTerminals, terminal, until } from '../../../test/terminals.ts';

let t: TestApp;
let server: string;
let A: Company;
let B: Company;
const open: LiveClient[] = [];

before(async () => {
  // a small buffer limit so the slow-client test needs little data
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' }, { live: { stream: { maxBufferedBytes: 64 * 1024 } } });
  server = await listen(t);
  A = await makeCompany(t, 'Live A');
  B = await makeCompany(t, 'Live B');
});
after(async () => {
  for (const c of open) c.close();
  await stopTerminals();
  await t.close();
});

async function live(token: string, opts: Parameters<typeof openLive>[2] = {}) {
  const c = await openLive(server, token, opts);
  open.push(c);
  return c;
}

/** A registered terminal of the company, online, with one person (number, name) in a department. */
async function door(c: Company, serial: string, number: string, name: string, extra: Record<string, unknown> = {}) {
  const dept = (await call(t.app, 'POST', '/org/create', { token: c.main, body: { name: `Dorm ${serial}` } })).data.id;
  const person = await personWithFace(t, c, { number, name, organizations: [dept] });
  const d = await call(t.app, 'POST', '/device/create', {
    token: c.main,
    body: { name: `Gate ${serial}`, serial, ip: '10.1.1.1', password: 'x', direction: 'in', ...extra },
  });
  assert.equal(d.code, CODES.OK, d.message);
  const term = terminal(server, serial);
  await term.start();
  return { term, device: d.data, person, dept };
}

test("a punch reaches its company's consoles with the person, department and photo, and never another company's", async () => {
  const a = await live(A.main);
  const b = await live(B.main);
  const gateA = await door(A, 'LIVEA1', '7001', 'Zhao Lei');
  const gateB = await door(B, 'LIVEB1', '8001', 'Sato Yui');
  await a.waitFor('A gate online', (e) => e.event === 'device' && e.data.id === gateA.device.id && e.data.online);

  const sent = Date.now();
  const first = await gateA.term.punch({ pin: '7001', photo: await picture(), temperature: 38.2 });
  const answered = Date.now();
  const p = await a.waitFor('A punch', (e) => e.event === 'punch' && e.data.number === '7001');
  // Announced by the upload itself, not later by a job or a poll: the event's id (time-ordered: its time first, base
  // 36) was drawn while the upload was being answered.
  const published = parseInt(p.id!.split('-')[0]!, 36);
  assert.ok(published >= sent && published <= answered, 'published within the upload round trip');
  assert.equal(p.data.name, 'Zhao Lei');
  assert.equal(p.data.device, 'Gate LIVEA1');
  assert.equal(p.data.direction, 'in');
  assert.equal(p.data.department, 'Dorm LIVEA1');
  assert.equal(p.data.stranger, false);
  assert.match(p.data.face_url, /\/person\/pic\//);
  assert.ok(p.id, 'every event has an id for catch-up');
  // the capture photo follows the punch (a separate upload) unless it came first
  if (!p.data.pic_url) await a.waitFor('A photo', (e) => e.event === 'photo' && e.data.id === p.data.id);
  await a.waitFor('the fever alarm', (e) => e.event === 'alarm' && e.data.source === 'temperature' && e.data.punch_id === p.data.id);

  // a stranger (a PIN nobody has) is announced as one, with an alarm
  await gateA.term.punch({ pin: '99999' });
  const s = await a.waitFor('A stranger', (e) => e.event === 'punch' && e.data.stranger === true);
  assert.equal(s.data.person_id, null);
  await a.waitFor('the stranger alarm', (e) => e.event === 'alarm' && e.data.source === 'stranger');

  // B's console hears B's own punch, and nothing of A's
  await gateB.term.punch({ pin: '8001' });
  await b.waitFor('B punch', (e) => e.event === 'punch' && e.data.number === '8001');
  const leaked = b.events.filter((e) => JSON.stringify(e.data).includes('Zhao Lei') || e.data.id === gateA.device.id || e.data.device_id === gateA.device.id);
  assert.deepEqual(leaked, [], "company B's console never receives A's events");
  assert.ok(!a.events.some((e) => JSON.stringify(e.data).includes('Sato Yui')));

  // a retried upload (same records) announces nothing new
  const before = a.events.filter((e) => e.event === 'punch').length;
  const again = await fetch(`${server}/iclock/cdata?SN=LIVEA1&table=ATTLOG&Stamp=1`, {
    method: 'POST',
    body: `${first.lines.join('\n')}\n`,
  });
  assert.match(await again.text(), /^OK/);
  const next = await gateA.term.punch({ pin: '7001', time: new Date(Date.now() + 1000) });
  assert.match(next.reply ?? '', /^OK/, JSON.stringify(next));
  await until('the next punch', () => a.events.filter((e) => e.event === 'punch').length > before);
  assert.equal(a.events.filter((e) => e.event === 'punch').length, before + 1, 'the replayed record was not announced again');
});

test('a retried upload that stores nothing new announces no day (#28)', async () => {
  const gate = await door(A, 'LIVEA9', '7009', 'Wu Fang', { attendance_scope: 'all' });
  // What attendance hears (it recalculates, and a changed day is announced to consoles and webhooks): the punches of
  // known people each commit stored. Told inside the commit, so an upload's OK comes after it.
  const heard: string[][] = [];
  t.app.modules.punches.punches.stored.on(async (_trx, e) => void heard.push(e.punches.map((p) => p.time)));
  const first = await gate.term.punch({ pin: '7009' });
  assert.equal(heard.length, 1, 'the punch stored is heard');
  const drained = () => until('queue drained', async () => (await call(t.app, 'GET', '/attendance/recalculate/status', { token: A.main })).data.pending === 0);
  await drained();
  const c = await live(A.main, { topics: 'day' });
  // the same records again (a terminal that missed the OK), twice
  for (let i = 0; i < 2; i++) {
    const again = await fetch(`${server}/iclock/cdata?SN=LIVEA9&table=ATTLOG&Stamp=1`, { method: 'POST', body: `${first.lines.join('\n')}\n` });
    assert.match(await again.text(), /^OK/);
  }
  assert.equal(heard.length, 1, 'the retries stored nothing, so nothing was heard: no recalculation, no day event, no webhook');
  // and once the queue is worked off, no day of hers was announced after the retries
  await drained();
  assert.deepEqual(
    c.events.filter((e) => e.event === 'day' && (e.data.days === null || e.data.days.some((d: { person_id: number }) => d.person_id === gate.person.id))),
    [],
  );
});

test('rights: a sub-admin without the device right gets no device events; without attendance and face no punches', async () => {
  const attOnly = await makeSub(t, A, ['attendance']);
  const faceOnly = await makeSub(t, A, ['faceView']);
  const logOnly = await makeSub(t, A, ['logView']);
  const att = await live(attOnly.token);
  const face = await live(faceOnly.token);
  const log = await live(logOnly.token);
  const main = await live(A.main);
  const gate = await door(A, 'LIVEA2', '7002', 'Qian Wei');
  await main.waitFor('gate online (main)', (e) => e.event === 'device' && e.data.id === gate.device.id);
  await face.waitFor('gate online (face right)', (e) => e.event === 'device' && e.data.id === gate.device.id);
  await gate.term.punch({ pin: '7002' });
  await att.waitFor('punch (attendance right)', (e) => e.event === 'punch' && e.data.number === '7002');
  await face.waitFor('punch (face right)', (e) => e.event === 'punch' && e.data.number === '7002');
  await main.waitFor('punch (main)', (e) => e.event === 'punch' && e.data.number === '7002');
  // the message the device's first sync may leave, and everything else, arrive before this marker on every stream
  await call(t.app, 'POST', '/message/read', { token: logOnly.token, body: { all: true } });
  await log.waitFor('own messages event', (e) => e.event === 'messages');
  assert.ok(!att.events.some((e) => e.event === 'device'), 'no device events without the face right');
  assert.ok(!log.events.some((e) => e.event === 'device' || e.event === 'punch' || e.event === 'photo'), 'neither without both rights');
});

test('a reconnect with Last-Event-ID gets what it missed; an id the window no longer holds gets reset', async () => {
  const gate = await door(A, 'LIVEA3', '7003', 'Sun Li');
  const first = await live(A.main, { topics: 'punch' });
  await gate.term.punch({ pin: '7003', time: new Date(Date.now() - 60_000) });
  const seen = await first.waitFor('first punch', (e) => e.event === 'punch' && e.data.number === '7003');
  first.close();
  await gate.term.punch({ pin: '7003', time: new Date(Date.now() - 30_000) });
  await gate.term.punch({ pin: '7003', time: new Date(Date.now() - 20_000) });
  const back = await live(A.main, { topics: 'punch', lastEventId: seen.id! });
  await back.waitFor('both missed punches', () => back.events.filter((e) => e.event === 'punch').length >= 2);
  const replayed = back.events.filter((e) => e.event === 'punch');
  assert.equal(replayed.length, 2, 'exactly the two missed, not the one already seen');
  assert.ok(replayed.every((e) => e.data.id !== seen.data.id));
  assert.ok(!back.events.some((e) => e.event !== 'punch' && e.event !== 'reset'), 'only the topics asked for');

  const lost = await live(A.main, { lastEventId: 'gone-long-ago' });
  const reset = await lost.waitFor('reset', (e) => e.event === 'reset');
  assert.ok(reset.id, 'reset carries the newest id to resume from');
});

test('topics are checked by name; the stream needs a session and a company', async () => {
  const bad = await live(A.main, { topics: 'punch,nonsense' });
  assert.equal(bad.refusal?.code, CODES.RULE);
  assert.equal(bad.refusal?.data?.field, 'topics');
  const anonymous = await fetch(`${server}${API}/events`);
  assert.notEqual(anonymous.headers.get('content-type')?.startsWith('text/event-stream'), true);
  assert.notEqual(((await anonymous.json()) as { code: number }).code, CODES.OK);
});

test('a console that stops reading is dropped instead of being buffered in the server', async () => {
  const hub = t.app.modules.live.hub;
  const C = await makeCompany(t, 'Live C');
  const port = Number(new URL(server).port);
  // a client that sends its request and then never reads a byte
  const readers = hub.size;
  const sock = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
  sock.write(`GET ${API}/events HTTP/1.1\r\nHost: x\r\nX-Token: ${C.main}\r\nAccept: text/event-stream\r\n\r\n`);
  sock.pause();
  await until('the silent console subscribed', () => hub.size > readers);
  const dropped = hub.stats.dropped;
  const big = 'x'.repeat(16 * 1024);
  for (let i = 0; i < 2000 && hub.stats.dropped === dropped; i++) {
    hub.deliver({ id: `flood-${i}`, companyId: C.id, type: 'messages', rights: [], adminId: null, data: { pad: big } });
    if (i % 20 === 0) await new Promise((r) => setImmediate(r));
  }
  assert.ok(hub.stats.dropped > dropped, 'the silent console was cut off');
  await until('its subscription removed', () => hub.size === readers);
  sock.destroy();
});

test(
  'several instances on one PostgreSQL: a punch taken by one reaches a console open on another',
  { skip: DIALECT !== 'postgres' && 'PostgreSQL only' },
  async () => {
    const other = await reopen(t);
    try {
      await other.listen({ port: 0, host: '127.0.0.1' });
      const otherServer = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
      const c = await openLive(otherServer, A.main, { topics: 'punch' });
      open.push(c);
      const gate = await door(A, 'LIVEA4', '7004', 'Zhou Xun');
      await gate.term.punch({ pin: '7004' });
      const p = await c.waitFor('the punch on the other instance', (e) => e.event === 'punch' && e.data.number === '7004');
      // both instances keep the same window, so a console may reconnect to either
      const mine = await live(A.main, { topics: 'punch', lastEventId: p.id! });
      await gate.term.punch({ pin: '7004', time: new Date(Date.now() + 2000) });
      await mine.waitFor('the next punch after the id from the other instance', (e) => e.event === 'punch' && e.data.id !== p.data.id);
      assert.ok(!mine.events.some((e) => e.event === 'reset'), 'the id is known on this instance too');
      c.close();
    } finally {
      await other.close();
    }
  },
);
