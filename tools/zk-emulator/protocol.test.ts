import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  attPhotoName,
  buildAttPhotoBody,
  classifyCommand,
  decodeText,
  encodeText,
  formatAttlogLine,
  formatHealthLine,
  formatDeviceTime,
  formatResult,
  nameMatches,
  parseAttPhotoBody,
  parseCommands,
  parseOptionsReply,
  parseRecord,
  timezoneToMinutes,
} from './protocol.ts';

test('parseCommands: OK means nothing, C: lines are split on the first two colons', () => {
  assert.deepEqual(parseCommands('OK'), []);
  assert.deepEqual(parseCommands(''), []);
  const cmds = parseCommands('C:1:INFO\r\nC:abc16:DATA UPDATE USERINFO PIN=1\tName=A:B\nC:3:SET OPTION Delay=5\n');
  assert.deepEqual(cmds, [
    { id: '1', text: 'INFO' },
    { id: 'abc16', text: 'DATA UPDATE USERINFO PIN=1\tName=A:B' },
    { id: '3', text: 'SET OPTION Delay=5' },
  ]);
  // tolerate the PDF-style spacing "C: 12: CHECK"
  assert.deepEqual(parseCommands('C: 12: CHECK'), [{ id: '12', text: 'CHECK' }]);
});

test('classifyCommand: names for failure injection and CMD= echoes of §13', () => {
  const cases: [string, string, string, string][] = [
    ['DATA UPDATE USERINFO PIN=1\tName=A B', 'DATA UPDATE USERINFO', 'DATA', 'PIN=1\tName=A B'],
    ['DATA DELETE BIOPHOTO PIN=7', 'DATA DELETE BIOPHOTO', 'DATA', 'PIN=7'],
    [
      'DATA QUERY ATTLOG StartTime=2024-01-01 00:00:00\tEndTime=2024-01-02 00:00:00',
      'DATA QUERY ATTLOG',
      'DATA',
      'StartTime=2024-01-01 00:00:00\tEndTime=2024-01-02 00:00:00',
    ],
    ['CLEAR LOG', 'CLEAR LOG', 'CLEAR_LOG', ''],
    ['CLEAR DATA', 'CLEAR DATA', 'CLEAR_DATA', ''],
    ['SET OPTION Delay=5', 'SET OPTION', 'SET OPTION', 'Delay=5'],
    ['RELOAD OPTIONS', 'RELOAD OPTIONS', 'RELOAD OPTIONS', ''],
    ['INFO', 'INFO', 'INFO', ''],
    ['AC_UNLOCK', 'AC_UNLOCK', 'AC_UNLOCK', ''],
    ['SHELL ls', 'SHELL', 'Shell', 'ls'],
    ['PutFile a/b.tgz\t/mnt/', 'PUTFILE', 'PutFile', 'a/b.tgz\t/mnt/'],
  ];
  for (const [text, name, echo, args] of cases) assert.deepEqual(classifyCommand(text), { name, echo, args }, text);
  assert.ok(nameMatches('DATA', 'DATA UPDATE BIOPHOTO'));
  assert.ok(nameMatches('data update biophoto', 'DATA UPDATE BIOPHOTO'));
  assert.ok(!nameMatches('DATA UPDATE BIO', 'DATA UPDATE BIOPHOTO'));
});

test('parseRecord: tab-separated key=value, keys lower-cased, values keep spaces and =', () => {
  const r = parseRecord('PIN=12\tName=Li Lei\tPasswd=\tContent=ab==\tSIZE=4');
  assert.equal(r.get('pin'), '12');
  assert.equal(r.get('name'), 'Li Lei');
  assert.equal(r.get('passwd'), '');
  assert.equal(r.get('content'), 'ab==');
  assert.equal(r.get('size'), '4');
});

test('formatResult: single and multi-line results', () => {
  assert.equal(formatResult('info8487', 0, 'DATA'), 'ID=info8487&Return=0&CMD=DATA');
  assert.equal(formatResult('9', 0, 'INFO', ['UserCount=2', 'MaxUserCount=6000']), 'ID=9&Return=0&CMD=INFO\nUserCount=2\nMaxUserCount=6000');
  assert.equal(formatResult('3', -1001, 'DATA'), 'ID=3&Return=-1001&CMD=DATA');
});

test('parseOptionsReply: §5 example', () => {
  const body =
    'GET OPTION FROM: 0316144680030\nATTLOGStamp=None\nOPERLOGStamp=9999\nATTPHOTOStamp=None\nErrorDelay=30\nDelay=10\nTransTimes=00:00;14:05\nTransInterval=1\nTransFlag=TransData AttLog\tOpLog\tAttPhoto\nTimeZone=8\nRealtime=1\nEncrypt=None';
  const p = parseOptionsReply(body);
  assert.ok(p);
  assert.equal(p.sn, '0316144680030');
  assert.equal(p.options.Delay, '10');
  assert.equal(p.options.TransTimes, '00:00;14:05');
  assert.equal(p.options.TransFlag, 'TransData AttLog\tOpLog\tAttPhoto');
  assert.equal(p.options.ATTLOGStamp, 'None');
  assert.equal(parseOptionsReply('OK'), null);
});

test('time zone units and device time format', () => {
  assert.equal(timezoneToMinutes(8), 480);
  assert.equal(timezoneToMinutes(-5), -300);
  assert.equal(timezoneToMinutes(330), 330);
  assert.equal(timezoneToMinutes(-210), -210);
  const d = new Date(Date.UTC(2015, 6, 30, 7, 16, 28));
  assert.equal(formatDeviceTime(d, 480), '2015-07-30 15:16:28');
  assert.equal(formatDeviceTime(d, 330), '2015-07-30 12:46:28');
});

test('ATTLOG line: 7 tab-separated fields, emulator extras for mask/temperature', () => {
  const base = { pin: '1452', time: '2015-07-30 15:16:28', status: 0, verify: 1, workcode: '0' };
  assert.equal(formatAttlogLine(base), '1452\t2015-07-30 15:16:28\t0\t1\t0\t0\t0');
  assert.equal(formatAttlogLine({ ...base, verify: 15, temperature: 36.5, mask: true }), '1452\t2015-07-30 15:16:28\t0\t15\t0\t0\t0\t1\t36.5');
  assert.equal(formatAttlogLine({ ...base, temperature: 37 }), '1452\t2015-07-30 15:16:28\t0\t1\t0\t0\t0\t\t37.0');
});

test('ATTPHOTO body: header lines, NUL, raw bytes', () => {
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0xff, 0xd9]);
  const name = attPhotoName('123', '2015-07-31 10:30:12');
  assert.equal(name, '20150731103012-123.jpg');
  const body = buildAttPhotoBody(name, '0316144680030', jpeg);
  const head = 'PIN=20150731103012-123.jpg\nSN=0316144680030\nsize=8\nCMD=uploadphoto\0';
  assert.equal(body.subarray(0, head.length).toString('latin1'), head);
  assert.deepEqual(body.subarray(head.length), jpeg);
  const parsed = parseAttPhotoBody(body);
  assert.ok(parsed);
  assert.equal(parsed.headers.size, '8');
  assert.deepEqual(parsed.data, jpeg);
  const b64 = parseAttPhotoBody(buildAttPhotoBody(name, 'X', jpeg, true));
  assert.equal(b64?.data.toString('latin1'), jpeg.toString('base64'));
});

test('names: GB2312 for language 83, UTF-8 otherwise', () => {
  const gb = encodeText('张三 A', 83);
  assert.deepEqual([...gb], [0xd5, 0xc5, 0xc8, 0xfd, 0x20, 0x41]);
  assert.equal(decodeText(gb, 83), '张三 A');
  assert.deepEqual([...encodeText('张', 69)], [0xe5, 0xbc, 0xa0]);
  assert.equal(decodeText(encodeText('Zoë', 69), 69), 'Zoë');
});

test('HEALTHLOG line: HEALTH then key=value fields, empty ones left out, TABs and line breaks never inside a value', () => {
  assert.equal(formatHealthLine('1452', '2015-07-30 15:16:28', {}), 'HEALTH PIN=1452\tTime=2015-07-30 15:16:28');
  assert.equal(
    formatHealthLine('1452', '2015-07-30 15:16:28', { color: 'red', temperature: 37, trip: 'a\tb\nc', vaccineCount: 0 }, 'Hall'),
    'HEALTH PIN=1452\tTime=2015-07-30 15:16:28\tTemp=37.0\tColor=red\tPlace=Hall\tTrip=a b c\tVaccine=0',
  );
});
