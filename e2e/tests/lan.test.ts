// Browser journey of issue #20 "LAN mode": the real server with RUN_MODE=lan, the built console, Debian Chromium and
// emulated Hikvision terminals (tools/isapi-emulator) on 127.0.0.21–22. The menu lacks what LAN mode omits (spec §2),
// "Scan the network" finds the terminals, and one click adds one that comes online with its model.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createIsapiTerminal, type IsapiTerminal } from '../../tools/isapi-emulator/terminal.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { inputOf, menu as menuOf, modal as modalOf, signInAndCreateCompany, toast as toastOf, translator, waitForPath } from '../lib/journey.ts';
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
  journey = await openJourney({ prefix: 'lan-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await Promise.all(terminals.map((x) => x.stop()));
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
  await page.goto(`${server.baseUrl}/device/list`);
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

test('the server log has no terminal password', () => {
  assert.ok(!server.log().includes('hik-Pass-1'));
});
