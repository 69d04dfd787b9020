import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localToUtcMs, wallClockMs } from '../../lib/time.ts';
import { cardOf, encodeOp, parseAttlog, parseAttphoto, parseDevicecmd, parseHealthlog, parseOperlog, splitFileResults, ZK_LOG_FILE } from './codec.ts';

const localToUtc = (local: string, tz: number) => new Date(localToUtcMs(local, tz)).toISOString();

test('device clock readings: real dates only, never rolled over into the next month', () => {
  assert.equal(wallClockMs('2026-11-20 08:59:07'), Date.UTC(2026, 10, 20, 8, 59, 7));
  assert.equal(wallClockMs('2028-02-29 23:59:59'), Date.UTC(2028, 1, 29, 23, 59, 59), 'leap day');
  for (const bad of [
    '2026-02-31 08:00:00',
    '2027-02-29 08:00:00',
    '2100-02-29 08:00:00',
    '2026-04-31 00:00:00',
    '2026-13-01 00:00:00',
    '2026-11-20 24:00:00',
    '2026-11-20 08:60:00',
    '2026-11-20T08:00:00',
    '2026-11-20 8:00:00',
    '',
  ])
    assert.ok(Number.isNaN(wallClockMs(bad)), bad);
});

test('a reading in the terminal time zone becomes one unambiguous UTC instant', () => {
  assert.equal(localToUtc('2026-11-21 07:30:00', 480), '2026-11-20T23:30:00.000Z', 'UTC+8 just after midnight is the previous UTC day');
  assert.equal(localToUtc('2026-11-20 22:00:00', -300), '2026-11-21T03:00:00.000Z');
});

test('ATTLOG: malformed lines are counted apart, never guessed at', () => {
  const { records, bad } = parseAttlog(
    '2001\t2026-11-20 08:59:00\t0\t15\t0\t0\t0\r\n2002\t2026-02-31 08:00:00\t0\t15\n../x\t2026-11-20 08:00:00\n\n2003\t2026-11-20 09:00:00\t1\t1\t7\t0\t0\t1\t36.6',
  );
  assert.equal(bad, 2);
  assert.deepEqual(
    records.map((r) => [r.pin, r.time, r.status, r.verify, r.mask, r.temperature]),
    [
      ['2001', '2026-11-20 08:59:00', 0, 15, null, null],
      ['2003', '2026-11-20 09:00:00', 1, 1, 1, 36.6],
    ],
  );
});

test('HEALTHLOG: every field of a health-code record, keys in any order and case; unreadable values dropped, lines without PIN or time apart', () => {
  const full =
    'HEALTH PIN=1001\tTime=2026-11-20 08:30:05\tName=张三\tIDNum=11010519491231002X\tTemp=36.6\tColor=green\tPlace=Gate A\tNATTime=2026-11-19 10:00:00\tNATResult=negative\tTrip=Shenzhen;Guangzhou\tVaccine=3\tVaccineTime=2022-03-01';
  const { records, bad } = parseHealthlog(
    [
      full,
      'health color=2\ttime=2026-11-20 08:31:00\tpin=1002\tNATResult=1\tVaccine=x\tTemp=hot\tNATTime=yesterday',
      'HEALTH PIN=1003\tTime=2026-11-20 08:32:00\tColor=1\r',
      'HEALTH PIN=1004\tTime=2026-11-20 08:33:00\tColor=purple\tName=a\u202eb\tTrip=' + 'x'.repeat(300),
      'HEALTH PIN=\tTime=2026-11-20 08:33:00',
      'HEALTH PIN=1005\tTime=2026-02-31 08:00:00',
      'USER PIN=1\tName=x',
      '',
    ].join('\n'),
  );
  assert.equal(bad, 3);
  assert.deepEqual(records[0], {
    pin: '1001',
    time: '2026-11-20 08:30:05',
    name: '张三',
    idNumber: '11010519491231002X',
    temperature: 36.6,
    color: 'green',
    place: 'Gate A',
    natTime: '2026-11-19 10:00:00',
    natResult: 'negative',
    trip: 'Shenzhen;Guangzhou',
    vaccineCount: 3,
    vaccineTime: '2022-03-01',
  });
  assert.deepEqual(
    records.slice(1).map((r) => [r.pin, r.color, r.natResult, r.natTime, r.vaccineCount, r.temperature]),
    [
      ['1002', 'red', 'positive', '', null, null],
      ['1003', 'yellow', '', '', null, null],
      ['1004', null, '', '', null, null],
    ],
  );
  assert.equal(records[3]!.name, 'a b', 'no bidi overrides');
  assert.equal(records[3]!.trip.length, 200);
});

test('ATTPHOTO names: the §11.3 punch photo, the §11.8 typed variant (strangers and refusals), nothing guessed', () => {
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0xff, 0xd9]);
  const body = (name: string, data = jpeg) => Buffer.concat([Buffer.from(`PIN=${name}\nSN=X1\nsize=${data.length}\nCMD=uploadphoto\0`, 'latin1'), data]);
  const p = (name: string) => {
    const r = parseAttphoto(body(name));
    return r && { pin: r.pin, time: r.time, type: r.type };
  };
  assert.deepEqual(p('20150731103012-123.jpg'), { pin: '123', time: '2015-07-31 10:30:12', type: null });
  assert.deepEqual(p('20261120085907-1-0.jpg'), { pin: '0', time: '2026-11-20 08:59:07', type: 1 }, 'an unknown face');
  assert.deepEqual(p('20261120085907-4-.jpg'), { pin: '0', time: '2026-11-20 08:59:07', type: 4 }, 'an empty PIN is an unknown face');
  assert.deepEqual(p('20261120085907-2-1452-440305199001011234.jpg'), { pin: '1452', time: '2026-11-20 08:59:07', type: 2 }, 'with the id number');
  assert.deepEqual(p('20261120085907-0-1452.jpg'), { pin: '1452', time: '2026-11-20 08:59:07', type: 0 });
  for (const bad of [
    '20261120085907.jpg',
    '20261131085907-1-0.jpg',
    '20261120085907-1-0-1-2.jpg',
    '20261120085907-a b.jpg',
    'x-1-0.jpg',
    '20261120085907-1-0.png',
  ])
    assert.equal(parseAttphoto(body(bad)), undefined, bad);
  assert.equal(parseAttphoto(body('20261120085907-1-0.jpg', Buffer.from('not a jpeg'))), undefined, 'not a JPEG');
});

test('UPGRADE (§12.8.2 method 2) and GetFile (§12.5.1) command text', () => {
  assert.equal(
    encodeOp({ kind: 'upgrade', url: 'firmware/7/emfw.cfg', md5: 'ab12', size: 42 }),
    'UPGRADE type=1,checksum=ab12,size=42,url=firmware/7/emfw.cfg',
  );
  assert.equal(encodeOp({ kind: 'getLog' }), `GetFile ${ZK_LOG_FILE}`);
  assert.equal(encodeOp({ kind: 'getLog', path: '/tmp/a\tb.log' }), 'GetFile /tmp/a b.log', 'no TAB or line break reaches the command');
});

test('GetFile results: the bytes after Content= are cut out by size, whatever they hold; the other results read as usual', () => {
  const file = Buffer.concat([Buffer.from('line 1\nID=99&Return=0&CMD=DATA\n'), Buffer.from([0, 0xff, 0x0a, 0xfe])]);
  const body = Buffer.concat([
    Buffer.from('ID=5&Return=0&CMD=DATA\nID=6\nSN=X1\nFILENAME=/mnt/log.txt\nCMD=GetFile\nReturn=' + file.length + '\nContent='),
    file,
    Buffer.from('\nID=7\nSN=X1\nFILENAME=/nope\nCMD=GetFile\nReturn=-2\nID=8&Return=-1002&CMD=AC_UNLOCK\n'),
  ]);
  const { rest, files } = splitFileResults(body);
  assert.deepEqual(files.get(6), { name: '/mnt/log.txt', data: file });
  const results = parseDevicecmd(rest.toString('utf8'));
  assert.deepEqual(
    results.map((r) => [r.id, r.code, r.cmd]),
    [
      [5, 0, 'DATA'],
      [6, file.length, 'GetFile'],
      [7, -2, 'GetFile'],
      [8, -1002, 'AC_UNLOCK'],
    ],
    'the id 99 inside the file is not a result',
  );
  // A size past the end of the body: nothing is cut, the result still reads.
  const short = splitFileResults(Buffer.from('ID=9\nCMD=GetFile\nReturn=500\nContent=abc'));
  assert.equal(short.files.size, 0);
  assert.equal(parseDevicecmd(short.rest.toString())[0]!.code, 500);
});

test('the user log: USER lines are users (card decimal or hex-bracketed low byte first, validity by key), BIOPHOTO type 9 lines their faces; the rest is counted, a bad line skipped', () => {
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
  const b64 = jpeg.toString('base64');
  const text = [
    'USER PIN=1452\tName=Ann Lee\tPri=0\tPasswd=9\tCard=[15CD5B07]\tGrp=1\tTZ=0000000000000000\tVerify=-1\tViceCard=',
    'USER Name=Bo\tPIN=7\tPri=14\tCard=0012345\tStartDatetime=2026-01-01 00:00:00\tEndDatetime=2026-12-31 23:59:59',
    `BIOPHOTO PIN=1452\tNo=0\tIndex=0\tFileName=1452.jpg\tType=9\tSize=${b64.length}\tContent=${b64}`,
    `BIOPHOTO PIN=7\tType=2\tSize=${b64.length}\tContent=${b64}`,
    `BIOPHOTO PIN=7\tType=9\tSize=${b64.length + 1}\tContent=${b64}`,
    'FP PIN=7\tFID=1\tSize=4\tValid=1\tTMP=AAAA',
    'USER PIN=bad pin!\tName=X',
  ].join('\n');
  const r = parseOperlog(text);
  assert.deepEqual(r.users, [
    { pin: '1452', name: 'Ann Lee', card: '123456789', validFrom: '', validTo: '', admin: false, kind: 'normal' },
    { pin: '7', name: 'Bo', card: '12345', validFrom: '2026-01-01 00:00:00', validTo: '2026-12-31 23:59:59', admin: true, kind: 'normal' },
  ]);
  assert.equal(r.faces.length, 1, 'type 2 (infrared) is not kept; a Size that disagrees is skipped');
  assert.equal(r.faces[0]!.pin, '1452');
  assert.ok(r.faces[0]!.jpeg.equals(jpeg));
  assert.equal(r.lines, 7);
  assert.equal(r.bad, 2);
  assert.equal(cardOf('[00000000]'), '');
  assert.equal(cardOf('abc'), '');
});
