// Browser journey of issue #20 "The fleet": an administrator uploads terminal firmware, upgrades a terminal after a
// confirmation and sees the version before and after, then fetches the terminal's log file and downloads it. The real
// server, the built console, Debian Chromium and an emulated ZKTeco terminal (tools/zk-emulator) speaking PUSH.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createTerminal, emulatorFirmware, type Terminal } from '../../tools/zk-emulator/terminal.ts';
import { downloaded, journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { menu as menuOf, modal as modalOf, signInAndCreateCompany, toast as toastOf, translator } from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const SERIAL = 'E2EFLEET01';
const DEVICE = 'Fleet door';
const tr = translator(loadLocale('en-US'));

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let terminal: Terminal | undefined;

const toast = (text: string) => toastOf(page, text);
const modal = (title: string) => modalOf(page, title);
const deviceRow = () => page.locator('[data-testid=device-table] .ant-table-row', { hasText: SERIAL });

before(async () => {
  server = await startServer(ADMIN, { DEVICE_POLL_SECONDS: '1' });
  journey = await openJourney({ prefix: 'fleet-', viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await terminal?.stop();
  await server?.stop();
});

step('sign in, register a device; the emulated terminal calls in with its firmware', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Fleet Ltd', phone: '+8613800000020' });
  await menuOf(page, tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await page.getByTestId('device-create').click();
  const dialog = modal(tr('device.create'));
  await dialog.locator('#name').fill(DEVICE);
  await dialog.locator('#serial').fill(SERIAL);
  await dialog.locator('#ip').fill('192.168.7.40');
  await dialog.locator('#password').fill('123456');
  await dialog.getByTestId('device-save').click();
  await dialog.waitFor({ state: 'hidden' });
  terminal = createTerminal({ server: server.baseUrl, sn: SERIAL, pollMs: 500, retryMs: 1000, rebootMs: 500, firmware: 'ZMM220-OLD' });
  await terminal.start();
  await deviceRow().getByText('ZMM220-OLD').waitFor({ timeout: 20_000 });
});

step('upload firmware once; upgrading asks first, then shows the terminal restarting and its new version', async () => {
  await page.getByTestId('device-firmware').click();
  const drawer = page.getByTestId('firmware-drawer');
  await drawer.waitFor();
  // Required fields are checked before anything is sent.
  await drawer.getByTestId('firmware-upload').click();
  await drawer.getByText(tr('device.fleet.nameRequired')).waitFor();
  await drawer.getByTestId('firmware-name').fill('Face terminal');
  await drawer.getByTestId('firmware-version').fill('ZMM220-NEW');
  await drawer.locator('input[type=file]').setInputFiles({ name: 'emfw.cfg', mimeType: 'application/octet-stream', buffer: emulatorFirmware('ZMM220-NEW') });
  await drawer.getByTestId('firmware-upload').click();
  await toast(tr('device.fleet.uploaded')).waitFor();
  const row = drawer.locator('[data-testid=firmware-table] .ant-table-row', { hasText: 'ZMM220-NEW' });
  await row.waitFor();

  await row.getByTestId('firmware-upgrade').click();
  const pick = modal(tr('device.fleet.upgradeTitle', { name: 'Face terminal', version: 'ZMM220-NEW' }));
  await pick.waitFor();
  // A multiple select stays open after a choice: pick, then close it.
  await pick.getByTestId('upgrade-devices').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: `${DEVICE} (ZMM220-OLD)` }).click();
  await page.keyboard.press('Escape');
  await pick.locator('.ant-select-selection-item', { hasText: DEVICE }).waitFor();
  await pick.getByRole('button', { name: tr('device.fleet.upgrade') }).click();
  // Upgrading restarts the door: a confirmation names it; nothing is sent before it.
  const confirm = page.locator('.ant-modal-confirm', { hasText: tr('device.fleet.upgradeConfirm', { count: 1, version: 'ZMM220-NEW' }) });
  await confirm.waitFor();
  await confirm.getByText(DEVICE, { exact: false }).waitFor();
  assert.equal(terminal!.firmware, 'ZMM220-OLD');
  await confirm.getByRole('button', { name: tr('device.fleet.upgrade') }).click();
  await toast(tr('device.fleet.upgradeSent')).waitFor();

  const upgrade = drawer.locator('[data-testid=upgrade-table] .ant-table-row', { hasText: DEVICE });
  await upgrade.getByTestId('upgrade-state').getByText(tr('device.fleet.states.done')).waitFor({ timeout: 30_000 });
  assert.equal((await upgrade.getByTestId('upgrade-versions').textContent())?.trim(), 'ZMM220-OLD → ZMM220-NEW');
  assert.equal(terminal!.rebootCount, 1);
  await journey.screenshot('upgraded');
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });
  await deviceRow().getByText('ZMM220-NEW').waitFor({ timeout: 20_000 });
});

step("fetch the terminal's log file from the device list and download it", async () => {
  await deviceRow().getByTestId('device-more').click();
  await page.getByRole('menuitem', { name: tr('device.fleet.logs') }).click();
  const dialog = page.getByTestId('device-logs-dialog');
  await dialog.getByTestId('log-capture').click();
  await dialog.getByTestId('log-state').getByText(tr('device.fleet.logStates.done')).waitFor({ timeout: 20_000 });
  const download = page.waitForEvent('download');
  await dialog.getByTestId('log-download').click();
  const file = await download;
  assert.match(file.suggestedFilename(), new RegExp(`^${SERIAL}-.*push\\.log$`));
  const text = (await downloaded(file)).toString('utf8');
  assert.match(text, /handshake online/, "the terminal's own log lines");
  await journey.screenshot('log-downloaded');
});
