// Browser journey of issue #21: the deployment of docs/deploy.md on one machine — a throwaway PostgreSQL, two server
// instances (each with its own DATA_DIR, as on two machines) and Debian's nginx in front with the shipped
// docs/nginx-faceadmin.conf, and Mosquitto as the breakers' broker. The console and a ZKTeco terminal talk to nginx
// only, so each request lands on either instance: a face synced to the terminal, a door opened from the console,
// punches live on the dashboard, a breaker's line switched — and one instance killed mid-way (the one holding the
// broker's subscription), after which everything carries on through the other.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createTerminal, type Terminal } from '../../tools/zk-emulator/terminal.ts';
import { EmulatedBreaker } from '../../tools/breaker-emulator/breaker.ts';
import { until as untilOf } from '../../apps/server/test/terminals.ts';
import { findMosquitto, startMosquitto, type Mosquitto } from '../../apps/server/test/mosquitto.ts';
import { api } from '../lib/api.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { startNginxCluster, type RunningCluster } from '../lib/cluster.ts';
import { facePhoto } from '../lib/faces.ts';
import { addDepartment, addPerson, menu as menuOf, modal as modalOf, signInAndCreateCompany, toast as toastOf, translator } from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const SERIAL = 'CLUSTERZK1';
const DEVICE = 'Main gate';
const PERSON = 'Mei Chen';
const BREAKER = 'CLUSTER-BRK-1';
const tr = translator(loadLocale('en-US'));

let cluster: RunningCluster;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let terminal: Terminal | undefined;
const direct: Terminal[] = [];
let mosquitto: Mosquitto;
let breaker: EmulatedBreaker | undefined;
let breakerId = 0;

const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => untilOf(what, check, timeoutMs, 250);
const deviceRow = () => page.locator('[data-testid=device-table] .ant-table-row', { hasText: SERIAL });
const menu = (section: string, item: string, pageTestId: string) => menuOf(page, section, item, pageTestId);

before(async () => {
  const bin = findMosquitto();
  if (!bin) throw new Error('mosquitto is not installed (apt-get install mosquitto; npm test installs it)');
  mosquitto = await startMosquitto(bin);
  // Every instance beside the broker keeps its password file (one machine here); one holds its subscription.
  cluster = await startNginxCluster(ADMIN, { DEVICE_POLL_SECONDS: '1', ...mosquitto.env });
  journey = await openJourney({ prefix: 'cluster-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await terminal?.stop();
  for (const t of direct) await t.stop();
  await breaker?.kill().catch(() => {});
  await cluster?.stop();
  await mosquitto?.stop();
});

step('through nginx: sign in, a department and a person with a face', async () => {
  await signInAndCreateCompany(page, cluster.baseUrl, ADMIN, { name: 'Two Servers Ltd', phone: '+8613800000030' });
  // the photo is uploaded in one request and the form saved in another: either instance may take each
  await addDepartment(page, tr, 'Front');
  await addPerson(page, tr, { name: PERSON, phone: '13800000030', department: 'Front', photo: await facePhoto(PERSON, 60) });
});

step('a terminal polling nginx (so either instance) gets her face', async () => {
  await menu(tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await page.getByTestId('device-create').click();
  const dialog = modalOf(page, tr('device.create'));
  await dialog.locator('#name').fill(DEVICE);
  await dialog.locator('#serial').fill(SERIAL);
  await dialog.locator('#ip').fill('10.0.0.40');
  await dialog.locator('#password').fill('123456');
  await dialog.getByText(tr('device.scope.all')).click();
  await dialog.getByTestId('device-save').click();
  await dialog.waitFor({ state: 'hidden' });
  terminal = createTerminal({ server: cluster.baseUrl, sn: SERIAL, pollMs: 300, retryMs: 500 });
  await terminal.start();
  await deviceRow().locator('[data-testid=device-online][data-online="1"]').waitFor({ timeout: 20_000 });
  await deviceRow().getByTestId('device-sync').getByText('1/1').waitFor({ timeout: 30_000 });
  assert.equal(terminal.users.get('1')?.name, PERSON);
  assert.equal(terminal.photos.get('1')?.subarray(0, 2).toString('hex'), 'ffd8', 'her face as a JPEG, stored by whichever instance took the upload');
});

step('the door opens from the console, whichever instance the click and the terminal reach', async () => {
  for (let i = 1; i <= 3; i++) {
    await deviceRow().getByTestId('device-open').click();
    await toastOf(page, tr('device.result.opened')).first().waitFor({ timeout: 15_000 });
    await until(`door open ${i} done at the terminal`, () => terminal!.doorOpenCount === i);
    await until('the messages gone', async () => (await page.locator('.ant-message-notice').count()) === 0, 10_000);
  }
});

step('punches sent straight to each instance appear live on the dashboard the browser streams from one of them', async () => {
  await page.goto(`${cluster.baseUrl}/dashboard`);
  await page.getByTestId('dashboard').waitFor();
  await page.getByTestId('dashboard-live').getByText(tr('dashboard.live.open')).waitFor();
  // the same terminal, calling each instance directly: one of the two punches crosses instances for sure (recent
  // ones: older uploads are history, not news for the live stream)
  for (const [i, s] of cluster.servers.entries()) {
    const t = createTerminal({ server: s.baseUrl, sn: SERIAL, pollMs: 300, retryMs: 500 });
    direct.push(t);
    // the dashboard's grid shows recognitions with their capture photo
    await t.punch({ pin: '1', time: new Date(Date.now() - (2 - i) * 30_000), photo: await facePhoto(`Capture ${i}`, 90) });
  }
  for (const t of direct) await t.start();
  await until('both punches on the dashboard', async () => (await page.locator('[data-testid=dashboard-recognition]', { hasText: PERSON }).count()) >= 2);
  for (const t of direct.splice(0)) await t.stop();
  await journey.screenshot('cluster-live', false);
});

const lineSwitch = () => page.locator('[data-testid=line-table] .ant-table-row').first().getByTestId('line-switch');

step('a breaker on the shared broker: registered through either instance, online, its line switched off from the console', async () => {
  const reg = await api<{ breaker: { id: number }; password: string }>(page, 'POST', '/breaker/create', {
    alias: 'Dorm A',
    uuid: BREAKER,
    sort: 1,
    linenum: 2,
  });
  // Mosquitto rereads its password file when an instance signals it: the first connection may come just before.
  for (let attempt = 0; ; attempt++) {
    const emu = new EmulatedBreaker({ url: mosquitto.url, uuid: BREAKER, password: reg.password, lines: 2, reportMs: 300, tickMs: 200, reconnectMs: 500 });
    try {
      await emu.start();
      breaker = emu;
      break;
    } catch (err) {
      if (attempt > 30) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  breakerId = reg.breaker.id;
  await page.goto(`${cluster.baseUrl}/circuitBreaker/${breakerId}`);
  await page.getByTestId('breaker-detail-page').waitFor();
  await page.locator('[data-testid=breaker-online][data-online="1"]').waitFor({ timeout: 20_000 });
  await lineSwitch().click();
  await page.locator('.ant-modal-confirm').getByTestId('power-off-ok').click();
  await toastOf(page, 'The breaker confirmed: the line is off').first().waitFor({ timeout: 15_000 });
  assert.equal(breaker.lines[0]!.on, false);
  await page.locator('[data-testid=line-table] [data-testid=line-switch][data-oc="0"]').first().waitFor();
});

const readyOf = async (s: { baseUrl: string }) => (await fetch(`${s.baseUrl}/readyz`)).json() as Promise<{ roles: Record<string, boolean> }>;

step('one instance is killed mid-traffic: every punch the terminals were told was taken is stored once', async () => {
  assert.equal((await readyOf(cluster.servers[0]!)).roles['mqtt.subscription'], true, 'the first instance serves the broker');
  const PER = 40;
  const gates = ['BURST1', 'BURST2', 'BURST3'];
  const ids: number[] = [];
  for (const sn of gates) ids.push((await api<{ id: number }>(page, 'POST', '/device/create', { name: sn, serial: sn, ip: '10.0.0.41', password: 'x' })).id);
  const terms = gates.map((sn) => createTerminal({ server: cluster.baseUrl, sn, pollMs: 300, retryMs: 200 }));
  direct.push(...terms);
  for (const t of terms) await t.start();
  const start = Date.now() - 3600_000;
  // Each terminal punches one after another (each acknowledged only once committed, retried until it is) while the
  // first instance dies under them.
  let acked = 0;
  const unacknowledged: string[] = [];
  const traffic = terms.map(async (t, n) => {
    for (let i = 0; i < PER; i++) {
      const r = await t.punch({ pin: String(100 + n), time: new Date(start + i * 1000) });
      if (!r.uploaded) unacknowledged.push(`${gates[n]} punch ${i + 1}`);
      acked++;
    }
  });
  await until('the traffic under way', () => acked >= 15, 30_000);
  await cluster.servers[0]!.kill();
  const atKill = acked;
  await Promise.all(traffic);
  assert.deepEqual(unacknowledged, [], 'every punch acknowledged (retried until it was)');
  assert.ok(atKill < gates.length * PER - 15, `killed mid-traffic (${atKill} of ${gates.length * PER} acknowledged before)`);
  for (const [n, id] of ids.entries()) {
    const list = await api<{ total: number }>(page, 'GET', `/attendance/list?device_id=${id}&pageSize=1`);
    assert.equal(list.total, PER, `${gates[n]}: ${PER} punches, none lost, none twice`);
  }
  for (const t of direct.splice(0)) await t.stop();
});

step('the console, the terminal and the live stream carry on through the other', async () => {
  await page.goto(`${cluster.baseUrl}/dashboard`);
  await page.getByTestId('dashboard-live').getByText(tr('dashboard.live.open')).waitFor();
  await until('the earlier punches listed', async () => (await page.locator('[data-testid=dashboard-recognition]', { hasText: PERSON }).count()) >= 2);
  const before = await page.locator('[data-testid=dashboard-recognition]', { hasText: PERSON }).count();
  const r = await terminal!.punch({ pin: '1', photo: await facePhoto('Capture after', 90) });
  assert.ok(r.uploaded, 'the terminal’s upload was taken (acknowledged only once committed)');
  await until(
    'the punch after the kill on the dashboard',
    async () => (await page.locator('[data-testid=dashboard-recognition]', { hasText: PERSON }).count()) > before,
    30_000,
  );
  await menu(tr('route.device'), tr('route.deviceList'), 'device-list-page');
  const opened = terminal!.doorOpenCount;
  await deviceRow().getByTestId('device-open').click();
  await toastOf(page, tr('device.result.opened')).first().waitFor({ timeout: 20_000 });
  await until('the door opened after the kill', () => terminal!.doorOpenCount === opened + 1);
  await journey.screenshot('cluster-after-kill', false);

  // The breaker: the other instance takes the broker's subscription (within 5 s), and the line switches on from the
  // console as before; it never showed offline.
  await until('the other instance serves the broker', async () => (await readyOf(cluster.servers[1]!)).roles['mqtt.subscription'] === true);
  await page.goto(`${cluster.baseUrl}/circuitBreaker/${breakerId}`);
  await page.getByTestId('breaker-detail-page').waitFor();
  await page.locator('[data-testid=breaker-online][data-online="1"]').waitFor();
  await lineSwitch().click();
  await toastOf(page, 'The breaker confirmed: the line is on').first().waitFor({ timeout: 15_000 });
  assert.equal(breaker!.lines[0]!.on, true);
});
