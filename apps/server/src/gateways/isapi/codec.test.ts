import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  codeKey,
  encodeOp,
  localTime,
  firmwareRefusal,
  ISAPI_CODES,
  logSearchXml,
  logText,
  parseLogSearch,
  parseUpgradeStatus,
  statusFrom,
  WRONG_FIRMWARE,
  multipart,
  parseDeviceInfo,
  parseDoorState,
  parseMultipart,
  parseStatus,
  parseUserCheck,
  userBody,
  xmlLeaves,
} from './codec.ts';
import { httpHostsXml, parseEventSearch, parseNotification, punchOf } from './events.codec.ts';
import { digestAuthorization, parseChallenges, pickChallenge } from './client.ts';

test('statuses: JSON and XML ResponseStatus, known causes get their own code and message, the rest their status', () => {
  assert.equal(parseStatus('{"statusCode":1,"statusString":"OK","subStatusCode":"ok"}')?.code, 0);
  const taken = parseStatus('{"statusCode":6,"statusString":"Invalid Content","subStatusCode":"employeeNoAlreadyExist"}');
  assert.equal(codeKey(taken!.code), 'device.isapi.employeeNoExists');
  assert.equal(codeKey(parseStatus('{"statusCode":6,"subStatusCode":"userExceedLimit"}')!.code), 'device.isapi.capacity');
  assert.equal(codeKey(parseStatus('{"statusCode":4,"subStatusCode":"somethingNew"}')!.code), 'device.isapi.invalidOperation');
  const xml =
    '<?xml version="1.0"?><ResponseStatus xmlns="x"><statusCode>4</statusCode><statusString>Invalid Operation</statusString><subStatusCode>notSupport</subStatusCode></ResponseStatus>';
  assert.equal(codeKey(parseStatus(xml)!.code), 'device.isapi.notSupport');
  assert.equal(codeKey(12345), 'device.isapi.unknown');
  for (const hostile of ['', '{', '[]', 'null', '{"statusCode":"x"}', '<ResponseStatus><statusCode>', '\u0000'.repeat(100)])
    assert.equal(parseStatus(hostile), undefined);
});

test("the access-control error list's causes get their meaning, whatever the firmware's case; every code has its message", () => {
  const key = (statusCode: number, sub: string) => codeKey(statusFrom(statusCode, sub).code);
  assert.equal(key(6, 'deviceUserFull'), 'device.isapi.capacity');
  assert.equal(key(6, 'userFull'), 'device.isapi.capacity');
  assert.equal(key(6, 'pictureFaceDetectZero'), 'device.isapi.noFace');
  assert.equal(key(6, 'faceDetectZero'), 'device.isapi.noFace');
  assert.equal(codeKey(ISAPI_CODES.noFace), 'device.isapi.noFace');
  assert.equal(ISAPI_CODES.noFace, 614, 'the code the ledger and the console already know');
  assert.equal(key(6, 'FaceImageQualityTooLow'), 'device.isapi.faceQuality');
  assert.equal(key(6, 'faceImageQualityTooLow'), 'device.isapi.faceQuality');
  assert.equal(key(6, 'lowScore'), 'device.isapi.faceQuality');
  assert.equal(key(6, 'faceSizeNotSuitable'), 'device.isapi.faceSize');
  assert.equal(key(6, 'pictureSizeNotSuitable'), 'device.isapi.faceSize');
  assert.equal(key(6, 'deviceUserAlreadyExistFace'), 'device.isapi.faceExists');
  assert.equal(key(6, 'employeeNoAlreadyExist'), 'device.isapi.employeeNoExists');
  assert.equal(key(6, 'cardFull'), 'device.isapi.cardCapacity');
  assert.equal(key(6, 'cardFullPerUser'), 'device.isapi.cardsPerUser');
  assert.equal(key(6, 'userPasswordAlreadyExist'), 'device.isapi.passwordExists');
  assert.equal(key(5, 'dataFormatError'), 'device.isapi.badFormat');
  assert.equal(key(6, 'badJsonContent'), 'device.isapi.badParameters');
  assert.equal(key(4, 'invalidOperation'), 'device.isapi.invalidOperation');
  assert.equal(key(4, 'notSupport'), 'device.isapi.notSupport');
  assert.equal(key(3, 'insufficientMemory'), 'device.isapi.memory');
  assert.equal(key(4, 'userLocked'), 'device.isapi.locked');
  // an unknown cause keeps its status's meaning
  assert.equal(key(6, 'somethingElse'), 'device.isapi.badContent');
  // every code has a message in every language (the i18n test checks the four languages hold the same keys)
  const en = JSON.parse(readFileSync(new URL('../../i18n/locales/en-US.json', import.meta.url), 'utf8')) as { device: { isapi: Record<string, string> } };
  for (const code of Object.values(ISAPI_CODES)) assert.ok(en.device.isapi[codeKey(code).slice('device.isapi.'.length)], codeKey(code));
  assert.match(en.device.isapi.lockedUntil ?? '', /\{until\}/);
});

test('a refused login says whether the account is locked and for how long (userCheck, XML or JSON)', () => {
  const locked =
    '<?xml version="1.0" encoding="UTF-8"?><userCheck version="2.0" xmlns="http://www.isapi.org/ver20/XMLSchema"><statusValue>401</statusValue><statusString>Unauthorized</statusString><lockStatus>lock</lockStatus><unlockTime>1740</unlockTime><retryLoginTime>0</retryLoginTime></userCheck>';
  assert.deepEqual(parseUserCheck(locked), { locked: true, unlockSeconds: 1740 });
  assert.deepEqual(parseUserCheck('<userCheck><lockStatus>unlock</lockStatus><unlockTime>0</unlockTime><retryLoginTime>4</retryLoginTime></userCheck>'), {
    locked: false,
    unlockSeconds: undefined,
  });
  // firmware that says the seconds in retryLoginTime only
  assert.deepEqual(parseUserCheck('{"userCheck":{"statusValue":401,"lockStatus":"lock","retryLoginTime":600}}'), { locked: true, unlockSeconds: 600 });
  assert.deepEqual(parseUserCheck('<userCheck><lockStatus>lock</lockStatus></userCheck>'), { locked: true, unlockSeconds: undefined });
  for (const other of ['', '<userCheck><statusValue>401</statusValue></userCheck>', '{', 'null', '<x><lockStatus>lock</lockStatus></x>'])
    assert.equal(parseUserCheck(other), undefined);
});

test('deviceInfo XML: model, serial and firmware with its build; entities decoded; junk yields nothing', () => {
  const info = parseDeviceInfo(
    '<DeviceInfo version="2.0" xmlns="http://www.isapi.org/ver20/XMLSchema"><deviceName>Gate &amp; Hall</deviceName><model>DS-K1T671M</model><serialNumber>SN1</serialNumber><firmwareVersion>V3.2.0</firmwareVersion><firmwareReleasedDate>build 241120</firmwareReleasedDate></DeviceInfo>',
  );
  assert.deepEqual(info, { deviceName: 'Gate & Hall', model: 'DS-K1T671M', serialNo: 'SN1', firmware: 'V3.2.0 build 241120', macAddress: '' });
  assert.equal(parseDeviceInfo('<html>login</html>'), undefined);
  assert.deepEqual(Object.keys(xmlLeaves('<a><b>1</b><b>2</b></a>')), ['b']);
});

test('operations: a user with its validity and card, a face as multipart, a delete with its progress, the door', () => {
  const user = { kind: 'user', pin: 'E1', name: 'Ann', pri: 0, password: '', card: '99', start: '2026-01-01 08:00:00', end: null } as const;
  assert.deepEqual(userBody(user).UserInfo.Valid, { enable: true, beginTime: '2026-01-01T08:00:00', endTime: '2037-12-31T23:59:59', timeType: 'local' });
  assert.equal('gender' in userBody(user).UserInfo, false, 'a gender not said is left out');
  assert.equal((userBody({ ...user, gender: 'male' }).UserInfo as { gender?: string }).gender, 'male');
  const [rec, dropCards, card] = encodeOp(user)!;
  assert.equal(dropCards!.path, '/ISAPI/AccessControl/CardInfo/Delete?format=json');
  assert.equal(rec!.path, '/ISAPI/AccessControl/UserInfo/Record?format=json');
  assert.equal(rec!.fallback?.path, '/ISAPI/AccessControl/UserInfo/Modify?format=json');
  assert.equal(card!.path, '/ISAPI/AccessControl/CardInfo/Record?format=json');
  const [face] = encodeOp({ kind: 'photo', pin: 'E1', jpegBase64: Buffer.from([0xff, 0xd8, 1, 0xff, 0xd9]).toString('base64') })!;
  const parts = parseMultipart(face!.body!, face!.contentType!);
  assert.deepEqual(JSON.parse(parts[0]!.data.toString()), { faceLibType: 'blackFD', FDID: '1', FPID: 'E1' });
  assert.deepEqual([...parts[1]!.data], [0xff, 0xd8, 1, 0xff, 0xd9]);
  assert.ok(encodeOp({ kind: 'deleteUser', pin: 'E1' })![0]!.progress);
  assert.match(encodeOp({ kind: 'unlock', seconds: 3 })![0]!.body!.toString(), /<cmd>open<\/cmd>/);
  assert.equal(encodeOp({ kind: 'options', values: {} }), undefined);
});

test('events: the live notification and a search page become punches on the terminal wall clock', () => {
  const note = JSON.stringify({
    dateTime: '2026-11-26T08:01:02+08:00',
    eventType: 'AccessControllerEvent',
    AccessControllerEvent: {
      majorEventType: 5,
      subEventType: 75,
      employeeNoString: 'E1',
      serialNo: 42,
      currentVerifyMode: 'face',
      attendanceStatus: 'checkOut',
    },
  });
  const e = parseNotification(note)!;
  assert.equal(e.serialNo, 42);
  assert.deepEqual(punchOf(e), { pin: 'E1', time: '2026-11-26 08:01:02', status: 1, verify: 15, workcode: '', mask: null, temperature: null, alcohol: null });
  assert.equal(punchOf({ ...e, minor: 76 }), undefined, 'a refused face is no punch');
  assert.equal(parseNotification('{"eventType":"heartBeat"}'), undefined);
  const page = parseEventSearch(
    JSON.stringify({
      AcsEvent: {
        responseStatusStrg: 'MORE',
        numOfMatches: 2,
        InfoList: [{ major: 5, minor: 75, time: '2026-11-26T08:00:00+08:00', employeeNoString: '1', serialNo: 1 }, { bad: true }],
      },
    }),
  )!;
  assert.equal(page.more, true);
  assert.equal(page.events.length, 1);
  const body = multipart([{ name: 'event_log', contentType: 'application/json', data: Buffer.from(note) }], 'B');
  assert.equal(parseNotification(parseMultipart(body.body, body.contentType)[0]!.data.toString())!.serialNo, 42);
  assert.deepEqual(parseMultipart(Buffer.from('--B\r\ngarbage'), 'multipart/form-data; boundary=B'), []);
});

test('digest: challenges parsed (SHA-256 preferred), the response matches RFC 7616 §3.9.1', () => {
  const cs = parseChallenges(
    'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS", Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
  );
  assert.equal(cs.length, 2);
  const sha = pickChallenge(cs)!;
  assert.equal(sha.algorithm, 'SHA-256');
  const h = digestAuthorization(sha, 'Mufasa', 'Circle of Life', 'GET', '/dir/index.html', 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ');
  assert.match(h, /response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"/);
  const md5 = cs.find((c) => c.algorithm === 'MD5')!;
  assert.match(
    digestAuthorization(md5, 'Mufasa', 'Circle of Life', 'GET', '/dir/index.html', 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ'),
    /response="8ca523f5e9506fed4657c9700eebdbec"/,
  );
});

test("event times are filed in the device's zone: a terminal clock in another zone keeps each event's true moment", () => {
  assert.equal(localTime('2026-11-26T08:01:02+08:00', 480), '2026-11-26 08:01:02');
  assert.equal(localTime('2026-11-26T08:01:02+08:00', 0), '2026-11-26 00:01:02');
  assert.equal(localTime('2026-11-26T01:00:00+08:00', 0), '2026-11-25 17:00:00', 'across midnight');
  assert.equal(localTime('2026-11-26T08:01:02Z', 540), '2026-11-26 17:01:02');
  assert.equal(localTime('2026-11-26T08:01:02-0500', 0), '2026-11-26 13:01:02');
  assert.equal(localTime('2026-11-26T08:01:02', 0), '2026-11-26 08:01:02', 'no offset: the wall clock stays');
  assert.equal(localTime('2026-11-26T08:01:02+08:00'), '2026-11-26 08:01:02', 'no zone asked: the wall clock stays');
  assert.equal(localTime('2026-11-26T08:01:02+23:00', 0), '2026-11-26 08:01:02', 'an impossible offset is not trusted');
  assert.equal(localTime('yesterday', 0), undefined);
  const note = JSON.stringify({
    dateTime: '2026-11-26T08:01:02+08:00',
    eventType: 'AccessControllerEvent',
    AccessControllerEvent: { majorEventType: 5, subEventType: 75, employeeNoString: 'E1' },
  });
  assert.equal(parseNotification(note, 0)!.time, '2026-11-26 00:01:02');
  const found = parseEventSearch(
    JSON.stringify({ AcsEvent: { InfoList: [{ major: 5, minor: 75, time: '2026-11-26T08:00:00+08:00', employeeNoString: '1' }] } }),
    60,
  );
  assert.equal(found!.events[0]!.time, '2026-11-26 01:00:00');
});

test('door state: the lock or the contact open is an open door; alarms and junk are not a closed door', () => {
  const ws = (w: unknown) => JSON.stringify({ AcsWorkStatus: w });
  assert.equal(parseDoorState(ws({ doorLockStatus: [0], doorStatus: [4], magneticStatus: [0] })), 'close');
  assert.equal(parseDoorState(ws({ doorLockStatus: [1], magneticStatus: [0] })), 'open');
  assert.equal(parseDoorState(ws({ doorLockStatus: [0], magneticStatus: [1] })), 'open', 'held open');
  assert.equal(parseDoorState(ws({ doorLockStatus: [0] })), 'close', 'no contact fitted');
  assert.equal(parseDoorState(ws({ doorLockStatus: [0], magneticStatus: [3] })), undefined, 'a broken circuit is not a closed door');
  assert.equal(parseDoorState(ws({ doorStatus: [4] })), undefined);
  assert.equal(parseDoorState('<html>'), undefined);
  assert.equal(parseDoorState(ws({ doorLockStatus: 'x' })), undefined);
});

test('firmware refusals: the cause read from the sub-status family, each with its meaning; unknown ones keep their status', () => {
  const r = (statusCode: number, sub: string) => firmwareRefusal(statusFrom(statusCode, sub));
  assert.equal(r(6, 'upgradePackageMismatch'), ISAPI_CODES.firmwareMismatch);
  assert.equal(r(6, 'upgradePackageError'), ISAPI_CODES.firmwareMismatch);
  assert.equal(r(6, 'deviceTypeMismatch'), ISAPI_CODES.firmwareMismatch);
  assert.equal(r(6, 'languageMismatch'), ISAPI_CODES.firmwareLanguage);
  assert.equal(r(6, 'upgradeVersionLower'), ISAPI_CODES.firmwareLower);
  assert.equal(r(3, 'upgradeFailed'), ISAPI_CODES.upgradeFailed);
  assert.equal(r(6, 'somethingNew'), ISAPI_CODES.firmwareMismatch, 'invalid content to an upload: the package was not taken');
  assert.equal(r(2, 'deviceBusy'), ISAPI_CODES.busy);
  assert.equal(r(4, 'notSupport'), ISAPI_CODES.notSupport);
  for (const code of [620, 621, 622, 623, 624]) assert.notEqual(codeKey(code), 'device.isapi.unknown', `code ${code} has a meaning`);
  assert.ok(WRONG_FIRMWARE.has(ISAPI_CODES.firmwareMismatch) && WRONG_FIRMWARE.has(ISAPI_CODES.firmwareLanguage));
  assert.ok(!WRONG_FIRMWARE.has(ISAPI_CODES.firmwareLower), 'an older version is its own refusal');
  assert.deepEqual(encodeOp({ kind: 'upgrade', url: 'firmware/1/emfw.cfg', md5: 'x', size: 1 }), [], 'served by the delivery');
  assert.deepEqual(encodeOp({ kind: 'getLog' }), []);
});

test('upgradeStatus: XML or JSON, upgrading and percent; anything else is unreadable', () => {
  assert.deepEqual(parseUpgradeStatus('<?xml version="1.0"?><upgradeStatus xmlns="x"><upgrading>true</upgrading><percent>40</percent></upgradeStatus>'), {
    upgrading: true,
    percent: 40,
  });
  assert.deepEqual(parseUpgradeStatus('<upgradeStatus><upgrading>false</upgrading></upgradeStatus>'), { upgrading: false, percent: undefined });
  assert.deepEqual(parseUpgradeStatus('{"UpgradeStatus":{"upgrading":true,"percent":101}}'), { upgrading: true, percent: undefined });
  for (const hostile of ['', '<upgradeStatus><upgrading>maybe</upgrading></upgradeStatus>', '<html/>', '{"x":1}', '<upgradeStatus>'.repeat(10_000)])
    assert.equal(parseUpgradeStatus(hostile), undefined);
});

test("log search: the request's shape, entries read item by item with their type, a cap on huge answers, junk refused", () => {
  const body = logSearchXml('abc', 100, 50, '2026-11-19T08:00:00+08:00', '2026-11-26T08:00:00+08:00').toString();
  assert.match(body, /<CMSearchDescription[^>]*><searchID>abc<\/searchID><metaId>log\.std-cgi\.com<\/metaId>/);
  assert.match(body, /<startTime>2026-11-19T08:00:00\+08:00<\/startTime><endTime>2026-11-26T08:00:00\+08:00<\/endTime>/);
  assert.match(body, /<maxResults>50<\/maxResults><searchResultPostion>100<\/searchResultPostion>/);
  const item = (meta: string, extra = '') =>
    `<searchMatchItem><logDescriptor><metaId>${meta}</metaId><StartDateTime>2026-11-26T08:00:01+08:00</StartDateTime><userName>admin</userName><ipAddress>10.0.0.2</ipAddress>${extra}</logDescriptor></searchMatchItem>`;
  const answer = `<?xml version="1.0"?><CMSearchResult xmlns="x"><searchID>abc</searchID><responseStatusStrg>MORE</responseStatusStrg><numOfMatches>2</numOfMatches><matchList>${item('log.std-cgi.com/Operation/remoteReboot', '<infoContent>door &amp; hall\nnext</infoContent>')}${item('log.hikvision.com/Exception/illegalAccess')}</matchList></CMSearchResult>`;
  const found = parseLogSearch(answer)!;
  assert.equal(found.more, true);
  assert.deepEqual(found.entries[0], {
    time: '2026-11-26 08:00:01',
    major: 'Operation',
    minor: 'remoteReboot',
    user: 'admin',
    ip: '10.0.0.2',
    details: 'door & hall next',
  });
  assert.equal(found.entries[1]!.major, 'Exception');
  assert.equal(parseLogSearch(answer.replace('MORE', 'OK'))!.more, false);
  const huge = `<CMSearchResult><matchList>${item('log.std-cgi.com/Operation/x').repeat(5000)}</matchList></CMSearchResult>`;
  assert.equal(parseLogSearch(huge, 100)!.entries.length, 100);
  for (const hostile of ['', '<html>login</html>', '{"CMSearchResult":1}', '<CMSearchResult>'.repeat(1000)]) {
    const r = parseLogSearch(hostile);
    assert.ok(r === undefined || r.entries.length === 0);
  }
  const text = logText('SN1: the log', found.entries).toString();
  assert.deepEqual(text.split('\n').slice(2, 4), [
    '2026-11-26 08:00:01 | Operation/remoteReboot | admin | 10.0.0.2 | door & hall next',
    '2026-11-26 08:00:01 | Exception/illegalAccess | admin | 10.0.0.2 |',
  ]);
});

test('host notification: an address as ipaddress (IPv4 or IPv6), a name as hostname, HTTPS when the URL says so', () => {
  const v4 = httpHostsXml({ host: '192.168.1.5', port: 8080, path: '/isapi/event/1/s' }).toString();
  assert.match(v4, /<addressingFormatType>ipaddress<\/addressingFormatType><ipAddress>192\.168\.1\.5<\/ipAddress><portNo>8080<\/portNo>/);
  assert.match(v4, /<protocolType>HTTP<\/protocolType>/);
  assert.match(v4, /<url>\/isapi\/event\/1\/s<\/url>/);
  const v6 = httpHostsXml({ host: 'fd00::5', port: 80, path: '/x' }).toString();
  assert.match(v6, /<ipv6Address>fd00::5<\/ipv6Address>/);
  assert.doesNotMatch(v6, /<ipAddress>/);
  const named = httpHostsXml({ protocol: 'https', host: 'faceadmin.example.lan', port: 443, path: '/fa/isapi/event/1/s' }).toString();
  assert.match(named, /<addressingFormatType>hostname<\/addressingFormatType><hostName>faceadmin\.example\.lan<\/hostName>/);
  assert.match(named, /<protocolType>HTTPS<\/protocolType>/);
  assert.match(named, /<url>\/fa\/isapi\/event\/1\/s<\/url>/);
});
