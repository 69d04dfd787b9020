/**
 * First load of the console (issue 9, item 17): what a browser transfers on a first visit (empty cache)
 * and on a repeat visit, and how long until the login page is usable, in Debian's Chromium over a
 * throttled network. Two servers in this run, alternating round by round: the console as served now
 * (brotli/gzip variants written at build, hashed assets immutable, index.html no-cache) and the
 * baseline as served before (uncompressed, max-age=0). Prints medians; asserts nothing (targets: first
 * visit ≤ 300 KB transferred (#31; it was 450 before), repeat visit ≤ 10 KB).
 *
 *   npm run bench:first-load -w @faceadmin/bench
 *   BENCH_ROUNDS=5 BENCH_MBPS=10 BENCH_RTT_MS=40 BENCH_BUILD=1 (rebuild apps/web/dist first)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession } from 'playwright-core';
import { benchApp, fmt, percentile } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MBPS = Number(process.env.BENCH_MBPS ?? 10);
const RTT_MS = Number(process.env.BENCH_RTT_MS ?? 40);
const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');

// The build writes the compressed variants: a dist from before that (or none) is rebuilt.
if (process.env.BENCH_BUILD === '1' || !fs.existsSync(path.join(dist, 'index.html.br'))) {
  console.log('building the console …');
  const r = spawnSync('npm', ['run', 'build', '-w', '@faceadmin/web'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** One of the two ways of serving, on its own loopback port. */
async function serve(plainAssets: boolean) {
  const { app, close } = await benchApp({ plainAssets });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close };
}

interface Visit {
  /** bytes on the wire, headers included (CDP encodedDataLength) */
  bytes: number;
  /** requests that went to the network (not answered from the cache) */
  requests: number;
  /** of which answered 304 Not Modified */
  notModified: number;
  /** navigation start → login form shown with its fields and button enabled */
  usableMs: number;
  /** content-encoding of the responses that had a body */
  encodings: Map<string, number>;
  /** per request: status, encoding, bytes, URL (BENCH_VERBOSE=1 prints the last round's) */
  lines: string[];
}

/**
 * In the page: the time since navigation start once the login form is shown with its fields and button enabled, else
 * false. A function, not a string: the console's CSP refuses eval. bench/ has no DOM types, hence the loose ones.
 */
function usable(): number | false {
  const doc = (globalThis as any).document;
  const form = doc.querySelector('[data-testid="login-form"]');
  const user = form?.querySelector('input[autocomplete="username"]');
  const pass = form?.querySelector('input[autocomplete="current-password"]');
  const submit = doc.querySelector('[data-testid="login-submit"]');
  const shown = (e: any) => !!e && e.getClientRects().length > 0 && !e.disabled;
  return shown(user) && shown(pass) && shown(submit) && (globalThis as any).performance.now();
}

/** Opens `url` in a new page of `context` over the throttled network and waits until the login form is usable and the network idle. */
async function visit(context: BrowserContext, url: string): Promise<Visit> {
  const page = await context.newPage();
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const throughput = (MBPS * 1_000_000) / 8;
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: RTT_MS, downloadThroughput: throughput, uploadThroughput: throughput });
  const v: Visit = { bytes: 0, requests: 0, notModified: 0, usableMs: 0, encodings: new Map(), lines: [] };
  const inFlight = new Set<string>();
  const requests = new Map<string, { url: string; status?: number; encoding?: string }>();
  let lastActivity = Date.now();
  cdp.on('Network.requestWillBeSent', (e) => {
    inFlight.add(e.requestId);
    requests.set(e.requestId, { url: e.request.url });
    lastActivity = Date.now();
  });
  // The status and headers as they came over the wire (a revalidated response shows 304 here, 200 elsewhere).
  cdp.on('Network.responseReceivedExtraInfo', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.status = e.statusCode;
    const h = Object.fromEntries(Object.entries(e.headers).map(([k, x]) => [k.toLowerCase(), String(x)]));
    r.encoding = h['content-encoding'] ?? 'identity';
  });
  const settle = (id: string, bytes: number) => {
    inFlight.delete(id);
    lastActivity = Date.now();
    const r = requests.get(id);
    if (!r || r.status === undefined) return; // from the cache: no request went out
    v.requests++;
    v.bytes += bytes;
    if (r.status === 304) v.notModified++;
    else v.encodings.set(r.encoding!, (v.encodings.get(r.encoding!) ?? 0) + 1);
    v.lines.push(`${r.status} ${r.encoding!.padEnd(8)} ${String(bytes).padStart(8)} B  ${new URL(r.url).pathname}`);
  };
  cdp.on('Network.loadingFinished', (e) => settle(e.requestId, e.encodedDataLength));
  cdp.on('Network.loadingFailed', (e) => settle(e.requestId, 0));
  await page.goto(url, { waitUntil: 'commit' });
  // Measured in the page: performance.now() counts from the navigation's start.
  v.usableMs = await page.waitForFunction(usable, undefined, { polling: 'raf', timeout: 60_000 }).then((h) => h.jsonValue() as Promise<number>);
  // Whatever the page still loads after that (config, icon) counts towards the visit.
  while (inFlight.size > 0 || Date.now() - lastActivity < 500) await new Promise((r) => setTimeout(r, 50));
  await page.close();
  return v;
}

// console.lan is this machine under a LAN name: Chromium offers brotli only to secure origins (HTTPS,
// localhost), so a console reached over plain HTTP in an office gets gzip; over HTTPS, brotli.
const LAN = 'console.lan';
const browser: Browser = await chromium.launch({
  // Debian's Chromium, or its headless shell where only that is installed (as the journeys pick)
  executablePath: process.env.CHROMIUM_PATH ?? (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium'),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    `--host-resolver-rules=MAP ${LAN} 127.0.0.1`,
  ],
});
const baseline = await serve(true);
const current = await serve(false);
const onLan = (u: string) => u.replace('127.0.0.1', LAN);
const modes = [
  { name: 'before: raw, max-age=0', url: onLan(baseline.url), first: [] as Visit[], repeat: [] as Visit[] },
  { name: 'now, plain HTTP (gzip)', url: onLan(current.url), first: [] as Visit[], repeat: [] as Visit[] },
  { name: 'now, HTTPS/localhost (br)', url: current.url, first: [] as Visit[], repeat: [] as Visit[] },
];
try {
  // Warm-up (Chromium's own first start, the servers' first requests), not counted.
  for (const m of modes) {
    const ctx = await browser.newContext({ locale: 'en-US' });
    await visit(ctx, `${m.url}/`);
    await ctx.close();
  }
  for (let i = 0; i < ROUNDS; i++) {
    for (const m of i % 2 ? [...modes].reverse() : modes) {
      // A fresh context is a browser with an empty cache; its second page is the visitor coming back.
      const ctx = await browser.newContext({ locale: 'en-US' });
      m.first.push(await visit(ctx, `${m.url}/`));
      m.repeat.push(await visit(ctx, `${m.url}/`));
      await ctx.close();
    }
  }
} finally {
  await browser.close();
  await baseline.close();
  await current.close();
}

if (process.env.BENCH_VERBOSE === '1')
  for (const m of modes)
    for (const [which, v] of [
      ['first', m.first.at(-1)],
      ['repeat', m.repeat.at(-1)],
    ] as const)
      console.log(`\n${m.name}, ${which} visit:\n  ${v?.lines.join('\n  ')}`);

const med = (xs: Visit[], f: (v: Visit) => number) => percentile(xs.map(f), 50);
const kb = (n: number) => `${fmt(n / 1024, 1)} KB`;
const col = (s: string) => s.padEnd(36);
console.log(`\nconsole first load, Chromium, ${MBPS} Mbit/s, ${RTT_MS} ms latency, ${ROUNDS} alternating rounds, medians`);
console.log(`${''.padEnd(33)}${modes.map((m) => col(m.name)).join('')}`);
const row = (label: string, f: (m: (typeof modes)[number]) => string) => console.log(`${label.padEnd(33)}${modes.map((m) => col(f(m))).join('')}`);
row('first visit: transferred', (m) => `${kb(med(m.first, (v) => v.bytes))} in ${med(m.first, (v) => v.requests)} requests`);
row(
  'first visit: usable login page',
  (m) =>
    `${fmt(
      med(m.first, (v) => v.usableMs),
      0,
    )} ms`,
);
row(
  'repeat visit: transferred',
  (m) => `${kb(med(m.repeat, (v) => v.bytes))} in ${med(m.repeat, (v) => v.requests)} requests (${med(m.repeat, (v) => v.notModified)} × 304)`,
);
row(
  'repeat visit: usable login page',
  (m) =>
    `${fmt(
      med(m.repeat, (v) => v.usableMs),
      0,
    )} ms`,
);
row('first visit: content-encoding', (m) => [...(m.first[0]?.encodings ?? [])].map(([k, n]) => `${k} ×${n}`).join(', '));
console.log('targets: first visit ≤ 300 KB transferred (#31), repeat visit ≤ 10 KB');
