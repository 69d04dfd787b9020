// Browser journey of issue #20 "Hikvision ISAPI": the real server, the built console, Debian Chromium and an
// emulated Hikvision terminal (tools/isapi-emulator) the server dials. A wrong password is shown with its
// meaning; corrected, the terminal comes online with its model and firmware, gets its people and opens its door.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createIsapiTerminal, type IsapiTerminal } from '../../tools/isapi-emulator/terminal.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { facePhoto } from '../lib/faces.ts';
import { addDepartment, addPerson, menu as menuOf, modal as modalOf, signInAndCreateCompany, toast as toastOf, translator } from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const SERIAL = 'HIKE2E0001';
const EN = loadLocale('en-US');
const tr = translator(EN);
const SERVER_EN = JSON.parse((await import('node:fs')).readFileSync(new URL('../../apps/server/src/i18n/locales/en-US.json', import.meta.url), 'utf8')) as {
  device: { isapi: Record<string, string> };
};

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let terminal: IsapiTerminal;

const deviceRow = () => page.locator('[data-testid=device-table] .ant-table-row', { hasText: SERIAL });
const menu = (section: string, item: string, pageTestId: string) => menuOf(page, section, item, pageTestId);
const modal = (title: string) => modalOf(page, title);

before(async () => {
  server = await startServer(ADMIN, { DEVICE_POLL_SECONDS: '1' });
  terminal = await createIsapiTerminal({ password: 'hik-Pass-1', serial: 'DS-K1T671M-E2E' });
  journey = await openJourney({ prefix: 'isapi-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await terminal?.stop();
  await server?.stop();
});

step('a company with one person with a photo', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Hik Gate Ltd', phone: '+8613800000009' });
  await addDepartment(page, tr, 'Lobby');
  await addPerson(page, tr, { name: 'Hana Sato', phone: '13800000011', department: 'Lobby', photo: await facePhoto('Hana Sato', 60) });
});

step('add the terminal by address, port, account and a wrong password: the refusal is shown with its meaning', async () => {
  await menu(tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await page.getByTestId('device-create').click();
  const dialog = modal(tr('device.create'));
  await dialog.getByText(tr('device.protocol.isapi')).click();
  await dialog.getByText(tr('device.protocol.isapiHint')).waitFor();
  await dialog.locator('#name').fill('Lobby gate');
  await dialog.locator('#serial').fill(SERIAL);
  await dialog.locator('#ip').fill('127.0.0.1');
  await dialog.locator('#port').fill(String(terminal.port));
  await dialog.locator('#account').fill('admin');
  await dialog.locator('#password').fill('not-the-password');
  await dialog.getByText(tr('device.scope.all')).click();
  await dialog.getByTestId('device-save').click();
  await dialog.waitFor({ state: 'hidden' });
  await deviceRow().getByTestId('device-address').getByText(`127.0.0.1:${terminal.port}`).waitFor();
  await deviceRow().getByTestId('device-problem').getByText(SERVER_EN.device.isapi.wrongPassword!).waitFor({ timeout: 20_000 });
  assert.equal(await deviceRow().getByTestId('device-online').getAttribute('data-online'), '0');
  await journey.screenshot('wrong-password', false);
});

step('the corrected password brings it online with its model and firmware, and the person reaches it', async () => {
  await deviceRow().getByTestId('device-more').click();
  await page.getByRole('menuitem', { name: tr('common.actions.edit') }).click();
  const dialog = modal(tr('device.edit'));
  await dialog.locator('#password').fill('hik-Pass-1');
  await dialog.getByTestId('device-save').click();
  await dialog.waitFor({ state: 'hidden' });
  await deviceRow().locator('[data-testid=device-online][data-online="1"]').waitFor({ timeout: 20_000 });
  await deviceRow().getByTestId('device-version').getByText('DS-K1T671M V3.2.0 build 241120').waitFor({ timeout: 20_000 });
  assert.equal(await deviceRow().getByTestId('device-problem').count(), 0);
  await deviceRow().getByTestId('device-sync').getByText('1/1').waitFor({ timeout: 20_000 });
  assert.deepEqual([...terminal.users.keys()], ['1']);
  assert.equal(terminal.faces.get('1')?.subarray(0, 2).toString('hex'), 'ffd8');
});

step('the door opens; a recognition arrives as a punch', async () => {
  await deviceRow().getByTestId('device-open').click();
  await toastOf(page, tr('device.result.opened')).waitFor({ timeout: 20_000 });
  assert.equal(terminal.doorOpens.length, 1);
  const r = await terminal.recognize('1');
  assert.equal(r.pushed, true, 'the server took the pushed event');
  await journey.screenshot('isapi-online', false);
});

test('server log has no secrets of the terminal', () => {
  assert.ok(!server.log().includes('hik-Pass-1'));
  assert.ok(!/\/isapi\/event\/\d+\/[A-Za-z0-9_-]{16,}/.test(server.log()));
});
