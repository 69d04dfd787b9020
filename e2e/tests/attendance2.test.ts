// Browser journey of issue #17 "Attendance and approvals, the second pass": a person hired mid-month, a rule
// under the temperature model that counts worked time as the sum of in/out pairs, a 37.8 ℃ punch refused and
// explained, a break clocked out for, a half-day leave on a day without punches, and no results before the hire
// date. The real server, the built console, Debian Chromium, an emulated ZKTeco terminal.
import { after, before } from 'node:test';
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
const SERIAL = 'E2EATT0002';
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
const weekday = (date: string) => new Date(`${date}T12:00:00`).getDay();
const isWorkday = (date: string) => weekday(date) !== 0 && weekday(date) !== 6;
const addDays = (date: string, n: number) => {
  const d = new Date(`${date}T12:00:00`);
  d.setDate(d.getDate() + n);
  return ymd(d);
};
/** The nearest Monday–Friday at or before (step -1) / after (step 1) `date`. */
const workday = (date: string, step: 1 | -1) => {
  let d = date;
  while (!isWorkday(d)) d = addDays(d, step);
  return d;
};
const TODAY = ymd(new Date());
/** The punched day: the last Monday–Friday at least two days back (its punch windows have closed). */
const DAY = workday(addDays(TODAY, -2), -1);
/** The half-day leave: the working day before, without punches. */
const LEAVE_DAY = workday(addDays(DAY, -1), -1);
/**
 * Alice's hire date: the 10th of the leave day's month, or of the month before when that is not at least five days
 * before the leave day; so working days before it exist in its month, and both days above follow it.
 */
const HIRED = (() => {
  const tenth = `${LEAVE_DAY.slice(0, 8)}10`;
  return tenth <= addDays(LEAVE_DAY, -5) ? tenth : `${addDays(`${LEAVE_DAY.slice(0, 8)}01`, -1).slice(0, 8)}10`;
})();
/** The last working day before the hire date, and the first one from it. */
const BEFORE = workday(addDays(HIRED, -1), -1);
const FIRST = workday(HIRED, 1);

const keyword = () => inputOf(page.getByTestId('day-keyword'));

const choose = (select: Locator, label: string) => chooseOption(page, select, label);
const ruleDrawer = () => page.locator('.ant-drawer-body').filter({ has: page.getByTestId('rule-form') });
const dayRow = (name: string) => page.locator('[data-testid=day-table] .ant-table-row', { hasText: name });
const dayDrawer = () => page.locator('.ant-drawer-body').filter({ has: page.getByTestId('day-why') });
/** The value beside a label in the day drawer's head (a bordered Descriptions: label and value cells). */
const field = (label: string) =>
  dayDrawer()
    .locator('.ant-descriptions-item-label')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::*[contains(@class, "ant-descriptions-item-content")][1]');
const dayHead = () => dayDrawer().locator('.ant-descriptions').getByTestId('day-status');

/** Opens the day view on `date`. */
async function openDay(date: string): Promise<void> {
  await menu(tr('route.attendanceResult'), 'day-result-page');
  await typeDate(page.getByTestId('day-date'), date);
  await until('the day view on the date', async () => (await inputOf(page.getByTestId('day-date')).inputValue()) === date);
}

/** Waits until the day view lists `name` with `status` (searching again while the result is computed). */
async function rowStatus(name: string, status: string): Promise<void> {
  const tag = dayRow(name).getByTestId('day-status');
  await until(`${name} ${status}`, async () => {
    await keyword().fill(name);
    await keyword().press('Enter');
    return (await tag.count()) > 0 && (await tag.getAttribute('data-status')) === status;
  });
}

async function closeDrawer(): Promise<void> {
  await page.locator('.ant-drawer-close:visible').last().click();
  await dayDrawer().waitFor({ state: 'hidden' });
}

before(async () => {
  server = await startServer(ADMIN, { DEVICE_POLL_SECONDS: '1' });
  journey = await openJourney({ prefix: 'attendance2-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await terminal?.stop();
  await server?.stop();
});

step('sign in, create a company, a department, Alice hired mid-month and Bob with no hire date', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Acme Second Pass Ltd', phone: '+8613800000020' });
  await menuOf(page, tr('route.user'), tr('route.organization'), 'organization-page');
  await page.getByTestId('dept-add-top').click();
  const dialog = modalOf(page, tr('org.addTop'));
  await dialog.getByTestId('department-name').fill('Office');
  await dialog.getByRole('button', { name: tr('common.actions.save') }).click();
  await dialog.waitFor({ state: 'hidden' });

  await menuOf(page, tr('route.user'), tr('route.personList'), 'person-list-page');
  for (const [i, [name, hired]] of [
    ['Alice Chen', HIRED],
    ['Bob Li', undefined],
  ].entries()) {
    await page.getByTestId('person-create').click();
    await page.getByTestId('person-form').waitFor({ state: 'visible' });
    await page.waitForFunction((n) => document.querySelector<HTMLInputElement>('[data-testid=person-form] #number')?.value === n, String(i + 1));
    await fillPerson(page, { name: name!, phone: `1380000002${i}`, department: 'Office', photo: await facePhoto(name!, 200 + i * 90) });
    if (hired) {
      await typeDate(page.getByTestId('person-joined-on'), hired);
      assert.equal(await inputOf(page.getByTestId('person-joined-on')).inputValue(), hired);
      await journey.screenshot('person-hired', false);
    }
    await page.getByTestId('person-save').click();
    await page.locator('[data-testid=person-table] .ant-table-row', { hasText: name! }).waitFor();
    await page.getByTestId('person-form').waitFor({ state: 'hidden' });
  }
});

step('a rule under the temperature model (alarm 37.3 ℃) counting the sum of in/out pairs, for the department', async () => {
  await menu(tr('route.attendanceRule'), 'rule-list-page');
  await page.getByTestId('rule-create').click();
  await ruleDrawer().waitFor();
  await page.locator('#name').fill('Office pairs');
  await choose(page.getByTestId('rule-model'), tr('att.model.temperature'));
  const alarm = inputOf(page.getByTestId('rule-alarm-temp'));
  await alarm.fill('37.3');
  await page.locator('#shifts_0_name').fill('Day');
  await page.locator('#shifts_0_start').fill('09:00');
  await page.locator('#shifts_0_end').fill('18:00');
  await page.getByTestId('rule-worked-by').getByText(tr('att.rule.counting.pairs'), { exact: true }).click();
  await pickTreeOption(page, page.getByTestId('rule-departments'), 'Office');
  await page.locator('#name').click(); // closes the tree dropdown (Escape would close the drawer)
  await journey.screenshot('rule-pairs', false);
  await page.getByTestId('rule-save').click();
  await ruleDrawer().waitFor({ state: 'hidden' });
  await toast(tr('common.saved')).first().waitFor();
  // reopening shows the model, the alarm and the counting as saved
  const row = page.locator('[data-testid=rule-table] .ant-table-row', { hasText: 'Office pairs' });
  await row.getByTestId('rule-edit').click();
  await ruleDrawer().waitFor();
  await page.getByTestId('rule-model').getByText(tr('att.model.temperature'), { exact: true }).waitFor();
  assert.equal(await inputOf(page.getByTestId('rule-alarm-temp')).inputValue(), '37.3');
  const pairs = page.getByTestId('rule-worked-by').locator('label', { hasText: tr('att.rule.counting.pairs') });
  assert.match((await pairs.getAttribute('class')) ?? '', /checked/);
  await page.getByRole('button', { name: tr('common.actions.cancel') }).click();
  await ruleDrawer().waitFor({ state: 'hidden' });
});

step('register the terminal; "attendance update" computes the days from before the hire date on', async () => {
  await menuOf(page, tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await page.getByTestId('device-create').click();
  const dialog = modalOf(page, tr('device.create'));
  await dialog.locator('#name').fill('Gate');
  await dialog.locator('#serial').fill(SERIAL);
  await dialog.locator('#ip').fill('192.168.7.32');
  await dialog.locator('#password').fill('123456');
  await dialog.getByTestId('device-save').click();
  await dialog.waitFor({ state: 'hidden' });
  terminal = createTerminal({ server: server.baseUrl, sn: SERIAL, pollMs: 500, retryMs: 1000, ip: '192.168.7.32' });
  await terminal.start();
  await page.locator('.ant-table-row', { hasText: SERIAL }).locator('[data-testid=device-online][data-online="1"]').waitFor({ timeout: 20_000 });

  // saving the rule queued this month so far; the hire date may lie in last month
  await openDay(DAY);
  await page.getByTestId('att-update').click();
  const update = modalOf(page, tr('att.update.title'));
  await typeRange(update.getByTestId('att-update-range'), BEFORE, DAY);
  await update.getByTestId('att-update-start').click();
  const progress = update.getByTestId('att-update-progress');
  await progress.waitFor();
  await until('the update finished', async () => (await progress.getAttribute('data-percent')) === '100', 60_000);
  await update.getByRole('button', { name: tr('common.actions.cancel') }).click();
  await update.waitFor({ state: 'hidden' });
});

step('Alice punches: 37.8 ℃ refused, 36.5 ℃ the check-in, a break clocked out for, then out', async () => {
  const punches = [
    { time: '08:50', temperature: 37.8 },
    { time: '08:58', temperature: 36.5 },
    { time: '12:00', temperature: 36.6 },
    { time: '13:00', temperature: 36.5 },
    { time: '18:05', temperature: 36.7 },
  ];
  const r = await terminal.punchBatch(punches.map((p) => ({ pin: '1', time: at(DAY, p.time), temperature: p.temperature })));
  assert.ok(r.uploaded, 'the server took the punches');
});

step('the day explains the refused punch, flags the temperature alarm and counts the pairs, not first→last', async () => {
  await openDay(DAY);
  await rowStatus('Alice Chen', 'normal');
  await dayRow('Alice Chen').click();
  const d = dayDrawer();
  await d.waitFor();
  await d.getByTestId('day-temperature-alarm').getByText(tr('att.day.temperatureAlarm'), { exact: true }).waitFor();
  // the refused punch is listed with its reading and the alarm; the check-in is the next valid punch
  const ignored = d.getByTestId('punch-ignored');
  assert.equal(await ignored.count(), 1);
  await ignored.getByText(tr('att.ignored.invalidModel'), { exact: true }).waitFor();
  await ignored.getByText(tr('att.why.ignored.temperature', { time: '08:50', temperature: 37.8, alarm: 37.3 })).waitFor();
  const why = d.getByTestId('day-why');
  await why.getByText(tr('att.why.checkIn', { time: '08:58' }), { exact: true }).waitFor();
  await why.getByText(tr('att.why.onTime', { checkIn: '08:58', start: '09:00', grace: 0 })).waitFor();
  // worked time is the sum of the pairs, each clipped to the shift 09:00–18:00: 180 + 300 = 480 min, the lunch
  // hour clocked out for not worked (first → last would be 540)
  await why.getByText(tr('att.why.pairsAlternating')).waitFor();
  await why.getByText(tr('att.why.pair', { from: '08:58', to: '12:00', minutes: 182 })).waitFor();
  await why.getByText(tr('att.why.pair', { from: '13:00', to: '18:05', minutes: 305 })).waitFor();
  await why.getByText(tr('att.why.pairsWorked', { pairs: 2, worked: 480 })).waitFor();
  assert.equal(await field(tr('att.day.fields.worked')).innerText(), '8:00');
  assert.equal(await dayRow('Alice Chen').getByText('8:00', { exact: true }).count(), 1, 'the row shows the same worked time');
  assert.equal(await d.getByTestId('punch-used').count(), 4);
  await page.waitForTimeout(400); // the drawer slides in, for the picture only
  await journey.screenshot('day-temperature-pairs', false);
  await closeDrawer();
});

step('a half-day leave on a day without punches: half day, with leave and absent minutes', async () => {
  await openDay(LEAVE_DAY);
  await rowStatus('Alice Chen', 'absent');
  await dayRow('Alice Chen').click();
  const d = dayDrawer();
  await d.waitFor();
  // the form proposes the shift (09:00–18:00); the leave covers the morning up to 14:00
  await typeRange(d.getByTestId('absence-range'), `${LEAVE_DAY} 09:00`, `${LEAVE_DAY} 14:00`);
  await d.getByTestId('absence-reason').fill('Dentist, morning');
  await d.getByTestId('absence-save').click();
  await toast(tr('att.absence.recorded')).waitFor();
  await d.getByTestId('day-absences').getByText('Dentist, morning').waitFor();
  await until('the day turned to a half day', async () => (await dayHead().getAttribute('data-status')) === 'halfDay');
  // 300 min of leave reach half of the 540 planned (270): a half day, the other 240 min absent
  await d
    .getByTestId('day-why')
    .getByText(tr('att.why.partialHalfDay', { covered: 300, limit: 270, absent: 240 }))
    .waitFor();
  assert.match(await d.getByTestId('leave-time').innerText(), /^5:00/);
  assert.equal(await d.getByTestId('day-absent-min').innerText(), '4:00');
  await d.evaluate((el) => el.scrollTo(0, 0));
  await page.waitForTimeout(400);
  await journey.screenshot('day-half-leave', false);
  await closeDrawer();
  await rowStatus('Alice Chen', 'halfDay');
  assert.deepEqual(journey.pageErrors, []);
});

step('no results before the hire date: Bob has his day, Alice none; from the hire date on she has', async () => {
  await openDay(BEFORE);
  await rowStatus('Bob Li', 'absent');
  await keyword().fill('Alice');
  await keyword().press('Enter');
  await until('the list searched', async () => (await dayRow('Bob Li').count()) === 0);
  assert.equal(await dayRow('Alice Chen').count(), 0, `Alice has no result on ${BEFORE}, before her hire date ${HIRED}`);
  await journey.screenshot('before-hire', false);

  await openDay(FIRST);
  await rowStatus('Alice Chen', 'absent');
  // her month as a calendar: the working days before the hire date are blank, the first one after it is not
  await dayRow('Alice Chen').getByTestId('day-calendar-open').click();
  const month = page.getByTestId('person-month');
  await month.waitFor();
  const cell = (date: string) => month.locator(`[data-testid=calendar-day][data-date="${date}"]`);
  await until('the month in the calendar', async () => (await cell(FIRST).getAttribute('data-status')) === 'absent');
  for (let d = `${HIRED.slice(0, 8)}01`; d < HIRED; d = addDays(d, 1)) {
    assert.equal(await cell(d).getAttribute('data-status'), '', `no result on ${d}, before the hire date ${HIRED}`);
    assert.ok(await cell(d).isDisabled(), `${d} opens no day`);
  }
  await page
    .locator('.ant-drawer-content-wrapper:visible')
    .last()
    .evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
  await journey.screenshot('calendar-hired', false);
  await page.locator('.ant-drawer-close:visible').last().click();
  await month.waitFor({ state: 'hidden' });
  assert.deepEqual(journey.pageErrors, []);
});
