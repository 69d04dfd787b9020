import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AlertStreamParser, boundaryOf, type StreamPart } from './alert-stream.codec.ts';
import { readAlertPart } from './events.codec.ts';

/** The alertStream reader (alert-stream.codec.ts, and events.codec.ts's readAlertPart): parts cut anywhere, garbage, oversized parts, bounded memory. */

const B = 'MIME_boundary';
const part = (type: string, data: Buffer | string, length = true) => {
  const body = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return Buffer.concat([
    Buffer.from(`--${B}\r\nContent-Type: ${type}\r\n${length ? `Content-Length: ${body.length}\r\n` : ''}\r\n`),
    body,
    Buffer.from('\r\n'),
  ]);
};
const event = (no: string, time = '2026-11-26T08:01:02+08:00', pictures = 1) =>
  JSON.stringify({
    ipAddress: '10.0.0.9',
    dateTime: time,
    eventType: 'AccessControllerEvent',
    AccessControllerEvent: { majorEventType: 5, subEventType: 75, employeeNoString: no, serialNo: 7, currentVerifyMode: 'face', picturesNumber: pictures },
  });
const heartbeat = JSON.stringify({ dateTime: '2026-11-26T08:00:00+08:00', eventType: 'heartBeat', eventState: 'active' });
const jpeg = Buffer.from([0xff, 0xd8, 0x2d, 0x2d, 0x4d, 0x0d, 0x0a, 0xff, 0xd9]); // holds "--M\r\n" inside
const xmlEvent =
  '<?xml version="1.0" encoding="UTF-8"?><EventNotificationAlert version="2.0"><ipAddress>10.0.0.9</ipAddress><dateTime>2026-11-26T08:05:00+08:00</dateTime>' +
  '<eventType>AccessControllerEvent</eventType><AccessControllerEvent><majorEventType>5</majorEventType><subEventType>75</subEventType>' +
  '<employeeNoString>X1</employeeNoString><picturesNumber>0</picturesNumber></AccessControllerEvent></EventNotificationAlert>';

const stream = Buffer.concat([
  part('application/json; charset="UTF-8"', heartbeat),
  part('application/json; charset="UTF-8"', event('E1')),
  part('image/jpeg', jpeg),
  part('application/xml', xmlEvent),
  part('application/json', event('E2', '2026-11-26T08:06:00+08:00', 0), false),
  Buffer.from(`--${B}\r\n`), // the next part's start: not complete yet
]);

const summary = (parts: StreamPart[]) =>
  parts.map((p) => {
    const a = readAlertPart(p);
    return a.kind === 'event' ? `event ${a.event.employeeNo} ${a.event.time} ${a.pictures}` : a.kind === 'picture' ? `picture ${a.jpeg.length}` : 'other';
  });
const expected = ['other', 'event E1 2026-11-26 08:01:02 1', `picture ${jpeg.length}`, 'event X1 2026-11-26 08:05:00 0', 'event E2 2026-11-26 08:06:00 0'];

test('the boundary comes from the answer type; anything but multipart has none', () => {
  assert.equal(boundaryOf('multipart/mixed; boundary=MIME_boundary'), 'MIME_boundary');
  assert.equal(boundaryOf('multipart/mixed;boundary="a b"'), 'a b');
  assert.equal(boundaryOf('application/xml'), undefined);
  assert.equal(boundaryOf('multipart/mixed'), undefined);
});

test('parts read whole, in one chunk, byte by byte, and split at every byte boundary', () => {
  assert.deepEqual(summary(new AlertStreamParser(B, 1024).push(stream)), expected);
  const byByte = new AlertStreamParser(B, 1024);
  const got: StreamPart[] = [];
  for (const b of stream) got.push(...byByte.push(Buffer.from([b])));
  assert.deepEqual(summary(got), expected);
  for (let i = 1; i < stream.length; i++) {
    const p = new AlertStreamParser(B, 1024);
    const parts = [...p.push(stream.subarray(0, i)), ...p.push(stream.subarray(i))];
    assert.deepEqual(summary(parts), expected, `split at ${i}`);
    assert.deepEqual([...parts[2]!.data], [...jpeg], `the picture intact when split at ${i}`);
    assert.equal(p.garbage, 0);
  }
  // three pieces at every pair of cut points near the picture (where a boundary-like byte run sits)
  const start = stream.indexOf(Buffer.from('image/jpeg')) - 20;
  for (let i = start; i < start + 120; i++)
    for (let j = i + 1; j < start + 140; j++) {
      const p = new AlertStreamParser(B, 1024);
      const parts = [...p.push(stream.subarray(0, i)), ...p.push(stream.subarray(i, j)), ...p.push(stream.subarray(j))];
      assert.deepEqual(summary(parts), expected, `cut at ${i} and ${j}`);
    }
});

test('garbage before, between and instead of parts is dropped as it comes; the parts around it still read', () => {
  const noise = Buffer.from('\u0000\u00ffnot a part at all -- MIME_bound ary\r\n\r\n'.repeat(50));
  const p = new AlertStreamParser(B, 1024);
  const parts = [...p.push(noise), ...p.push(stream), ...p.push(noise), ...p.push(part('application/json', event('E3')))];
  assert.deepEqual(summary(parts), [...expected, 'event E3 2026-11-26 08:01:02 1']);
  assert.ok(p.garbage > 0);
  // random bytes for a while: nothing comes out, and what is held stays tiny
  const r = new AlertStreamParser(B, 1024);
  for (let i = 0; i < 200; i++) {
    assert.deepEqual(r.push(Buffer.from(Array.from({ length: 997 }, (_, k) => (k * 31 + i * 7) % 251))), []);
    assert.ok(r.buffered < B.length + 2, `held ${r.buffered} bytes`);
  }
  // JSON that is not an event, broken JSON, an XML alert of another kind: other, never thrown
  for (const junk of ['{', '{"eventType":"AccessControllerEvent"}', '<EventNotificationAlert><eventType>videoloss</eventType></EventNotificationAlert>', ''])
    assert.equal(readAlertPart({ contentType: 'application/json', data: Buffer.from(junk) }).kind, 'other');
  // a head that never ends is garbage, not a growing buffer
  const h = new AlertStreamParser(B, 1024);
  h.push(Buffer.from(`--${B}\r\nX-Padding: ${'a'.repeat(10_000)}`));
  assert.ok(h.buffered <= 4096 + B.length, `held ${h.buffered}`);
  assert.deepEqual(summary(h.push(stream)), expected, 'the parts after it still read');
});

test('a part over the cap is skipped without being held, with or without its length, and the next part reads', () => {
  const cap = 64 * 1024;
  const huge = Buffer.alloc(1024 * 1024, 0x41);
  const p = new AlertStreamParser(B, cap);
  const declared = part('image/jpeg', huge);
  let parts: StreamPart[] = [];
  for (let at = 0; at < declared.length; at += 10_000) {
    parts.push(...p.push(declared.subarray(at, at + 10_000)));
    assert.ok(p.buffered <= 10_000 + 200, `held ${p.buffered} bytes while skipping a declared 1 MB part`);
  }
  parts.push(...p.push(part('application/json', event('E4'))));
  assert.deepEqual(summary(parts), ['event E4 2026-11-26 08:01:02 1']);
  assert.equal(p.oversized, 1);

  const q = new AlertStreamParser(B, cap);
  const undeclared = part('application/json', huge, false);
  parts = [];
  for (let at = 0; at < undeclared.length; at += 10_000) {
    parts.push(...q.push(undeclared.subarray(at, at + 10_000)));
    assert.ok(q.buffered <= cap + 10_000, `held ${q.buffered} bytes of a part with no length`);
  }
  parts.push(...q.push(part('application/json', event('E5'))));
  assert.deepEqual(summary(parts), ['event E5 2026-11-26 08:01:02 1']);
  assert.equal(q.oversized, 1);
});
