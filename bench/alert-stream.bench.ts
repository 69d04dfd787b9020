/**
 * The ISAPI alertStream reader (issue #20), one run, printed (never asserted): how fast the multipart reader takes a
 * terminal's stream cut into TCP-sized chunks, and what it holds while a hostile terminal sends junk or parts far
 * over the cap. The reader alone (apps/server/src/gateways/isapi/alert-stream.codec.ts AlertStreamParser): the database, which
 * paces a real stream, is measured by isapi.bench.ts.
 *   node --expose-gc alert-stream.bench.ts
 */
import { randomBytes } from 'node:crypto';
import { AlertStreamParser } from '../apps/server/src/gateways/isapi/alert-stream.codec.ts';
import { readAlertPart } from '../apps/server/src/gateways/isapi/events.codec.ts';
import { fmt } from './lib.ts';

const B = 'MIME_boundary';
const CAP = 2 * 1024 * 1024; // the server's default part cap
const MSS = 1460;
const part = (type: string, body: Buffer) =>
  Buffer.concat([Buffer.from(`--${B}\r\nContent-Type: ${type}\r\nContent-Length: ${body.length}\r\n\r\n`), body, Buffer.from('\r\n')]);
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 1048576;
};

function feed(p: AlertStreamParser, data: Buffer, chunk = MSS) {
  let parts = 0;
  let events = 0;
  let maxHeld = 0;
  for (let at = 0; at < data.length; at += chunk) {
    for (const x of p.push(data.subarray(at, at + chunk))) {
      parts++;
      if (readAlertPart(x).kind === 'event') events++;
    }
    maxHeld = Math.max(maxHeld, p.buffered);
  }
  return { parts, events, maxHeld };
}

// 1. A busy terminal: 5,000 recognitions, each its JSON and a 20 KB capture, a heartbeat every 10 events.
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8]), randomBytes(20 * 1024), Buffer.from([0xff, 0xd9])]);
const pieces: Buffer[] = [];
for (let i = 0; i < 5000; i++) {
  const json = JSON.stringify({
    dateTime: '2026-11-26T08:01:02+08:00',
    eventType: 'AccessControllerEvent',
    AccessControllerEvent: { majorEventType: 5, subEventType: 75, employeeNoString: `E${i}`, serialNo: i, currentVerifyMode: 'face', picturesNumber: 1 },
  });
  pieces.push(part('application/json', Buffer.from(json)), part('image/jpeg', jpeg));
  if (i % 10 === 0) pieces.push(part('application/json', Buffer.from('{"eventType":"heartBeat"}')));
}
const busy = Buffer.concat(pieces);
let t0 = performance.now();
const r1 = feed(new AlertStreamParser(B, CAP), busy);
let ms = performance.now() - t0;
console.log(
  `busy stream: ${fmt(busy.length / 1048576)} MB in ${MSS}-byte chunks, ${r1.parts} parts (${r1.events} events) in ${fmt(ms)} ms: ` +
    `${fmt(busy.length / 1048576 / (ms / 1000))} MB/s, ${fmt(r1.events / (ms / 1000), 0)} events/s; held at most ${fmt(r1.maxHeld / 1024)} KB`,
);

// 2. Hostile: 200 MB of random bytes, then 20 parts of 8 MB (declared), then 20 of 8 MB with no length.
const before = heapMb();
const p = new AlertStreamParser(B, CAP);
let maxHeld = 0;
t0 = performance.now();
const junk = randomBytes(64 * 1024);
for (let i = 0; i < 3200; i++) {
  p.push(junk);
  maxHeld = Math.max(maxHeld, p.buffered);
}
const huge = Buffer.alloc(8 * 1024 * 1024, 0x41);
const declared = part('image/jpeg', huge);
const undeclared = Buffer.concat([Buffer.from(`--${B}\r\nContent-Type: application/json\r\n\r\n`), huge]);
for (let i = 0; i < 20; i++) maxHeld = Math.max(maxHeld, feed(p, declared, 64 * 1024).maxHeld);
for (let i = 0; i < 20; i++) maxHeld = Math.max(maxHeld, feed(p, undeclared, 64 * 1024).maxHeld);
const after = feed(
  p,
  part(
    'application/json',
    Buffer.from(
      JSON.stringify({
        dateTime: '2026-11-26T08:01:02+08:00',
        eventType: 'AccessControllerEvent',
        AccessControllerEvent: { majorEventType: 5, subEventType: 75, employeeNoString: 'E1' },
      }),
    ),
  ),
);
ms = performance.now() - t0;
console.log(
  `hostile stream: 200 MB of junk + 40 parts of 8 MB in ${fmt(ms)} ms; oversized parts skipped ${p.oversized}, ` +
    `held at most ${fmt(maxHeld / 1048576, 2)} MB (cap ${CAP / 1048576} MB), heap ${fmt(before)} → ${fmt(heapMb())} MB; the next event read: ${after.events === 1}`,
);

// 3. The largest parts taken (just under the cap), trickled in TCP-sized chunks, with and without their length.
const big = Buffer.alloc(CAP - 1024, 0x42);
for (const withLength of [true, false]) {
  const data = Buffer.concat(
    Array.from({ length: 10 }, () =>
      withLength
        ? part('application/octet-stream', big)
        : Buffer.concat([Buffer.from(`--${B}\r\nContent-Type: application/octet-stream\r\n\r\n`), big, Buffer.from('\r\n')]),
    ).concat([Buffer.from(`--${B}--\r\n`)]),
  );
  const q = new AlertStreamParser(B, CAP);
  t0 = performance.now();
  const r = feed(q, data);
  ms = performance.now() - t0;
  console.log(
    `10 parts of ${fmt(big.length / 1048576, 2)} MB ${withLength ? 'with' : 'without'} Content-Length in ${MSS}-byte chunks: ${r.parts} read in ${fmt(ms)} ms (${fmt(data.length / 1048576 / (ms / 1000))} MB/s)`,
  );
}
