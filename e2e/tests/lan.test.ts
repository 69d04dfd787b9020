// Browser journey of issue #20 "LAN mode", as a site would live it: the real server with RUN_MODE=lan, the built
// console, Debian Chromium, emulated Hikvision terminals (tools/isapi-emulator) on 127.0.0.21–22 and an emulated
// ZKTeco terminal (tools/zk-emulator) in the same company. The menu lacks what LAN mode omits (spec §2), "Scan the
// network" finds the terminals and one click adds one that comes online with its model and firmware; a person with a
// face reaches it, its door opens, recognitions arrive live and, after it was unplugged, its backlog arrives without
// duplicates; the same for the ZK terminal.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createIsapiTerminal, isapiEmulatorFirmware, type IsapiTerminal } from '../../tools/isapi-emulator/terminal.ts';
import { createTerminal, type Terminal } from '../../tools/zk-emulator/terminal.ts';
import { until as untilOf } from '../../apps/server/test/terminals.ts';
import { downloaded, journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { facePhoto } from '../lib/faces.ts';
import {
  addDepartment,
  addPerson,
  inputOf,
  menu as menuOf,
  modal as modalOf,
  openPath,
  signInAndCreateCompany,
  toast as toastOf,
  translator,
  waitForPath,
} from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const EN = loadLocale('en-US');
const tr = translator(EN);

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
const terminals: IsapiTerminal[] = [];
let zk: Terminal | undefined;

const HIK = 'DS-K1T671M 127.0.0.21';
const ZK = 'Side gate';
const ZK_SERIAL = 'LANZK00001';
const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => untilOf(what, check, timeoutMs, 250);
const deviceRow = (text: string) => page.locator('[data-testid=device-table] .ant-table-row', { hasText: text });

const menu = (section: string, item: string, pageTestId: string) => menuOf(page, section, item, pageTestId);
const modal = (title: string) => modalOf(page, title);

before(async () => {
  server = await startServer(ADMIN, { RUN_MODE: 'lan', DEVICE_POLL_SECONDS: '1' });
  const first = await createIsapiTerminal({ host: '127.0.0.21', password: 'hik-Pass-1', serial: 'DS-K1T671M0120261126V030200ENLAN00021' });
  terminals.push(
    first,
    await createIsapiTerminal({
      host: '127.0.0.22',
      port: first.port,
      password: 'another-1',
      model: 'DS-K1T341AM',
      serial: 'DS-K1T341AM20261126V030200ENLAN00022',
    }),
  );
  journey = await openJourney({ prefix: 'lan-', viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await Promise.all(terminals.map((x) => x.stop()));
  await zk?.stop();
  await server?.stop();
});

step('signed in with the installed account, the menu lacks what LAN mode omits, and there is no bell', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Inside Ltd', phone: '+8613800000010' });
  const sidebar = page.getByTestId('sidebar');
  await menu(tr('route.attendance'), tr('route.attendanceList'), 'punch-list-page');
  for (const gone of [tr('route.attendanceHoliday'), tr('schedule.title'), tr('route.attendanceAlcohol')])
    assert.equal(await sidebar.getByRole('menuitem', { name: gone }).count(), 0, gone);
  assert.ok(await sidebar.getByRole('menuitem', { name: tr('route.attendanceRule') }).isVisible());
  await menu(tr('route.system'), tr('route.log'), 'log-table');
  for (const gone of [tr('route.visitors'), tr('route.visitorLog')]) assert.equal(await sidebar.getByRole('menuitem', { name: gone }).count(), 0, gone);
  assert.equal(await sidebar.getByText(tr('route.workflow'), { exact: true }).count(), 0, 'no approvals section');
  assert.equal(await page.getByTestId('message-bell').count(), 0, 'spec §2: the bell is hidden in LAN mode');
  // typed in the address bar, an omitted page is not found
  await page.goto(`${server.baseUrl}/attendance/holiday`);
  await waitForPath(page, '/404');
  await journey.screenshot('lan-menu', false);
});

step('the sign-in page offers neither registration nor a reset by SMS', async () => {
  const cfg = (await (await fetch(`${server.baseUrl}/api/management/system/config`)).json()) as {
    data: { runMode: string; sms: boolean; registration: boolean };
  };
  assert.deepEqual([cfg.data.runMode, cfg.data.sms, cfg.data.registration], ['lan', false, false]);
});

step('scanning 127.0.0.20–30 finds both terminals: one read with the password, one that refuses it', async () => {
  await openPath(page, '/device/list');
  await page.getByTestId('device-list-page').waitFor();
  await page.getByTestId('device-scan').click();
  const dialog = modal(tr('device.scan.title'));
  await inputOf(dialog.getByTestId('scan-range')).fill('127.0.0.20-127.0.0.30');
  await inputOf(dialog.getByTestId('scan-port')).fill(String(terminals[0]!.port));
  await inputOf(dialog.getByTestId('scan-password')).fill('hik-Pass-1');
  await dialog.getByTestId('scan-run').click();
  await dialog.getByTestId('scan-summary').waitFor({ timeout: 30_000 });
  const rows = dialog.locator('[data-testid=scan-results] .ant-table-row');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 2);
  const hik = rows.filter({ hasText: '127.0.0.21' });
  await hik.getByText('DS-K1T671M').waitFor();
  await hik.getByText('V3.2.0 build 241120').waitFor();
  await rows.filter({ hasText: '127.0.0.22' }).getByText(tr('device.scan.wrongPassword')).waitFor();
  await journey.screenshot('lan-scan', false);
  await hik.getByTestId('scan-add').click();
  await toastOf(page, tr('device.scan.added', { name: 'DS-K1T671M' })).waitFor();
  await hik.getByText(tr('device.scan.already')).waitFor();
  await dialog.locator('.ant-modal-close').click();
  await dialog.waitFor({ state: 'hidden' });
});

step('the added terminal comes online with its model and firmware', async () => {
  const row = page.locator('[data-testid=device-table] .ant-table-row', { hasText: '127.0.0.21' });
  await row.getByTestId('device-address').getByText(`127.0.0.21:${terminals[0]!.port}`).waitFor();
  await row.locator('[data-testid=device-online][data-online="1"]').waitFor({ timeout: 20_000 });
  await row.getByTestId('device-version').getByText('DS-K1T671M V3.2.0 build 241120').waitFor({ timeout: 20_000 });
  await journey.screenshot('lan-online', false);
});

/** Rows of the punch records of one door, read after a reload (the list is today's records). */
async function punchRows(device: string): Promise<number> {
  await page.reload();
  await page.getByTestId('punch-list-page').waitFor();
  // Every count asked here is of a list that has rows by then: wait for them (a reloaded table is empty while it
  // loads), and for the loading to end.
  await page.locator('[data-testid=punch-table] .ant-table-row').first().waitFor();
  await page.locator('[data-testid=punch-table] .ant-spin-spinning').waitFor({ state: 'detached' });
  return page.locator('[data-testid=punch-table] .ant-table-row', { hasText: device }).filter({ hasText: 'Hana Sato' }).count();
}

step('a person with a face, and the Hikvision terminal set to hold everyone: she reaches it with her face', async () => {
  await addDepartment(page, tr, 'Front desk');
  await addPerson(page, tr, { name: 'Hana Sato', phone: '13800000012', department: 'Front desk', photo: await facePhoto('Hana Sato', 60) });

  await menu(tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await deviceRow(HIK).getByTestId('device-more').click();
  await page.getByRole('menuitem', { name: tr('common.actions.edit') }).click();
  const dialog = modal(tr('device.edit'));
  await dialog.getByText(tr('device.scope.all')).click();
  await dialog.getByTestId('device-save').click();
  await dialog.waitFor({ state: 'hidden' });
  await deviceRow(HIK).getByTestId('device-sync').getByText('1/1').waitFor({ timeout: 20_000 });
  const hik = terminals[0]!;
  assert.deepEqual([...hik.users.keys()], ['1']);
  assert.equal(hik.users.get('1')!.name, 'Hana Sato');
  assert.equal(hik.faces.get('1')?.subarray(0, 2).toString('hex'), 'ffd8', 'her face as a JPEG');
});

step('the door opens from the console, and a recognition shows up in the punch records', async () => {
  const hik = terminals[0]!;
  await deviceRow(HIK).getByTestId('device-open').click();
  await toastOf(page, tr('device.result.opened')).waitFor({ timeout: 20_000 });
  assert.equal(hik.doorOpens.length, 1);
  // The door column follows the terminal's own door: open while the lock is, then closed again.
  const door = (state: 'open' | 'close') =>
    deviceRow(HIK)
      .locator('.ant-tag')
      .getByText(tr(`device.openStatus.${state}`), { exact: true });
  await door('open').waitFor({ timeout: 10_000 });
  await journey.screenshot('lan-door-open', false);
  await door('close').waitFor({ timeout: 15_000 });
  const r = await hik.recognize('1');
  assert.deepEqual([r.granted, r.pushed], [true, true], 'let in, and the event pushed to the server at once');
  await menu(tr('route.attendance'), tr('route.attendanceList'), 'punch-list-page');
  await until('the pushed recognition in the punch records', async () => (await punchRows(HIK)) === 1);
});

step('unplugged, the terminal is shown unreachable; plugged back, what it saw meanwhile arrives once', async () => {
  const hik = terminals[0]!;
  await hik.stop();
  // She passes twice while the cable is out: the terminal keeps both in its own log.
  for (let i = 0; i < 2; i++) {
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await hik.recognize('1')).pushed, false);
  }
  await menu(tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await until('the terminal shown unreachable', async () => {
    await page.reload();
    await deviceRow(HIK).waitFor();
    return (await deviceRow(HIK).getByTestId('device-problem').count()) === 1;
  });
  await journey.screenshot('lan-unplugged', false);
  await hik.start();
  await until('the terminal back', async () => {
    await page.reload();
    await deviceRow(HIK).waitFor();
    return (await deviceRow(HIK).getByTestId('device-problem').count()) === 0;
  });
  await menu(tr('route.attendance'), tr('route.attendanceList'), 'punch-list-page');
  await until('the backlog in the punch records', async () => (await punchRows(HIK)) === 3);
  // Searched again at every later call, the pushed event and the backlog stay one punch each.
  await new Promise((r) => setTimeout(r, 3000));
  assert.equal(await punchRows(HIK), 3);
  await journey.screenshot('lan-backlog', false);
});

step('a ZKTeco terminal in the same company: added by serial, it calls in, holds her face and uploads its punches', async () => {
  await menu(tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await page.getByTestId('device-create').click();
  const dialog = modal(tr('device.create'));
  await dialog.locator('#name').fill(ZK);
  await dialog.locator('#serial').fill(ZK_SERIAL);
  await dialog.locator('#ip').fill('127.0.0.1');
  await dialog.locator('#password').fill('123456');
  await dialog.getByText(tr('device.scope.all')).click();
  await dialog.getByTestId('device-save').click();
  await dialog.waitFor({ state: 'hidden' });
  zk = createTerminal({ server: server.baseUrl, sn: ZK_SERIAL, pollMs: 500, retryMs: 1000 });
  await zk.start();
  await deviceRow(ZK).locator('[data-testid=device-online][data-online="1"]').waitFor({ timeout: 20_000 });
  await deviceRow(ZK).getByTestId('device-sync').getByText('1/1').waitFor({ timeout: 30_000 });
  assert.equal(zk.users.get('1')?.name, 'Hana Sato');
  assert.equal(zk.photos.get('1')?.subarray(0, 2).toString('hex'), 'ffd8');
  assert.equal((await zk.recognize({ pin: '1' })).outcome, 'opened');
  // Unplugged, it keeps two punches and uploads them when it calls in again; a retried upload changes nothing.
  await zk.stop();
  for (let i = 0; i < 2; i++) {
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await zk.punch({ pin: '1' })).uploaded, false);
  }
  await zk.start();
  await menu(tr('route.attendance'), tr('route.attendanceList'), 'punch-list-page');
  await until('the ZK punches in the punch records', async () => (await punchRows(ZK)) === 3, 30_000);
  await zk.replay(1);
  assert.equal(await punchRows(ZK), 3);
  assert.equal(await punchRows(HIK), 3);
  await journey.screenshot('lan-both', false);
});

step("the Hikvision terminal's firmware is upgraded from the console after a confirmation, and its log is fetched", async () => {
  const hik = terminals[0]!;
  await menu(tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await page.getByTestId('device-firmware').click();
  const drawer = page.getByTestId('firmware-drawer');
  await drawer.waitFor();
  await drawer.getByTestId('firmware-name').fill('Hikvision face terminal');
  await drawer.getByTestId('firmware-version').fill('V3.3.0');
  await drawer
    .locator('input[type=file]')
    .setInputFiles({ name: 'digicap.dav', mimeType: 'application/octet-stream', buffer: isapiEmulatorFirmware('V3.3.0', { build: 'build 251120' }) });
  await drawer.getByTestId('firmware-upload').click();
  await toastOf(page, tr('device.fleet.uploaded')).waitFor();
  const row = drawer.locator('[data-testid=firmware-table] .ant-table-row', { hasText: 'V3.3.0' });
  await row.getByTestId('firmware-upgrade').click();
  const pick = modal(tr('device.fleet.upgradeTitle', { name: 'Hikvision face terminal', version: 'V3.3.0' }));
  await pick.getByTestId('upgrade-devices').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: HIK }).click();
  await page.keyboard.press('Escape');
  await pick.getByRole('button', { name: tr('device.fleet.upgrade') }).click();
  const confirm = page.locator('.ant-modal-confirm', { hasText: tr('device.fleet.upgradeConfirm', { count: 1, version: 'V3.3.0' }) });
  await confirm.getByText(HIK, { exact: false }).waitFor();
  assert.equal(hik.firmware, 'V3.2.0', 'nothing is sent before the confirmation');
  await confirm.getByRole('button', { name: tr('device.fleet.upgrade') }).click();
  await toastOf(page, tr('device.fleet.upgradeSent')).waitFor();
  const upgrade = drawer.locator('[data-testid=upgrade-table] .ant-table-row', { hasText: HIK });
  await upgrade.getByTestId('upgrade-state').getByText(tr('device.fleet.states.done')).waitFor({ timeout: 60_000 });
  assert.equal((await upgrade.getByTestId('upgrade-versions').textContent())?.trim(), 'V3.2.0 build 241120 → V3.3.0 build 251120');
  assert.equal(hik.firmware, 'V3.3.0');
  await journey.screenshot('lan-upgraded', false);
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });
  await deviceRow(HIK).getByTestId('device-version').getByText('DS-K1T671M V3.3.0 build 251120').waitFor({ timeout: 20_000 });

  await deviceRow(HIK).getByTestId('device-more').click();
  await page.getByRole('menuitem', { name: tr('device.fleet.logs') }).click();
  const dialog = page.getByTestId('device-logs-dialog');
  await dialog.getByTestId('log-capture').click();
  await dialog.getByTestId('log-state').getByText(tr('device.fleet.logStates.done')).waitFor({ timeout: 30_000 });
  const download = page.waitForEvent('download');
  await dialog.getByTestId('log-download').click();
  const file = await download;
  assert.match(file.suggestedFilename(), /isapi-log\.txt$/);
  const text = (await downloaded(file)).toString('utf8');
  assert.match(text, /remoteOpenDoor/, "the terminal's own log has the door opened from the console");
  await journey.screenshot('lan-log', false);
});

test('the server log has no terminal password', () => {
  assert.ok(!server.log().includes('hik-Pass-1'));
});
