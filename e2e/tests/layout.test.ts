// Browser journey of issue #9 item 14 on a 1440 px screen: the demo company (real server, its emulated terminals),
// the built console, Debian Chromium. Tables show every column, the department tree keeps its counts on one line,
// the operation log names its modules in the user's language, the sidebar opens the current page's section and cuts
// no label, a strip of many tabs scrolls with arrows and keeps the current one in view, and each size setting is smaller
// than the one before.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { LOG_MODULES, type DormitorySettingsView } from '@faceadmin/shared';
import { DEMO_TRAFFIC_PINS } from '../../apps/server/src/demo/traffic.ts';
import { createTerminal } from '../../tools/zk-emulator/terminal.ts';
import { callApi } from '../lib/api.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { menu as menuOf, openPath, translator, waitForPath as waitForPathOf } from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { useLanguage } from '../lib/pages.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

// The demo company's administrator (apps/server/src/demo/seed-demo.ts); no other administrator is made.
const DEMO = { username: 'demo', password: 'demo123' };
const EN = loadLocale('en-US');
const tr = translator(EN);

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;

const screenshot = (name: string) => journey.screenshot(name, false);
const waitForPath = (expected: string | RegExp) => waitForPathOf(page, expected);
const menu = (section: string, item: string, pageTestId: string) => menuOf(page, section, item, pageTestId);

/** Widths of the page's tables: what their columns need against what is shown (scrolled or hidden behind a fixed column). */
const tableWidths = () =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body'))
      .filter((e) => e.getClientRects().length > 0)
      .map((e) => ({ needed: e.scrollWidth, shown: e.clientWidth })),
  );

async function assertAllColumnsShown(what: string): Promise<void> {
  await page.locator('.ant-table-row').first().waitFor();
  const widths = await tableWidths();
  assert.ok(widths.length > 0, `${what}: no table`);
  for (const w of widths) assert.ok(w.needed <= w.shown + 1, `${what}: the columns need ${w.needed} px, ${w.shown} px are shown`);
}

/** Texts of one column of the first table, found by its header. */
async function columnTexts(header: string): Promise<string[]> {
  const headers = await page.locator('.ant-table-thead th').allInnerTexts();
  const index = headers.findIndex((h) => h.trim() === header);
  assert.ok(index >= 0, `no "${header}" column in ${headers.join(' | ')}`);
  return page.locator(`.ant-table-tbody tr.ant-table-row > td:nth-child(${index + 1})`).allInnerTexts();
}

before(async () => {
  server = await startServer(DEMO, { DEMO: '1', DEVICE_POLL_SECONDS: '1', ADMIN_USERNAME: '', ADMIN_PASSWORD: '' });
  journey = await openJourney({ prefix: 'layout-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await server?.stop();
});

step('sign in to the demo company', async () => {
  await page.goto(`${server.baseUrl}/`);
  await waitForPath('/login');
  await page.locator('#username').fill(DEMO.username);
  await page.locator('#password').fill(DEMO.password);
  await page.getByTestId('login-submit').click();
  await waitForPath('/dashboard');
  await page.getByTestId('dashboard').waitFor();
});

step('at 1440 px the device list, the person list and the organization table show every column', async () => {
  await menu(tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await assertAllColumnsShown('device list');
  await screenshot('device-list');

  await menu(tr('route.user'), tr('route.personList'), 'person-list-page');
  await assertAllColumnsShown('person list');
  assert.ok((await page.locator('.ant-table-thead th').allInnerTexts()).some((h) => h.trim() === tr('person.fields.updatedAt')));
  await screenshot('person-list');

  await menu(tr('route.user'), tr('route.organization'), 'organization-page');
  await assertAllColumnsShown('organization table');
  await screenshot('organization');
});

step('the department tree keeps each count on one line', async () => {
  const totals = page.locator('[data-testid=dept-tree] [data-testid=dept-total]');
  await totals.first().waitFor();
  // lines of the count's text (a range has one rectangle per line the text is laid out on)
  const seen = await totals.evaluateAll((els) =>
    els.map((e) => {
      const range = document.createRange();
      range.selectNodeContents(e);
      const tops = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
      return { text: (e as HTMLElement).innerText, lines: tops.size };
    }),
  );
  assert.ok(seen.length > 5, `${seen.length} departments`);
  for (const s of seen) {
    assert.match(s.text, /^\(\d+\)$/);
    assert.equal(s.lines, 1, `the count ${JSON.stringify(s.text)} is broken over ${s.lines} lines`);
  }
});

step('the operation log names its modules in English, not by their ids', async () => {
  // a person and a department change, so the log has those modules
  await menu(tr('route.user'), tr('route.personList'), 'person-list-page');
  await page.getByTestId('person-edit').first().click();
  const phone = page.getByTestId('person-form').locator('#phone');
  await phone.fill('13900000001');
  await page.getByTestId('person-save').click();
  await page.locator('.ant-drawer-open').waitFor({ state: 'detached' });

  await menu(tr('route.system'), tr('route.log'), 'log-table');
  await page.locator('.ant-table-row').first().waitFor();
  const modules = await columnTexts(tr('log.fields.module'));
  const labels = new Set(LOG_MODULES.map((m) => tr(`log.modules.${m}`)));
  for (const m of modules) assert.ok(labels.has(m.trim()), `module shown as "${m}"`);
  assert.ok(modules.includes(tr('log.modules.person')), modules.join(', '));
  await screenshot('operation-log');

  // the module filter offers the same names
  await page.getByTestId('log-module-filter').click();
  const option = page.locator('.ant-select-dropdown .ant-select-item-option');
  await option.first().waitFor();
  await page.waitForTimeout(300); // the list slides in
  const options = await option.allTextContents();
  assert.ok(options.length > 0);
  for (const o of options) assert.ok(labels.has(o.trim()), `module filter offers "${o}"`);
  await page.keyboard.press('Escape');
});

/** The sidebar's labels cut short (their text), every section opened first. */
async function cutMenuLabels(): Promise<string[]> {
  const closed = page.locator('[data-testid=sidebar] .ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
  while ((await closed.count()) > 0) await closed.first().click();
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('[data-testid=sidebar] .ant-menu-title-content'))
      .filter((e) => e.getClientRects().length > 0 && e.scrollWidth > e.clientWidth + 1)
      .map((e) => e.innerText),
  );
}

step("the current page's section of the sidebar opens by itself; no label is cut, in English or Japanese", async () => {
  // Circuit breakers is closed at first (only Users, Attendance and System are open): a link straight to its page opens it
  const section = page.locator('[data-testid=sidebar] .ant-menu-submenu').filter({ hasText: tr('route.circuitBreaker') });
  assert.ok(!(await section.getAttribute('class'))?.includes('ant-menu-submenu-open'), 'the section starts closed');
  await openPath(page, '/circuitBreaker/index');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=sidebar] .ant-menu-item-selected')?.closest('.ant-menu-submenu')?.classList.contains('ant-menu-submenu-open'),
    undefined,
    { polling: 100 },
  );
  // "Approval management", "Attendance results" were cut at 114 px; in Japanese "スマートブレーカー", "クライアントエラー"
  assert.deepEqual(await cutMenuLabels(), [], 'en-US');
  await useLanguage(page, server.baseUrl, 'ja');
  assert.deepEqual(await cutMenuLabels(), [], 'ja');
  await useLanguage(page, server.baseUrl, 'en-US');
  await screenshot('sidebar-open');
});

step("more tabs than fit scroll sideways: arrows appear, the current page's tab is in view, a tab is a link", async () => {
  const paths = ['/user/organization', '/user/list', '/device/list', '/attendance/list', '/attendance/result', '/attendance/report', '/attendance/rule']
    .concat(['/attendance/holiday', '/attendance/balance', '/attendance/health', '/circuitBreaker/index', '/workflow/index', '/system/log'])
    .concat(['/system/list', '/system/manager', '/system/visitors', '/system/integrations', '/company/update', '/message/message']);
  for (const p of paths) await openPath(page, p);
  const strip = page.locator('[data-testid=tags-view] nav');
  const scroll = () => strip.evaluate((e) => ({ left: e.scrollLeft, room: e.scrollWidth - e.clientWidth }));
  assert.ok((await scroll()).room > 0, 'the tabs do not overflow: open more pages');
  // the last page opened is the current one, at the strip's far end, in view
  const current = page.locator('[data-testid=tags-view] a[aria-current=page]');
  assert.equal((await current.innerText()).trim(), tr('route.message'));
  const inView = () =>
    page.evaluate(() => {
      const s = document.querySelector('[data-testid=tags-view] nav')!.getBoundingClientRect();
      const c = document.querySelector('[data-testid=tags-view] a[aria-current=page]')!.getBoundingClientRect();
      return c.left >= s.left - 1 && c.right <= s.right + 1;
    });
  assert.ok(await inView(), "the current page's tab is out of view");
  await page.getByTestId('tags-back').waitFor();
  assert.equal(await page.getByTestId('tags-on').getAttribute('aria-disabled'), 'true', 'at the far end there is nothing further on');
  const before = (await scroll()).left;
  await page.getByTestId('tags-back').click();
  await page.waitForFunction((b) => document.querySelector('[data-testid=tags-view] nav')!.scrollLeft < b, before, { polling: 100 });
  await page.locator('[data-testid=tags-on][aria-disabled=false]').waitFor();
  // by keyboard to the far end: the arrow keeps the focus there (it does nothing more rather than going away)
  const on = page.getByTestId('tags-on');
  await on.focus();
  for (let i = 0; i < 20 && (await on.getAttribute('aria-disabled')) !== 'true'; i++) {
    await page.keyboard.press('Enter');
    await page.waitForTimeout(100);
  }
  assert.equal(await on.getAttribute('aria-disabled'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'tags-on');
  // a tab is a link: it takes the keyboard's focus and Enter opens its page
  const first = strip.locator('a').filter({ hasText: tr('route.organization') });
  await first.focus();
  await page.keyboard.press('Enter');
  await waitForPath('/user/organization');
  assert.ok(await inView(), 'the organization tab, now current, is out of view');
  await screenshot('tabs-scrolled');
  // a tab closes from the keyboard too: Tab from its link reaches its close button, named by the page, and Enter closes it
  const personsLink = strip.locator('a').filter({ hasText: tr('route.personList') });
  await personsLink.focus();
  await page.keyboard.press('Tab');
  const closeName = tr('layout.tags.closeTab', { name: tr('route.personList') });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), closeName);
  await page.keyboard.press('Enter');
  await personsLink.waitFor({ state: 'detached' });
  assert.equal(new URL(page.url()).pathname, '/user/organization', 'closing another tab leaves the page where it is');
  // back to a short strip for the steps after
  await strip
    .locator('a')
    .filter({ hasText: tr('route.organization') })
    .click({ button: 'right' });
  await page.getByRole('menuitem', { name: tr('layout.tags.closeOthers') }).click();
  await page.getByTestId('tags-back').waitFor({ state: 'detached' });
});

/** Picks a size in the navbar and measures the first person row and the search button. */
async function measureAt(size: string): Promise<{ row: number; input: number }> {
  // the previous pick's menu may still be fading out: its items would match first and vanish under the click
  await page.locator('.ant-dropdown:visible').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: tr('layout.size.title') }).click();
  await page
    .locator('.ant-dropdown:visible')
    .getByRole('menuitem', { name: tr(`layout.size.${size}`) })
    .click();
  await page.waitForTimeout(300); // the new size is applied in one render; let the layout settle
  const row = (await page.locator('[data-testid=person-table] .ant-table-row').first().boundingBox())?.height ?? 0;
  const input = (await page.getByTestId('person-keyword').locator('.ant-btn').boundingBox())?.height ?? 0;
  return { row, input };
}

step('each size is smaller than the one before it: Default, Medium, Small, Mini', async () => {
  await menu(tr('route.user'), tr('route.personList'), 'person-list-page');
  await page.locator('[data-testid=person-table] .ant-table-row').first().waitFor();
  const sizes = ['default', 'medium', 'small', 'mini'];
  const seen: Record<string, { row: number; input: number }> = {};
  for (const s of sizes) {
    seen[s] = await measureAt(s);
    await screenshot(`size-${s}`);
  }
  for (let i = 1; i < sizes.length; i++) {
    const [bigger, smaller] = [seen[sizes[i - 1]!]!, seen[sizes[i]!]!];
    assert.ok(smaller.row < bigger.row, `${sizes[i]} rows (${smaller.row} px) are not smaller than ${sizes[i - 1]} rows (${bigger.row} px)`);
  }
  assert.ok(seen.medium!.input > seen.small!.input, `small controls (${seen.small!.input} px) look like medium ones (${seen.medium!.input} px)`);
  await measureAt('medium');
});

step('the dormitory board shows the names that fit its panels whole, and counts the rest, at 1366×768 and 1920×1080', async () => {
  // Its own night, whatever the day and hour (the demo's punches stop at yesterday and skip weekends): an exit terminal
  // sees 80 residents go out three minutes ago, and the hour to be back is set to a minute ago.
  const exit = await callApi<{ id: number }>(page, 'POST', '/device/create', {
    name: 'Dorm exit',
    serial: 'E2EDORMEXIT',
    ip: '192.168.9.30',
    password: '123456',
    direction: 'out',
  });
  assert.equal(exit.code, 20000, exit.message);
  const terminal = createTerminal({ server: server.baseUrl, sn: 'E2EDORMEXIT', pollMs: 500, retryMs: 1000, ip: '192.168.9.30' });
  const settings = (await callApi<DormitorySettingsView>(page, 'GET', '/dormitory/settings')).data;
  const viewport = page.viewportSize()!;
  try {
    await terminal.start();
    // Residents the board counts (people at work, not those who left) whom the demo's own traffic leaves alone.
    const working = (await callApi<{ items: { number: string }[] }>(page, 'GET', '/person/list?pageSize=100&workStatus=1')).data.items;
    const people = working.filter((p) => !DEMO_TRAFFIC_PINS.includes(p.number)).slice(0, 80);
    assert.equal(people.length, 80);
    const r = await terminal.punchBatch(people.map((p) => ({ pin: p.number, time: new Date(Date.now() - 3 * 60_000) })));
    assert.match(r.reply ?? '', /^OK/, 'the server took the exits');
    const zone = (await callApi<{ time_zone: string }>(page, 'GET', '/company/info')).data.time_zone;
    const hour = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(Date.now() - 60_000);
    const saved = await callApi(page, 'POST', '/dormitory/settings', { return_by: hour, department_ids: settings.department_ids });
    assert.equal(saved.code, 20000, saved.message);
    for (const size of [
      { width: 1366, height: 768 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(size);
      await openPath(page, '/dormitory2');
      const list = page.getByTestId('board-not-back');
      await page.getByTestId('board-not-back-more').waitFor();
      const m = await list.evaluate((ul) => {
        const box = ul.getBoundingClientRect();
        const items = Array.from(ul.children).map((li) => li.getBoundingClientRect());
        return {
          title: ul.closest('.fa-dorm-panel')!.querySelector('h2')!.textContent,
          names: ul.querySelectorAll('li:not(.when)').length,
          more: ul.lastElementChild!.textContent,
          // a row cut by the list's own box (it clips), or squeezed
          cut: items.filter((r) => r.height < 10 || r.bottom > box.bottom + 0.5).length,
          room: box.bottom - (items.at(-1)?.bottom ?? box.top),
          row: items[0]!.height,
        };
      });
      const total = Number(/\((\d+)\)/.exec(m.title)?.[1]);
      // the demo's night shift may add its own
      assert.ok(total >= 80, `${size.width}: ${total} not back, and 80 went out`);
      assert.ok(m.names >= 3, `${size.width}: ${m.names} names shown`);
      assert.equal(m.more.trim(), tr('watch.dorm.more', { n: total - m.names }));
      assert.equal(m.cut, 0, `${size.width}: a row cut by the list's edge or squeezed`);
      assert.ok(m.room < m.row * 2, `${size.width}: ${Math.round(m.room)} px left empty under the list, rows are ${Math.round(m.row)} px`);
      console.log(`[layout] dormitory board at ${size.width}×${size.height}: ${m.names} names shown whole of ${total}, then "${m.more.trim()}"`);
    }
  } finally {
    await page.setViewportSize(viewport);
    await callApi(page, 'POST', '/dormitory/settings', { return_by: settings.return_by, department_ids: settings.department_ids });
    await terminal.stop();
  }
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(journey.pageErrors, []);
});
