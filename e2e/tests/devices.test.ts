// Browser journey of issue "Face devices": the real server, the built console, Debian Chromium and an emulated
// ZKTeco terminal (tools/zk-emulator) speaking PUSH to the same server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { until as untilOf } from '../../apps/server/test/terminals.ts';
import { createTerminal, type Terminal } from '../../tools/zk-emulator/terminal.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { facePhoto } from '../lib/faces.ts';
import {
  fillPerson,
  menu as menuOf,
  modal as modalOf,
  signInAndCreateCompany,
  toast as toastOf,
  translator,
  waitForPath as waitForPathOf,
} from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const SERIAL = 'E2EFACE0001';
const DEVICE = 'Front door';
const EN = loadLocale('en-US');
const tr = translator(EN);

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let terminal: Terminal;
const extra: Terminal[] = [];

const screenshot = (name: string, fullPage?: boolean) => journey.screenshot(name, fullPage);

const waitForPath = (expected: string | RegExp) => waitForPathOf(page, expected);

const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000, stepMs = 250) => untilOf(what, check, timeoutMs, stepMs);

const toast = (text: string) => toastOf(page, text);
const modal = (title: string) => modalOf(page, title);
const deviceRow = () => page.locator('[data-testid=device-table] .ant-table-row', { hasText: SERIAL });
const personRow = (text: string) => page.locator('[data-testid=person-table] .ant-table-row', { hasText: text });
const ledgerRow = (text: string) => page.locator('[data-testid=ledger-table] .ant-table-row', { hasText: text });
const ledgerState = (text: string) => ledgerRow(text).getByTestId('ledger-state').getAttribute('data-state');

const menu = (section: string, item: string, pageTestId: string) => menuOf(page, section, item, pageTestId);

function startTerminal(sn: string): Terminal {
  // A breathalyser model, so the alcohol tab has something to set.
  return createTerminal({ server: server.baseUrl, sn, pollMs: 500, retryMs: 1000, ip: '192.168.7.21', firmware: 'ZMM220-E2E', alcohol: true });
}

before(async () => {
  server = await startServer(ADMIN, { DEVICE_POLL_SECONDS: '1' });
  journey = await openJourney({ prefix: 'devices-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await terminal?.stop();
  for (const t of extra) await t.stop();
  await server?.stop();
});

step('sign in, create a company, a department and two people with photos', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Acme Devices Ltd', phone: '+8613800000002' });

  // spec §2: the /attendance section is opened by default; /device needs a click
  await page
    .getByTestId('sidebar')
    .getByRole('menuitem', { name: tr('route.attendanceList') })
    .waitFor({ state: 'visible' });

  await menu(tr('route.user'), tr('route.organization'), 'organization-page');
  await waitForPath('/user/organization');
  await page.getByTestId('dept-add-top').click();
  const dialog = modal(tr('org.addTop'));
  await dialog.getByTestId('department-name').fill('Office');
  await dialog.getByRole('button', { name: tr('common.actions.save') }).click();
  await dialog.waitFor({ state: 'hidden' });

  await menu(tr('route.user'), tr('route.personList'), 'person-list-page');
  await waitForPath('/user/list');
  for (const [i, name] of ['Alice Chen', 'Bob Li'].entries()) {
    await page.getByTestId('person-create').click();
    await page.getByTestId('person-form').waitFor({ state: 'visible' });
    await page.waitForFunction((n) => document.querySelector<HTMLInputElement>('[data-testid=person-form] #number')?.value === n, String(i + 1));
    await fillPerson(page, { name, phone: `1380000000${i + 1}`, department: 'Office', photo: await facePhoto(name, 40 + i * 150) });
    await page.getByTestId('person-save').click();
    await personRow(name).waitFor();
    await page.getByTestId('person-form').waitFor({ state: 'hidden' });
  }
});

step('register the device; the emulated terminal calls in and the list shows it online', async () => {
  await menu(tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await waitForPath('/device/list');

  // spec §5: name, serial, IP and device password are required
  await page.getByTestId('device-create').click();
  const dialog = modal(tr('device.create'));
  await dialog.getByTestId('device-save').click();
  // The form's messages render after validation settles: wait for the fourth before counting (a loaded machine raced it).
  await dialog.getByText(tr('common.validation.required')).nth(3).waitFor();
  assert.equal(await dialog.getByText(tr('common.validation.required')).count(), 4);
  await dialog.locator('#ip').fill('10.1.2.300');
  await dialog.getByText(tr('device.validation.ip')).waitFor();
  await dialog.locator('#name').fill(DEVICE);
  await dialog.locator('#serial').fill(SERIAL);
  await dialog.locator('#ip').fill('192.168.7.21');
  await dialog.locator('#password').fill('123456');
  // two-person authentication is explained where it is chosen
  await dialog.getByText(tr('device.functionType.hint')).waitFor();
  await dialog.getByTestId('device-save').click();
  await dialog.waitFor({ state: 'hidden' });
  await deviceRow().waitFor();
  assert.equal(await deviceRow().getByTestId('device-online').getAttribute('data-online'), '0');

  terminal = startTerminal(SERIAL);
  await terminal.start();
  await deviceRow().locator('[data-testid=device-online][data-online="1"]').waitFor({ timeout: 20_000 });
  // the firmware arrives with the terminal's first poll (INFO=)
  await deviceRow().getByText('ZMM220-E2E').waitFor({ timeout: 20_000 });
  await screenshot('list-online');
});

step('a terminal with an unregistered serial is offered in the add dialog', async () => {
  const stranger = startTerminal('E2EUNKNOWN9');
  extra.push(stranger);
  void stranger.start();
  await page.getByTestId('device-create').click();
  const dialog = modal(tr('device.create'));
  const choice = dialog.getByTestId('device-unknown-choice').filter({ hasText: 'E2EUNKNOWN9' });
  await choice.waitFor({ timeout: 20_000 });
  await choice.click();
  await page.waitForTimeout(400); // the dialog has finished its opening animation
  await screenshot('add-unknown', false);
  assert.equal(await dialog.locator('#serial').inputValue(), 'E2EUNKNOWN9');
  assert.ok((await dialog.locator('#ip').inputValue()).length > 0, 'the IP is filled in');
  await dialog.getByRole('button', { name: tr('common.actions.cancel') }).click();
  await dialog.waitFor({ state: 'hidden' });
  await stranger.stop();
});

step('personManage: add the department; both people reach the terminal with their photos', async () => {
  await deviceRow().getByTestId('device-people').click();
  await waitForPath(/^\/device\/personManage\/\d+$/);
  await page.getByTestId('device-person-page').waitFor();
  await page.getByTestId('device-header').getByText(DEVICE).waitFor();

  await page.getByTestId('ledger-add').click();
  const dialog = modal(tr('device.persons.addTitle'));
  const office = dialog.locator('.ant-tree-treenode', { has: page.getByText('Office', { exact: true }) });
  await office.locator('.ant-tree-checkbox').click();
  await dialog
    .getByText(tr('device.persons.picked', { departments: tr('common.count.departments', { count: 1 }), people: tr('common.count.people', { count: 0 }) }))
    .waitFor();
  await dialog.getByTestId('add-persons-ok').click();
  await toast(tr('device.persons.added', { added: 2, skipped: 0 })).waitFor();

  await ledgerRow('Alice Chen').waitFor();
  await ledgerRow('Bob Li').waitFor();
  await until(
    'both people synced in the console',
    async () => (await ledgerState('Alice Chen')) === 'synced' && (await ledgerState('Bob Li')) === 'synced',
    30_000,
  );
  await page.getByTestId('device-header').getByText('2/2').waitFor();
  await screenshot('people-synced');

  assert.deepEqual([...terminal.users.values()].map((u) => u.name).sort(), ['Alice Chen', 'Bob Li']);
  assert.deepEqual([...terminal.photos.keys()].sort(), ['1', '2']);
  for (const jpeg of terminal.photos.values()) assert.equal(jpeg.subarray(0, 2).toString('hex'), 'ffd8', 'a JPEG photo');
});

step('open the door from the list; the terminal opens it', async () => {
  await menu(tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await deviceRow().getByTestId('device-sync').getByText('2/2').waitFor();
  await deviceRow().getByTestId('device-open').click();
  await toast(tr('device.result.opened')).waitFor({ timeout: 20_000 });
  assert.equal(terminal.doorOpenCount, 1);
  await screenshot('door-opened', false);
});

step('the settings drawer queues changed options', async () => {
  await deviceRow().getByTestId('device-settings').click();
  const drawer = page.getByTestId('settings-form');
  await drawer.getByText(tr('device.settings.screenHint')).waitFor();
  const threshold = drawer.locator('#options_recognition_threshold');
  assert.equal(await threshold.inputValue(), '500');
  await threshold.fill('650');
  await drawer.getByRole('tab', { name: tr('device.settings.tabs.other') }).click();
  await drawer.locator('#special_AutoRebootDay').fill('7');
  await screenshot('settings', false);
  await drawer.getByRole('tab', { name: tr('device.settings.tabs.alcohol') }).click();
  await drawer.getByText(tr('device.settings.alcoholIntro')).waitFor();
  assert.equal(await drawer.locator('#options_alcohol_threshold').inputValue(), '20');
  await drawer.locator('#flags_alcohol_enable').click();
  await drawer.locator('#options_alcohol_threshold').fill('30');
  await screenshot('settings-alcohol', false);
  await page.getByTestId('settings-save').click();
  await toast(tr('device.settings.queued', { count: 4 })).waitFor();
  await drawer.waitFor({ state: 'hidden' });
  await until('the terminal took the settings', () => terminal.options.alcohol_enable === '1' && terminal.options.alcohol_threshold === '30');
});

step('a punch with a photo shows up in the punch records', async () => {
  const photo = await facePhoto('Punch', 120);
  const r = await terminal.punch({ pin: '1', photo, alcohol: 45 });
  assert.ok(r.uploaded, 'the server took the punch');

  await menu(tr('route.attendance'), tr('route.attendanceList'), 'punch-list-page');
  await waitForPath('/attendance/list');
  const row = page.locator('[data-testid=punch-table] .ant-table-row', { hasText: 'Alice Chen' });
  await row.waitFor({ timeout: 20_000 });
  assert.match(await row.innerText(), new RegExp(DEVICE));
  // 45 mg/100 mL is over the threshold of 30 set above: marked red.
  assert.equal(await row.getByTestId('alcohol-over').innerText(), '45.0');
  const img = row.getByTestId('punch-photo').locator('img');
  await img.waitFor();
  await until('the punch picture loads', () => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0));
  await screenshot('punches');
  // the thumbnail opens a preview
  await img.click();
  await page.locator('.ant-image-preview-img').waitFor();
  await page.keyboard.press('Escape');
});

step('stop the terminal: the device turns offline and the bell lists the offline message', async () => {
  await terminal.stop();
  await menu(tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await deviceRow().waitFor();
  // the server gives up on a device after max(3×Delay, Delay+30)+10 s of silence (41 s with a 1 s poll)
  await until(
    'the device offline in the list',
    async () => {
      await page.reload();
      await deviceRow().waitFor();
      return (await deviceRow().getByTestId('device-online').getAttribute('data-online')) === '0';
    },
    90_000,
    5000,
  );
  await screenshot('offline');

  await page.getByTestId('message-bell').click();
  await waitForPath('/message/message');
  await page.getByText(`${DEVICE} is offline`).first().waitFor({ timeout: 20_000 });
  await screenshot('messages');
});

step('rename a person while the device is offline; the sync asks about the offline device', async () => {
  await menu(tr('route.user'), tr('route.personList'), 'person-list-page');
  await personRow('Alice Chen').getByTestId('person-edit').click();
  const form = page.getByTestId('person-form');
  // the drawer shows the person's devices and their sync state
  const devices = page.getByTestId('person-devices');
  await devices.getByText(DEVICE).waitFor();
  await devices.locator('[data-testid=ledger-state][data-state=synced]').waitFor();
  await form.locator('#name').fill('Alice Wang');
  await page.getByTestId('person-save').click();
  await personRow('Alice Wang').waitFor();
  await form.waitFor({ state: 'hidden' });

  await personRow('Alice Wang').locator('.ant-checkbox-input').check();
  await page.getByTestId('person-sync').click();
  const question = page.locator('.ant-modal-confirm', { hasText: tr('person.syncOffline.question') });
  await question.waitFor();
  assert.match(await question.getByTestId('sync-offline').innerText(), new RegExp(DEVICE));
  await page.waitForTimeout(400);
  await screenshot('sync-offline-question', false);
  await question.getByRole('button', { name: tr('person.syncOffline.skip') }).click();
  await toast(tr('person.syncDone', { people: tr('common.count.people', { count: 1 }), devices: tr('common.count.devices', { count: 0 }) })).waitFor();
});

step('restart the terminal: the new name arrives and the ledger returns to synced', async () => {
  await menu(tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await deviceRow().getByTestId('device-people').click();
  await waitForPath(/^\/device\/personManage\/\d+$/);
  await page.getByTestId('device-person-page').waitFor();
  await ledgerRow('Alice Wang').waitFor();
  assert.equal(await ledgerState('Alice Wang'), 'pending');
  await page.getByText(tr('device.ledger.autoRefresh')).waitFor();

  await terminal.start();
  await until('the new name on the terminal', () => terminal.users.get('1')?.name === 'Alice Wang', 30_000);
  await until('Alice synced again in the console', async () => (await ledgerState('Alice Wang')) === 'synced', 30_000);
  await page.getByTestId('device-header').locator('[data-testid=device-online][data-online="1"]').waitFor({ timeout: 20_000 });
  assert.equal(await ledgerState('Bob Li'), 'synced');
  await screenshot('resynced');
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(journey.pageErrors, []);
});
