// Browser journey of issue #11 "Approval workflows": an administrator designs the leave form (a custom field dragged
// in) and a process with a condition (more than 3 days → the department head, then an administrator; otherwise the
// head only); an employee applies from the self-service page on a 390×844 phone (signed in with a one-time link),
// the head approves there, the administrator in the console; the leave reaches the employee's attendance day, and
// each step leaves messages. The real server, the built console, Debian Chromium.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { until as untilOf } from '../../apps/server/test/terminals.ts';
import { journeySteps, openJourney, openPhone, shoot, type Journey } from '../lib/browser.ts';
import { facePhoto } from '../lib/faces.ts';
import {
  chooseOption as choose,
  fillPerson,
  menu as menuOf,
  modal as modalOf,
  openPath,
  signInAndCreateCompany,
  toast as toastOf,
  translator,
  typeDate,
} from '../lib/journey.ts';
import { api } from '../lib/api.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const tr = translator(loadLocale('en-US'));

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
/** the employee's phone and the head's phone: browser contexts of their own (no administrator session) */
let eve: { context: BrowserContext; page: Page };
let hana: { context: BrowserContext; page: Page };
const links: Record<string, string> = {};

const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => untilOf(what, check, timeoutMs, 250);
const toast = (p: Page, text: string) => toastOf(p, text).last();
const shot = (p: Page, name: string) => shoot(p, `workflow-${name}`, true);

const ymd = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
/** Monday of last week: the leave runs Monday 09:00 to Thursday 18:00, four working days. */
const MONDAY = (() => {
  const d = new Date();
  d.setDate(d.getDate() - 7);
  while (d.getDay() !== 1) d.setDate(d.getDate() - 1);
  return d;
})();
const THURSDAY = new Date(MONDAY.getFullYear(), MONDAY.getMonth(), MONDAY.getDate() + 3);

/** Picks a person in a PersonPicker (the server-side search). */
async function pickPerson(p: Page, picker: Locator, name: string): Promise<void> {
  await picker.click();
  await picker.locator('input').fill(name.split(' ')[0]!);
  const option = p.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden):visible .ant-select-item-option', { hasText: name });
  await option.waitFor();
  await option.click();
  // a multiple select stays open after the pick; Escape closes it (with none open, Escape would close the dialog)
  if (await p.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden):visible').count()) await p.keyboard.press('Escape');
}

/** A drag with the mouse in small moves, as dnd-kit's pointer sensor needs. */
async function drag(p: Page, from: Locator, to: Locator): Promise<void> {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await p.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await p.mouse.down();
  await p.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 10, { steps: 5 });
  await p.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 20 });
  await p.waitForTimeout(200);
  await p.mouse.up();
}

const phone = () => openPhone(journey);

before(async () => {
  server = await startServer(ADMIN);
  journey = await openJourney({ prefix: 'workflow-', viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  page = journey.page;
});

after(async () => {
  await eve?.context.close().catch(() => undefined);
  await hana?.context.close().catch(() => undefined);
  await journey?.close();
  await server?.stop();
});

step('sign in, create a company, the Sales department with Hana (its head) and Eve', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Acme Approvals Ltd', phone: '+8613800000020' });
  await menuOf(page, tr('route.user'), tr('route.organization'), 'organization-page');
  await page.getByTestId('dept-add-top').click();
  const dialog = modalOf(page, tr('org.addTop'));
  await dialog.getByTestId('department-name').fill('Sales');
  await dialog.getByRole('button', { name: tr('common.actions.save') }).click();
  await dialog.waitFor({ state: 'hidden' });
  await menuOf(page, tr('route.user'), tr('route.personList'), 'person-list-page');
  for (const [i, name] of ['Hana Head', 'Eve Employee'].entries()) {
    await page.getByTestId('person-create').click();
    await page.getByTestId('person-form').waitFor({ state: 'visible' });
    await page.waitForFunction((n) => document.querySelector<HTMLInputElement>('[data-testid=person-form] #number')?.value === n, String(i + 1));
    await fillPerson(page, { name, phone: `1390000002${i}`, department: 'Sales', photo: await facePhoto(name, 200 + i * 60) });
    await page.getByTestId('person-save').click();
    await page.locator('[data-testid=person-table] .ant-table-row', { hasText: name }).waitFor();
    await page.getByTestId('person-form').waitFor({ state: 'hidden' });
  }
  // Hana heads Sales (the organization page's heads dialog is another journey's subject)
  const tree = await api<{ id: number; name: string }[]>(page, 'GET', '/org/tree');
  const sales = tree.find((d) => d.name === 'Sales')!;
  const people = await api<{ items: { id: number; name: string }[] }>(page, 'GET', '/person/list?page=1&pageSize=10');
  const head = people.items.find((p) => p.name === 'Hana Head')!;
  await api(page, 'POST', '/org/update', { id: sales.id, name: 'Sales', incharges: [head.id] });
  // Sales works Monday to Friday, 09:00–18:00 (the attendance journey designs rules through the console)
  const day = ['day'];
  await api(page, 'POST', '/attendance/rule/create', {
    name: 'Office hours',
    mode: 'fixed',
    shifts: [{ key: 'day', name: 'Day', start: '09:00', end: '18:00', breaks: [{ start: '12:00', end: '13:00', deducted: true }] }],
    weekdays: { 0: [], 1: day, 2: day, 3: day, 4: day, 5: day, 6: [] },
    person_ids: [],
    department_ids: [sales.id],
  });
});

step('approval management lists the built-in apps; the menu has it', async () => {
  await menuOf(page, tr('route.workflow'), tr('route.workflowIndex'), 'workflow-index-page');
  const names = page.getByTestId('app-row-name');
  await until('four built-in apps', async () => (await names.count()) >= 4);
  await page.locator('[data-testid=app-table] .ant-table-row', { hasText: 'Leave' }).first().getByText(tr('workflow.app.builtin')).waitFor();
  await shot(page, 'index');
});

step('a custom app: created, copied, disabled and deleted', async () => {
  await page.getByTestId('app-create').click();
  await page.getByTestId('app-form').waitFor();
  await page.getByTestId('app-name').fill('Equipment request');
  await page.getByTestId('app-save').click();
  await toast(page, tr('common.saved')).waitFor();
  const row = page.locator('[data-testid=app-table] .ant-table-row', { hasText: 'Equipment request' }).first();
  await row.waitFor();
  await row.getByTestId('app-enabled').click();
  await until('disabled', async () => (await row.getByTestId('app-enabled').getAttribute('aria-checked')) === 'false');
  const rows = page.locator('[data-testid=app-table] .ant-table-row', { hasText: 'Equipment request' });
  await row.getByTestId('app-copy').click();
  await toast(page, tr('workflow.app.copied')).waitFor();
  await until('the copy listed', async () => (await rows.count()) === 2);
  for (const left of [1, 0]) {
    await rows.first().getByTestId('app-delete').click();
    const confirm = page.locator('.ant-popconfirm:visible');
    await confirm.waitFor();
    await page.waitForTimeout(300); // the popconfirm zooms in
    await confirm.getByRole('button', { name: tr('common.actions.ok') }).click();
    await until(`${left} left`, async () => (await rows.count()) === left);
  }
});

step('the leave form: a custom field dragged from the palette, labelled, saved as version 2', async () => {
  const leave = page.locator('[data-testid=app-table] .ant-table-row', { hasText: 'Leave' }).first();
  await leave.getByTestId('app-form-design').click();
  await page.getByTestId('form-design-page').waitFor();
  assert.match(await page.getByTestId('form-version').innerText(), /1/);
  // the engine fields are locked: no removal
  await page.getByTestId('canvas-field-period').click();
  assert.equal(await page.getByTestId('prop-remove').isDisabled(), true);
  await drag(page, page.getByTestId('palette-text'), page.getByTestId('canvas-field-reason'));
  await page.getByTestId('canvas-field-text_1').waitFor();
  // dropped above the reason
  const keys = await page
    .locator('[data-testid^=canvas-field-]:not([data-testid=canvas-field-label])')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
  assert.ok(keys.indexOf('canvas-field-text_1') < keys.indexOf('canvas-field-reason'), keys.join(','));
  // reordered by its handle: above the period
  await page.waitForTimeout(500); // the dropped field settles
  await drag(page, page.getByTestId('drag-text_1'), page.getByTestId('canvas-field-period'));
  const order = async () =>
    page.locator('[data-testid^=canvas-field-]:not([data-testid=canvas-field-label])').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
  await until('the field moved above the period', async () => {
    const now = await order();
    return now.indexOf('canvas-field-text_1') === now.indexOf('canvas-field-period') - 1;
  });
  await page.getByTestId('canvas-field-text_1').click();
  await page.getByTestId('prop-label').fill('Handover to');
  await page.getByTestId('prop-required').click();
  await page.getByTestId('canvas-field-text_1').getByText('Handover to').waitFor();
  await shot(page, 'form-designer');
  await page.getByTestId('form-preview').click();
  await page.getByTestId('form-preview-body').getByText('Handover to').waitFor();
  await page.waitForTimeout(400);
  await shot(page, 'form-preview');
  await page.keyboard.press('Escape');
  await page.getByTestId('form-save').click();
  await toast(page, tr('workflow.designer.savedVersion', { version: 2 })).waitFor();
  await until('version 2 shown', async () => /2/.test(await page.getByTestId('form-version').innerText()));
});

step('the process: the head, then a condition — more than 3 days also goes to an administrator', async () => {
  await menuOf(page, tr('route.workflow'), tr('route.workflowIndex'), 'workflow-index-page');
  const leave = page.locator('[data-testid=app-table] .ant-table-row', { hasText: 'Leave' }).first();
  await leave.getByTestId('app-flow-design').click();
  await page.getByTestId('flow-design-page').waitFor();
  // the built-in process: the department head
  await page
    .getByTestId('node-summary')
    .getByText(tr('workflow.flow.summary.head', { level: 1 }))
    .waitFor();
  // a condition after the head
  await page.getByTestId('flow-add-root-1').click();
  await page.getByRole('menuitem', { name: tr('workflow.flow.add.condition') }).click();
  const branches = page.locator('[data-testid^=flow-branch-]');
  await until('two branches', async () => (await branches.count()) === 2);
  // checking now shows the empty condition at its branch
  await page.getByTestId('flow-check').click();
  await page.getByTestId('branch-problem').getByText(tr('workflow.flow.reasons.emptyCondition')).waitFor();
  await shot(page, 'flow-problem');
  // branch 1: the period's duration > 3 days
  await branches.first().getByTestId('branch-card').click();
  const drawer = page.getByTestId('branch-form');
  await drawer.waitFor();
  await page.getByTestId('branch-name').fill('Long leave');
  await page.getByTestId('condition-add').click();
  await choose(page, drawer.getByTestId('condition-field'), tr('workflow.flow.durationOf', { label: 'Period' }));
  await choose(page, drawer.getByTestId('condition-op'), tr('workflow.flow.ops.gt'));
  await drawer.getByTestId('condition-value').locator('xpath=self::input | .//input').first().fill('3');
  await page.keyboard.press('Tab');
  await page.locator('.ant-drawer-close:visible').click();
  await drawer.waitFor({ state: 'hidden' });
  await branches
    .first()
    .getByText(`${tr('workflow.flow.durationOf', { label: 'Period' })} > 3`)
    .waitFor();
  // in it: an administrator
  const branchId = (await branches.first().getAttribute('data-testid'))!.slice('flow-branch-'.length);
  await page.getByTestId(`flow-add-${branchId}-0`).click();
  await page.getByRole('menuitem', { name: tr('workflow.flow.add.approver') }).click();
  const node = page.getByTestId('node-form');
  await node.waitFor();
  await page.getByTestId('node-name').fill('Administrator');
  await node.getByText(tr('workflow.flow.kinds.admins'), { exact: true }).click();
  await page.locator('.ant-drawer-close:visible').click();
  await node.waitFor({ state: 'hidden' });
  await branches.first().getByText(tr('workflow.flow.summary.admins')).waitFor();
  // and a copy to Hana, named
  await page.getByTestId(`flow-add-${branchId}-1`).click();
  await page.getByRole('menuitem', { name: tr('workflow.flow.add.cc') }).click();
  await node.waitFor();
  await node.getByText(tr('workflow.flow.kinds.people'), { exact: true }).click();
  await pickPerson(page, node.getByTestId('person-pick'), 'Hana Head');
  await page.locator('.ant-drawer-close:visible').click();
  await node.waitFor({ state: 'hidden' });
  await branches.first().getByTestId('node-summary').getByText('Hana Head').waitFor();
  await page.getByTestId('flow-check').click();
  await page.getByTestId('flow-valid').waitFor();
  await shot(page, 'flow-designer');
  await page.getByTestId('flow-save').click();
  await toast(page, tr('workflow.designer.savedVersion', { version: 2 })).waitFor();
});

step('one-time sign-in links for Eve and Hana', async () => {
  await menuOf(page, tr('route.workflow'), tr('route.workflowIndex'), 'workflow-index-page');
  await page.getByTestId('all-records').click();
  await page.getByTestId('approval-records-page').waitFor();
  for (const name of ['Eve Employee', 'Hana Head']) {
    await page.getByTestId('send-link').click();
    const dialog = modalOf(page, tr('workflow.link.title'));
    await pickPerson(page, dialog.getByTestId('person-pick'), name);
    await dialog.getByTestId('link-create').click();
    const url = await dialog.getByTestId('link-url').innerText();
    assert.match(url, /\/self\?link=/);
    links[name] = url;
    if (name === 'Hana Head') await shot(page, 'link');
    await dialog
      .getByRole('button', { name: tr('workflow.link.close'), exact: true })
      .last()
      .click();
    await dialog.waitFor({ state: 'hidden' });
  }
});

step('Eve, on her phone: the self-service sign-in, then the leave form with its computed duration', async () => {
  eve = await phone();
  const p = eve.page;
  await p.goto(`${server.baseUrl}/self`);
  await p.getByTestId('self-signin').waitFor();
  await shot(p, 'self-signin');
  await p.goto(links['Eve Employee']!);
  await p
    .getByTestId('self-name')
    .getByText('Eve Employee')
    .waitFor({ timeout: 5000 })
    .catch(async (e: unknown) => {
      await shot(p, 'failed-link');
      throw e;
    });
  // the link is used up: opening it again signs nobody in
  await p.getByTestId('self-apps').waitFor();
  await shot(p, 'self-apps');
  await p.getByTestId('self-apps').getByText('Leave', { exact: true }).click();
  const form = p.getByTestId('self-apply-form');
  await form.waitFor();
  await choose(p, form.getByTestId('field-leave_type').locator('.ant-select'), 'Annual leave');
  const range = form.getByTestId('field-period').locator('input');
  await range.nth(0).click();
  await range.nth(0).fill(`${ymd(MONDAY)} 09:00`);
  await range.nth(0).press('Enter');
  await range.nth(1).fill(`${ymd(THURSDAY)} 18:00`);
  await range.nth(1).press('Enter');
  await p.waitForTimeout(300);
  await form
    .getByTestId('duration-period')
    .getByText(tr('workflow.form.durationDays', { count: 4, hours: 32 }))
    .waitFor();
  await form.getByTestId('field-text_1').locator('input').fill('Bob');
  await form.getByTestId('field-reason').locator('textarea').fill('Family trip');
  // a picture for the leave's picture field, uploaded as it is picked
  await form.getByTestId('file-input-picture').setInputFiles({ name: 'ticket.jpg', mimeType: 'image/jpeg', buffer: await facePhoto('Ticket', 30) });
  await form.getByTestId('uploaded-file').getByText('ticket.jpg').waitFor();
  await shot(p, 'self-apply');
  await p.getByTestId('self-submit').click();
  await toast(p, tr('workflow.apply.submitted')).waitFor();
  const detail = p.getByTestId('self-detail');
  await detail.waitFor();
  await detail.getByTestId('status-tag').getByText(tr('workflow.status.0')).waitFor();
  await detail.getByTestId('value-text_1').getByText('Bob').waitFor();
  await p.waitForTimeout(400);
  await shot(p, 'self-submitted');
});

step('Hana, on her phone: the task waits for her; she approves', async () => {
  hana = await phone();
  const p = hana.page;
  await p.goto(links['Hana Head']!);
  await p.getByTestId('self-name').getByText('Hana Head').waitFor();
  await p.getByTestId('self-tab-inbox').click();
  await p.getByTestId('self-message').first().waitFor();
  await shot(p, 'self-head-inbox');
  await p.getByTestId('self-tab-tasks').click();
  const task = p.getByTestId('self-row').filter({ hasText: 'Eve Employee' });
  await task.getByText(tr('workflow.self.yourTurn')).waitFor();
  await task.click();
  const detail = p.getByTestId('self-detail');
  await detail.getByTestId('self-decide').waitFor();
  await p.getByTestId('self-comment').fill('Enjoy');
  await shot(p, 'self-head-task');
  await p.getByTestId('self-approve').click();
  await toast(p, tr('workflow.records.approved')).waitFor();
  // four days: the administrator comes next
  await detail.getByTestId('status-tag').getByText(tr('workflow.status.0')).waitFor();
  await detail.getByText('Administrator').first().waitFor();
});

step('the administrator approves in the console; the timeline shows every step', async () => {
  await page.reload();
  await page.getByTestId('approval-records-page').waitFor();
  const row = page.locator('[data-testid=records-table] .ant-table-row', { hasText: 'Eve Employee' });
  await row.waitFor();
  await row.getByTestId('record-open').click();
  const detail = page.getByTestId('application-detail');
  await detail.waitFor();
  await detail.getByTestId('decide-approve').click();
  await toast(page, tr('workflow.records.approved')).waitFor();
  await detail.getByTestId('status-tag').getByText(tr('workflow.status.1')).waitFor();
  await detail.getByTestId('application-absences').waitFor();
  const entries = detail.getByTestId('timeline-entry');
  await until('submitted, head, administrator', async () => (await entries.count()) >= 3);
  await detail.getByText('Enjoy').waitFor();
  // the picture Eve added, served to the console
  const picture = detail.getByTestId('value-attachments').locator('img');
  await until('the picture loaded', async () => (await picture.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))) > 0);
  await page.waitForTimeout(400);
  await shot(page, 'records-detail');
  await page.locator('.ant-drawer-close:visible').click();
  await detail.waitFor({ state: 'hidden' });
  await shot(page, 'records');
});

step("the administrator applies on Eve's behalf for one day: only the head is asked; then withdraws it", async () => {
  await page.getByTestId('apply-for').click();
  const dialog = modalOf(page, tr('workflow.apply.title'));
  await dialog.waitFor();
  await page.waitForTimeout(400); // the dialog zooms in
  await choose(page, dialog.getByTestId('apply-app'), 'Leave');
  await pickPerson(page, dialog.getByTestId('person-pick'), 'Eve Employee');
  const form = dialog.getByTestId('apply-form');
  await choose(page, form.getByTestId('field-leave_type').locator('.ant-select'), 'Sick leave');
  const range = form.getByTestId('field-period').locator('input');
  await range.nth(0).click();
  await range.nth(0).fill(`${ymd(THURSDAY)} 09:00`);
  await range.nth(0).press('Enter');
  await range.nth(1).fill(`${ymd(THURSDAY)} 18:00`);
  await range.nth(1).press('Enter');
  await form
    .getByTestId('duration-period')
    .getByText(tr('workflow.form.durationDays', { count: 1, hours: 8 }))
    .waitFor();
  await form.getByTestId('field-text_1').locator('input').fill('Carol');
  await form.getByTestId('field-reason').locator('textarea').fill('Flu');
  await shot(page, 'apply-for');
  await dialog.getByRole('button', { name: tr('workflow.apply.submit') }).click();
  await toast(page, tr('workflow.apply.submitted')).waitFor();
  await dialog.waitFor({ state: 'hidden' });
  const row = page.locator('[data-testid=records-table] .ant-table-row', { hasText: tr('workflow.status.0') });
  await row.getByText('Hana Head').waitFor();
  await row.getByTestId('record-open').click();
  const detail = page.getByTestId('application-detail');
  await detail.getByText(tr('workflow.source.admin')).waitFor();
  // one day: the default branch, no administrator step
  await until('submitted and the head', async () => (await detail.getByTestId('timeline-entry').count()) === 2);
  await detail.getByTestId('application-withdraw').click();
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: tr('common.actions.ok') })
    .click();
  await detail.getByTestId('status-tag').getByText(tr('workflow.status.-2')).waitFor();
  await page.locator('.ant-drawer-close:visible').click();
  await detail.waitFor({ state: 'hidden' });
});

step('records: filtered by status, exported as xlsx; the import takes only xlsx', async () => {
  await page.waitForTimeout(500); // the drawer's mask fades out
  await choose(page, page.getByTestId('records-status'), tr('workflow.status.1'));
  const rows = page.locator('[data-testid=records-table] .ant-table-row');
  await until('only the approved one', async () => (await rows.count()) === 1 && (await rows.first().getByText(tr('workflow.status.1')).count()) === 1);
  const download = page.waitForEvent('download');
  await page.getByTestId('records-export').click();
  assert.equal((await download).suggestedFilename(), 'approvals.xlsx');
  await page.getByTestId('import-open').click();
  const dialog = modalOf(page, tr('workflow.import.title'));
  await dialog
    .getByTestId('import-file')
    .locator('input[type=file]')
    .setInputFiles({ name: 'records.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n') });
  await toast(page, tr('person.import.badType')).waitFor();
  await shot(page, 'import');
  await dialog
    .getByRole('button', { name: tr('workflow.link.close'), exact: true })
    .last()
    .click();
});

step('Eve sees it approved, with her messages', async () => {
  const p = eve.page;
  await p.locator('.ant-drawer-close:visible').click();
  await p.getByTestId('self-tab-mine').click();
  await p.getByTestId('self-row').filter({ hasText: 'Leave' }).getByTestId('status-tag').getByText(tr('workflow.status.1')).waitFor({ timeout: 20_000 });
  await p.getByTestId('self-tab-inbox').click();
  // the applicant hears of the outcome; the head heard of her task (above)
  await until('the approval message', async () => (await p.getByTestId('self-inbox').getByText('Approved: Leave').count()) > 0);
  await p.waitForTimeout(400); // the list fades in
  await shot(p, 'self-inbox');
  // the page speaks the person's language
  await choose(p, p.getByTestId('self-language'), '简体中文');
  await p.getByTestId('self-tab-mine').getByText('我的申请').click();
  await p.getByTestId('self-row').getByText('已通过').first().waitFor();
  await shot(p, 'self-zh');
});

step("the console's messages: the application waited for an administrator, then was approved", async () => {
  await openPath(page, '/message/message');
  const table = page.getByTestId('message-table');
  await table.getByText('Waiting for administrators: Leave').first().waitFor();
  await table.getByText('Approved: Leave').first().waitFor();
  await shot(page, 'console-messages');
});

step("the leave is in Eve's attendance day", async () => {
  await menuOf(page, tr('route.attendance'), tr('route.attendanceResult'), 'day-result-page');
  // until the picker holds the day (on a starved machine an Enter can come before the picker has read the text)
  await typeDate(page.getByTestId('day-date'), ymd(MONDAY));
  const status = page.locator('[data-testid=day-table] .ant-table-row', { hasText: 'Eve Employee' }).getByTestId('day-status');
  const keyword = page.getByTestId('day-keyword').locator('xpath=self::input | .//input').first();
  await until('Eve on leave', async () => {
    await keyword.fill('Eve');
    await keyword.press('Enter');
    return (await status.count()) > 0 && (await status.getAttribute('data-status')) === 'leave';
  });
  await shot(page, 'attendance-day');
  assert.deepEqual(journey.pageErrors, []);
});

step("the month report counts Eve's leave days, and her calendar shows them", async () => {
  await menuOf(page, tr('route.attendance'), tr('route.attendanceReport'), 'month-report-page');
  const month = ymd(MONDAY).slice(0, 7);
  await typeDate(page.getByTestId('month-picker'), month);
  const keyword = page.getByTestId('month-keyword').locator('xpath=self::input | .//input').first();
  await keyword.fill('Eve');
  await keyword.press('Enter');
  // Monday to Thursday, as far as they fall in Monday's month
  const expected = [0, 1, 2, 3].filter((n) => ymd(new Date(MONDAY.getFullYear(), MONDAY.getMonth(), MONDAY.getDate() + n)).startsWith(month)).length;
  const row = page.locator('[data-testid=month-table] .ant-table-row', { hasText: 'Eve Employee' });
  await until('Eve in the report with her leave', async () => {
    if (!(await row.count())) return false;
    const cells = await row.first().locator('td').allInnerTexts();
    // number, name, department, one cell per day of the month, working, present, late, early, missing, absent,
    // absent time, leave (days)
    const days = new Date(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0).getDate();
    return Number(cells[3 + days + 7]) === expected;
  });
  await row.first().getByTestId('month-calendar-open').click();
  const cell = page.getByTestId('person-month').locator(`[data-testid=calendar-day][data-date="${ymd(MONDAY)}"]`);
  await until('the calendar shows the leave', async () => (await cell.getAttribute('data-status')) === 'leave');
  await shot(page, 'attendance-calendar');
  await page.locator('.ant-drawer-close:visible').last().click();
  assert.deepEqual(journey.pageErrors, []);
});

step('the administrator is also Hana: linked on the people page, the avatar menu opens her self-service', async () => {
  await openPath(page, '/user/list');
  const row = page.locator('[data-testid=person-table] .ant-table-row', { hasText: 'Hana Head' });
  await row.getByTestId('person-admin-link-open').click();
  const dialog = modalOf(page, tr('person.adminLink.title', { name: 'Hana Head' }));
  const me = await api<{ name: string; username: string }>(page, 'GET', '/user/info');
  await choose(page, dialog.getByTestId('admin-link-select'), `${me.name} (${me.username})`);
  await dialog.getByTestId('admin-link-save').click();
  await toast(page, tr('person.adminLink.done')).waitFor();
  await row.getByTestId('person-admin-link').getByText(ADMIN.username).waitFor();
  // the profile now names her: reload so the avatar menu offers the self-service page
  await page.reload();
  await page.getByTestId('avatar-menu').click();
  await page.getByRole('menuitem', { name: tr('layout.avatar.selfService') }).click();
  await page.waitForURL((u) => u.pathname === '/self');
  await page.getByTestId('self-name').getByText('Hana Head').waitFor();
  await shot(page, 'self-from-admin');
  assert.deepEqual(journey.pageErrors, []);
});
