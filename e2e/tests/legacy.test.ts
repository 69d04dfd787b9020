// Browser journey of issue #30 "take over a working site", from the old software's files: a ZKBioTime-style employee
// export (GBK, Chinese headers) and a transaction export are read on People → From the old software, their columns
// mapped by their headers, checked without writing, then imported; the people and their punches are there after.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import iconv from 'iconv-lite';
import type { Page } from 'playwright-core';
import { api } from '../lib/api.ts';
import { axeViolations } from '../lib/axe.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { menu as menuOf, openPath, signInAndCreateCompany, translator, waitForPath as waitForPathOf } from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const EN = loadLocale('en-US');
const tr = translator(EN);
const SERIAL = 'E2ELEGACY1';

// Written by hand: ZKBioTime's employee columns in Chinese, as a Chinese Windows saves them (GBK).
const EMPLOYEES = iconv.encode(
  [
    '工号,姓名,部门,卡号,入职日期,性别,手机',
    '2001,陈静,总部/财务部,11112222,2023-09-01,女,13900000001',
    '2002,刘洋,总部/财务部,,2024-01-15,男,13900000002',
    '2003,周敏,总部/仓库,,2024-13-01,女,',
  ].join('\r\n'),
  'gbk',
);
// Written by hand: ZKBioTime's department columns (GBK): a parent by code, one by name, a child before its parent.
const DEPARTMENTS = iconv.encode(['部门编号,部门名称,上级部门', '4,固件组,3', '1,总部,', '3,研发部,1', '5,财务部,总部'].join('\r\n'), 'gbk');
const TRANSACTIONS = Buffer.from(
  [
    'Employee ID,Punch Time,Device SN,Punch State',
    `2001,2026-11-02 08:58:00,${SERIAL},Check In`,
    `2001,2026-11-02 18:01:00,${SERIAL},Check Out`,
    `2002,2026-11-02 09:02:00,${SERIAL},Check In`,
    `7777,2026-11-02 09:10:00,${SERIAL},Check In`,
  ].join('\n'),
);

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;

async function accessible(what: string) {
  await page.mouse.move(0, 0);
  const found = await axeViolations(page, '[data-testid=legacy-page]');
  assert.deepEqual(found, [], `${what}: ${JSON.stringify(found, null, 2)}`);
}

async function readFile(name: string, buffer: Buffer) {
  await page.locator('[data-testid=legacy-page] input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer });
  await page.getByTestId('legacy-read').click();
  await page.getByTestId('legacy-preview-summary').waitFor();
}

/** Runs the file (checked or imported) and waits for its report. */
async function runFile(button: 'legacy-check' | 'legacy-import', title: string) {
  await page.getByTestId(button).click();
  await page.getByTestId('legacy-report-title').getByText(title).waitFor({ timeout: 30_000 });
}
const count = async (k: string) => Number(await page.getByTestId(`legacy-count-${k}`).innerText());

before(async () => {
  server = await startServer(ADMIN);
  journey = await openJourney({ prefix: 'legacy-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await server?.stop();
});

step('People → From the old software opens the take-over page', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Old Software Ltd', phone: '+8613800000031' });
  await api(page, 'POST', '/device/create', { name: 'Main gate', serial: SERIAL, ip: '192.168.7.31', password: '123456' });
  await menuOf(page, tr('route.user'), tr('route.personList'), 'person-list-page');
  await page.getByTestId('person-legacy').click();
  await waitForPathOf(page, '/user/legacy');
  await page.getByTestId('legacy-page').getByText(tr('legacy.intro')).waitFor();
});

step('an employee export in GBK: read with its columns mapped by their Chinese headers; the check writes nothing and names the bad row', async () => {
  await readFile('employees.csv', EMPLOYEES);
  await page
    .getByTestId('legacy-preview-summary')
    .getByText(tr('legacy.summary', { file: 'employees.csv', count: 3 }))
    .waitFor();
  // the encoding detected, the columns guessed: number, name, department, card, hire date, phone
  await page.getByTestId('legacy-encoding').getByText(tr('legacy.encodings.gbk')).waitFor();
  await page
    .getByTestId('legacy-map-number')
    .getByText(tr('legacy.column', { n: 1, header: '工号', example: '2001' }))
    .waitFor();
  await page
    .getByTestId('legacy-map-department')
    .getByText(tr('legacy.column', { n: 3, header: '部门', example: '总部/财务部' }))
    .waitFor();
  await page
    .getByTestId('legacy-map-gender')
    .getByText(tr('legacy.column', { n: 6, header: '性别', example: '女' }))
    .waitFor();
  await page.getByTestId('legacy-sample').getByText('陈静').waitFor();
  await journey.screenshot('employees-read');
  await accessible('the file read and mapped');

  await runFile('legacy-check', tr('legacy.report.checked', { count: 3 }));
  assert.deepEqual([await count('created'), await count('departments'), await count('failed')], [2, 2, 1]);
  await page.getByTestId('legacy-errors').getByText('"2024-13-01" is not a date', { exact: false }).waitFor();
  assert.equal((await api<{ total: number }>(page, 'GET', '/person/list?pageSize=10')).total, 0, 'a check writes nothing');
  await accessible('the check’s report');
});

step('Import: the people are made with their departments; the same file again changes nothing, its mapping remembered', async () => {
  await runFile('legacy-import', tr('legacy.report.imported', { count: 3 }));
  assert.deepEqual([await count('created'), await count('departments')], [2, 2]);
  const people = await api<{ items: { number: string; name: string; gender: string | null }[] }>(page, 'GET', '/person/list?pageSize=10');
  assert.deepEqual(people.items.map((p) => `${p.name} ${p.gender}`).sort(), ['刘洋 male', '陈静 female'].sort());

  await readFile('employees.csv', EMPLOYEES);
  await page.getByTestId('legacy-remembered').waitFor();
  await runFile('legacy-import', tr('legacy.report.imported', { count: 3 }));
  assert.deepEqual([await count('created'), await count('updated'), await count('unchanged')], [0, 0, 2]);
});

step('a department export: its parents read by code and by name, the new departments made beside those the employees brought', async () => {
  await page.getByTestId('legacy-kind').getByText(tr('legacy.kinds.departments')).click();
  await readFile('departments.csv', DEPARTMENTS);
  await page.getByTestId('legacy-encoding').getByText(tr('legacy.encodings.gbk')).waitFor();
  await page
    .getByTestId('legacy-map-parent')
    .getByText(tr('legacy.column', { n: 3, header: '上级部门', example: '3' }))
    .waitFor();
  await runFile('legacy-import', tr('legacy.report.imported', { count: 4 }));
  // 总部 and 总部/财务部 came with the employees; 研发部 and 固件组 are new
  assert.deepEqual([await count('departments'), await count('departmentsHere'), await count('failed')], [2, 2, 0]);
  const tree = JSON.stringify(await api(page, 'GET', '/org/tree'));
  for (const name of ['研发部', '固件组']) assert.ok(tree.includes(name), `${name} made`);
  await accessible('the departments imported');
});

step('a transaction export becomes punches of the terminal: the unknown number kept as a stranger', async () => {
  await page.getByTestId('legacy-kind').getByText(tr('legacy.kinds.transactions')).click();
  await readFile('transactions.csv', TRANSACTIONS);
  await page
    .getByTestId('legacy-map-terminal')
    .getByText(tr('legacy.column', { n: 3, header: 'Device SN', example: SERIAL }))
    .waitFor();
  await runFile('legacy-import', tr('legacy.report.imported', { count: 4 }));
  assert.deepEqual([await count('stored'), await count('strangers'), await count('failed')], [4, 1, 0]);
  await journey.screenshot('transactions-imported');
  await accessible('the transactions imported');
  const punches = await api<{ total: number }>(page, 'GET', '/attendance/list?pageSize=10');
  assert.equal(punches.total, 4, 'every punch of the file, under the terminal');
});

step('on a phone (390 px) nothing overflows the screen', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.getByTestId('legacy-report').waitFor();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `the page is ${wide} px wide`);
    await accessible('the page on a phone');
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
});

step('the strangers page names the number no one here has; adding them as a person offers that number', async () => {
  await openPath(page, '/stranger');
  const card = page.getByTestId('stranger-card').filter({ hasText: tr('stranger.unknownNumber', { number: '7777' }) });
  await card.waitFor();
  await card.getByTestId('stranger-add-person').click();
  await page.getByTestId('person-form').locator('#number').waitFor();
  await page.waitForFunction(() => document.querySelector<HTMLInputElement>('[data-testid=person-form] #number')?.value === '7777');
  await page.keyboard.press('Escape');
  await page.getByTestId('person-form').waitFor({ state: 'hidden' });
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(journey.pageErrors, []);
});
