// Browser journey of issue #9 items 12, 13, 15, 16 on a phone (390×844): the demo company (real server, its emulated
// terminals), the built console, Debian Chromium. Every page is opened; nothing may be wider than the screen.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page, Response } from 'playwright-core';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { openPath, toast as toastOf, translator, waitForPath as waitForPathOf } from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const VIEW = { width: 390, height: 844 };
// The demo company's administrator (apps/server/src/demo/seed-demo.ts); no other administrator is made.
const DEMO = { username: 'demo', password: 'demo123' };
const EN = loadLocale('en-US');
const tr = translator(EN);

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let shot = 0;

async function screenshot(name: string): Promise<void> {
  shot += 1;
  await journey.screenshot(`${String(shot).padStart(2, '0')}-${name}`, false);
}

const waitForPath = (expected: string | RegExp) => waitForPathOf(page, expected);
const toast = (text: string | RegExp) => toastOf(page, text as string);
const cards = (scope: string) => page.locator(`[data-testid=${scope}] .fa-row-card`);
const visibleToasts = () => page.locator('.ant-message-notice:visible');

/** Nothing on the page is wider than the screen (the navbar overflowed to 539 px, issue #9). */
async function assertFits(what: string): Promise<void> {
  const w = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, body: document.body.scrollWidth, view: window.innerWidth }));
  assert.ok(w.doc <= w.view && w.body <= w.view, `${what}: the page is ${Math.max(w.doc, w.body)} px wide on a ${w.view} px screen`);
}

async function assertInView(locator: Locator, what: string): Promise<void> {
  const box = await locator.boundingBox();
  assert.ok(box, `${what} is not shown`);
  assert.ok(box.x >= 0 && box.x + box.width <= VIEW.width + 0.5, `${what} is off screen (x ${box.x}, width ${box.width})`);
}

/** Rows are cards that fit the screen, their buttons reachable; no table hides columns off screen. */
async function assertRowsUsable(scope: string, what: string, atLeast = 1): Promise<void> {
  const list = cards(scope);
  if (atLeast > 0) await list.first().waitFor();
  const n = await list.count();
  assert.ok(n >= atLeast, `${what}: ${n} rows`);
  for (let i = 0; i < Math.min(n, 3); i++) {
    await assertInView(list.nth(i), `${what} row ${i + 1}`);
    const buttons = list.nth(i).locator('button:visible');
    for (let b = 0; b < (await buttons.count()); b++) await assertInView(buttons.nth(b), `${what} row ${i + 1} button ${b + 1}`);
  }
  const clipped = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body'))
      .filter((e) => e.getClientRects().length > 0 && e.scrollWidth > e.clientWidth + 1 && !/auto|scroll/.test(getComputedStyle(e).overflowX))
      .map((e) => e.scrollWidth),
  );
  assert.deepEqual(clipped, [], `${what}: a table cuts its columns`);
}

async function openMenu(): Promise<void> {
  await page.getByTestId('navbar-more').click();
  await page.locator('.ant-dropdown:visible').first().waitFor();
  await page.waitForTimeout(300); // the menu slides in
}

async function menuItem(name: string): Promise<void> {
  await openMenu();
  await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name }).first().click();
}

/** Opens a page from the sidebar drawer (spec §2: on mobile the sidebar closes after navigating). */
async function go(section: string, item: string, pageTestId: string): Promise<void> {
  await page.getByRole('button', { name: tr('layout.toggleSidebar') }).click();
  const sidebar = page.getByTestId('sidebar');
  await sidebar.waitFor({ state: 'visible' });
  const entry = sidebar.getByRole('menuitem', { name: item });
  if (!(await entry.isVisible())) await sidebar.getByText(section, { exact: true }).click();
  await entry.click();
  await sidebar.waitFor({ state: 'hidden' });
  await page.getByTestId(pageTestId).waitFor();
}

async function drawerWidth(): Promise<number> {
  const wrapper = page.locator('.ant-drawer-open .ant-drawer-content-wrapper').last();
  await wrapper.waitFor();
  await page.waitForTimeout(400); // the drawer slides in
  return (await wrapper.boundingBox())?.width ?? 0;
}

/** A person's sync state as shown (spec §4: 0 not synced, 1 synced, 2 failed). */
const syncState = (state: 0 | 1 | 2) => page.locator(`[data-testid=person-sync-status][data-status="${state}"]`);

const tabTitles = () => page.locator('[data-testid=tags-view] .fa-tag').allInnerTexts();

before(async () => {
  server = await startServer(DEMO, { DEMO: '1', DEVICE_POLL_SECONDS: '1', ADMIN_USERNAME: '', ADMIN_PASSWORD: '' });
  journey = await openJourney({ prefix: 'mobile-', viewport: VIEW });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await server?.stop();
});

step('sign in on a phone: a compact navbar with the bell and an overflow menu, nothing off screen', async () => {
  await page.goto(`${server.baseUrl}/`);
  await waitForPath('/login');
  await page.locator('#username').fill(DEMO.username);
  await page.locator('#password').fill(DEMO.password);
  await page.getByTestId('login-submit').click();
  await waitForPath('/dashboard');
  await page.getByTestId('dashboard').waitFor();
  await assertFits('dashboard');
  await assertInView(page.getByTestId('message-bell'), 'the bell');
  await assertInView(page.getByTestId('navbar-more'), 'the overflow menu');
  await assertInView(page.getByRole('button', { name: tr('layout.toggleSidebar') }), 'the menu button');
  await screenshot('dashboard');
});

step('the overflow menu holds the company switch, notifications, language, size, settings and the avatar items', async () => {
  await openMenu();
  const menu = page.locator('.ant-dropdown:visible');
  for (const name of [
    tr('layout.company.switch'),
    tr('layout.messages'),
    tr('layout.language'),
    tr('layout.size.title'),
    tr('layout.settings.title'),
    tr('layout.avatar.companyList'),
    tr('layout.avatar.profile'),
    tr('layout.avatar.logout'),
  ]) {
    await assertInView(menu.getByRole('menuitem', { name }).first(), `"${name}" in the overflow menu`);
  }
  await screenshot('overflow-menu');
  await menu.getByRole('menuitem', { name: tr('layout.settings.title') }).click();
  assert.equal(Math.round(await drawerWidth()), VIEW.width, 'the layout settings drawer takes the whole width');
  await screenshot('settings-drawer');
  await page.keyboard.press('Escape');
  await page.locator('.ant-drawer-open').waitFor({ state: 'detached' });

  await menuItem(tr('layout.messages'));
  await waitForPath('/message/message');
  await assertRowsUsable('message-table', 'messages');
  await assertFits('messages');
  await screenshot('messages');
});

let deviceId = '';

step('every page fits the screen and shows its rows as cards', async () => {
  await go(tr('route.user'), tr('route.organization'), 'organization-page');
  await page.locator('[data-testid=dept-tree] [data-testid=dept-node]').first().waitFor();
  await assertRowsUsable('person-table', 'organization people');
  await assertFits('organization');
  await screenshot('organization');

  await go(tr('route.user'), tr('route.personList'), 'person-list-page');
  await assertRowsUsable('person-table', 'personnel list');
  await assertFits('personnel list');
  await screenshot('personnel-list');

  await go(tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await assertRowsUsable('device-table', 'device list');
  await assertInView(cards('device-table').first().getByTestId('device-open'), 'the open-door button');
  await assertFits('device list');
  await screenshot('device-list');
  deviceId = (await cards('device-table').first().getAttribute('data-row-key')) ?? '';

  await cards('device-table').first().getByTestId('device-people').click();
  await waitForPath(`/device/personManage/${deviceId}`);
  await page.getByTestId('device-person-page').waitFor();
  await assertRowsUsable('ledger-table', 'device people');
  await assertFits('device people');
  await screenshot('device-people');

  await go(tr('route.attendance'), tr('route.attendanceList'), 'punch-list-page');
  await assertRowsUsable('punch-table', 'punch records', 0);
  await assertFits('punch records');
  await screenshot('punch-records');

  await go(tr('route.system'), tr('route.log'), 'log-table');
  await assertRowsUsable('log-table', 'operation log');
  await assertFits('operation log');
  await screenshot('operation-log');

  await go(tr('route.system'), tr('route.manager'), 'manager-table');
  await assertRowsUsable('manager-table', 'administrators');
  await assertFits('administrators');
  await screenshot('administrators');

  await menuItem(tr('layout.avatar.companyList'));
  await waitForPath('/company/list');
  await assertRowsUsable('company-table', 'companies');
  await assertFits('companies');
  await screenshot('companies');

  await menuItem(tr('layout.avatar.companyInfo'));
  await waitForPath('/company/update');
  await page.getByTestId('company-form').waitFor();
  await assertFits('company information');
  await screenshot('company-information');

  await menuItem(tr('layout.avatar.dashboard'));
  await waitForPath('/dashboard');
  await assertRowsUsable('dashboard', 'recent operations');
  await assertFits('dashboard');
});

step('drawers take the whole width', async () => {
  await go(tr('route.user'), tr('route.personList'), 'person-list-page');
  await cards('person-table').first().getByTestId('person-edit').click();
  assert.equal(Math.round(await drawerWidth()), VIEW.width, 'the person drawer');
  await page.getByTestId('person-form').locator('#name').waitFor();
  await assertFits('person drawer');
  await screenshot('person-drawer');
  await page
    .locator('.ant-drawer-open')
    .getByRole('button', { name: tr('common.actions.cancel') })
    .click();
  await page.locator('.ant-drawer-open').waitFor({ state: 'detached' });

  await go(tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await cards('device-table').first().getByTestId('device-settings').click();
  assert.equal(Math.round(await drawerWidth()), VIEW.width, 'the device settings drawer');
  await assertFits('device settings drawer');
  await screenshot('device-settings-drawer');
  await page.keyboard.press('Escape');
  await page.locator('.ant-drawer-open').waitFor({ state: 'detached' });
});

step('English counts: "1 person", not "1 people"', async () => {
  await go(tr('route.user'), tr('route.personList'), 'person-list-page');
  const first = cards('person-table').first();
  await first.getByRole('checkbox').check();
  await page.getByText(tr('person.selectedCount', { count: 1 })).waitFor();

  await page.getByTestId('person-batch-delete').click();
  const confirm = page.locator('.ant-modal-confirm');
  await confirm.getByText(tr('person.batchDeleteConfirm', { count: 1 })).waitFor();
  assert.match(tr('person.batchDeleteConfirm', { count: 1 }), /1 selected person\?/);
  await confirm.getByRole('button', { name: tr('common.actions.cancel') }).click();

  await page.getByTestId('person-sync').click();
  const done = toast(tr('common.count.people', { count: 1 }));
  await done.waitFor();
  const text = (await done.innerText()).trim();
  assert.match(text, /^1 person queued for \d+ devices?$/, text);
  assert.doesNotMatch(text, /\b1 devices\b/);
  await screenshot('plural-toast');
});

step('open tabs are kept across a reload', async () => {
  const before = await tabTitles();
  assert.ok(before.length >= 6, `tabs before the reload: ${before.join(', ')}`);
  await page.reload();
  await page.getByTestId('person-list-page').waitFor();
  await page.getByTestId('tags-view').waitFor();
  assert.deepEqual(await tabTitles(), before);
});

step("the spec's /system/list opens the operation log", async () => {
  await page.goto(`${server.baseUrl}/system/list`);
  await waitForPath('/system/log');
  await cards('log-table').first().waitFor();
});

step('a failed load shows an error state with Retry, and no toast beside it', async () => {
  await page.route('**/api/management/device/list?**', (route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'upstream failure' }));
  // a first load (nothing cached from earlier visits)
  await page.goto(`${server.baseUrl}/device/list`);
  await page.getByTestId('device-list-page').waitFor();
  const state = page.getByTestId('error-state');
  await state.waitFor();
  assert.match(await state.innerText(), new RegExp(tr('common.loadFailed')));
  assert.match(await state.innerText(), /HTTP 500/);
  await page.waitForTimeout(500); // a toast came up within a frame of the answer
  assert.equal(await visibleToasts().count(), 0, 'the error state is the one message');
  await assertFits('error state');
  await screenshot('error-state');

  await page.unroute('**/api/management/device/list?**');
  await page.getByTestId('error-retry').click();
  await cards('device-table').first().waitFor();
  assert.equal(await state.count(), 0);
});

step('an unknown device id: one "does not exist" page, no toasts', async () => {
  await openPath(page, '/device/personManage/999999');
  await page.getByTestId('device-not-found').waitFor();
  await page.getByText(tr('device.notFound')).waitFor();
  await page.waitForTimeout(1000); // both queries have answered
  assert.equal(await visibleToasts().count(), 0, 'no toast besides the page');
  await screenshot('device-not-found');
});

step('after a save the people list shows the sync state reach "Synced" on its own', async () => {
  // a person who is on a terminal and synced (the demo terminals take their first few hundred people over a
  // number of polls after the server starts: the list is reloaded until one shows up)
  await openPath(page, '/user/list');
  const person = cards('person-table')
    .filter({ has: syncState(1) })
    .first();
  for (let i = 0; i < 30 && !(await person.isVisible()); i++) {
    await page.waitForTimeout(2000);
    await page.reload();
    await cards('person-table').first().waitFor();
  }
  const id = Number(await person.getAttribute('data-row-key'));
  const card = page.locator(`[data-testid=person-table] .fa-row-card[data-row-key="${id}"]`);
  // What the list loads after the save: the refetch the save causes finds the change not yet on the terminal
  // (status 0). Before the fix nothing loaded the list again, so it said "Not synced" until the next reload.
  const loaded: number[] = [];
  const onList = (r: Response) => {
    if (!r.url().includes('/person/list?')) return;
    void r
      .json()
      .then((body: { data: { items: { id: number; sync_status: number }[] } }) => {
        const row = body.data.items.find((p) => p.id === id);
        if (row) loaded.push(row.sync_status);
      })
      .catch(() => undefined);
  };
  await card.getByTestId('person-edit').click();
  const name = page.getByTestId('person-form').locator('#name');
  await name.fill(`${await name.inputValue()} M`);
  page.on('response', onList);
  await page.evaluate(() => ((window as unknown as { beforeSave: boolean }).beforeSave = true));
  await page.getByTestId('person-save').click();
  await page.locator('.ant-drawer-open').waitFor({ state: 'detached' });
  // the name goes to the terminal; the card reaches "Synced" with no reload
  await card.filter({ has: syncState(1) }).waitFor({ timeout: 30_000 });
  page.off('response', onList);
  assert.ok(await page.evaluate(() => (window as unknown as { beforeSave?: boolean }).beforeSave), 'the page was not reloaded');
  // (when the terminal was quicker than the first refetch, there was nothing to follow: loaded is [1])
  if (loaded[0] === 0) assert.ok(loaded.length >= 2 && loaded.at(-1) === 1, `list loads after the save: ${loaded.join(', ')}`);
  await screenshot('person-synced-again');
});

step('switching company says "Company switching success" once the app has reloaded', async () => {
  await menuItem(tr('layout.avatar.companyList'));
  await waitForPath('/company/list');
  await page.getByRole('button', { name: tr('company.create') }).click();
  await waitForPath('/company/create');
  await page.locator('#name').fill('Second Mobile Co');
  await page.locator('#phone').fill('+8613800000009');
  await page.getByTestId('company-submit').click();
  await waitForPath('/dashboard');

  // back to the demo company through the overflow menu
  await page.evaluate(() => ((window as unknown as { beforeSwitch: boolean }).beforeSwitch = true));
  // The overflow menu may close while the new company's dashboard is still loading (its blocks re-render the
  // shell): open it again until the company list shows, a few times at most.
  const demoCompany = page.getByRole('menuitem', { name: /Demo Technology/ });
  for (let attempt = 0; ; attempt++) {
    await openMenu();
    await page
      .locator('.ant-dropdown:visible')
      .getByRole('menuitem', { name: tr('layout.company.switch') })
      .click();
    const shown = await demoCompany
      .waitFor({ timeout: 5000 })
      .then(() => true)
      .catch(() => false);
    if (shown || attempt >= 2) break;
    await page.keyboard.press('Escape');
  }
  // The message shows for 3 s as the reloaded console starts: watched for from the click on, across the reload (once,
  // beside two CPU hogs, the reload and the dashboard took longer than that before the watch began).
  const said = toast(tr('layout.company.switchSuccess'))
    .waitFor({ timeout: 60_000 })
    .then(
      () => true,
      (e: unknown) => e,
    );
  await demoCompany.click();
  await page.waitForFunction(() => !(window as unknown as { beforeSwitch?: boolean }).beforeSwitch);
  await waitForPath('/dashboard');
  assert.equal(await said, true, 'the switch is confirmed after the reload');
  await screenshot('company-switched');
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(journey.pageErrors, []);
});
