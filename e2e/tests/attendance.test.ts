// Browser journey of issue #10 "Attendance": rules in every mode, a holiday, an emulated ZKTeco terminal punching
// late on a past weekday, the day view explaining it, a recorded leave, and a changed grace followed by
// "attendance update". The real server, the built console, Debian Chromium.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { until as untilOf } from '../../apps/server/test/terminals.ts';
import { createTerminal, type Terminal } from '../../tools/zk-emulator/terminal.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { facePhoto } from '../lib/faces.ts';
import {
  fillPerson,
  menu as menuOf,
  modal as modalOf,
  clickTreeOption,
  pickTreeOption,
  signInAndCreateCompany,
  toast as toastOf,
  translator,
  chooseOption,
  inputOf,
  typeDate,
  typeRange,
} from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const SERIAL = 'E2EATT0001';
const tr = translator(loadLocale('en-US'));

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let terminal: Terminal;

const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => untilOf(what, check, timeoutMs, 250);
const menu = (item: string, pageTestId: string) => menuOf(page, tr('route.attendance'), item, pageTestId);
const toast = (text: string) => toastOf(page, text);

/** Dates in this machine's zone, which the browser (and so the new company) and the emulated terminal share. */
const ymd = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const at = (date: string, hm: string) => new Date(`${date}T${hm}:00`);
/** The last Monday–Friday at least two days back: its punch windows have closed, so its result is final. */
const ExcelJS = createRequire(path.resolve(import.meta.dirname, '..', '..', 'apps', 'server', 'package.json'))('exceljs');
const DAY = (() => {
  const d = new Date();
  d.setDate(d.getDate() - 2);
  while (d.getDay() === 0 || d.getDay() === 6) d.setDate(d.getDate() - 1);
  return ymd(d);
})();
/** A holiday a week before: the same weekday, so a working day of the office rule. */
const HOLIDAY = (() => {
  const d = new Date(`${DAY}T12:00:00`);
  d.setDate(d.getDate() - 7);
  return ymd(d);
})();

const keyword = () => inputOf(page.getByTestId('day-keyword'));

const choose = (select: Locator, label: string) => chooseOption(page, select, label);
const drawer = () => page.locator('.ant-drawer-body').filter({ has: page.getByTestId('rule-form') });
const ruleRow = (name: string) => page.locator('[data-testid=rule-table] .ant-table-row', { hasText: name });
const dayRow = (name: string) => page.locator('[data-testid=day-table] .ant-table-row', { hasText: name });
const dayDrawer = () => page.locator('.ant-drawer-body').filter({ has: page.getByTestId('day-why') });

async function saveRule(): Promise<void> {
  await page.getByTestId('rule-save').click();
  await drawer().waitFor({ state: 'hidden' });
}

/** Opens the day view on `date`. */
async function openDay(date: string): Promise<void> {
  await menu(tr('route.attendanceResult'), 'day-result-page');
  await typeDate(page.getByTestId('day-date'), date);
  await until('the day view on the date', async () => (await inputOf(page.getByTestId('day-date')).inputValue()) === date);
}

before(async () => {
  server = await startServer(ADMIN, { DEVICE_POLL_SECONDS: '1' });
  journey = await openJourney({ prefix: 'attendance-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await terminal?.stop();
  await server?.stop();
});

step('sign in, create a company, two departments and a person in each', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Acme Attendance Ltd', phone: '+8613800000010' });
  await menuOf(page, tr('route.user'), tr('route.organization'), 'organization-page');
  for (const name of ['Office', 'Plant']) {
    await page.getByTestId('dept-add-top').click();
    const dialog = modalOf(page, tr('org.addTop'));
    await dialog.getByTestId('department-name').fill(name);
    await dialog.getByRole('button', { name: tr('common.actions.save') }).click();
    await dialog.waitFor({ state: 'hidden' });
  }
  await menuOf(page, tr('route.user'), tr('route.personList'), 'person-list-page');
  for (const [i, [name, department]] of [
    ['Alice Chen', 'Office'],
    ['Bob Li', 'Plant'],
  ].entries()) {
    await page.getByTestId('person-create').click();
    await page.getByTestId('person-form').waitFor({ state: 'visible' });
    await page.waitForFunction((n) => document.querySelector<HTMLInputElement>('[data-testid=person-form] #number')?.value === n, String(i + 1));
    await fillPerson(page, { name: name!, phone: `1380000001${i}`, department: department!, photo: await facePhoto(name!, 60 + i * 120) });
    await page.getByTestId('person-save').click();
    await page.locator('[data-testid=person-table] .ant-table-row', { hasText: name! }).waitFor();
    await page.getByTestId('person-form').waitFor({ state: 'hidden' });
  }
});

step('a fixed rule with two shifts for the Office department', async () => {
  await menu(tr('route.attendanceRule'), 'rule-list-page');
  await page.getByTestId('rule-create').click();
  await drawer().waitFor();
  // the conventions are stated where the rule is made
  await page.getByTestId('rule-conventions').getByText(tr('att.rule.help.late')).waitFor();
  await page.locator('#name').fill('Office hours');
  await page.locator('#shifts_0_name').fill('Morning');
  await page.locator('#shifts_0_start').fill('09:00');
  await page.locator('#shifts_0_end').fill('12:00');
  await page.locator('#shifts_0_late_grace_min').fill('5');
  await page.getByTestId('shift-add').click();
  await page.locator('#shifts_1_name').fill('Afternoon');
  await page.locator('#shifts_1_start').fill('13:00');
  await page.locator('#shifts_1_end').fill('18:00');
  // Monday to Friday already work the first shift; tick the second one too
  for (const d of ['1', '2', '3', '4', '5']) await page.getByLabel(`${tr(`att.weekday.${d}`)} Afternoon`).check();
  await pickTreeOption(page, page.getByTestId('rule-departments'), 'Office');
  await page.locator('#name').click(); // closes the tree dropdown (Escape would close the drawer)
  await journey.screenshot('rule-fixed', false);
  await saveRule();
  await toast(tr('common.saved')).waitFor();
  const row = ruleRow('Office hours');
  await row.getByText('Morning 09:00–12:00').waitFor();
  await row.getByText('Afternoon 13:00–18:00').waitFor();
  assert.equal(await row.getByTestId('rule-member-count').innerText(), tr('common.count.people', { count: 1 }));
});

step('a night rule crossing midnight; claiming Office people again shows the conflict', async () => {
  await page.getByTestId('rule-create').click();
  await drawer().waitFor();
  await page.locator('#name').fill('Night watch');
  await page.locator('#shifts_0_name').fill('Night');
  await page.locator('#shifts_0_start').fill('22:00');
  await page.locator('#shifts_0_end').fill('06:00');
  await page.getByTestId('shift-0').getByText(tr('att.rule.nextDay'), { exact: true }).waitFor();
  await pickTreeOption(page, page.getByTestId('rule-departments'), 'Office');
  await page.locator('#name').click();
  await page.getByTestId('rule-save').click();
  // the server's words: Alice is already under "Office hours"
  const error = page.getByTestId('rule-error');
  await error.waitFor();
  assert.match(await error.innerText(), /Office hours/);
  assert.match(await error.innerText(), /Alice Chen/);
  await journey.screenshot('rule-conflict', false);
  // Plant instead
  await clickTreeOption(page, page.getByTestId('rule-departments'), 'Office'); // a second click takes it off
  // the multiple tree stays open: pick Plant in it
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-tree-node-content-wrapper', { has: page.getByText('Plant', { exact: true }) })
    .click();
  await page.locator('#name').click();
  await saveRule();
  await ruleRow('Night watch')
    .getByText(`Night 22:00–06:00 (${tr('att.rule.nextDay')})`)
    .waitFor();
});

step('a cycle rule: 2 days, 2 nights, 2 rest', async () => {
  await page.getByTestId('rule-create').click();
  await drawer().waitFor();
  await page.locator('#name').fill('Production');
  await page.getByTestId('rule-mode').getByText(tr('att.mode.shift'), { exact: true }).click();
  await page.locator('#shifts_0_name').fill('Day');
  await page.locator('#shifts_0_start').fill('08:00');
  await page.locator('#shifts_0_end').fill('20:00');
  await page.getByTestId('shift-add').click();
  await page.locator('#shifts_1_name').fill('Night');
  await page.locator('#shifts_1_start').fill('20:00');
  await page.locator('#shifts_1_end').fill('08:00');
  await page.getByTestId('cycle-add').click();
  await page.locator('#cycles_0_name').fill('D2N2R2');
  for (let i = 0; i < 5; i++) await page.getByTestId('cycle-0-add-day').click();
  const days = ['Day', 'Day', 'Night', 'Night', tr('att.rule.restDay'), tr('att.rule.restDay')];
  for (const [j, label] of days.entries()) await choose(page.getByTestId(`cycle-0-day-${j}`), label);
  await choose(page.getByTestId('rule-running-cycle'), 'D2N2R2');
  await typeDate(page.getByTestId('rule-start-date'), DAY);
  await choose(page.getByTestId('rule-start-day'), `${tr('att.rule.dayN', { n: 3 })} · Night`);
  await journey.screenshot('rule-cycle', false);
  await saveRule();
  await ruleRow('Production').getByText(tr('att.mode.shift')).waitFor();
  // reopening shows the cycle as saved
  await ruleRow('Production').getByTestId('rule-edit').click();
  await drawer().waitFor();
  assert.equal(await page.locator('#cycles_0_name').inputValue(), 'D2N2R2');
  await drawer().getByTestId('cycle-0-day-4').getByText(tr('att.rule.restDay')).waitFor();
  await page.getByRole('button', { name: tr('common.actions.cancel') }).click();
  await drawer().waitFor({ state: 'hidden' });
});

step('a holiday for every rule', async () => {
  await menu(tr('route.attendanceHoliday'), 'holiday-page');
  await choose(page.getByTestId('holiday-year'), HOLIDAY.slice(0, 4));
  await page.getByTestId('holiday-create').click();
  const dialog = modalOf(page, tr('att.holiday.create'));
  await dialog.getByTestId('holiday-name').fill('Founders Day');
  await typeRange(dialog.getByTestId('holiday-range'), HOLIDAY, HOLIDAY);
  await dialog.getByTestId('holiday-save').click();
  await dialog.waitFor({ state: 'hidden' });
  const row = page.locator('[data-testid=holiday-table] .ant-table-row', { hasText: 'Founders Day' });
  await row.getByText(HOLIDAY).waitFor();
  await row.getByText(tr('att.holiday.allRules')).waitFor();
  await journey.screenshot('holiday');
});

step('register the terminal; Alice punches in late on a past weekday', async () => {
  await menuOf(page, tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await page.getByTestId('device-create').click();
  const dialog = modalOf(page, tr('device.create'));
  await dialog.locator('#name').fill('Gate');
  await dialog.locator('#serial').fill(SERIAL);
  await dialog.locator('#ip').fill('192.168.7.31');
  await dialog.locator('#password').fill('123456');
  await dialog.getByTestId('device-save').click();
  await dialog.waitFor({ state: 'hidden' });
  terminal = createTerminal({ server: server.baseUrl, sn: SERIAL, pollMs: 500, retryMs: 1000, ip: '192.168.7.31' });
  await terminal.start();
  const r = await terminal.punchBatch(['09:07', '12:00', '13:00', '18:01'].map((hm) => ({ pin: '1', time: at(DAY, hm) })));
  assert.ok(r.uploaded, 'the server took the punches');
});

step('the day view shows Alice late 7 min; her row explains why', async () => {
  await openDay(DAY);
  const status = dayRow('Alice Chen').getByTestId('day-status');
  await until('Alice late', async () => {
    await keyword().fill('Alice');
    await keyword().press('Enter');
    return (await status.count()) > 0 && (await status.getAttribute('data-status')) === 'late';
  });
  assert.equal(await status.innerText(), tr('att.detail.late', { minutes: 7 }));
  assert.equal(await status.getAttribute('data-legend'), 'abnormal');
  await page.getByTestId('att-legend').getByText(tr('att.legend.abnormal')).waitFor();
  await journey.screenshot('day-view');
  await dayRow('Alice Chen').click();
  const why = page.getByTestId('day-why');
  await why.getByText(tr('att.why.late', { checkIn: '09:07', start: '09:00', grace: 5, late: 7 })).waitFor();
  await why.getByText(tr('att.why.rule', { rule: 'Office hours', mode: tr('att.value.mode.fixed') })).waitFor();
  assert.equal(await dayDrawer().getByTestId('punch-used').count(), 4);
  await page.waitForTimeout(400); // the drawer slides in
  await journey.screenshot('day-why');
});

step('record a leave for the day: the result turns to leave by itself; removing it brings back late', async () => {
  const d = dayDrawer();
  await d.getByTestId('absence-reason').fill('Dentist');
  await d.getByTestId('absence-save').click();
  await toast(tr('att.absence.recorded')).waitFor();
  await d.getByTestId('day-absences').getByText('Dentist').waitFor();
  const head = d.locator('.ant-descriptions').getByTestId('day-status');
  await until('the day turned to leave', async () => (await head.getAttribute('data-status')) === 'leave');
  await d
    .getByTestId('day-why')
    .getByText(tr('att.why.leaveShift', { from: '09:00', to: '18:00' }))
    .first()
    .waitFor();
  // the row behind the drawer follows
  await until('the row turned to leave', async () => (await dayRow('Alice Chen').getByTestId('day-status').getAttribute('data-status')) === 'leave');
  await journey.screenshot('day-leave', false);
  await d.getByTestId('absence-delete').click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: tr('common.actions.ok') })
    .click();
  await until('the day is late again', async () => (await head.getAttribute('data-status')) === 'late');
  // A result set by hand, with its reason, stands until removed.
  const manual = d.getByTestId('day-manual');
  await manual.locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:visible').getByText(tr('att.status.absent'), { exact: true }).click();
  await manual.locator('input#manual_reason').fill('No-show confirmed by the team lead');
  await manual.getByRole('button', { name: tr('att.manual.set') }).click();
  await until('set by hand', async () => (await head.getAttribute('data-status')) === 'absent');
  await d.getByText('No-show confirmed by the team lead').waitFor();
  await manual.getByRole('button', { name: tr('att.manual.remove') }).click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: tr('common.actions.ok') })
    .click();
  await until('back to the computed result', async () => (await head.getAttribute('data-status')) === 'late');
  await page.locator('.ant-drawer-close:visible').click();
  await d.waitFor({ state: 'hidden' });
});

step('a larger grace, then "attendance update": the result follows', async () => {
  // spec §8: no date chosen
  await page.getByTestId('att-update').click();
  const dialog = modalOf(page, tr('att.update.title'));
  await dialog.getByTestId('att-update-start').click();
  await toast(tr('att.update.noDate')).waitFor();
  await dialog.getByRole('button', { name: tr('common.actions.cancel') }).click();

  await menu(tr('route.attendanceRule'), 'rule-list-page');
  await ruleRow('Office hours').getByTestId('rule-edit').click();
  await drawer().waitFor();
  assert.equal(await page.locator('#shifts_0_late_grace_min').inputValue(), '5');
  await page.locator('#shifts_0_late_grace_min').fill('10');
  // an edit applies from today unless told otherwise (#17): from the punched day on
  await typeDate(page.getByTestId('rule-effective-from'), DAY);
  await saveRule();

  await openDay(DAY);
  await page.getByTestId('att-update').click();
  await typeRange(dialog.getByTestId('att-update-range'), DAY, DAY);
  await dialog.getByTestId('att-update-start').click();
  const progress = dialog.getByTestId('att-update-progress');
  await progress.waitFor();
  await until('the update finished', async () => (await progress.getAttribute('data-percent')) === '100', 30_000);
  await toast(tr('att.update.done')).first().waitFor();
  await journey.screenshot('update-done', false);
  await dialog.getByRole('button', { name: tr('common.actions.cancel') }).click();

  const status = dayRow('Alice Chen').getByTestId('day-status');
  await until('Alice on time', async () => {
    await keyword().press('Enter');
    return (await status.getAttribute('data-status')) === 'normal';
  });
  await dayRow('Alice Chen').click();
  await page
    .getByTestId('day-why')
    .getByText(tr('att.why.onTime', { checkIn: '09:07', start: '09:00', grace: 10 }))
    .waitFor();
  await page.locator('.ant-drawer-close:visible').click();
});

step('the holiday shows in the day view', async () => {
  await openDay(HOLIDAY);
  const status = dayRow('Alice Chen').getByTestId('day-status');
  await until('Alice on holiday', async () => {
    await keyword().press('Enter');
    return (await status.count()) > 0 && (await status.getAttribute('data-status')) === 'holiday';
  });
  assert.equal(await status.getAttribute('data-legend'), 'holiday');
  assert.deepEqual(journey.pageErrors, []);
});

step("Alice's month as a calendar: the punched day in its colour, its explanation one click away", async () => {
  await openDay(DAY);
  await dayRow('Alice Chen').getByTestId('day-calendar-open').click();
  const drawer = page.getByTestId('person-month');
  await drawer.waitFor();
  const cell = drawer.locator(`[data-testid=calendar-day][data-date="${DAY}"]`);
  await until('the day in the calendar', async () => (await cell.getAttribute('data-status')) === 'normal');
  assert.match(await cell.innerText(), /09:07/);
  assert.match(await drawer.getByTestId('calendar-totals').innerText(), new RegExp(tr('att.month.workDays')));
  await page
    .locator('.ant-drawer-content-wrapper:visible')
    .last()
    .evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
  await page.waitForTimeout(300); // the drawer's slide-in, for the picture only
  await journey.screenshot('person-calendar', false);
  await cell.click();
  await page.getByTestId('day-drawer').getByTestId('day-why').waitFor();
  await page.locator('.ant-drawer-close:visible').last().click();
  await page.locator('.ant-drawer-close:visible').last().click();
  assert.deepEqual(journey.pageErrors, []);
});

step('export the day results of a range and read Alice in the workbook', async () => {
  await page.getByTestId('day-export').click();
  await page.getByTestId('day-export-range').first().waitFor();
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId('day-export-go').click()]);
  const file = path.join(tmpdir(), `e2e-att-${Date.now()}.xlsx`);
  await download.saveAs(file);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(readFileSync(file));
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((r: { values: unknown[] }) => rows.push(r.values.slice(1)));
  const alice = rows.find((r) => r[0] === DAY && r[2] === 'Alice Chen');
  assert.ok(alice, JSON.stringify(rows.slice(0, 5)));
  assert.equal(alice[5], '09:07', 'check-in in the company zone');
});

step('the monthly report lists Alice with her working and present days', async () => {
  await menu(tr('route.attendanceReport'), 'month-report-page');
  // The report opens on this month (in the company's zone); the punched day may be last month's at a month's start.
  if (DAY.slice(0, 7) !== ymd(new Date()).slice(0, 7)) return;
  const row = page.getByTestId('month-table').locator('tbody tr', { hasText: 'Alice Chen' });
  await until('Alice in the report', async () => (await row.count()) > 0);
  const cells = await row.first().locator('td').allInnerTexts();
  // number, name, department, one cell per day of the month (the grid, #17), working days, present days, …
  const days = new Date(Number(DAY.slice(0, 4)), Number(DAY.slice(5, 7)), 0).getDate();
  const [working, present] = [Number(cells[3 + days]), Number(cells[4 + days])];
  assert.ok(present >= 1, cells.join(' | '));
  assert.ok(working >= present, cells.join(' | '));
  assert.deepEqual(journey.pageErrors, []);
});
