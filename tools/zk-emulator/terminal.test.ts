import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { startFakeServer, type FakeServer, type SeenRequest } from './fake-server.ts';
import { encodeText, parseAttPhotoBody, parseRecord, STRANGER_JPEG, unpackTgz } from './protocol.ts';
import { seedSite, standInTemplate } from './site.ts';
import { createHash } from 'node:crypto';
import { createTerminal, EMULATOR_LOG_FILE, emulatorFirmware, type Terminal, type TerminalOptions } from './terminal.ts';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0xff, 0xd9]);

let srv: FakeServer;
const terminals: Terminal[] = [];

beforeEach(async () => {
  srv = await startFakeServer({
    options: {
      ATTLOGStamp: 'None',
      OPERLOGStamp: 'None',
      ATTPHOTOStamp: 'None',
      ErrorDelay: '30',
      Delay: '10',
      TimeZone: '8',
      Realtime: '1',
      PushProtVer: '2.4.1',
    },
    refuse: ['UNKNOWN1'],
  });
});

afterEach(async () => {
  for (const t of terminals.splice(0)) await t.stop();
  await srv.close();
});

function term(extra: Partial<TerminalOptions> = {}): Terminal {
  const t = createTerminal({ server: srv.url, sn: 'EMU0001', pollMs: 20, retryMs: 20, rebootMs: 50, ...extra });
  terminals.push(t);
  return t;
}

/** Queue commands, wait for their results, return the result lines of this batch. */
async function run(t: Terminal, ...commands: string[]): Promise<string[]> {
  const before = srv.results.length;
  const ids = srv.queue(t.sn, ...commands);
  await srv.waitFor(
    () =>
      srv.results
        .slice(before)
        .join('\n')
        .includes(`ID=${ids.at(-1)}&`),
    3000,
    `results of ${commands.join(' | ')}`,
  );
  return srv.results.slice(before).join('\n').split('\n');
}

test('handshake: §5 request parameters, options adopted, first poll carries INFO=', async () => {
  const t = term({ language: 83, pushcommkey: 'abc' });
  await t.start();
  const init = srv.requests[0]!;
  assert.equal(init.method, 'GET');
  assert.equal(init.path, '/iclock/cdata');
  assert.equal(init.query.get('SN'), 'EMU0001');
  assert.equal(init.query.get('options'), 'all');
  assert.equal(init.query.get('pushver'), '2.4.1');
  assert.equal(init.query.get('language'), '83');
  assert.equal(init.query.get('pushcommkey'), 'abc');
  assert.equal(t.options.Delay, '10');
  assert.equal(t.timezoneMinutes, 480);
  assert.equal(t.pollIntervalMs, 20, 'pollMs overrides Delay');
  await srv.waitFor(() => srv.requests.filter((r) => r.path === '/iclock/getrequest').length >= 2, 3000, 'two polls');
  const polls = srv.requests.filter((r) => r.path === '/iclock/getrequest');
  const info = polls[0]!.query.get('INFO')!.split(',');
  assert.equal(info.length, 10);
  assert.equal(info[0], 'Ver 2.4.1-emu');
  assert.equal(polls[1]!.query.get('INFO'), null, 'INFO only on the first poll after a handshake');
});

test('Delay from the server drives the poll interval when pollMs is not set', async () => {
  srv.options.Delay = '1';
  const t = createTerminal({ server: srv.url, sn: 'EMU0002', retryMs: 20 });
  terminals.push(t);
  await t.start();
  assert.equal(t.pollIntervalMs, 1000);
});

test('unknown serial: handshake refused → retried every ErrorDelay, no polling', async () => {
  const t = term({ sn: 'UNKNOWN1' });
  let started = false;
  void t.start().then(() => (started = true));
  await srv.waitFor(() => srv.requests.length >= 3, 3000, 'handshake retries');
  assert.ok(srv.requests.every((r) => r.query.get('options') === 'all'));
  assert.equal(started, false);
});

test('options push (§8) when PushOptionsFlag=1', async () => {
  srv.options.PushOptionsFlag = '1';
  srv.options.PushOptions = 'FaceFunOn,MaxUserCount';
  const t = term({ capacity: 500 });
  await t.start();
  await srv.waitFor(() => srv.uploads('options').length === 1, 3000, 'options push');
  const body = srv.uploads('options')[0]!.body.toString();
  assert.match(body, /^FaceFunOn=1,MaxUserCount=500,/);
  assert.ok(!body.includes('\n'));
  assert.match(body, /MultiBioPhotoSupport=0:0:0:0:0:0:0:0:0:1/);
});

test('DATA UPDATE/DELETE USERINFO, BIOPHOTO, AC_UNLOCK, SET OPTION: one devicecmd POST with one line per command', async () => {
  const t = term();
  await t.start();
  const b64 = JPEG.toString('base64');
  const lines = await run(
    t,
    'DATA UPDATE USERINFO PIN=1001\tName=John Doe\tPri=0\tPasswd=\tCard=12345678\tGrp=1\tTZ=0000000000000000\tVerify=-1\tViceCard=\tStartDatetime=2024-01-01 00:00:00\tEndDatetime=2024-12-31 23:59:59',
    `DATA UPDATE BIOPHOTO PIN=1001\tType=9\tSize=${b64.length}\tContent=${b64}\tFormat=0\tUrl=\tPostBackTmpFlag=0`,
    'AC_UNLOCK',
    'SET OPTION Delay=5',
    'DATA UPDATE USERINFO PIN=1002\tName=Jane',
    'DATA DELETE USERINFO PIN=1002',
  );
  assert.deepEqual(lines, [
    'ID=1&Return=0&CMD=DATA',
    'ID=2&Return=0&CMD=DATA',
    'ID=3&Return=0&CMD=AC_UNLOCK',
    'ID=4&Return=0&CMD=SET OPTION',
    'ID=5&Return=0&CMD=DATA',
    'ID=6&Return=0&CMD=DATA',
  ]);
  assert.equal(srv.results.length, 1, 'results of one poll are batched in one POST');
  const u = t.users.get('1001');
  assert.ok(u);
  assert.equal(u.name, 'John Doe');
  assert.equal(u.card, '12345678');
  assert.equal(u.startDatetime, '2024-01-01 00:00:00');
  assert.equal(u.endDatetime, '2024-12-31 23:59:59');
  assert.equal(t.users.has('1002'), false);
  assert.deepEqual(t.photos.get('1001'), JPEG);
  assert.equal(t.photoTypes.get('1001'), 9);
  assert.equal(t.doorOpenCount, 1);
  assert.equal(t.options.Delay, '5');
  assert.deepEqual(
    t.log.map((e) => [e.id, e.name, e.code]),
    [
      ['1', 'DATA UPDATE USERINFO', 0],
      ['2', 'DATA UPDATE BIOPHOTO', 0],
      ['3', 'AC_UNLOCK', 0],
      ['4', 'SET OPTION', 0],
      ['5', 'DATA UPDATE USERINFO', 0],
      ['6', 'DATA DELETE USERINFO', 0],
    ],
  );
});

test('BIOPHOTO: size mismatch -2, Format=1 downloads the Url, PostBackTmpFlag=1 uploads BIODATA, photosDir written', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'zk-emu-'));
  try {
    srv.files.set('/iclock/photos/7.jpg', JPEG);
    const t = term({ photosDir: dir });
    await t.start();
    const lines = await run(
      t,
      'DATA UPDATE BIOPHOTO PIN=7\tType=9\tSize=3\tContent=AAAAAAAA\tFormat=0',
      'DATA UPDATE BIOPHOTO PIN=7\tType=9\tFormat=1\tUrl=photos/7.jpg\tPostBackTmpFlag=1',
      'DATA UPDATE BIOPHOTO PIN=8\tType=9\tFormat=1\tUrl=/missing.jpg',
    );
    assert.deepEqual(lines, ['ID=1&Return=-2&CMD=DATA', 'ID=2&Return=0&CMD=DATA', 'ID=3&Return=-1008&CMD=DATA']);
    assert.deepEqual(t.photos.get('7'), JPEG);
    assert.deepEqual(await readFile(join(dir, 'EMU0001', '7.jpg')), JPEG);
    const bio = srv.uploads('BIODATA');
    assert.equal(bio.length, 1);
    assert.match(bio[0]!.body.toString(), /^BIODATA Pin=7\tNo=0\tIndex=0\tValid=1\tDuress=0\tType=9\tMajorVer=0\tMinorVer=0\tFormat=0\tTmp=\S+$/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('failure injection: capacity -1001, unsupported -1002, unknown user -10, forced codes; setter changes behaviour', async () => {
  const t = term({ capacity: 2, failOn: { unsupported: ['AC_UNLOCK'], unknownUser: true } });
  await t.start();
  let lines = await run(
    t,
    'DATA UPDATE USERINFO PIN=1\tName=A',
    'DATA UPDATE USERINFO PIN=2\tName=B',
    'DATA UPDATE USERINFO PIN=3\tName=C',
    'DATA UPDATE USERINFO PIN=2\tName=B2',
    'AC_UNLOCK',
    'DATA DELETE USERINFO PIN=404',
    'DATA UPDATE BIOPHOTO PIN=404\tType=9\tContent=AAAA',
    'ENROLL_FP PIN=1\tFID=0\tRETRY=3\tOVERWRITE=1',
  );
  assert.deepEqual(lines, [
    'ID=1&Return=0&CMD=DATA',
    'ID=2&Return=0&CMD=DATA',
    'ID=3&Return=-1001&CMD=DATA',
    'ID=4&Return=0&CMD=DATA',
    'ID=5&Return=-1002&CMD=AC_UNLOCK',
    'ID=6&Return=-10&CMD=DATA',
    'ID=7&Return=-10&CMD=DATA',
    'ID=8&Return=-1002&CMD=ENROLL_FP',
  ]);
  assert.equal(t.users.size, 2);
  assert.equal(t.users.get('2')?.name, 'B2');
  assert.equal(t.doorOpenCount, 0);

  t.setFailOn({ unsupported: [], unknownUser: false, codes: { 'DATA UPDATE BIOPHOTO': -1005 } });
  t.capacity = 3;
  lines = await run(t, 'AC_UNLOCK', 'DATA DELETE USERINFO PIN=404', 'DATA UPDATE USERINFO PIN=3\tName=C', 'DATA UPDATE BIOPHOTO PIN=3\tType=9\tContent=AAAA');
  assert.deepEqual(lines, ['ID=9&Return=0&CMD=AC_UNLOCK', 'ID=10&Return=0&CMD=DATA', 'ID=11&Return=0&CMD=DATA', 'ID=12&Return=-1005&CMD=DATA']);
  assert.equal(t.doorOpenCount, 1);
});

test('INFO answers device information as key=value lines after the result line', async () => {
  const t = term({ capacity: 6000, firmware: 'ZAM180-EMU' });
  await t.start();
  await run(t, 'DATA UPDATE USERINFO PIN=1\tName=A');
  const lines = await run(t, 'INFO');
  assert.equal(lines[0], 'ID=2&Return=0&CMD=INFO');
  const kv = Object.fromEntries(lines.slice(1).map((l) => l.split('=', 2) as [string, string]));
  assert.equal(kv.FWVersion, 'ZAM180-EMU');
  assert.equal(kv.UserCount, '1');
  assert.equal(kv.MaxUserCount, '6000');
  assert.equal(kv.FaceCount, '0');
});

test('punch: ATTLOG line (tabs, device time), retried until OK, then ATTPHOTO with NUL-separated header', async () => {
  const t = term();
  await t.start();
  srv.failNext('ATTLOG', 2);
  const r = await t.punch({ pin: 42, time: new Date(Date.UTC(2024, 4, 1, 0, 30, 5)), photo: JPEG, temperature: 36.6, mask: true });
  assert.equal(r.uploaded, true);
  assert.equal(r.reply, 'OK: 1');
  assert.deepEqual(r.lines, ['42\t2024-05-01 08:30:05\t0\t15\t0\t0\t0\t1\t36.6']);
  const att = srv.uploads('ATTLOG');
  assert.equal(att.length, 3, 'two 500s then OK');
  assert.equal(att[2]!.body.toString(), '42\t2024-05-01 08:30:05\t0\t15\t0\t0\t0\t1\t36.6');
  assert.equal(att[2]!.query.get('Stamp'), '1');
  const photo = srv.uploads('ATTPHOTO');
  assert.equal(photo.length, 1);
  const parsed = parseAttPhotoBody(photo[0]!.body);
  assert.deepEqual(parsed?.headers, { PIN: '20240501083005-42.jpg', SN: 'EMU0001', size: String(JPEG.length), CMD: 'uploadphoto' });
  assert.deepEqual(parsed?.data, JPEG);
  assert.deepEqual(r.photoNames, ['20240501083005-42.jpg']);
});

test('punchBatch sends one POST with many lines; replay(n) re-sends the same body and Stamp', async () => {
  const t = term();
  await t.start();
  const r = await t.punchBatch([
    { pin: '1', time: '2024-05-01 08:00:00' },
    { pin: '2', time: '2024-05-01 08:00:01', status: 1, verify: 4 },
    { pin: '3', time: '2024-05-01 08:00:02', workcode: '7' },
  ]);
  assert.equal(r.reply, 'OK: 3');
  const replies = await t.replay(2);
  assert.deepEqual(replies, ['OK: 3', 'OK: 3']);
  const att = srv.uploads('ATTLOG');
  assert.equal(att.length, 3);
  assert.equal(
    att[0]!.body.toString(),
    '1\t2024-05-01 08:00:00\t0\t15\t0\t0\t0\n2\t2024-05-01 08:00:01\t1\t4\t0\t0\t0\n3\t2024-05-01 08:00:02\t0\t15\t7\t0\t0',
  );
  assert.ok(att.every((a) => a.body.equals(att[0]!.body) && a.query.get('Stamp') === '3'));
});

test('DATA QUERY ATTLOG re-uploads records in range (empty range → -1); VERIFY SUM counts; CLEAR LOG empties', async () => {
  const t = term();
  await t.start();
  await t.punchBatch([
    { pin: '1', time: '2024-05-01 08:00:00' },
    { pin: '2', time: '2024-05-02 08:00:00' },
    { pin: '3', time: '2024-05-03 08:00:00' },
  ]);
  const lines = await run(
    t,
    'DATA QUERY ATTLOG StartTime=2024-05-02 00:00:00\tEndTime=2024-05-03 23:59:59',
    'DATA QUERY ATTLOG StartTime=2023-01-01 00:00:00\tEndTime=2023-01-02 00:00:00',
    'VERIFY SUM ATTLOG StartTime=2024-05-01 00:00:00\tEndTime=2024-05-01 23:59:59',
    'CLEAR LOG',
  );
  assert.deepEqual(lines, [
    'ID=1&Return=0&CMD=DATA',
    'ID=2&Return=-1&CMD=DATA',
    'ID=3&Return=0&CMD=VERIFY SUM&StartTime=2024-05-01 00:00:00&EndTime=2024-05-01 23:59:59&AttlogSum=1',
    'ID=4&Return=0&CMD=CLEAR_LOG',
  ]);
  const att = srv.uploads('ATTLOG');
  assert.equal(att.length, 2);
  assert.equal(att[1]!.body.toString(), '2\t2024-05-02 08:00:00\t0\t15\t0\t0\t0\n3\t2024-05-03 08:00:00\t0\t15\t0\t0\t0');
  assert.equal(t.attlog.length, 0);
});

test('CHECK re-reads options and re-uploads everything after ATTLOGStamp=0', async () => {
  const t = term();
  await t.start();
  await t.punchBatch([
    { pin: '1', time: '2024-05-01 08:00:00' },
    { pin: '2', time: '2024-05-01 09:00:00' },
  ]);
  srv.options.ATTLOGStamp = '0';
  const handshakes = t.handshakeCount;
  const lines = await run(t, 'CHECK');
  assert.deepEqual(lines, ['ID=1&Return=0&CMD=CHECK']);
  assert.equal(t.handshakeCount, handshakes + 1);
  const att = srv.uploads('ATTLOG');
  assert.equal(att.length, 2);
  assert.equal(att[1]!.body.toString().split('\n').length, 2);
});

test('DATA QUERY USERINFO uploads USER lines to OPERLOG; names travel in GB2312 with language 83', async () => {
  const t = term({ language: 83 });
  srv.encode = (text) => encodeText(text, 83);
  await t.start();
  await run(t, 'DATA UPDATE USERINFO PIN=5\tName=张三\tPri=14\tCard=[15CD5B07]');
  assert.equal(t.users.get('5')?.name, '张三');
  const lines = await run(t, 'DATA QUERY USERINFO', 'DATA QUERY USERINFO PIN=404');
  assert.deepEqual(lines, ['ID=2&Return=0&CMD=DATA', 'ID=3&Return=0&CMD=DATA']);
  const op = srv.uploads('OPERLOG');
  assert.equal(op.length, 1);
  const body = op[0]!.body;
  assert.ok(body.includes(Buffer.from([0xd5, 0xc5, 0xc8, 0xfd])), 'GB2312 bytes of the name');
  assert.equal(
    new TextDecoder('gbk').decode(body),
    'USER PIN=5\tName=张三\tPri=14\tPasswd=\tCard=[15CD5B07]\tGrp=1\tTZ=0000000000000000\tVerify=-1\tViceCard=',
  );
});

test('REBOOT: result posted, terminal silent (punches kept), then a new handshake and the pending upload', async () => {
  const t = term();
  await t.start();
  assert.equal(t.handshakeCount, 1);
  const lines = await run(t, 'REBOOT');
  assert.deepEqual(lines, ['ID=1&Return=0&CMD=REBOOT']);
  await srv.waitFor(() => !t.isOnline, 3000, 'reboot start');
  const r = await t.punch({ pin: '5', time: '2024-05-01 10:00:00' });
  assert.equal(r.uploaded, false, 'a rebooting terminal keeps the punch');
  await srv.waitFor(() => t.handshakeCount === 2, 3000, 'second handshake');
  assert.equal(t.rebootCount, 1);
  await srv.waitFor(() => srv.uploads('ATTLOG').length === 1, 3000, 'upload after reboot');
});

test('stop() goes silent; punches while offline are uploaded after the next start()', async () => {
  const t = term();
  await t.start();
  await t.stop();
  const n = srv.requests.length;
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(srv.requests.length, n, 'no request after stop');
  const r = await t.punch({ pin: '9', time: '2024-05-01 10:00:00', photo: JPEG });
  assert.equal(r.uploaded, false);
  assert.equal(srv.uploads('ATTLOG').length, 0);
  await t.start();
  await srv.waitFor(() => srv.uploads('ATTPHOTO').length === 1, 3000, 'pending photo');
  assert.equal(srv.uploads('ATTLOG')[0]!.body.toString(), '9\t2024-05-01 10:00:00\t0\t15\t0\t0\t0');
});

test('breathalyser: alcohol_* options answer -1002 without the module; with it they are kept and punches carry field 10', async () => {
  const plain = term();
  await plain.start();
  assert.deepEqual(await run(plain, 'SET OPTION alcohol_threshold=30', 'SET OPTION Delay=5'), [
    'ID=1&Return=-1002&CMD=SET OPTION',
    'ID=2&Return=0&CMD=SET OPTION',
  ]);
  assert.equal(plain.options.alcohol_threshold, undefined);
  const sober = await plain.punch({ pin: 7, time: '2024-05-01 08:30:05', alcohol: 12.5 });
  assert.deepEqual(sober.lines, ['7\t2024-05-01 08:30:05\t0\t15\t0\t0\t0'], 'no module, no reading');
  await plain.stop();

  const breath = term({ sn: 'EMU0002', alcohol: true });
  await breath.start();
  assert.deepEqual(await run(breath, 'SET OPTION alcohol_threshold=30'), ['ID=3&Return=0&CMD=SET OPTION']);
  assert.equal(breath.options.alcohol_threshold, '30');
  const r = await breath.punch({ pin: 8, time: '2024-05-01 08:31:00', alcohol: 12.5 });
  assert.deepEqual(r.lines, ['8\t2024-05-01 08:31:00\t0\t15\t0\t0\t0\t\t\t12.5']);
});

test('health-code terminal: a HEALTHLOG record follows the acknowledged ATTLOG; kept while offline; none without the module', async () => {
  const plain = term();
  await plain.start();
  const none = await plain.punch({ pin: 7, time: '2024-05-01 08:30:05', health: { color: 'red' } });
  assert.deepEqual(none.healthLines, [], 'no module, no health record');
  assert.equal(srv.uploads('HEALTHLOG').length, 0);
  await plain.stop();

  const t = term({ sn: 'EMU0003', health: true, place: 'Gate\tA', language: 83 });
  await t.start();
  const r = await t.punch({
    pin: 8,
    time: '2024-05-01 08:31:00',
    health: {
      color: 'yellow',
      name: '张三',
      idNumber: '11010519491231002X',
      temperature: 36.6,
      natTime: '2024-04-30 09:00:00',
      natResult: 'negative',
      trip: 'Shenzhen',
      vaccineCount: 3,
      vaccineTime: '2022-03-01',
    },
  });
  const line =
    'HEALTH PIN=8\tTime=2024-05-01 08:31:00\tName=张三\tIDNum=11010519491231002X\tTemp=36.6\tColor=yellow\tPlace=Gate A\tNATTime=2024-04-30 09:00:00\tNATResult=negative\tTrip=Shenzhen\tVaccine=3\tVaccineTime=2022-03-01';
  assert.deepEqual(r.healthLines, [line]);
  assert.match(r.healthReply ?? '', /^OK/);
  const up = srv.uploads('HEALTHLOG');
  assert.equal(up.length, 1);
  assert.deepEqual(up[0]!.body, encodeText(line, 83), 'in the terminal language (GB2312)');
  const order = srv.requests.map((q) => q.query.get('table')).filter((x) => x === 'ATTLOG' || x === 'HEALTHLOG');
  assert.deepEqual(order.slice(-2), ['ATTLOG', 'HEALTHLOG'], 'after its punch');

  await t.stop();
  const off = await t.punch({ pin: 9, time: '2024-05-01 09:00:00', health: { color: 'green' } });
  assert.equal(off.healthReply, null);
  assert.equal(srv.uploads('HEALTHLOG').length, 1);
  await t.start();
  await srv.waitFor(() => srv.uploads('HEALTHLOG').length === 2, 3000, 'pending health record');
  assert.equal(srv.uploads('HEALTHLOG')[1]!.body.toString('latin1'), 'HEALTH PIN=9\tTime=2024-05-01 09:00:00\tColor=green\tPlace=Gate A');
  assert.deepEqual(await t.replayHealth(1), ['OK']);
});

test('stranger: no ATTLOG, one §11.8 ATTPHOTO <time>-<type>-<PIN>.jpg retried until OK; kept while offline; none without "upload strangers"', async () => {
  const t = term();
  await t.start();
  srv.failNext('ATTPHOTO', 1);
  const r = await t.stranger({ time: '2024-05-01 09:00:00' });
  assert.equal(r.name, '20240501090000-1-0.jpg');
  assert.match(r.reply ?? '', /^OK/);
  assert.equal(srv.uploads('ATTLOG').length, 0, 'a refused face is no attendance record');
  const photos = srv.uploads('ATTPHOTO');
  assert.equal(photos.length, 2, 'one failure, then OK');
  const parsed = parseAttPhotoBody(photos[1]!.body);
  assert.equal(parsed?.headers.PIN, '20240501090000-1-0.jpg');
  assert.deepEqual(parsed?.data, STRANGER_JPEG);
  assert.deepEqual([STRANGER_JPEG[0], STRANGER_JPEG[1], STRANGER_JPEG.at(-2), STRANGER_JPEG.at(-1)], [0xff, 0xd8, 0xff, 0xd9], 'a whole JPEG');
  // A registered PIN refused (verification failed), with its own capture.
  const refused = await t.stranger({ time: '2024-05-01 09:01:00', pin: 42, type: 4, photo: JPEG });
  assert.equal(refused.name, '20240501090100-4-42.jpg');
  assert.deepEqual(parseAttPhotoBody(srv.uploads('ATTPHOTO')[2]!.body)?.data, JPEG);

  await t.stop();
  const kept = await t.stranger({ time: '2024-05-01 09:02:00' });
  assert.equal(kept.reply, null);
  await t.start();
  await srv.waitFor(() => srv.uploads('ATTPHOTO').length === 4, 3000, 'the kept stranger');
  assert.equal(parseAttPhotoBody(srv.uploads('ATTPHOTO')[3]!.body)?.headers.PIN, '20240501090200-1-0.jpg');

  const off = term({ sn: 'EMU0002', uploadStrangers: false });
  await off.start();
  assert.equal((await off.stranger()).reply, null);
  assert.equal(srv.uploads('ATTPHOTO').length, 4);
});

test("recognize: a user inside their StartDatetime/EndDatetime opens the door (ATTLOG); outside it is refused (the registered PIN's ATTPHOTO, no ATTLOG); an unknown face is a stranger", async () => {
  const t = term();
  await t.start();
  await run(t, 'DATA UPDATE USERINFO PIN=900000001\tName=Visitor\tPri=0\tStartDatetime=2026-11-20 09:00:00\tEndDatetime=2026-11-20 11:00:00');
  const inside = await t.recognize({ pin: '900000001', time: '2026-11-20 10:00:00', photo: JPEG });
  assert.equal(inside.outcome, 'opened');
  assert.equal(srv.uploads('ATTLOG').length, 1);
  assert.match(srv.uploads('ATTLOG')[0]!.body.toString(), /^900000001\t2026-11-20 10:00:00\t/);
  for (const time of ['2026-11-20 11:00:01', '2026-11-20 08:59:59']) {
    const r = await t.recognize({ pin: '900000001', time });
    assert.equal(r.outcome, 'refused', time);
    assert.equal(r.outcome === 'refused' && r.stranger.name, `${time.replace(/\D/g, '')}-1-900000001.jpg`);
  }
  assert.equal(srv.uploads('ATTLOG').length, 1, 'no punch outside the window');
  // ATTPHOTO: the punch's photo, then the two refusals
  assert.equal(srv.uploads('ATTPHOTO').length, 3);
  const unknown = await t.recognize({ pin: '123', time: '2026-11-20 10:00:00' });
  assert.equal(unknown.outcome, 'unknown');
  // A user without a validity is let in at any time.
  await run(t, 'DATA UPDATE USERINFO PIN=1001\tName=Staff');
  assert.equal((await t.recognize({ pin: 1001, time: '2030-01-01 00:00:00' })).outcome, 'opened');
});

test('reply buffer: commands whose line ends past maxReplyBytes are not run and answered -1006', async () => {
  const t = term({ maxReplyBytes: 200 });
  await t.start();
  const user = (pin: string) => `DATA UPDATE USERINFO PIN=${pin}\tName=${'x'.repeat(40)}\tPri=0`;
  // Each line is about 80 bytes: the first two fit the 200-byte buffer, the third ends past it.
  const lines = await run(t, user('1'), user('2'), user('3'));
  const codes = lines.filter((l) => l.startsWith('ID=')).map((l) => /Return=(-?\d+)/.exec(l)![1]);
  assert.deepEqual(codes, ['0', '0', '-1006']);
  assert.deepEqual([...t.users.keys()], ['1', '2'], 'what the buffer could not hold was not stored');
});

test('pipelining: after the results of a full reply the terminal asks again at once; after a small one it waits Delay', async () => {
  const t = term({ pollMs: 1500 });
  await t.start();
  await srv.waitFor(() => srv.requests.some((r) => r.path === '/iclock/getrequest'), 3000, 'first poll');
  const polls = () => srv.requests.filter((r) => r.path === '/iclock/getrequest').length;
  // 120 commands: a full reply by count. The devicecmd is followed by a getrequest well within Delay.
  const ids = srv.queue(t.sn, ...Array.from({ length: 120 }, (_, i) => `DATA UPDATE USERINFO PIN=${i + 1}\tName=P${i}`));
  await srv.waitFor(() => srv.results.some((b) => b.includes(`ID=${ids.at(-1)}&`)), 4000, 'results of the full reply');
  await new Promise((r) => setTimeout(r, 700));
  const cmdAt = srv.requests.findIndex((r) => r.path === '/iclock/devicecmd' && r.body.toString().includes(`ID=${ids.at(-1)}&`));
  assert.ok(
    srv.requests.slice(cmdAt + 1).some((r) => r.path === '/iclock/getrequest'),
    'a getrequest followed the devicecmd well within the 1.5 s poll interval',
  );
  assert.equal(t.stats.pipelined, 1);
  // A single command is not a full reply: the next poll waits the poll interval.
  const one = srv.queue(t.sn, 'AC_UNLOCK');
  await srv.waitFor(() => srv.results.some((b) => b.includes(`ID=${one[0]}&`)), 4000, 'result of the door');
  const n = polls();
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(polls(), n, 'no poll before Delay after a small reply');
  assert.equal(t.stats.pipelined, 1);
});

test('virtualDelay: the Delay waits are counted, not slept (benches at Delay=10 s)', async () => {
  const t = term({ pollMs: undefined, virtualDelay: true });
  await t.start();
  await srv.waitFor(() => srv.requests.filter((r) => r.path === '/iclock/getrequest').length >= 5, 2000, 'five polls at once');
  assert.ok(t.virtualWaitMs >= 4 * 10_000, `counted ${t.virtualWaitMs} ms of Delay (server Delay=10)`);
});

test('UPGRADE: downloads /iclock/file?url=, checks size and md5, installs a ZKEMU-FW file, answers 0 and restarts with the new version', async () => {
  const t = term({ firmware: 'Ver 1.0' });
  await t.start();
  const fw = emulatorFirmware('Ver 2.0');
  const md5 = createHash('md5').update(fw).digest('hex');
  srv.files.set('/iclock/file', fw);
  const handshakes = t.handshakeCount;
  const ok = await run(t, `UPGRADE type=1,checksum=${md5},size=${fw.length},url=firmware/1/emfw.cfg`);
  assert.match(ok[0]!, /Return=0&CMD=UPGRADE$/);
  const get = srv.requests.find((r) => r.path === '/iclock/file')!;
  assert.equal(get.query.get('SN'), 'EMU0001');
  assert.equal(get.query.get('url'), 'firmware/1/emfw.cfg');
  await srv.waitFor(() => t.handshakeCount > handshakes, 3000, 'the restart');
  assert.equal(t.firmware, 'Ver 2.0');
  await srv.waitFor(
    () => srv.requests.some((r) => r.path === '/iclock/getrequest' && r.query.get('INFO')?.startsWith('Ver 2.0')),
    3000,
    'INFO= with the new version',
  );

  const bad = await run(t, `UPGRADE type=1,checksum=${'0'.repeat(32)},size=${fw.length},url=x`);
  assert.match(bad[0]!, /Return=-3&/, 'md5 differs');
  srv.files.set('/iclock/file', Buffer.from("another maker's image"));
  const foreign = await run(t, 'UPGRADE type=1,url=x');
  assert.match(foreign[0]!, /Return=-1004&/, 'not firmware for this terminal');
  srv.files.delete('/iclock/file');
  assert.match((await run(t, 'UPGRADE type=1,url=x'))[0]!, /Return=-1008&/, 'download failed');
  assert.equal(t.firmware, 'Ver 2.0');
});

test('GetFile: its log file in the multi-line result (Return = size, the bytes after Content=); another path -2', async () => {
  const t = term();
  await t.start();
  const before = srv.results.length;
  const [id] = srv.queue(t.sn, `GetFile ${EMULATOR_LOG_FILE}`);
  await srv.waitFor(() => srv.results.slice(before).some((b) => b.startsWith(`ID=${id}\n`)), 3000, 'the file');
  const body = srv.results.slice(before).find((b) => b.startsWith(`ID=${id}\n`))!;
  const m = /^ID=\d+\nSN=EMU0001\nFILENAME=(.*)\nCMD=GetFile\nReturn=(\d+)\nContent=([\s\S]*)$/.exec(body)!;
  assert.equal(m[1], EMULATOR_LOG_FILE);
  assert.equal(Buffer.byteLength(m[3]!), Number(m[2]));
  assert.match(m[3]!, /handshake online/);
  const [id2] = srv.queue(t.sn, 'GetFile /etc/passwd');
  await srv.waitFor(() => srv.results.some((b) => b.startsWith(`ID=${id2}\n`)), 3000, 'the refusal');
  const other = srv.results.find((b) => b.startsWith(`ID=${id2}\n`))!;
  assert.equal(other, `ID=${id2}\nSN=EMU0001\nFILENAME=/etc/passwd\nCMD=GetFile\nReturn=-2`);
});

// ---------------------------------------------------------------- a site that pre-exists the server (docs §12.6)

/** A POST's lines, unpacked when it came as ContentType=tgz. */
function postLines(r: SeenRequest): string[] {
  const text =
    r.query.get('ContentType') === 'tgz'
      ? unpackTgz(r.body)
          .map((f) => f.data.toString('utf8'))
          .join('\n')
      : r.body.toString('utf8');
  return text.split('\n').filter(Boolean);
}

/** `KIND k=v\tk=v…` → [KIND, keys]. */
function splitLine(line: string): [string, Map<string, string>] {
  const sp = line.indexOf(' ');
  return [line.slice(0, sp), parseRecord(line.slice(sp + 1))];
}

/** A photo line's JPEG, after checking Size= against the base64 length as a server must. */
function photoOf(keys: Map<string, string>): Buffer {
  const content = keys.get('content') ?? '';
  assert.equal(Number(keys.get('size')), content.length, `Size= of PIN ${keys.get('pin')}`);
  return Buffer.from(content, 'base64');
}

/** Index of the devicecmd request that carried this command's result. */
function resultAt(id: string): number {
  return srv.requests.findIndex((r) => r.path === '/iclock/devicecmd' && r.body.toString().includes(`ID=${id}&`));
}

test('seedSite is deterministic; every face is a real JPEG with its own bytes; the seeded terminal says what it holds', async () => {
  const spec = { users: 30, punches: 200, seed: 42, userPics: 0.5, from: '2026-03-01', days: 10 };
  const site = seedSite(spec);
  assert.deepEqual(seedSite(spec), site, 'same seed, same site');
  assert.notDeepEqual(seedSite({ ...spec, seed: 43 }).users, site.users);
  const faces = site.users.map((u) => u.face!);
  assert.equal(faces.length, 30);
  assert.ok(
    faces.every((f) => f[0] === 0xff && f[1] === 0xd8 && f.at(-2) === 0xff && f.at(-1) === 0xd9),
    'JPEG start and end markers',
  );
  assert.equal(new Set(faces.map((f) => createHash('sha256').update(f).digest('hex'))).size, 30, 'no two photos share their bytes');
  assert.ok(
    site.punches.every((p, i) => i === 0 || site.punches[i - 1]!.time <= p.time),
    'the log is oldest first',
  );
  assert.ok(site.punches.every((p) => p.time >= '2026-03-01 07:00:00' && p.time < '2026-03-11'));

  srv.options.PushOptionsFlag = '1';
  const t = term({ site });
  await t.start();
  assert.equal(t.users.size, 30);
  assert.equal(t.photos.size, 30);
  assert.equal(t.userPics.size, site.users.filter((u) => u.userPic).length);
  assert.deepEqual(t.attlog.length, 200);
  await run(t, 'INFO');
  const info = srv.requests
    .find((r) => r.path === '/iclock/getrequest')!
    .query.get('INFO')!
    .split(',');
  assert.deepEqual([info[1], info[3], info[8], info[9]], ['30', '200', '30', '01111'], 'users, records, faces, comparison-photo flag');
  const pushed = srv.uploads('options')[0]!.body.toString();
  assert.match(pushed, /BioPhotoFun=1,/);
  assert.match(pushed, /MultiBioPhotoCount=0:0:0:0:0:0:0:0:0:30/);
  assert.equal(srv.uploads('ATTLOG').length, 0, 'the previous server took the seeded punches: none is uploaded on its own');

  // A terminal without BioPhotoFun keeps only the templates: it says so, and has no photo to give back.
  const bare = term({ sn: 'EMU0002', bioPhoto: false, site: seedSite({ users: 4 }) });
  await bare.start();
  assert.equal(bare.photos.size, 0);
  assert.equal(bare.faceCount, 4);
  assert.match(bare.infoParam(), /,4,01101$/);
  assert.equal(bare.deviceConfig().BioPhotoFun, '0');
  assert.equal(bare.deviceConfig().MultiBioDataCount, '0:0:0:0:0:0:0:0:0:4');
  assert.throws(() => term({ sn: 'EMU0003', capacity: 10, site: seedSite({ users: 11 }) }), /exceed the capacity 10/);
});

test('CHECK after OPERLOGStamp=0 re-sends every USER, USERPIC and BIOPHOTO line in POSTs of linesPerPost, before its result', async () => {
  const site = seedSite({ users: 7, punches: 20, seed: 3, userPics: 0.5 });
  const pics = site.users.filter((u) => u.userPic).length;
  assert.ok(pics > 0 && pics < 7);
  const t = term({ site, linesPerPost: 3 });
  await t.start();
  // The server holds the punches (stamp 20 = the last record) and asks for the roster again.
  srv.options.ATTLOGStamp = '20';
  srv.options.OPERLOGStamp = '0';
  const [id] = srv.queue(t.sn, 'CHECK');
  await srv.waitFor(() => resultAt(id!) >= 0, 3000, 'the CHECK result');
  assert.match(srv.results.at(-1)!, /^ID=\d+&Return=0&CMD=CHECK$/);

  const posts = srv.uploads('OPERLOG');
  const sizes = posts.map((p) => postLines(p).length);
  assert.equal(
    sizes.reduce((a, b) => a + b, 0),
    7 + pics + 7,
  );
  assert.ok(sizes.every((n) => n <= 3) && sizes.filter((n) => n < 3).length <= 2, `POST sizes ${sizes.join(',')}`);
  assert.ok(
    posts.every((p) => srv.requests.indexOf(p) < resultAt(id!)),
    'uploads before the result line (default order)',
  );
  const lines = posts.flatMap(postLines).map(splitLine);
  const kinds = lines.map(([kind]) => kind);
  assert.deepEqual(kinds, [...Array(7).fill('USER'), ...Array(pics).fill('USERPIC'), ...Array(7).fill('BIOPHOTO')], 'people before their photos');
  const users = lines.filter(([k]) => k === 'USER').map(([, keys]) => keys);
  assert.deepEqual(
    users.map((u) => [u.get('pin'), u.get('name'), u.get('card') ?? '', u.get('enddatetime') ?? '']),
    site.users.map((u) => [u.pin, u.name, u.card ?? '', u.endDatetime ?? '']),
  );
  for (const [, keys] of lines.filter(([k]) => k === 'BIOPHOTO')) {
    const pin = keys.get('pin')!;
    assert.equal(keys.get('type'), '9');
    assert.equal(keys.get('filename'), `${pin}.jpg`);
    assert.deepEqual(photoOf(keys), site.users.find((u) => u.pin === pin)!.face, `the enrolment JPEG of ${pin}`);
  }
  for (const [, keys] of lines.filter(([k]) => k === 'USERPIC')) assert.deepEqual(photoOf(keys), t.userPics.get(keys.get('pin')!));
  assert.equal(srv.uploads('ATTLOG').length, 0, 'ATTLOGStamp names the last record: no punch again');
  assert.equal(srv.uploads('BIODATA').length, 0, 'BIODATAStamp was not reset');
});

test('BIODATAStamp=0 re-sends templates; variants: tgz OPERLOG, table=USERINFO, No=/Index= in BIOPHOTO lines', async () => {
  const site = seedSite({ users: 5, seed: 9 });
  const t = term({ site, linesPerPost: 2, tgz: true, userInfoTable: true, bioPhotoNoIndex: true });
  await t.start();
  srv.options.OPERLOGStamp = '0';
  srv.options.BIODATAStamp = '0';
  assert.deepEqual(await run(t, 'CHECK'), ['ID=1&Return=0&CMD=CHECK']);

  const userPosts = srv.uploads('USERINFO');
  assert.deepEqual(
    userPosts.flatMap(postLines).map((l) => splitLine(l)[1].get('pin')),
    site.users.map((u) => u.pin),
  );
  assert.ok(
    userPosts.every((p) => p.query.get('ContentType') === null),
    'USERINFO posts are plain text',
  );
  const op = srv.uploads('OPERLOG');
  assert.ok(op.length === 3 && op.every((p) => p.query.get('ContentType') === 'tgz' && p.query.get('Stamp') === null));
  const photos = op.flatMap(postLines);
  assert.equal(photos.length, 5);
  for (const line of photos) {
    assert.match(line, /^BIOPHOTO PIN=\d+\tNo=0\tIndex=0\tFileName=/);
    const [, keys] = splitLine(line);
    assert.deepEqual(photoOf(keys), t.photos.get(keys.get('pin')!));
  }
  const bio = srv
    .uploads('BIODATA')
    .flatMap(postLines)
    .map((l) => splitLine(l)[1]);
  assert.deepEqual(
    bio.map((k) => [k.get('pin'), k.get('type'), k.get('no'), k.get('tmp')]),
    site.users.map((u) => [u.pin, '9', '0', standInTemplate(u.face!)]),
  );
});

test('uploadOrder after: the result line is posted first, the query data follows', async () => {
  const t = term({ site: seedSite({ users: 3 }), uploadOrder: 'after' });
  await t.start();
  srv.options.OPERLOGStamp = '0';
  const [q, check] = srv.queue(t.sn, 'DATA QUERY USERINFO', 'CHECK');
  await srv.waitFor(() => srv.uploads('OPERLOG').length === 3, 3000, 'the query, then the re-send (users, then photos)');
  const [queryPost, usersAgain, photosAgain] = srv.uploads('OPERLOG').map((p) => srv.requests.indexOf(p));
  assert.equal(resultAt(q!), resultAt(check!), 'both results in one devicecmd');
  assert.ok(resultAt(q!) < queryPost! && queryPost! < usersAgain! && usersAgain! < photosAgain!);
});

test('DATA QUERY BIODATA by Type/PIN/No; FINGERTMP -1002; BIOPHOTO and USERPIC -1002 unless photoQueries', async () => {
  const site = seedSite({ users: 4, userPics: 1 });
  const t = term({ site, failOn: { unknownUser: true } });
  await t.start();
  assert.deepEqual(
    await run(
      t,
      'DATA QUERY BIODATA Type=9',
      'DATA QUERY BIODATA Type=9\tPIN=2',
      'DATA QUERY BIODATA Type=9\tPIN=2\tNo=1',
      'DATA QUERY BIODATA PIN=2',
      'DATA QUERY BIODATA Type=9\tPIN=404',
      'DATA QUERY FINGERTMP PIN=2',
      'DATA QUERY BIOPHOTO PIN=2\tType=9',
      'DATA QUERY USERPIC PIN=2',
    ),
    [
      'ID=1&Return=0&CMD=DATA',
      'ID=2&Return=0&CMD=DATA',
      'ID=3&Return=0&CMD=DATA',
      'ID=4&Return=-1&CMD=DATA',
      'ID=5&Return=-10&CMD=DATA',
      'ID=6&Return=-1002&CMD=DATA',
      'ID=7&Return=-1002&CMD=DATA',
      'ID=8&Return=-1002&CMD=DATA',
    ],
  );
  assert.deepEqual(
    srv.uploads('BIODATA').map((p) => postLines(p).map((l) => splitLine(l)[1].get('pin'))),
    [['1', '2', '3', '4'], ['2']],
    'everyone for Type alone, one for a PIN, none for a No it does not hold',
  );
  assert.equal(srv.uploads('OPERLOG').length, 0);
  // Deleting the enrolment photo takes its template along: the person has no face left to read.
  assert.deepEqual(await run(t, 'DATA DELETE BIOPHOTO PIN=4', 'DATA QUERY BIODATA Type=9\tPIN=4'), ['ID=9&Return=0&CMD=DATA', 'ID=10&Return=0&CMD=DATA']);
  assert.equal(srv.uploads('BIODATA').length, 2);
  assert.equal(t.faceCount, 3);

  const open = term({ sn: 'EMU0002', site, photoQueries: true });
  await open.start();
  await run(open, 'DATA QUERY BIOPHOTO PIN=2\tType=9', 'DATA QUERY USERPIC PIN=3', 'DATA QUERY BIOPHOTO');
  const [one, pic, all] = srv.uploads('OPERLOG').map((p) => postLines(p).map(splitLine));
  assert.deepEqual(
    one!.map(([k, keys]) => [k, keys.get('pin')]),
    [['BIOPHOTO', '2']],
  );
  assert.deepEqual(photoOf(one![0]![1]), site.users[1]!.face);
  assert.deepEqual(
    pic!.map(([k, keys]) => [k, keys.get('pin')]),
    [['USERPIC', '3']],
  );
  assert.deepEqual(
    all!.map(([, keys]) => keys.get('pin')),
    ['1', '2', '3', '4'],
  );
});

test('seeded punches come back from DATA QUERY ATTLOG by range, 500 lines a POST, and VERIFY SUM counts them', async () => {
  const site = seedSite({ users: 50, punches: 1500, seed: 5, from: '2026-02-01', days: 10 });
  const t = term({ site });
  await t.start();
  const start = '2026-02-03 00:00:00';
  const end = '2026-02-08 23:59:59';
  const expected = site.punches.filter((p) => p.time >= start && p.time <= end);
  assert.ok(expected.length > 500 && expected.length < site.punches.length);
  const lines = await run(t, `DATA QUERY ATTLOG StartTime=${start}\tEndTime=${end}`, `VERIFY SUM ATTLOG StartTime=${start}\tEndTime=${end}`);
  assert.deepEqual(lines, ['ID=1&Return=0&CMD=DATA', `ID=2&Return=0&CMD=VERIFY SUM&StartTime=${start}&EndTime=${end}&AttlogSum=${expected.length}`]);
  const posts = srv.uploads('ATTLOG');
  assert.deepEqual(
    posts.map((p) => postLines(p).length),
    [500, ...(expected.length > 1000 ? [500, expected.length - 1000] : [expected.length - 500])],
  );
  assert.deepEqual(
    posts.flatMap(postLines),
    expected.map((p) => `${p.pin}\t${p.time}\t${p.status}\t15\t0\t0\t0`),
  );
});

test('resendAtHandshake: zero stamps are honoured at the handshake too; without the switch only CHECK does', async () => {
  srv.options.OPERLOGStamp = '0';
  srv.options.ATTLOGStamp = '6';
  const site = seedSite({ users: 2, punches: 6 });
  const plain = term({ site });
  await plain.start();
  await run(plain, 'INFO');
  assert.equal(srv.uploads('OPERLOG').length, 0, 'a stamp alone does nothing on this firmware');
  await plain.stop();

  const eager = term({ sn: 'EMU0002', site, resendAtHandshake: true });
  await eager.start();
  await srv.waitFor(() => srv.uploads('OPERLOG').length === 2, 3000, 'the roster, then the faces, at the handshake');
  assert.deepEqual(
    srv.uploads('OPERLOG').map((p) => postLines(p).map((l) => splitLine(l)[0])),
    [
      ['USER', 'USER'],
      ['BIOPHOTO', 'BIOPHOTO'],
    ],
  );
  assert.equal(srv.uploads('ATTLOG').length, 0);
});
