// Browser journey of issue "People and departments": the real server, the built console, Debian Chromium.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { libreOfficeXlsx } from '../../apps/server/test/office.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { api } from '../lib/api.ts';
import { until as untilOf } from '../../apps/server/test/terminals.ts';
import { facePhoto } from '../lib/faces.ts';
import {
  fillPerson,
  menu as menuOf,
  modal as modalOf,
  pickTreeOption,
  signInAndCreateCompany,
  toast as toastOf,
  translator,
  waitForPath as waitForPathOf,
} from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { ROOT, startServer, type RunningServer } from '../lib/server.ts';

// exceljs is the server's dependency: the journey borrows it to read the export.
const serverRequire = createRequire(path.join(ROOT, 'apps', 'server', 'package.json'));
const ExcelJS = serverRequire('exceljs');

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const EN = loadLocale('en-US');
const tr = translator(EN);

const IMPORTED = 1000;
/** Data rows (0-based) that are wrong on purpose; spreadsheet row = index + 2 (row 1 holds the headers). */
const BAD = { missingName: 10, badCard: 500, unknownDept: 900 };

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let tmp: string;

const screenshot = (name: string, fullPage?: boolean) => journey.screenshot(name, fullPage);

const waitForPath = (expected: string | RegExp) => waitForPathOf(page, expected);

const modal = (title: string) => modalOf(page, title);
const deptNode = (name: string) => page.locator(`[data-testid=dept-tree] [data-dept="${name}"]`);
/** How deep a department sits, as the user sees it: the indentation units in front of it. */
const depth = (name: string) =>
  page
    .locator('[data-testid=dept-tree] .ant-tree-treenode', { has: page.locator(`[data-dept="${name}"]`) })
    .locator('.ant-tree-indent-unit')
    .count();
const toast = (text: string) => toastOf(page, text);
const row = (text: string) => page.locator('[data-testid=person-table] .ant-table-row', { hasText: text });

async function waitForDepth(name: string, expected: number): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if ((await depth(name)) === expected) return;
    await page.waitForTimeout(100);
  }
  assert.equal(await depth(name), expected, `${name} depth`);
}

/**
 * Drags a department onto another one the way a user does it in antd's tree: onto the lower half of the
 * target and a little to the right (one level deeper), which means "into this department".
 */
async function dragInto(name: string, target: string): Promise<void> {
  const box = await deptNode(target).boundingBox();
  assert.ok(box);
  await deptNode(name).dragTo(deptNode(target), { sourcePosition: { x: 8, y: 6 }, targetPosition: { x: 90, y: Math.round(box.height * 0.75) } });
}

async function deptAction(name: string, action: string): Promise<void> {
  await deptNode(name).hover();
  await deptNode(name).getByTestId('dept-actions').click();
  await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: action }).click();
}

async function addDepartment(name: string, parent?: string): Promise<void> {
  if (parent) await deptAction(parent, tr('org.addChild'));
  else await page.getByTestId('dept-add-top').click();
  const dialog = modal(parent ? tr('org.addChildOf', { name: parent }) : tr('org.addTop'));
  await dialog.getByTestId('department-name').fill(name);
  await dialog.getByRole('button', { name: tr('common.actions.save') }).click();
  await dialog.waitFor({ state: 'hidden' });
  await deptNode(name).waitFor();
}

before(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'faceadmin-people-'));
  server = await startServer(ADMIN);
  journey = await openJourney({ prefix: 'people-', viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await server?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

step('sign in, create a company; the Users section is open in the sidebar', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Acme People Ltd', phone: '+8613800000001' });

  // spec §2: the /user section is opened by default, so its pages are visible without a click
  const sidebar = page.getByTestId('sidebar');
  await sidebar.getByText(tr('route.user'), { exact: true }).waitFor();
  await sidebar.getByRole('menuitem', { name: tr('route.organization') }).waitFor({ state: 'visible' });
  await sidebar.getByRole('menuitem', { name: tr('route.personList') }).waitFor({ state: 'visible' });
});

step('organization: build HQ → R&D, Sales; drag Sales under R&D and back; a refused delete keeps the tree', async () => {
  await menuOf(page, tr('route.user'), tr('route.organization'), 'organization-page');
  await waitForPath('/user/organization');
  await page.getByText(tr('org.empty')).waitFor();

  await addDepartment('HQ');
  await addDepartment('R&D', 'HQ');
  await addDepartment('Sales', 'HQ');
  assert.equal(await depth('HQ'), 0);
  assert.equal(await depth('R&D'), 1);
  assert.equal(await depth('Sales'), 1);
  assert.equal((await deptNode('HQ').getByTestId('dept-total').innerText()).trim(), '(0)');

  // drag Sales onto R&D: it becomes R&D's sub-department
  await dragInto('Sales', 'R&D');
  await toast(tr('org.moved', { name: 'Sales' })).waitFor();
  await waitForDepth('Sales', 2);
  await screenshot('org-tree-moved');

  // R&D now has a sub-department: the server refuses to delete it and says why
  await deptAction('R&D', tr('common.actions.delete'));
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: tr('common.actions.delete') })
    .click();
  await toast('R&D').waitFor();
  assert.match(await page.locator('.ant-message-notice').last().innerText(), /sub-departments/);
  assert.equal(await deptNode('R&D').count(), 1);
  await waitForDepth('Sales', 2);

  // and back under HQ
  await dragInto('Sales', 'HQ');
  await toast(tr('org.moved', { name: 'Sales' }))
    .last()
    .waitFor();
  await waitForDepth('Sales', 1);

  // a temporary department can be renamed and deleted
  await addDepartment('Tmp', 'HQ');
  await deptAction('Tmp', tr('org.rename'));
  const rename = modal(tr('org.renameOf', { name: 'Tmp' }));
  await rename.getByTestId('department-name').fill('Temp');
  await rename.getByRole('button', { name: tr('common.actions.save') }).click();
  await deptNode('Temp').waitFor();
  await deptAction('Temp', tr('common.actions.delete'));
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: tr('common.actions.delete') })
    .click();
  await deptNode('Temp').waitFor({ state: 'detached' });
  await screenshot('org-tree');
});

step('add two people with photos through the form', async () => {
  await menuOf(page, tr('route.user'), tr('route.personList'), 'person-list-page');
  await waitForPath('/user/list');

  await page.getByTestId('person-create').click();
  const form = page.getByTestId('person-form');
  // the number is proposed by the server
  await page.waitForFunction(() => (document.querySelector<HTMLInputElement>('[data-testid=person-form] #number')?.value ?? '') !== '');
  assert.equal(await form.locator('#number').inputValue(), '1');
  // required fields are enforced before anything is sent
  await page.getByTestId('person-save').click();
  await form.getByText(tr('common.validation.required')).first().waitFor();

  // (no card number: the company's rfid option is off, so the form hides the field; e2e/tests/parking.test.ts covers it on)
  await fillPerson(page, { name: 'Alice Chen', phone: '13800000001', department: 'R&D', photo: await facePhoto('Alice', 200) });
  // a daily period whose end is before its start is refused in the form
  await form.getByTestId('period-add').click();
  await form.getByTestId('period-0-start').click();
  await page.keyboard.type('18:00');
  await page.keyboard.press('Enter');
  await form.getByTestId('period-0-end').click();
  await page.keyboard.type('09:00');
  await page.keyboard.press('Enter');
  await page.getByTestId('person-save').click();
  await form.getByText(tr('person.access.problems.order')).waitFor();
  await form.getByTestId('period-0-start').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('08:30');
  await page.keyboard.press('Enter');
  await form.getByText(tr('person.access.problems.order')).waitFor({ state: 'detached' });
  await screenshot('person-drawer', false);
  await page.getByTestId('person-save').click();
  await row('Alice Chen').waitFor();
  await form.waitFor({ state: 'hidden' });

  await page.getByTestId('person-create').click();
  await page.waitForFunction(() => document.querySelector<HTMLInputElement>('[data-testid=person-form] #number')?.value === '2');
  await fillPerson(page, { name: 'Bob Li', phone: '13800000002', department: 'Sales', photo: await facePhoto('Bob', 30) });
  await page.getByTestId('person-save').click();
  await row('Bob Li').waitFor();

  // the photo thumbnail is served with the session cookie
  const img = row('Alice Chen').locator('img').first();
  await img.waitFor();
  assert.ok(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), 'thumbnail loaded');
  assert.match(await row('Alice Chen').innerText(), /R&D/);
  assert.match(await row('Alice Chen').innerText(), new RegExp(tr('person.tags.working')));
  await screenshot('people-two');
});

step('import 1,000 people from a LibreOffice workbook; the report lists exactly the three bad rows', async () => {
  const lines = ['编号,姓名,联系电话,部门,卡号,在职状态'];
  for (let i = 0; i < IMPORTED + 3; i++) {
    const n = 2001 + i;
    const name = i === BAD.missingName ? '' : `Person ${n}`;
    const card = i === BAD.badCard ? '12ab' : String(900000 + n);
    const dept = i === BAD.unknownDept ? 'Nowhere' : ['R&D', 'Sales', 'HQ/R&D'][i % 3];
    lines.push([n, name, `139${String(n).padStart(8, '0')}`, dept, card, '在职'].join(','));
  }
  // LibreOffice makes the .xlsx a customer would send (not exceljs, which the server reads with)
  const xlsx = path.join(tmp, 'people.xlsx');
  writeFileSync(xlsx, libreOfficeXlsx(lines.join('\n') + '\n'));
  const csvPath = path.join(tmp, 'people.csv');
  writeFileSync(csvPath, lines.join('\n'));

  await page.getByTestId('person-import').click();
  const dialog = modal(tr('person.import.title'));
  await dialog.waitFor();
  // client-side check: only .xlsx
  await dialog.getByTestId('import-file').locator('input[type=file]').setInputFiles(csvPath);
  await toast(tr('person.import.badType')).waitFor();

  await dialog.getByTestId('import-file').locator('input[type=file]').setInputFiles(xlsx);
  await dialog.getByText('people.xlsx').waitFor();
  await dialog.getByTestId('import-start').click();
  const report = dialog.getByTestId('import-report');
  await report.waitFor({ timeout: 60_000 });
  assert.equal(await report.getByTestId('report-total').innerText(), String(IMPORTED + 3));
  assert.equal(await report.getByTestId('report-created').innerText(), String(IMPORTED));
  assert.equal(await report.getByTestId('report-failed').innerText(), '3');
  const errorRows = report.locator('[data-testid=import-errors] .ant-table-row');
  assert.equal(await errorRows.count(), 3);
  const texts = await errorRows.allInnerTexts();
  const rows = texts.map((t) => Number(t.trim().split(/\s+/)[0])).sort((a, b) => a - b);
  assert.deepEqual(
    rows,
    [BAD.missingName, BAD.badCard, BAD.unknownDept].map((i) => i + 2),
  );
  const byRow = (i: number) => texts.find((t) => t.trim().startsWith(String(i + 2)))!;
  assert.match(byRow(BAD.missingName), /姓名/);
  assert.match(byRow(BAD.badCard), /卡号/);
  assert.match(byRow(BAD.unknownDept), /Nowhere/);
  await screenshot('import-report', false);

  await dialog
    .locator('.ant-modal-footer')
    .getByRole('button', { name: tr('person.import.close') })
    .click();
  await dialog.waitFor({ state: 'hidden' });
  await page.locator('.ant-pagination-total-text', { hasText: tr('common.total', { count: IMPORTED + 2 }) }).waitFor();
});

step('export the list and reopen the downloaded workbook', async () => {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId('person-export').click()]);
  assert.equal(download.suggestedFilename(), 'people.xlsx');
  const file = path.join(tmp, 'export.xlsx');
  await download.saveAs(file);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(readFileSync(file));
  const ws = wb.worksheets[0];
  let rows = 0;
  ws.eachRow(() => (rows += 1));
  assert.equal(rows, 1 + IMPORTED + 2, 'header + every person');
  const header: string[] = [];
  ws.getRow(1).eachCell((c: { value: unknown }) => header.push(String(c.value)));
  assert.ok(header.length >= 5, `headers: ${header.join(', ')}`);
});

step('batch transfer moves people between departments', async () => {
  const keyword = page.getByTestId('person-keyword').locator('input');
  await keyword.fill('Person 202');
  await keyword.press('Enter');
  await page.locator('.ant-pagination-total-text', { hasText: tr('common.total', { count: 10 }) }).waitFor();
  await page.locator('[data-testid=person-table] thead .ant-checkbox-input').check();
  await page.getByText(tr('person.selectedCount', { count: 10 })).waitFor();
  await page.getByTestId('person-transfer').click();
  const dialog = modal(tr('person.transfer.title', { count: 10 }));
  await pickTreeOption(page, dialog.getByTestId('transfer-department'), 'Sales');
  await dialog.locator('.ant-select-content, .ant-select-selection-item', { hasText: 'Sales' }).first().waitFor();
  await dialog.getByRole('button', { name: tr('common.actions.ok') }).click();
  await toast(tr('person.transfer.done', { count: 10 })).waitFor();
  await dialog.waitFor({ state: 'hidden' });
  for (const text of await page.locator('[data-testid=person-table] tbody .ant-table-row').allInnerTexts()) assert.match(text, /\bSales\b/);
  assert.doesNotMatch((await page.locator('[data-testid=person-table] tbody').innerText()).replace(/Sales/g, ''), /R&D/);

  // the organization page shows them under Sales
  await menuOf(page, tr('route.user'), tr('route.organization'), 'organization-page');
  await waitForPath('/user/organization');
  await deptNode('Sales').click();
  const table = page.getByTestId('person-table');
  await table.getByTestId('person-keyword').locator('input').fill('Person 202');
  await table.getByTestId('person-keyword').locator('input').press('Enter');
  await table.locator('.ant-pagination-total-text', { hasText: tr('common.total', { count: 10 }) }).waitFor();
  await deptNode('R&D').click();
  await table.getByTestId('person-keyword').locator('input').fill('Person 202');
  await table.getByTestId('person-keyword').locator('input').press('Enter');
  await table.locator('.ant-empty').waitFor();
  await table.getByTestId('person-keyword').locator('input').fill('');
  await table.getByTestId('person-keyword').locator('input').press('Enter');
  await screenshot('org-people');
});

step('mark a person as left through the form, say her gender, and see the "left" tag', async () => {
  await menuOf(page, tr('route.user'), tr('route.personList'), 'person-list-page');
  await waitForPath('/user/list');
  const keyword = page.getByTestId('person-keyword').locator('input');
  await keyword.fill('Alice');
  await keyword.press('Enter');
  await page.locator('.ant-pagination-total-text', { hasText: tr('common.total', { count: 1 }) }).waitFor();
  await row('Alice Chen').getByTestId('person-edit').click();
  const form = page.getByTestId('person-form');
  assert.equal(await form.locator('#name').inputValue(), 'Alice Chen');
  await form.getByTestId('person-work-status').getByText(tr('person.workStatus.left'), { exact: true }).click();
  // not said until now
  assert.equal(
    await form
      .getByTestId('person-gender')
      .getByRole('radio', { name: tr('person.gender.unsaid') })
      .isChecked(),
    true,
  );
  await form.getByTestId('person-gender').getByText(tr('person.gender.female'), { exact: true }).click();
  await page.getByTestId('person-save').click();
  await form.waitFor({ state: 'hidden' });
  await row('Alice Chen').locator('[data-tag=left]').waitFor();
  assert.equal(await row('Alice Chen').locator('[data-tag=working]').count(), 0);
  assert.equal((await row('Alice Chen').locator('[data-tag=left]').innerText()).trim(), tr('person.tags.left'));
  const saved = await api<{ items: { gender: string | null }[] }>(page, 'GET', '/person/list?keyword=Alice');
  assert.equal(saved.items[0]?.gender, 'female');
  await screenshot('person-left');
});

step('column settings persist across a reload', async () => {
  const header = page.locator('[data-testid=person-table] thead');
  await header.getByText(tr('person.fields.rfid'), { exact: true }).waitFor();
  await page.getByTestId('person-columns').click();
  await page.getByTestId('column-settings').getByText(tr('person.columns.rfid'), { exact: true }).click();
  await header.getByText(tr('person.fields.rfid'), { exact: true }).waitFor({ state: 'detached' });
  await page.reload();
  await page.getByTestId('person-table').locator('.ant-table-row').first().waitFor();
  assert.equal(await header.getByText(tr('person.fields.rfid'), { exact: true }).count(), 0);
  await page.getByTestId('person-columns').click();
  await page.getByTestId('column-settings').getByText(tr('person.columnsReset')).click();
  await header.getByText(tr('person.fields.rfid'), { exact: true }).waitFor();
});

step('a click on a column header sorts the whole list on the server, ascending then descending', async () => {
  const header = page.getByTestId('person-table').getByRole('columnheader', { name: tr('person.fields.number'), exact: true });
  const firstKey = () => page.locator('[data-testid=person-table] tbody .ant-table-row').first().getAttribute('data-row-key');
  for (const order of ['asc', 'desc'] as const) {
    // the server's first person in this order, out of the 1,000 imported: ten rows sorted in the browser would not find it
    const expected = await api<{ items: { id: number }[] }>(page, 'GET', `/person/list?page=1&pageSize=10&sort=number&order=${order}`);
    await header.click();
    await page.locator(`[data-testid=person-table] thead th[aria-sort=${order === 'asc' ? 'ascending' : 'descending'}]`).waitFor();
    await untilOf(`the first row is the server's first (${order})`, async () => (await firstKey()) === String(expected.items[0]!.id), 20_000, 250);
  }
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(journey.pageErrors, []);
});
