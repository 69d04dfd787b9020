/**
 * The live stream (issue #16): a punch received by the terminal gateway → its event in open consoles, with 1 and
 * with 500 consoles open on the company, and the server memory 500 open streams cost. Targets: p99 < 1 s at 500,
 * under 100 MB for the streams. The baseline, in the same run: the same upload's round trip with no console open
 * (the gateway answers OK after the commit, so an event cannot come sooner than that).
 *
 * The server runs in this process; the consoles run in a child process (so their memory is not the server's),
 * which reports when each punch's event reached its first and its last console.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { API_PREFIX } from '../apps/server/src/lib/api.ts';
import { newPersonRow } from '../apps/server/src/modules/persons/persons.repository.ts';
import { benchServer, fmt, percentile } from './lib.ts';

const PUNCHES = Number(process.env.BENCH_PUNCHES ?? 200);
const STREAMS = [1, Number(process.env.BENCH_STREAMS ?? 500)];
const now = () => performance.timeOrigin + performance.now();

type FromChild = { ready: number } | { pin: string; first: number; last: number };

/** The child: opens `n` streams and reports each punch's event arrival (first and last console). */
async function consoles(url: string, token: string, n: number) {
  const seen = new Map<string, { count: number; first: number }>();
  const report = (pin: string) => {
    const t = now();
    const s = seen.get(pin) ?? { count: 0, first: t };
    s.count++;
    seen.set(pin, s);
    if (s.count === n) {
      process.send!({ pin, first: s.first, last: t } satisfies FromChild);
      seen.delete(pin);
    }
  };
  let open = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      const res = await fetch(`${url}${API_PREFIX}/events?topics=punch`, { headers: { 'X-Token': token } });
      open++;
      if (open === n) process.send!({ ready: n } satisfies FromChild);
      const decoder = new TextDecoder();
      let buf = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          const pin = /"number":"(B\d+)"/.exec(block)?.[1];
          if (pin && block.includes('event: punch')) report(pin);
        }
      }
    }),
  );
}

if (process.argv[2] === 'consoles') {
  await consoles(process.argv[3]!, process.argv[4]!, Number(process.argv[5]));
} else {
  const s = await benchServer({ device: 'LIVEBENCH' });
  const hub = s.app.modules.live.hub;
  const dept = (await s.api('/org/create', { name: 'Bench' })).json().data.id as number;
  // Known people, so each event carries a name and a department (the full enrichment path).
  const people = Array.from({ length: PUNCHES * (STREAMS.length + 1) }, (_, i) => `B${100000 + i}`);
  await s.app.database.db
    .insertInto('persons')
    .values(
      people.map((number) => ({
        company_id: s.companyId,
        ...newPersonRow({ number, name: `Person ${number}`, phone: '', created_at: new Date().toISOString() }),
      })),
    )
    .execute();
  const ids = await s.app.database.db.selectFrom('persons').select('id').where('company_id', '=', s.companyId).execute();
  await s.app.database.db
    .insertInto('person_departments')
    .values(ids.map((p) => ({ company_id: s.companyId, person_id: p.id, department_id: dept })))
    .execute();

  const { tz_offset: tz } = await s.app.database.db.selectFrom('devices').select('tz_offset').where('serial', '=', 'LIVEBENCH').executeTakeFirstOrThrow();
  let next = 0;
  /** One live punch upload, at the terminal's local now: its round trip in ms. */
  async function punch(): Promise<{ pin: string; sent: number; rtt: number }> {
    const pin = people[next++]!;
    const local = new Date(Date.now() + tz * 60_000).toISOString().slice(0, 19).replace('T', ' ');
    const sent = now();
    const res = await fetch(`${s.url}/iclock/cdata?SN=LIVEBENCH&table=ATTLOG&Stamp=1`, { method: 'POST', body: `${pin}\t${local}\t0\t15\t0\t0\t0\n` });
    const text = await res.text();
    if (!text.startsWith('OK')) throw new Error(`upload refused: ${text}`);
    return { pin, sent, rtt: now() - sent };
  }
  const pause = () => new Promise((r) => setTimeout(r, 10));

  // Baseline: the upload's round trip with no console open.
  const base: number[] = [];
  for (let i = 0; i < PUNCHES; i++) {
    base.push((await punch()).rtt);
    await pause();
  }
  console.log(
    `live: baseline upload round trip, no console open (${PUNCHES} punches): p50 ${fmt(percentile(base, 50))} ms, p99 ${fmt(percentile(base, 99))} ms`,
  );

  for (const n of STREAMS) {
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const rssBefore = process.memoryUsage().rss;
    const child: ChildProcess = fork(import.meta.filename, ['consoles', s.url, s.token, String(n)], { stdio: 'inherit' });
    const arrivals = new Map<string, { first: number; last: number }>();
    let ready = false;
    child.on('message', (m: FromChild) => {
      if ('ready' in m) ready = true;
      else arrivals.set(m.pin, { first: m.first, last: m.last });
    });
    while (!ready || hub.size < n) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    global.gc?.();
    const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    const rssMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;

    const sent: { pin: string; sent: number }[] = [];
    for (let i = 0; i < PUNCHES; i++) {
      sent.push(await punch());
      await pause();
    }
    const deadline = Date.now() + 30_000;
    while (arrivals.size < sent.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const first = sent.filter((x) => arrivals.has(x.pin)).map((x) => arrivals.get(x.pin)!.first - x.sent);
    const last = sent.filter((x) => arrivals.has(x.pin)).map((x) => arrivals.get(x.pin)!.last - x.sent);
    console.log(
      `live: ${n} console(s) open: punch → event p50 ${fmt(percentile(first, 50))} ms, p99 ${fmt(percentile(first, 99))} ms (first console); ` +
        `p50 ${fmt(percentile(last, 50))} ms, p99 ${fmt(percentile(last, 99))} ms (all ${n}); ${arrivals.size}/${sent.length} delivered to every console; ` +
        `server memory for the streams: heap +${fmt(heapMb)} MB, rss +${fmt(rssMb)} MB`,
    );
    child.kill();
    while (hub.size > 0) await new Promise((r) => setTimeout(r, 20));
  }
  await s.close();
}
