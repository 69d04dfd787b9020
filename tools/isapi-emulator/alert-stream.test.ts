import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { AlertStreamParser, boundaryOf } from '../../apps/server/src/gateways/isapi/alert-stream.codec.ts';
import { readAlertPart } from '../../apps/server/src/gateways/isapi/events.codec.ts';
import { isapiClient, IsapiTransportError, type IsapiTarget } from '../../apps/server/src/gateways/isapi/client.ts';
import { createIsapiTerminal, type IsapiTerminal } from './terminal.ts';

/** The emulator's alertStream, read through the server's streaming digest client. */
const started: IsapiTerminal[] = [];
const client = isapiClient({ timeoutMs: 3000 });
after(async () => {
  client.close();
  await Promise.all(started.map((t) => t.stop()));
});
const target = (t: IsapiTerminal): IsapiTarget => ({ id: t.port, host: '127.0.0.1', port: t.port, user: 'admin', password: t.options.password });
/** Resolves once the terminal has no stream open (the client's close reached it); the bound only catches a stream never closed. */
async function streamsClosed(t: IsapiTerminal) {
  const end = Date.now() + 30_000;
  while (t.streams > 0) {
    if (Date.now() > end) throw new Error('the terminal still holds the stream');
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('the alertStream: digest, heartbeats, each recognition as its JSON and its picture, and an idle limit', async () => {
  const t = await createIsapiTerminal({ serial: 'EMU-STREAM', streamHeartbeatMs: 100 });
  started.push(t);
  t.users.set('A1', { employeeNo: 'A1', name: 'Ann', userType: 'normal', valid: { enable: false, beginTime: '', endTime: '' }, password: '' });
  t.faces.set('A1', Buffer.from([0xff, 0xd8, 0x05, 0xff, 0xd9]));
  const s = await client.stream(target(t), { method: 'GET', path: '/ISAPI/Event/notification/alertStream' }, 500);
  assert.equal(s.status, 200);
  const boundary = boundaryOf(s.contentType);
  assert.equal(boundary, 'MIME_boundary');
  assert.equal(t.streams, 1);
  const parser = new AlertStreamParser(boundary, 1024 * 1024);
  const seen: string[] = [];
  let recognized = false;
  let err: unknown;
  try {
    for await (const chunk of s.chunks) {
      for (const p of parser.push(chunk)) {
        const a = readAlertPart(p);
        seen.push(a.kind === 'event' ? `event ${a.event.employeeNo} ${a.pictures}` : a.kind);
      }
      if (!recognized && seen.length >= 2) {
        recognized = true;
        await t.recognize('A1');
      }
      // once the picture is in, the terminal falls silent: the client gives up after 500 ms without a byte
      if (seen.includes('picture') && !seen.includes('silence')) {
        seen.push('silence');
        t.streamFault('silent');
      }
    }
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof IsapiTransportError && /no bytes for 500 ms/.test(err.message), String(err));
  assert.deepEqual(seen.slice(0, 2), ['other', 'other'], 'heartbeats first');
  assert.ok(seen.includes('event A1 1'));
  assert.equal(seen[seen.indexOf('event A1 1') + 1], 'picture', 'the picture right after its event');
  await streamsClosed(t); // the silent stream was closed by the client

  // a wrong password is refused as for any request; a refused stream answers its status
  await assert.rejects(
    client.stream({ ...target(t), id: 999, password: 'wrong' }, { method: 'GET', path: '/ISAPI/Event/notification/alertStream' }, 500),
    (e: unknown) => e instanceof IsapiTransportError && e.code === 900,
  );
  t.inject({ path: '/ISAPI/Event/notification/alertStream', status: { http: 404, statusCode: 4, subStatusCode: 'notSupport' } });
  const refused = await client.stream(target(t), { method: 'GET', path: '/ISAPI/Event/notification/alertStream' }, 500);
  assert.equal(refused.status, 404);
  assert.match(refused.text, /notSupport/);
});

test('closing the client ends an open stream at once', async () => {
  const t = await createIsapiTerminal({ serial: 'EMU-STREAM2', streamHeartbeatMs: 100 });
  started.push(t);
  const own = isapiClient({ timeoutMs: 3000 });
  const s = await own.stream(target(t), { method: 'GET', path: '/ISAPI/Event/notification/alertStream' }, 60_000);
  // The terminal's heartbeats (every 100 ms) are the clock: close() ends the reading before the next ones come, not
  // at the idle limit (60 s) nor when the terminal hangs up (never).
  let read = 0;
  let afterClose = -1;
  let flowing!: () => void;
  const twoRead = new Promise<void>((resolve) => (flowing = resolve));
  const reading = (async () => {
    for await (const _ of s.chunks) {
      if (++read === 2) flowing();
      if (afterClose >= 0 && ++afterClose >= 5) return 'still open';
    }
    return 'ended';
  })();
  await Promise.race([twoRead, reading]);
  assert.ok(read >= 2, 'heartbeats were read');
  afterClose = 0;
  own.close();
  assert.equal(await reading, 'ended');
  assert.ok(afterClose <= 1, `${afterClose} chunks read after close() (at most one already on its way)`);
  await streamsClosed(t);
});
