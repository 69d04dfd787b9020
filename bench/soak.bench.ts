/**
 * The watchers' soak (issue #31): /dashboard and /ioconsoles left open for 30 minutes while a terminal punches once a
 * second, in Debian's Chromium against the real server (the demo company, its own terminals punching too). Every
 * minute each tab's JavaScript heap is read after a forced garbage collection, with its DOM node count. The baseline,
 * in the same browser and the same minutes: the login page (no stream, no charts), measured the same way, which
 * shows what the measuring itself moves. Prints the figures; asserts nothing (target: heap after GC flat within
 * 2 MB from the 5th minute to the last, DOM bounded).
 *
 *   npm run bench:soak -w @faceadmin/bench            (builds the console first when apps/web/dist is missing)
 *   BENCH_MINUTES=30 BENCH_PUNCH_MS=1000
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import { API_PREFIX } from '../apps/server/src/lib/api.ts';
import { startServer } from '../e2e/lib/server.ts';
import { createTerminal } from '../tools/zk-emulator/terminal.ts';
import { fmt } from './lib.ts';

const MINUTES = Number(process.env.BENCH_MINUTES ?? 30);
const PUNCH_MS = Number(process.env.BENCH_PUNCH_MS ?? 1000);
const WARM_MINUTES = Math.min(5, Math.max(1, Math.floor(MINUTES / 3)));
const DEMO = { username: 'demo', password: 'demo123' };
const SERIAL = 'SOAK00000001';

if (!fs.existsSync(path.resolve(import.meta.dirname, '..', 'apps', 'web', 'dist', 'index.html'))) {
  console.error('build the console first: npm run build -w @faceadmin/web');
  process.exit(2);
}

interface Tab {
  name: string;
  page: Page;
  cdp: CDPSession;
  heapMb: number[];
  nodes: number[];
}

async function sample(tab: Tab) {
  // twice: the first pass can leave what finalizers released for the next
  await tab.cdp.send('HeapProfiler.collectGarbage');
  await tab.cdp.send('HeapProfiler.collectGarbage');
  const heap = (await tab.cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  const dom = (await tab.cdp.send('Memory.getDOMCounters')) as { nodes: number };
  tab.heapMb.push(heap.usedSize / 1048576);
  tab.nodes.push(dom.nodes);
}

/** Least-squares slope of ys over their index (per sample = per minute). */
function slope(ys: number[]): number {
  const n = ys.length;
  if (n < 2) return 0;
  const mx = (n - 1) / 2;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}

const server = await startServer(DEMO, { DEMO: '1', DEVICE_POLL_SECONDS: '1', ADMIN_USERNAME: '', ADMIN_PASSWORD: '' });
const executablePath =
  process.env.CHROMIUM_PATH ?? (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
let punches = 0;
let refused = 0;
let timer: NodeJS.Timeout | undefined;
let terminal: ReturnType<typeof createTerminal> | undefined;
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const first = await context.newPage();
  await first.goto(`${server.baseUrl}/login`);
  await first.locator('#username').fill(DEMO.username);
  await first.locator('#password').fill(DEMO.password);
  await first.getByTestId('login-submit').click();
  await first.waitForURL('**/dashboard');
  // The soak's terminal, registered in the demo company; it punches the demo's staff numbers in turn.
  const token = decodeURIComponent((await context.cookies()).find((c) => c.name === 'Admin-Token')?.value ?? '');
  const made = (await (
    await fetch(`${server.baseUrl}${API_PREFIX}/device/create`, {
      method: 'POST',
      headers: { 'X-Token': token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Soak gate', serial: SERIAL, ip: '192.168.50.10', password: 'soak' }),
    })
  ).json()) as { code: number; message: string };
  if (made.code !== 20000) throw new Error(`device/create: ${made.message}`);
  const term = createTerminal({ server: server.baseUrl, sn: SERIAL, pollMs: 1000, retryMs: 1000, ip: '192.168.50.10' });
  terminal = term;
  void term.start();
  const pins = ['1001', '1002', '1003', '1004', '1005', '99999'];

  // Each tab in a browser context of its own (the same session), so that each has a renderer process of its own: the
  // heap and DOM counters are a process's, and two tabs sharing one would mix their figures.
  const cookies = await context.cookies();
  const open = async (name: string, url: string, ready: (p: Page) => Promise<unknown>): Promise<Tab> => {
    const own = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    await own.addCookies(cookies);
    const p = await own.newPage();
    await p.goto(`${server.baseUrl}${url}`);
    await ready(p);
    const cdp = await own.newCDPSession(p);
    return { name, page: p, cdp, heapMb: [], nodes: [] };
  };
  const tabs = [
    await open('/dashboard', '/dashboard', (p) => p.getByTestId('dashboard').waitFor()),
    await open('/ioconsoles', '/ioconsoles', (p) => p.getByTestId('watch-live').waitFor()),
  ];
  await first.goto('about:blank');
  // the baseline: a page of the console with no stream, in a context of its own (signed out)
  const loginContext = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const loginPage = await loginContext.newPage();
  await loginPage.goto(`${server.baseUrl}/login`);
  await loginPage.getByTestId('login-submit').waitFor();
  const baseline: Tab = { name: '/login (baseline)', page: loginPage, cdp: await loginContext.newCDPSession(loginPage), heapMb: [], nodes: [] };
  const all = [baseline, ...tabs];

  let k = 0;
  timer = setInterval(() => {
    void term.punch({ pin: pins[k++ % pins.length]! }).then(
      (r) => (r.uploaded ? punches++ : refused++),
      () => refused++,
    );
  }, PUNCH_MS);
  console.log(`soak: ${MINUTES} min, a punch every ${PUNCH_MS} ms; a sample a minute (heap after GC, DOM nodes)`);
  const started = Date.now();
  for (let minute = 0; minute <= MINUTES; minute++) {
    const due = started + minute * 60_000;
    if (Date.now() < due) await new Promise((r) => setTimeout(r, due - Date.now()));
    for (const tab of all) await sample(tab);
    console.log(
      `  min ${String(minute).padStart(2)}  ` +
        all.map((t) => `${t.name} ${fmt(t.heapMb.at(-1)!)} MB ${t.nodes.at(-1)} nodes`).join('  |  ') +
        `  (${punches} punches)`,
    );
  }
  clearInterval(timer);

  console.log(`\n${punches} punches taken, ${refused} refused or failed, in ${fmt((Date.now() - started) / 60_000)} min`);
  console.log(`from minute ${WARM_MINUTES} to ${MINUTES} (the first minutes fill caches and lazy chunks):`);
  console.log(`${'tab'.padEnd(20)}${'heap after GC: first → last'.padEnd(34)}${'min–max'.padEnd(16)}${'slope/10 min'.padEnd(14)}DOM nodes min–max`);
  for (const t of all) {
    const h = t.heapMb.slice(WARM_MINUTES);
    const n = t.nodes.slice(WARM_MINUTES);
    const change = h.at(-1)! - h[0]!;
    console.log(
      t.name.padEnd(20) +
        `${fmt(h[0]!)} → ${fmt(h.at(-1)!)} MB (${change >= 0 ? '+' : ''}${fmt(change, 2)})`.padEnd(34) +
        `${fmt(Math.min(...h))}–${fmt(Math.max(...h))} MB`.padEnd(16) +
        `${fmt(slope(h) * 10, 2)} MB`.padEnd(14) +
        `${Math.min(...n)}–${Math.max(...n)}`,
    );
  }
} finally {
  clearInterval(timer);
  await terminal?.stop();
  await browser.close();
  await server.stop();
}
