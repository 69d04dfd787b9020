import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { API_PREFIX, CODES, type BreakerDetail } from '@faceadmin/shared';
import { EmulatedBreaker } from '../../../../../tools/breaker-emulator/breaker.ts';
import { call, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';

/**
 * GET /breaker/live (server-sent events for the console's device-detail page, issue #12): refusals in the envelope
 * before any event, then the breaker at once and again when its figures change, `gone` when it is deleted.
 * Waits are for events to arrive (no timed assertions); the deadline only turns a hang into a failure.
 */

let t: TestApp;
let A: Company;
let B: Company;
let base: string;
const emus: EmulatedBreaker[] = [];

before(async () => {
  t = await makeApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}${API_PREFIX}`;
  A = await makeCompany(t, 'Live Co A');
  B = await makeCompany(t, 'Live Co B');
});
after(async () => {
  for (const e of emus) await e.kill().catch(() => {});
  await t.close();
});

/** An open event stream: events as they arrive, `next(pred)` waits for the first matching one not yet taken. */
async function openStream(token: string, id: number) {
  const ctrl = new AbortController();
  const res = await fetch(`${base}/breaker/live?id=${id}`, { headers: { 'X-Token': token, 'X-Lang': 'en-US' }, signal: ctrl.signal });
  const events: { event: string; data: string }[] = [];
  let ended = false;
  let wake = () => {};
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    void (async () => {
      const decoder = new TextDecoder();
      let buf = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buf += decoder.decode(chunk, { stream: true });
          let cut: number;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data !== undefined) events.push({ event, data });
          }
          wake();
        }
      } catch {
        // aborted
      }
      ended = true;
      wake();
    })();
  }
  let taken = 0;
  return {
    res,
    close: () => ctrl.abort(),
    ended: () => ended,
    async next(what: string, pred: (e: { event: string; data: string }) => boolean) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        while (taken < events.length) {
          const e = events[taken++]!;
          if (pred(e)) return e;
        }
        if (ended) throw new Error(`stream ended before: ${what}`);
        if (Date.now() > deadline) throw new Error(`gave up waiting for: ${what}`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 200);
        });
      }
    },
  };
}

test(`the live stream refuses in the envelope, then follows the breaker until it is deleted (${DIALECT})`, async () => {
  const reg = await call(t.app, 'POST', '/breaker/create', { token: A.main, body: { alias: 'Dorm live', uuid: `LIVE-${DIALECT}`, sort: 1, linenum: 2 } });
  assert.equal(reg.code, CODES.OK, reg.message);
  const id = reg.data.breaker.id as number;

  // Another company's breaker: not found, as an envelope, and no stream.
  const other = await openStream(B.main, id);
  assert.match(other.res.headers.get('content-type') ?? '', /json/);
  assert.equal(((await other.res.json()) as { code: number }).code, CODES.NOT_FOUND);
  // No session; a sub-admin without the breaker or face-device right.
  const none = await fetch(`${base}/breaker/live?id=${id}`);
  assert.equal(((await none.json()) as { code: number }).code, CODES.ILLEGAL_TOKEN);
  const sub = await makeSub(t, A, ['attendance']);
  const refused = await openStream(sub.token, id);
  assert.equal(((await refused.res.json()) as { code: number }).code, CODES.NO_AUTHORITY);
  // The breaker right alone is enough to watch.
  const watcher = await makeSub(t, A, ['breaker']);

  const s = await openStream(A.main, id);
  assert.equal(s.res.status, 200);
  const first = JSON.parse((await s.next('the breaker at once', (e) => e.event === 'detail')).data) as BreakerDetail;
  assert.deepEqual([first.id, first.online, first.lines.length], [id, false, 2]);
  assert.ok(!JSON.stringify(first).includes(reg.data.password), 'the password is never streamed');
  const s2 = await openStream(watcher.token, id);
  await s2.next('the breaker at once (second watcher)', (e) => e.event === 'detail');

  // The breaker calls in: both watchers see it online with live power, without asking again.
  const emu = new EmulatedBreaker({
    url: `mqtt://127.0.0.1:${t.app.mqtt.port}`,
    uuid: `LIVE-${DIALECT}`,
    password: reg.data.password,
    lines: 2,
    reportMs: 150,
    tickMs: 100,
    reconnectMs: 0,
    baseLoadW: [800, 400],
  });
  await emu.start();
  emus.push(emu);
  const live = (e: { event: string; data: string }) => {
    const d = JSON.parse(e.data) as BreakerDetail;
    return e.event === 'detail' && d.online && d.lines[0]!.power > 0;
  };
  await s.next('online with power', live);
  await s2.next('online with power (second watcher)', live);

  // Deleted: `gone`, and the stream ends.
  s2.close();
  assert.equal((await call(t.app, 'POST', '/breaker/delete', { token: A.main, body: { id } })).code, CODES.OK);
  await s.next('gone', (e) => e.event === 'gone');
  await s.next('the end of the stream', () => false).catch((err: Error) => assert.match(err.message, /stream ended/));
});
