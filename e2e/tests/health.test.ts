// Browser journey of the health-code and alcohol records (issue #10): the real server, the built console, Debian
// Chromium and an emulated health-code terminal with a breathalyser (tools/zk-emulator) speaking PUSH to the same server.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { until as untilOf } from '../../apps/server/test/terminals.ts';
import { createTerminal, type Terminal } from '../../tools/zk-emulator/terminal.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { facePhoto } from '../lib/faces.ts';
import { menu as menuOf, modal as modalOf, signInAndCreateCompany, translator, waitForPath as waitForPathOf } from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { ROOT, startServer, type RunningServer } from '../lib/server.ts';

// exceljs is the server's dependency: the journey borrows it to read the export (as people.test.ts does).
const ExcelJS = createRequire(path.join(ROOT, 'apps', 'server', 'package.json'))('exceljs');

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const SERIAL = 'E2EHEALTH01';
const DEVICE = 'Lobby gate';
const DAY = '2026-11-16';
const tr = translator(loadLocale('en-US'));

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let terminal: Terminal | undefined;
const tmp = mkdtempSync(path.join(tmpdir(), 'faceadmin-e2e-health-'));

const waitForPath = (expected: string | RegExp) => waitForPathOf(page, expected);
const until = (what: string, check: () => boolean | Promise<boolean>) => untilOf(what, check, 20_000, 250);
const menu = (item: string, pageTestId: string) => menuOf(page, tr('route.attendance'), item, pageTestId);
const rows = (table: string) => page.locator(`[data-testid=${table}] tbody .ant-table-row`);
const row = (table: string, text: string) => page.locator(`[data-testid=${table}] .ant-table-row`, { hasText: text });

async function exported(testId: string, filename: string): Promise<unknown[][]> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId(testId).click()]);
  assert.equal(download.suggestedFilename(), filename);
  const file = path.join(tmp, filename);
  await download.saveAs(file);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(readFileSync(file));
  const out: unknown[][] = [];
  wb.worksheets[0].eachRow((r: { values: unknown[] }) => out.push(r.values.slice(1)));
  return out;
}

before(async () => {
  server = await startServer(ADMIN, { DEVICE_POLL_SECONDS: '1' });
  journey = await openJourney({ prefix: 'health-', viewport: { width: 1600, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await terminal?.stop();
  await server?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

step('sign in, create a company and register the health-code terminal; it calls in', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Acme Health Ltd', phone: '+8613800000009' });
  await menuOf(page, tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await page.getByTestId('device-create').click();
  const dialog = modalOf(page, tr('device.create'));
  await dialog.locator('#name').fill(DEVICE);
  await dialog.locator('#serial').fill(SERIAL);
  await dialog.locator('#ip').fill('192.168.7.31');
  await dialog.locator('#password').fill('123456');
  await dialog.getByTestId('device-save').click();
  await dialog.waitFor({ state: 'hidden' });
  terminal = createTerminal({
    server: server.baseUrl,
    sn: SERIAL,
    pollMs: 500,
    retryMs: 1000,
    timezone: 8,
    health: true,
    alcohol: true,
    place: 'Building B lobby',
  });
  await terminal.start();
  await page
    .locator('[data-testid=device-table] .ant-table-row', { hasText: SERIAL })
    .locator('[data-testid=device-online][data-online="1"]')
    .waitFor({ timeout: 20_000 });
});

step('three punches with health codes (green, yellow, red) and breath readings reach the server', async () => {
  const t = terminal!;
  const photo = await facePhoto('Zhou Wen', 60);
  const sent = [
    await t.punch({
      pin: '101',
      time: `${DAY} 08:50:00`,
      photo,
      alcohol: 2.5,
      health: {
        color: 'green',
        name: 'Zhou Wen',
        idNumber: '110105199001010011',
        temperature: 36.4,
        natResult: 'negative',
        natTime: '2026-11-15 09:00:00',
        vaccineCount: 3,
        vaccineTime: '2022-03-01',
        trip: 'Beijing',
      },
    }),
    await t.punch({ pin: '102', time: `${DAY} 08:51:00`, alcohol: 45, health: { color: 'yellow', name: 'Wu Tao', temperature: 36.8 } }),
    await t.punch({ pin: '103', time: `${DAY} 08:52:00`, health: { color: 'red', name: 'Zheng Li', temperature: 37.6, natResult: 'positive' } }),
  ];
  for (const r of sent) assert.match(r.healthReply ?? '', /^OK/);
});

step('the health-code page lists them with colour tags and the punch picture; the colour filter narrows it', async () => {
  await menu(tr('route.attendanceHealth'), 'health-list-page');
  await waitForPath('/attendance/health');
  await until('three records', async () => (await rows('health-table').count()) === 3);
  const green = row('health-table', 'Zhou Wen');
  for (const text of [DEVICE, 'Building B lobby', '110105199001010011', '36.4 °C', tr('health.nat.negative'), 'Beijing', '2022-03-01'])
    assert.ok((await green.innerText()).includes(text), text);
  assert.equal(await green.getByTestId('health-color-green').innerText(), tr('health.colors.green'));
  await row('health-table', 'Wu Tao').getByTestId('health-color-yellow').waitFor();
  await row('health-table', 'Zheng Li').getByTestId('health-color-red').waitFor();
  const img = green.getByTestId('record-photo').locator('img');
  await img.waitFor();
  await until('the picture loads', () => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0));
  await journey.screenshot('health');

  await page.getByTestId('health-color-filter').click();
  await page.locator('.ant-select-dropdown .ant-select-item-option', { hasText: tr('health.colors.red') }).click();
  await until(
    'only the red record',
    async () => (await rows('health-table').count()) === 1 && (await rows('health-table').first().innerText()).includes('Zheng Li'),
  );
});

step('export the health records (the red one filtered) and reopen the workbook', async () => {
  const sheet = await exported('health-export', 'health.xlsx');
  assert.equal(sheet.length, 2, 'header + the red record');
  assert.deepEqual(sheet[0]!.slice(0, 3), [tr('health.fields.number'), tr('health.fields.name'), tr('health.fields.id_number')]);
  assert.equal(sheet[1]![1], 'Zheng Li');
});

step('the alcohol page lists the readings, over the limit in red, and exports them', async () => {
  await menu(tr('route.attendanceAlcohol'), 'alcohol-list-page');
  await waitForPath('/attendance/alcohol');
  await until('two readings', async () => (await rows('alcohol-table').count()) === 2);
  await row('alcohol-table', '102').getByTestId('alcohol-result-over').waitFor();
  await row('alcohol-table', '101').getByTestId('alcohol-result-under').waitFor();
  // Not on the roster: strangers, as on the punch records.
  await row('alcohol-table', '102').getByText(tr('health.stranger')).waitFor();
  await journey.screenshot('alcohol');
  await page.getByTestId('alcohol-over-filter').click();
  await page.locator('.ant-select-dropdown .ant-select-item-option', { hasText: tr('health.over') }).click();
  await until('only the reading over the limit', async () => (await rows('alcohol-table').count()) === 1);
  const sheet = await exported('alcohol-export', 'alcohol.xlsx');
  assert.equal(sheet.length, 2);
  assert.deepEqual(sheet[1]!.slice(0, 1), ['102']);
  assert.equal(sheet[1]![5], 45);
});
