import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import type { IsapiTerminal } from '../../../../../tools/isapi-emulator/terminal.ts';
import { call, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { addIsapiTerminal, isapiTerminals, makeIsapiApp } from '../../../test/isapi.ts';
import { until } from '../../../test/terminals.ts';

/**
 * The alertStream (docs/isapi-protocol.md §6): a terminal that refuses the host notification, or whose posts never
 * reach the server, sends its events down the long connection the server keeps open to it. Drops reconnect and
 * the backlog brings what happened meanwhile, once; hostile streams are survived; close() and deleting the
 * device end the stream.
 */
let t: TestApp;
let A: Company;
let closed = false;
const terminals = isapiTerminals({ streamHeartbeatMs: 200 });
const terminal = terminals.start;

/** The server's log lines: each batch of punches stored says how it came (via push, stream or search). */
const logged: { msg?: string; device?: number; via?: string; reason?: string }[] = [];
before(async () => {
  ({ t } = await makeIsapiApp(
    { streamIdleMs: 1500, streamMaxPartBytes: 256 * 1024, pushCheckMs: 600 },
    { level: 'info', stream: { write: (line: string) => void logged.push(JSON.parse(line)) } },
  ));
  A = await makeCompany(t, 'Streams');
});
after(async () => {
  await terminals.stop();
  if (!closed) await t.close();
});

const addTerminal = (emu: IsapiTerminal, serial: string, extra: Record<string, unknown> = {}) =>
  addIsapiTerminal(t, A, emu, serial, { attendance_scope: 'selected', ...extra });
/** A person registered on the terminal itself, with a face (so a recognition is granted). */
function enrol(emu: IsapiTerminal, no: string) {
  emu.users.set(no, { employeeNo: no, name: no, userType: 'normal', valid: { enable: false, beginTime: '', endTime: '' }, password: '' });
  emu.faces.set(no, Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
}
const pinsOf = async (id: number) =>
  (await t.app.database.db.selectFrom('punches').select(['pin', 'local_time']).where('device_id', '=', id).orderBy('local_time').execute()).map((r) => r.pin);
const eventsPath = async (id: number) => {
  const row = await t.app.database.db.selectFrom('devices').select('info').where('id', '=', id).executeTakeFirstOrThrow();
  return (JSON.parse(row.info) as { isapi?: { events?: string } }).isapi?.events;
};
const streamOpens = (emu: IsapiTerminal) => emu.requests.filter((r) => r === 'GET /ISAPI/Event/notification/alertStream').length;

let emu: IsapiTerminal;
let id: number;
/**
 * The times of this terminal's recognitions: in the past, each a second after the last (a punch is keyed on its
 * second, so two in one second would be one; and the backlog searches from the last one kept).
 */
let clock = Date.now() - 20_000;
const next = () => (clock += 1000);

test('a terminal refusing the host notification delivers a recognition live through the alertStream', async () => {
  emu = await terminal({ serial: 'DS-EMU-STREAM', refuseHttpHosts: true });
  id = await addTerminal(emu, 'ISAPIS1');
  await until('the stream open', async () => emu.streams === 1 && (await eventsPath(id)) === 'stream');
  enrol(emu, 'S1');
  const started = Date.now();
  const r = await emu.recognize('S1', next());
  assert.equal(r.granted, true);
  assert.equal(r.pushed, false, 'nothing was posted');
  // Live means down the stream, not fetched by the backlog search of a later heartbeat (which would find it a
  // duplicate and log nothing). No wall-clock bound decides it; the figure is printed for the report. The log line
  // follows the stored row (after its live notice), so the wait is for both.
  const stored = () => logged.filter((l) => l.msg === 'punches received' && l.device === id).map((l) => l.via);
  await until('the streamed punch', async () => (await pinsOf(id)).length === 1 && stored().length > 0, undefined, 10);
  assert.deepEqual(stored(), ['stream']);
  console.log(`# streamed recognition stored ${Date.now() - started} ms after it happened`);
});

test('a dropped stream reconnects, and the backlog brings what happened meanwhile without duplicates', async () => {
  const opens = streamOpens(emu);
  emu.streamFault('drop');
  const during = await emu.recognize('S1', next()); // the stream is cut: only the log keeps it
  assert.equal(during.granted, true);
  await until('reopened', () => streamOpens(emu) > opens && emu.streams === 1, 5000);
  await until('the missed event from the backlog', async () => (await pinsOf(id)).length === 2, 5000);
  // Unplugged for a while: two recognitions in its log; plugged back, they come once, and live ones flow again.
  await emu.stop();
  await emu.recognize('S1', next());
  await emu.recognize('S1', next());
  await emu.start();
  await until('the outage backlog', async () => (await pinsOf(id)).length === 4, 8000);
  await until('the stream back', () => emu.streams === 1, 5000);
  await emu.recognize('S1', next());
  await until('live again', async () => (await pinsOf(id)).length === 5, 3000);
  await new Promise((r) => setTimeout(r, 800)); // a heartbeat or two: no search or stream repeats anything
  assert.deepEqual(await pinsOf(id), ['S1', 'S1', 'S1', 'S1', 'S1']);
  const times = await t.app.database.db.selectFrom('punches').select('local_time').where('device_id', '=', id).execute();
  assert.equal(new Set(times.map((x) => x.local_time)).size, 5, 'five distinct events, each once');
});

test('garbage, an oversized part and a silent stream are survived; the other terminals are not held up', async () => {
  const other = await terminal({ serial: 'DS-EMU-OTHER' });
  const otherId = await addTerminal(other, 'ISAPIS2');
  await until('the other terminal online', async () => !!other.httpHost && (await eventsPath(otherId)) === 'push');
  const before = (await pinsOf(id)).length;
  emu.streamFault('garbage');
  emu.streamFault('huge');
  emu.streamFault('garbage');
  await emu.recognize('S1', next());
  await until('the event after the junk', async () => (await pinsOf(id)).length === before + 1, 5000);

  const opens = streamOpens(emu);
  const mark = logged.length;
  const dropped = () => logged.slice(mark).filter((l) => l.msg === 'ISAPI alertStream dropped' && l.device === id);
  emu.streamFault('silent');
  const open = await call(t.app, 'POST', '/device/open', { token: A.main, body: { id: otherId } });
  assert.equal(open.data.state, 'success', 'the door of another terminal opens while this stream is silent');
  // ... without waiting for it: answered before the silent stream was given up
  assert.deepEqual(dropped(), [], 'the door waited for the silent stream');
  await until('the silent stream given up and reopened', () => streamOpens(emu) > opens);
  // given up for its silence, by the idle limit, and by nothing before it
  assert.deepEqual(
    dropped().map((l) => l.reason),
    ['no bytes for 1500 ms'],
    'given up once, by the idle limit',
  );
  enrol(other, 'O1');
  await other.recognize('O1');
  await until('the other terminal still posting', async () => (await pinsOf(otherId)).length === 1);
  const health = await call(t.app, 'GET', '/device/info', { token: A.main, query: { id } });
  assert.equal(health.code, CODES.OK);
});

test('a terminal that took the host notification but whose posts never arrive is moved to the stream', async () => {
  const walled = await terminal({ serial: 'DS-EMU-WALLED', unreachableHost: true });
  const wid = await addTerminal(walled, 'ISAPIS3');
  await until('told where to post', async () => !!walled.httpHost && (await eventsPath(wid)) === 'push');
  // Past the connection's own backlog search, and a second past the device's creation (an event in the second the
  // search starts from counts as kept).
  await until('connected', () => walled.requests.includes('POST /ISAPI/AccessControl/AcsEvent'));
  await new Promise((r) => setTimeout(r, 1000));
  enrol(walled, 'W1');
  const r = await walled.recognize('W1');
  assert.equal(r.pushed, false);
  await until('the unheard event found, the stream opened', async () => (await eventsPath(wid)) === 'stream' && walled.streams === 1, 5000);
  assert.deepEqual(await pinsOf(wid), ['W1']);
  await walled.recognize('W1');
  await until('live through the stream', async () => (await pinsOf(wid)).length === 2, 2000);
});

test('deleting the device ends its stream', async () => {
  const gone = await terminal({ serial: 'DS-EMU-GONE', refuseHttpHosts: true });
  const gid = await addTerminal(gone, 'ISAPIS4');
  await until('the stream open', () => gone.streams === 1);
  const del = await call(t.app, 'POST', '/device/delete', { token: A.main, body: { id: gid } });
  assert.equal(del.code, CODES.OK, del.message);
  await until('the stream closed', () => gone.streams === 0, 3000);
  const opens = streamOpens(gone);
  await new Promise((r) => setTimeout(r, 800));
  assert.equal(streamOpens(gone), opens, 'and never reopened');
});

test('streamed pictures: a punch keeps its capture, a refused face becomes a stranger', async () => {
  const cam = await terminal({ serial: 'DS-EMU-PICS', refuseHttpHosts: true });
  const cid = await addTerminal(cam, 'ISAPIS5', { upload_face_image: 1, upload_strangers: 1 });
  await until('the stream open', () => cam.streams === 1);
  enrol(cam, 'P1');
  cam.faces.set('P1', Buffer.from([0xff, 0xd8, 0x01, 0x02, 0xff, 0xd9]));
  await cam.recognize('P1');
  await cam.recognize('someone-unknown', Date.now() + 1000);
  const rows = (await until('the punch with its photo and the stranger', async () => {
    const r = await t.app.database.db.selectFrom('punches').select(['pin', 'photo', 'stranger']).where('device_id', '=', cid).orderBy('local_time').execute();
    return r.length === 2 && r[0]!.photo ? r : undefined;
  }))!;
  assert.equal(rows[0]!.pin, 'P1', 'the punch, with the capture that followed it');
  assert.match(rows[0]!.photo, /P1\.jpg$/);
  assert.equal(rows[1]!.pin, '0', 'the refused face, kept as a stranger with its picture');
  assert.equal(rows[1]!.stranger, 1);
  assert.ok(rows[1]!.photo);
});

test('closing the server ends every stream', async () => {
  assert.ok(emu.streams >= 1);
  closed = true;
  await t.close();
  await until('the streams closed', () => terminals.all.every((x) => x.streams === 0), 3000);
});
