import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CODES, type BreakerDetail, type BreakerAlarm, type Timer, type MessageItem } from '@faceadmin/shared';
import { EmulatedBreaker } from '../../../../../tools/breaker-emulator/breaker.ts';
import { call, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { findMosquitto, startMosquitto, type Mosquitto } from '../../../test/mosquitto.ts';

/**
 * Breakers end to end (issue #12): the server with its broker — embedded aedes, then a real Mosquitto with the
 * ACL and password files the server writes — and emulated breakers speaking docs/breaker-protocol.md.
 * Waits poll the API until the breaker's report has landed (no timed assertions).
 */

const mosquittoBin = findMosquitto();
if (!mosquittoBin && process.env.CI === 'true') {
  test('Mosquitto is installed (CI runs the breaker suite on it)', () => assert.fail('mosquitto not found: npm test installs it as root'));
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined | null | false> | T | undefined | null | false): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`gave up waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

for (const broker of ['embedded', 'mosquitto'] as const) {
  const skip = broker === 'mosquitto' && !mosquittoBin ? 'mosquitto is not installed here (apt-get install mosquitto); CI runs this part' : false;
  describe(`breakers over the ${broker} broker (${DIALECT})`, { skip }, () => {
    let t: TestApp;
    let A: Company;
    let B: Company;
    let mosq: Mosquitto | undefined;
    let url: string;
    const emus: EmulatedBreaker[] = [];
    let shift = 0;

    before(async () => {
      if (broker === 'mosquitto') mosq = await startMosquitto(mosquittoBin!);
      t = await makeApp({ BREAKER_SELF_CHECK_SECONDS: '1', BREAKER_COMMAND_TIMEOUT_MS: '3000', ...(mosq?.env ?? {}) });
      url = mosq ? mosq.url : `mqtt://127.0.0.1:${t.app.mqtt.port}`;
      A = await makeCompany(t, `Breaker Co A ${broker}`);
      B = await makeCompany(t, `Breaker Co B ${broker}`);
    });
    after(async () => {
      for (const e of emus) await e.kill().catch(() => {});
      await t.close();
      await mosq?.stop();
    });

    /** Starts an emulator; on Mosquitto the password file may still be reloading, so a refusal is retried a few times. */
    async function emulator(uuid: string, password: string, o: { lines?: number; retries?: number; clientId?: string } = {}) {
      for (let attempt = 0; ; attempt++) {
        const e = new EmulatedBreaker({
          url,
          uuid,
          password,
          lines: o.lines ?? 2,
          reportMs: 150,
          tickMs: 100,
          reconnectMs: 0,
          now: () => Date.now() + shift,
          baseLoadW: [800, 400],
          ...(o.clientId ? { clientId: o.clientId } : {}),
        });
        try {
          await e.start();
          emus.push(e);
          return e;
        } catch (err) {
          if (attempt >= (o.retries ?? (broker === 'mosquitto' ? 20 : 0))) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }
    const register = async (c: Company, uuid: string, linenum = 2) => {
      const r = await call(t.app, 'POST', '/breaker/create', { token: c.main, body: { alias: `Dorm ${uuid}`, uuid, sort: 1, linenum } });
      assert.equal(r.code, CODES.OK, r.message);
      return r.data as { breaker: { id: number }; password: string; broker: { host: string | null; port: number; tls: boolean } };
    };
    const info = async (c: Company, id: number) => {
      const r = await call<BreakerDetail>(t.app, 'GET', '/breaker/info', { token: c.main, query: { id } });
      assert.equal(r.code, CODES.OK, r.message);
      return r.data;
    };
    const uid = (s: string) => `${s}-${broker.slice(0, 3)}-${DIALECT.slice(0, 2)}`;

    let first: { id: number; uuid: string; password: string; emu: EmulatedBreaker };

    test('register a uuid, start the breaker: it is online with live power; the password is shown once', async () => {
      const uuid = uid('BRK-A1');
      const reg = await register(A, uuid);
      assert.match(reg.password, /^\S{16,}$/);
      // Where the technician points the breaker: the broker the emulator dials (the embedded one on the console's host).
      const dialled = new URL(url);
      assert.deepEqual(reg.broker, { host: mosq ? dialled.hostname : null, port: Number(dialled.port), tls: false });
      const emu = await emulator(uuid, reg.password);
      first = { id: reg.breaker.id, uuid, password: reg.password, emu };
      const d = await waitFor('online with power', async () => {
        const d = await info(A, reg.breaker.id);
        return d.online && d.lines[0]!.power > 0 && d.lines[0]!.voltage > 0 ? d : null;
      });
      assert.equal(d.lines.length, 2);
      assert.equal(d.lines[0]!.oc, 1);
      assert.ok(!JSON.stringify(d).includes(reg.password), 'the password is never answered again');
      const list = await call(t.app, 'GET', '/breaker/list', { token: A.main });
      assert.equal(list.data.total, 1);
      assert.ok(list.data.items[0].power > 0);
      assert.ok(!JSON.stringify(list.data).includes('hash'));
      // The limits the server holds were written to the breaker on connect.
      await waitFor('limits synced', async () => (await info(A, reg.breaker.id)).lines.every((l) => l.limits_synced));
      assert.equal(emu.lines[0]!.currentLimit, 32);
    });

    test('switch a line off and on: the breaker confirms each', async () => {
      const line = (await info(A, first.id)).lines[0]!;
      const off = await call(t.app, 'POST', '/breaker/line/switch', { token: A.main, body: { id: line.id, oc: 0 } });
      assert.equal(off.code, CODES.OK, off.message);
      assert.deepEqual({ outcome: off.data.outcome, oc: off.data.oc }, { outcome: 'success', oc: 0 });
      assert.equal(first.emu.lines[0]!.on, false);
      assert.equal((await info(A, first.id)).lines[0]!.oc, 0);
      const on = await call(t.app, 'POST', '/breaker/line/switch', { token: A.main, body: { id: line.id, oc: 1 }, lang: 'zh-CN' });
      assert.equal(on.data.outcome, 'success');
      assert.equal(on.data.message, '空开已确认：线路已合闸');
      assert.equal(first.emu.lines[0]!.on, true);
    });

    test('self-check: the line drops, then closes again by itself and the check passes', async () => {
      const line = (await info(A, first.id)).lines[1]!;
      const dropped: boolean[] = [];
      first.emu.on('event', (e) => {
        if (e.type === 'switched' && e.index === 1) dropped.push(e.on);
      });
      const r = await call(t.app, 'POST', '/breaker/line/selfcheck', { token: A.main, body: { id: line.id } });
      assert.equal(r.code, CODES.OK, r.message);
      assert.equal(r.data.outcome, 'success');
      assert.equal(r.data.oc, 0);
      assert.equal((await info(A, first.id)).lines[1]!.selfcheck, 'running');
      const back = await waitFor('self-check passed', async () => {
        const l = (await info(A, first.id)).lines[1]!;
        return l.selfcheck === 'passed' && l.oc === 1 ? l : null;
      });
      assert.ok(back.selfcheck_at);
      assert.deepEqual(dropped, [false, true], 'off, then back on');
    });

    let timer: Timer;
    test('a cyclic timer is kept on the breaker and the breaker executes it', async () => {
      const line = (await info(A, first.id)).lines[1]!;
      // Two minutes from now in the company's zone (Asia/Shanghai), every day of the week.
      const at = Date.now() + 2 * 60_000;
      const local = new Date(at + 8 * 3600_000);
      const time = `${String(local.getUTCHours()).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
      const r = await call<Timer>(t.app, 'POST', '/breaker/timer/create', {
        token: A.main,
        body: { breaker_id: first.id, type: 'cyclic', line_ids: [line.id], time, weekdays: [0, 1, 2, 3, 4, 5, 6], action: 'off' },
      });
      assert.equal(r.code, CODES.OK, r.message);
      timer = r.data;
      assert.equal(timer.sync, 'synced');
      // the operation log says what the timer does in the reader's language (it kept the stored "off" in Chinese)
      for (const [lang, words] of [
        ['zh-CN', '分闸'],
        ['en-US', 'switch off'],
      ] as const) {
        const logs = await call(t.app, 'GET', '/log/list', { token: A.main, lang, query: { module: 'breaker' } });
        const entry = logs.data.items.find((l: { action: string }) => l.action === 'breaker.timerCreate');
        assert.ok(entry?.description.includes(words) && !entry.description.includes(`${time} off`), entry?.description);
      }
      assert.deepEqual(timer.line_titles, ['L2']);
      assert.equal(first.emu.jobs.size, 1);
      const job = [...first.emu.jobs.values()][0]!;
      assert.match(job.timespec, new RegExp(`^0 ${Number(time.slice(3))} ${Number(time.slice(0, 2))} \\* \\* 0,1,2,3,4,5,6$`));
      // The breaker's clock reaches the timer's minute: it switches the line off by itself.
      shift = Math.floor(at / 60_000) * 60_000 + 1000 - Date.now();
      first.emu.tick();
      assert.equal(first.emu.lines[1]!.on, false);
      await waitFor('the server sees the line off', async () => (await info(A, first.id)).lines[1]!.oc === 0);
      shift = 0;
    });

    test('a timer deleted on the breaker is restored after it reconnects', async () => {
      first.emu.jobs.clear();
      await first.emu.stop();
      await waitFor('offline', async () => !(await info(A, first.id)).online);
      const emu = await emulator(first.uuid, first.password);
      first.emu = emu;
      await waitFor('timer restored on the breaker', () => emu.jobs.size === 1);
      const job = [...emu.jobs.values()][0]!;
      assert.equal(job.calls[0]!.params.on, false);
      const timers = await call<Timer[]>(t.app, 'GET', '/breaker/timer/list', { token: A.main, query: { breaker_id: first.id } });
      assert.equal(timers.data[0]!.sync, 'synced');
      // The offline spell left an alarm, cleared on return.
      const alarms = await call(t.app, 'GET', '/breaker/alarm/list', { token: A.main, query: { breaker_id: first.id, type: 'offline' } });
      assert.ok(alarms.data.items.length >= 1);
      await waitFor('offline alarm cleared', async () => {
        const a = await call(t.app, 'GET', '/breaker/alarm/list', { token: A.main, query: { breaker_id: first.id, type: 'offline', active: 1 } });
        return a.data.total === 0;
      });
    });

    test('overcurrent trips the line: an alarm and a message that names the line', async () => {
      const lines = (await info(A, first.id)).lines;
      await call(t.app, 'POST', '/breaker/line/update', { token: A.main, body: { id: lines[0]!.id, title: 'Room 101 sockets', mxgg: 6000, mxgl: 1600 } });
      assert.equal(first.emu.lines[0]!.currentLimit, 16);
      first.emu.fault(0, 'overcurrent');
      const alarm = await waitFor('overcurrent alarm', async () => {
        const r = await call<{ items: BreakerAlarm[] }>(t.app, 'GET', '/breaker/alarm/list', {
          token: A.main,
          query: { breaker_id: first.id, type: 'overcurrent' },
        });
        return r.data.items[0];
      });
      assert.equal(alarm.line_title, 'Room 101 sockets');
      assert.ok(alarm.value! > 16);
      assert.equal(alarm.cleared_at, null);
      const l = (await info(A, first.id)).lines[0]!;
      assert.equal(l.alarm, 'overcurrent');
      assert.equal(l.oc, 0);
      const msgs = await call<{ items: MessageItem[] }>(t.app, 'GET', '/message/list', { token: A.main, lang: 'en-US' });
      const m = msgs.data.items.find((x) => x.type === 'breakerAlarm');
      assert.ok(m, 'a bell message');
      assert.match(m.title, /overcurrent on Room 101 sockets/);
      // Switching the line on again resets the protection: the alarm clears.
      const on = await call(t.app, 'POST', '/breaker/line/switch', { token: A.main, body: { id: l.id, oc: 1 } });
      assert.equal(on.data.outcome, 'success');
      await waitFor('alarm cleared', async () => (await info(A, first.id)).lines[0]!.alarm === null);
    });

    test('hostile clients: wrong password, another breaker’s credentials and unknown uuids are refused', async () => {
      const other = await register(A, uid('BRK-A2'));
      await assert.rejects(emulator(first.uuid, 'wrong-password', { retries: 0 }));
      // The second breaker's uuid with the first one's password.
      await assert.rejects(emulator(uid('BRK-A2'), first.password, { retries: 0 }));
      await assert.rejects(emulator(uid('NOT-REGISTERED'), first.password, { retries: 0 }));
      const e2 = await emulator(uid('BRK-A2'), other.password);
      await waitFor('second breaker online', async () => (await info(A, other.breaker.id)).online);
      await e2.stop();
    });

    test('a breaker with its own credentials and another breaker’s uuid as client id cannot take that one’s session', async () => {
      const a = await register(A, uid('BRK-TA'));
      const aEmu = await emulator(uid('BRK-TA'), a.password);
      await waitFor('A online', async () => (await info(A, a.breaker.id)).online);
      const b = await register(A, uid('BRK-TB'));
      const refusedBefore = t.app.mqtt.stats.refused.connect;
      if (broker === 'embedded') {
        // Refused at CONNECT (identifier rejected), before its password is even checked.
        await assert.rejects(emulator(uid('BRK-TB'), b.password, { retries: 0, clientId: uid('BRK-TA') }), /identifier rejected/i);
        assert.equal(t.app.mqtt.stats.refused.connect, refusedBefore + 1);
      } else {
        // Mosquitto (use_username_as_clientid): the session is B's own whatever client id B sends.
        const bEmu = await emulator(uid('BRK-TB'), b.password, { clientId: uid('BRK-TA') });
        await waitFor('B online as itself', async () => (await info(A, b.breaker.id)).online);
        await bEmu.stop();
      }
      // A's session was never closed: still connected, and a switch still reaches it.
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(aEmu.connected, true, 'A stays connected');
      assert.equal((await info(A, a.breaker.id)).online, true);
      const line = (await info(A, a.breaker.id)).lines[0]!;
      const sw = await call(t.app, 'POST', '/breaker/line/switch', { token: A.main, body: { id: line.id, oc: 0 } });
      assert.equal(sw.data.outcome, 'success', sw.message);
      assert.equal(aEmu.lines[0]!.on, false);
      await aEmu.stop();
    });

    test('a breaker registered with the old scrypt hash signs in once with it, then holds the fast HMAC form', async () => {
      const reg = await register(A, uid('BRK-OLD'));
      const old = await hashPassword(reg.password, 10);
      const db = t.app.database.db;
      await db.updateTable('breakers').set({ password_hash: old }).where('id', '=', reg.breaker.id).execute();
      const stored = async () =>
        (await db.selectFrom('breakers').select('password_hash').where('id', '=', reg.breaker.id).executeTakeFirstOrThrow()).password_hash;
      if (broker === 'embedded') {
        await assert.rejects(emulator(uid('BRK-OLD'), 'not-its-password', { retries: 0 }));
        assert.equal(await stored(), old, 'a wrong password upgrades nothing');
        const e = await emulator(uid('BRK-OLD'), reg.password);
        await waitFor('online', async () => (await info(A, reg.breaker.id)).online);
        assert.match(await stored(), /^hmac-sha256\$/);
        await e.stop();
        await waitFor('offline', async () => !(await info(A, reg.breaker.id)).online);
        const again = await emulator(uid('BRK-OLD'), reg.password);
        await waitFor('online again', async () => (await info(A, reg.breaker.id)).online);
        await again.stop();
      } else {
        // Mosquitto checks its own $7$ hash (broker_hash), untouched by the server's form.
        const e = await emulator(uid('BRK-OLD'), reg.password);
        await waitFor('online', async () => (await info(A, reg.breaker.id)).online);
        await e.stop();
      }
    });

    test('a breaker cannot publish or subscribe outside its prefix; malformed JSON and floods are dropped while others keep working', async () => {
      const victim = await register(A, uid('BRK-V'));
      const vEmu = await emulator(uid('BRK-V'), victim.password);
      await waitFor('victim online', async () => (await info(A, victim.breaker.id)).online);
      const attacker = await register(A, uid('BRK-X'));
      const xEmu = await emulator(uid('BRK-X'), attacker.password);
      // Subscribing to the victim's requests is refused (SUBACK failure or nothing delivered).
      const granted = await xEmu.rawSubscribe(`fa/${uid('BRK-V')}/rpc`);
      const seen: string[] = [];
      xEmu.mqtt!.on('message', (topic) => seen.push(topic));
      if (broker === 'embedded') assert.deepEqual(granted, [128]);
      // Garbage and a flood on its own prefix.
      const stats = t.app.mqtt.stats;
      const invalidBefore = stats.dropped.invalid;
      for (let i = 0; i < 5; i++) await xEmu.raw(`fa/${uid('BRK-X')}/events/rpc`, '{"method": "NotifyEvent", ');
      for (let i = 0; i < 300; i++) void xEmu.raw(`fa/${uid('BRK-X')}/events/rpc`, 'not json at all');
      // A forged overcurrent for the victim's line, published under the victim's prefix.
      const forged = JSON.stringify({ src: 'x', method: 'NotifyEvent', params: { events: [{ id: 0, event: 'overcurrent', value: 99 }] } });
      await xEmu.raw(`fa/${uid('BRK-V')}/events/rpc`, forged).catch(() => {});
      // The victim keeps working: a switch is confirmed, and its own trip arrives.
      const vLine = (await info(A, victim.breaker.id)).lines[1]!;
      const sw = await call(t.app, 'POST', '/breaker/line/switch', { token: A.main, body: { id: vLine.id, oc: 0 } });
      assert.equal(sw.data.outcome, 'success');
      vEmu.fault(0, 'leakage');
      await waitFor('victim leakage alarm', async () => {
        const r = await call(t.app, 'GET', '/breaker/alarm/list', { token: A.main, query: { breaker_id: victim.breaker.id, type: 'leakage' } });
        return r.data.total === 1;
      });
      const forgedAlarms = await call(t.app, 'GET', '/breaker/alarm/list', { token: A.main, query: { breaker_id: victim.breaker.id, type: 'overcurrent' } });
      assert.equal(forgedAlarms.data.total, 0, 'the forged alarm never landed');
      assert.ok(!seen.some((s) => s.includes(uid('BRK-V'))), 'the attacker never saw the victim’s requests');
      assert.ok(stats.dropped.invalid + stats.dropped.flood > invalidBefore, 'garbage counted and dropped');
      if (broker === 'embedded') {
        assert.ok(stats.refused.publish >= 1);
        await waitFor('the attacker was disconnected', () => !xEmu.connected);
      }
    });

    test('a new password drops the breaker’s session; the old one is refused, the new one works', async () => {
      const reg = await register(A, uid('BRK-PW'));
      const emu = await emulator(uid('BRK-PW'), reg.password);
      await waitFor('online', async () => (await info(A, reg.breaker.id)).online);
      const r = await call(t.app, 'POST', '/breaker/password', { token: A.main, body: { id: reg.breaker.id, password: 'a-new-password-1' } });
      assert.equal(r.code, CODES.OK, r.message);
      assert.equal(r.data.password, 'a-new-password-1');
      assert.equal(r.data.broker.port, Number(new URL(url).port));
      await waitFor('the old session was dropped', () => !emu.connected);
      await assert.rejects(emulator(uid('BRK-PW'), reg.password, { retries: 0 }));
      const again = await emulator(uid('BRK-PW'), 'a-new-password-1');
      await waitFor('online again', async () => (await info(A, reg.breaker.id)).online);
      await again.stop();
      const logs = await call(t.app, 'GET', '/log/list', { token: A.main, query: { module: 'breaker' } });
      assert.ok(!JSON.stringify(logs.data).includes('a-new-password-1'), 'the password is not logged');
    });

    test('company B never sees A’s breaker; a uuid is registered to one company only', async () => {
      const lineId = (await info(A, first.id)).lines[0]!.id;
      for (const [method, path, args] of [
        ['GET', '/breaker/info', { query: { id: first.id } }],
        ['GET', '/breaker/line/info', { query: { id: lineId } }],
        ['POST', '/breaker/line/switch', { body: { id: lineId, oc: 0 } }],
        ['POST', '/breaker/delete', { body: { id: first.id } }],
        ['GET', '/breaker/power', { query: { id: first.id, range: 'day' } }],
      ] as const) {
        const r = await call(t.app, method, path, { token: B.main, ...args });
        assert.equal(r.code, CODES.NOT_FOUND, `${path}: ${r.message}`);
      }
      assert.equal((await call(t.app, 'GET', '/breaker/list', { token: B.main })).data.total, 0);
      const dup = await call(t.app, 'POST', '/breaker/create', { token: B.main, body: { uuid: first.uuid, sort: 1 } });
      assert.equal(dup.code, CODES.CONFLICT);
      assert.equal(first.emu.lines[0]!.on, true, 'nothing reached the breaker');
    });

    test('rights: reads need the breaker right or face view, writes face edit', async () => {
      const none = await makeSub(t, A, ['logView']);
      assert.equal((await call(t.app, 'GET', '/breaker/list', { token: none.token })).code, CODES.NO_AUTHORITY);
      const reader = await makeSub(t, A, ['breaker']);
      assert.equal((await call(t.app, 'GET', '/breaker/list', { token: reader.token })).code, CODES.OK);
      const lineId = (await info(A, first.id)).lines[0]!.id;
      assert.equal((await call(t.app, 'POST', '/breaker/line/switch', { token: reader.token, body: { id: lineId, oc: 0 } })).code, CODES.NO_AUTHORITY);
      const faceView = await makeSub(t, A, ['faceView']);
      assert.equal((await call(t.app, 'GET', '/breaker/info', { token: faceView.token, query: { id: first.id } })).code, CODES.OK);
      const editor = await makeSub(t, A, ['faceEdit']);
      const r = await call(t.app, 'POST', '/breaker/line/switch', { token: editor.token, body: { id: lineId, oc: 1 } });
      assert.equal(r.code, CODES.OK, r.message);
    });

    test('§5 validation, the timer limit, and switching refused while offline', async () => {
      const bad = await call(t.app, 'POST', '/breaker/create', { token: A.main, body: { uuid: 'a/b#', sort: 1 } });
      assert.equal(bad.code, CODES.VALIDATION);
      const noSort = await call(t.app, 'POST', '/breaker/create', { token: A.main, body: { uuid: 'GOOD-UUID' } });
      assert.equal(noSort.code, CODES.VALIDATION);
      const lines = (await info(A, first.id)).lines;
      const noDays = await call(t.app, 'POST', '/breaker/timer/create', {
        token: A.main,
        body: { breaker_id: first.id, type: 'cyclic', line_ids: [lines[0]!.id], time: '07:00', action: 'on' },
      });
      assert.equal(noDays.code, CODES.RULE);
      for (let i = 1; i < 20; i++) {
        const r = await call(t.app, 'POST', '/breaker/timer/create', {
          token: A.main,
          body: { breaker_id: first.id, type: 'single', line_ids: [lines[0]!.id], day: '2099-01-01', time: `0${i % 10}:1${i % 6}`.slice(-5), action: 'on' },
        });
        assert.equal(r.code, CODES.OK, r.message);
      }
      assert.equal(first.emu.jobs.size, 20);
      const over = await call(t.app, 'POST', '/breaker/timer/create', {
        token: A.main,
        lang: 'en-US',
        body: { breaker_id: first.id, type: 'single', line_ids: [lines[0]!.id], day: '2099-01-02', time: '08:00', action: 'on' },
      });
      assert.equal(over.code, CODES.RULE);
      assert.match(over.message, /at most 20 timers/);
      await first.emu.stop();
      await waitFor('offline', async () => !(await info(A, first.id)).online);
      const r = await call(t.app, 'POST', '/breaker/line/switch', { token: A.main, lang: 'en-US', body: { id: lines[0]!.id, oc: 0 } });
      assert.equal(r.code, CODES.RULE);
      assert.match(r.message, /is offline/);
    });
  });
}
