// Browser journey of the free scheduling grid (issue #10, spec §2 /attendance/freeSchedule, §4 schedule hashes).
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { facePhoto } from '../lib/faces.ts';
import { menu, modal as modalOf, signInAndCreateCompany, translator, waitForPath } from '../lib/journey.ts';
import { api } from '../lib/api.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const EN = loadLocale('en-US');
const tr = translator(EN);
const PEOPLE = [
  { number: 'S1', name: 'Wang Fang' },
  { number: 'S2', name: 'Li Na' },
  { number: 'S3', name: 'Zhang Wei' },
];

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let token = '';
let month = '';
let second: BrowserContext | undefined;
let other: Page;

/** The "Saved (days changed: n)" toast, whatever n (the template's days depend on the month). */
const savedToast = (p: Page) =>
  p.locator('.ant-message-notice-success', { hasText: tr('schedule.saved', { count: 0 }).replace(/\d+/, '').split(':')[0]! }).first();
const cell = (p: Page, number: string, day: number) => p.getByTestId(`cell-${number}-${month}-${String(day).padStart(2, '0')}`);
async function waitForAttr(p: Page, number: string, day: number, attr: string, value: string) {
  await p.waitForFunction(
    ([id, a, v]) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute(a!) === v,
    [`cell-${number}-${month}-${String(day).padStart(2, '0')}`, attr, value],
  );
  assert.equal(await cell(p, number, day).getAttribute(attr), value);
}
/** Drags from one cell to another, as a user selects a block of days. */
async function dragSelect(p: Page, from: [string, number], to: [string, number]) {
  await cell(p, ...from).hover();
  await p.mouse.down();
  await cell(p, ...to).hover();
  await p.mouse.up();
}

before(async () => {
  server = await startServer(ADMIN);
  journey = await openJourney({ prefix: 'schedule-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});

after(async () => {
  await second?.close();
  await journey?.close();
  await server?.stop();
});

step('sign in, create a company with a production line of three people under a 2 days / 2 nights / 2 rest rule', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Acme Schedule Ltd', phone: '+8613800000077' });
  token = (await page.context().cookies()).find((c) => c.name === 'Admin-Token')!.value;
  const dept = (await api(page, 'POST', '/org/create', { name: 'Production line' })).id;
  for (const [i, p] of PEOPLE.entries()) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await facePhoto(p.name, i * 90))], { type: 'image/jpeg' }), `${p.number}.jpg`);
    const { pic } = await api(page, 'POST', '/person/upload', form);
    await api(page, 'POST', '/person/create', { ...p, phone: `1380000010${i}`, organizations: [dept], pic });
  }
  await api(page, 'POST', '/attendance/rule/create', {
    name: 'Production',
    mode: 'shift',
    shifts: [
      { key: 'd', name: 'Day', start: '08:00', end: '20:00' },
      { key: 'n', name: 'Night', start: '20:00', end: '08:00' },
    ],
    cycles: [
      { key: 'c', name: '2D2N2R', days: ['d', 'd', 'n', 'n', '', ''] },
      { key: 'x', name: 'Nights', days: ['n', 'n', ''] },
    ],
    cycle_key: 'c',
    start_date: '2025-01-01',
    start_index: 0,
    person_ids: [],
    department_ids: [dept],
  });
});

step('the grid opens from the Attendance menu: people × days, every day from the running cycle', async () => {
  await menu(page, tr('route.attendance'), tr('schedule.title'), 'schedule-page');
  await waitForPath(page, '/attendance/freeSchedule');
  const grid = page.getByTestId('schedule-grid');
  await grid.waitFor();
  month = (await grid.getAttribute('data-month'))!;
  for (const p of PEOPLE) await page.getByTestId(`schedule-row-${p.number}`).waitFor();
  assert.equal(await cell(page, 'S1', 1).getAttribute('data-source'), 'cycle');
  assert.match((await cell(page, 'S1', 1).getAttribute('data-shift'))!, /^(Day|Night|)$/);
  await journey.screenshot('grid');
});

step('drag across two people and three days, make them nights; one day rest; save; a reload shows them', async () => {
  await dragSelect(page, ['S1', 5], ['S2', 7]);
  await page.getByTestId('schedule-assign-Night').click();
  for (const n of ['S1', 'S2']) for (const d of [5, 6, 7]) await waitForAttr(page, n, d, 'data-shift', 'Night');
  assert.equal(await cell(page, 'S1', 5).getAttribute('data-edited'), '1');
  await cell(page, 'S3', 10).click();
  await page.getByTestId('schedule-assign-rest').click();
  await waitForAttr(page, 'S3', 10, 'data-shift', '');
  await page.getByTestId('schedule-unsaved').waitFor();
  await journey.screenshot('edited');
  await page.getByTestId('schedule-save').click();
  await savedToast(page).waitFor();
  await waitForAttr(page, 'S1', 5, 'data-edited', '0');
  await page.reload();
  await page.getByTestId('schedule-grid').waitFor();
  for (const n of ['S1', 'S2'])
    for (const d of [5, 6, 7]) {
      await waitForAttr(page, n, d, 'data-shift', 'Night');
      assert.equal(await cell(page, n, d).getAttribute('data-source'), 'grid');
    }
  assert.equal(await cell(page, 'S3', 10).getAttribute('data-source'), 'grid');
  assert.equal(await cell(page, 'S3', 10).getAttribute('data-shift'), '');
});

step('apply the "Nights" template to one person from a date: previewed night, night, rest, then saved', async () => {
  await cell(page, 'S3', 14).click();
  await page.getByTestId('schedule-apply').click();
  const dialog = modalOf(page, tr('schedule.applyTitle'));
  await dialog.waitFor();
  await dialog.getByTestId('schedule-apply-cycle').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Nights' }).click();
  await dialog.getByRole('button', { name: tr('schedule.apply') }).click();
  await dialog.waitFor({ state: 'hidden' });
  await waitForAttr(page, 'S3', 14, 'data-shift', 'Night');
  await waitForAttr(page, 'S3', 15, 'data-shift', 'Night');
  await waitForAttr(page, 'S3', 16, 'data-shift', '');
  assert.equal(await cell(page, 'S3', 13).getAttribute('data-edited'), '0', 'the day before is untouched');
  await page.getByTestId('schedule-save').click();
  await savedToast(page).waitFor();
  await waitForAttr(page, 'S3', 17, 'data-source', 'grid');
});

step('leaving with unsaved changes asks first; staying keeps them', async () => {
  await cell(page, 'S2', 20).click();
  await page.getByTestId('schedule-assign-Day').click();
  await page
    .getByTestId('sidebar')
    .getByRole('menuitem', { name: tr('route.attendanceList') })
    .click();
  const confirm = page.locator('.ant-modal-confirm', { hasText: tr('schedule.leaveTitle') });
  await confirm.waitFor();
  await confirm.getByRole('button', { name: tr('schedule.stay') }).click();
  assert.equal(new URL(page.url()).pathname, '/attendance/freeSchedule');
  await waitForAttr(page, 'S2', 20, 'data-shift', 'Day');
  await page.getByTestId('schedule-discard').click();
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: tr('schedule.discard') })
    .click();
  await waitForAttr(page, 'S2', 20, 'data-edited', '0');
});

step('two editors: the second saves first, the first is told to reload instead of overwriting', async () => {
  // This editor has the grid open (its hash loaded); another administrator's browser opens it too.
  second = await journey.browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
  await second.addCookies([{ name: 'Admin-Token', value: token, url: server.baseUrl }]);
  other = await second.newPage();
  await other.goto(`${server.baseUrl}/attendance/freeSchedule`);
  await other.getByTestId('schedule-grid').waitFor();
  await cell(other, 'S1', 22).click();
  await other.getByTestId('schedule-assign-Day').click();
  await other.getByTestId('schedule-save').click();
  await savedToast(other).waitFor();

  await cell(page, 'S1', 22).click();
  await page.getByTestId('schedule-assign-Night').click();
  await page.getByTestId('schedule-save').click();
  const conflict = page.getByTestId('schedule-conflict');
  await conflict.waitFor();
  assert.match(await conflict.innerText(), new RegExp(tr('schedule.conflict')));
  assert.match(await conflict.innerText(), /Someone else changed this schedule/);
  assert.equal(await page.locator('.ant-message-notice-error').count(), 0, 'one message, in the page');
  await journey.screenshot('conflict');
  await page.getByTestId('schedule-reload').click();
  await conflict.waitFor({ state: 'hidden' });
  await waitForAttr(page, 'S1', 22, 'data-shift', 'Day');
  assert.equal(await cell(page, 'S1', 22).getAttribute('data-edited'), '0');
  assert.deepEqual(journey.pageErrors, []);
});
