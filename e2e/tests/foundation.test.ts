// Browser journey of issue "Foundation": the real server, the built console, Debian Chromium.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Request } from 'playwright-core';
import { CODES } from '@faceadmin/shared';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { signOut as signOutOf, translator, waitForPath as waitForPathOf } from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const SUB = { name: 'Log Reader', username: 'logreader', password: 'reader-pass-1' };
const NEW_PASSWORD = 'reader-pass-2';
const EN = loadLocale('en-US');
const tr = translator(EN);

/**
 * What the sign-in page's scripts come to, uncompressed (#31's first load): 1,178 KB with antd's form, card and dropdown
 * (d826dee), 586 KB drawn without antd (2026-12-02). antd drawn in again fails this.
 */
const LOGIN_SCRIPT_BUDGET = 700_000;

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let shot = 0;

async function screenshot(name: string): Promise<void> {
  shot += 1;
  await journey.screenshot(`${String(shot).padStart(2, '0')}-${name}`);
}

const pathname = () => new URL(page.url()).pathname;

const waitForPath = (expected: string) => waitForPathOf(page, expected);

async function signIn(username: string, password: string): Promise<void> {
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await page.getByTestId('login-submit').click();
}

async function signOut(): Promise<void> {
  try {
    await signOutOf(page, tr);
  } catch (e) {
    await screenshot('signout-failed');
    throw e;
  }
}

async function chooseLanguage(lang: string): Promise<void> {
  await page.getByTestId('language-select').first().click();
  await page.locator(`[data-lang="${lang}"]`).click();
  await page
    .locator('.ant-dropdown')
    .first()
    .waitFor({ state: 'hidden' })
    .catch(() => undefined);
}

before(async () => {
  server = await startServer(ADMIN);
  journey = await openJourney({ prefix: '', viewport: { width: 1366, height: 820 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await server?.stop();
});

/** The languages whose texts the console fetched (one chunk each: lib/i18n.ts), in order. */
const fetchedLanguages: string[] = [];

step('initial admin: sign in, company-0 rule, create a company, dashboard', async () => {
  page.on('request', (r) => {
    const m = /\/assets\/locale-(zh-CN|zh-TW|en-US|ja)-[^/]*\.js$/.exec(r.url());
    if (m) fetchedLanguages.push(m[1]!);
  });
  await page.goto(`${server.baseUrl}/`);
  await waitForPath('/login');
  assert.equal(new URL(page.url()).searchParams.get('redirect'), '/');
  await page.getByTestId('login-form').waitFor();
  // #31 first load: the sign-in page comes with the browser's language only, and without antd (its own plain elements)
  assert.deepEqual(fetchedLanguages, ['en-US']);
  assert.equal(await page.locator('[class*="ant-"]').count(), 0, 'no antd element on the sign-in page');
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => e.name.endsWith('.js'))
      .reduce((sum, e) => sum + (e as PerformanceResourceTiming).decodedBodySize, 0),
  );
  assert.ok(scripts < LOGIN_SCRIPT_BUDGET, `the sign-in page's scripts: ${scripts} bytes (budget ${LOGIN_SCRIPT_BUDGET})`);
  await screenshot('login');

  // the language switch: the keyboard opens and closes it (focus back on its button); a choice redraws the page at once
  const languages = page.getByTestId('language-select');
  await languages.focus();
  await page.keyboard.press('Enter');
  await page.locator('[data-lang="ja"]').waitFor();
  await page.keyboard.press('Escape');
  await page.locator('[data-lang="ja"]').waitFor({ state: 'detached' });
  assert.equal(await languages.evaluate((b) => b === document.activeElement), true, 'focus back on the switch');
  await languages.click();
  await page.locator('[data-lang="ja"]').click();
  await page.getByRole('heading', { name: translator(loadLocale('ja'))('auth.signInTitle') }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ja');
  await languages.click();
  await page.locator('[data-lang="en-US"]').click();
  await page.getByRole('heading', { name: tr('auth.signInTitle') }).waitFor();

  // typing in the form fetches the console's shell, so signing in does not wait for it (main.tsx)
  const shell = page.waitForRequest((r) => /\/assets\/Layout-[^/]*\.js$/.test(r.url()));
  // the password can be shown and hidden again
  await page.locator('#password').fill('secret-1');
  await shell;
  const show = page.getByRole('button', { name: tr('auth.showPassword') });
  await show.click();
  assert.equal(await page.locator('#password').getAttribute('type'), 'text');
  assert.equal(await show.getAttribute('aria-pressed'), 'true');
  await show.click();
  assert.equal(await page.locator('#password').getAttribute('type'), 'password');
  await page.locator('#password').fill('');

  // registration and the password reset are antd's forms, fetched when asked for; back to the sign-in form after each
  for (const [link, title] of [
    ['auth.register', 'auth.registerTitle'],
    ['auth.forgot', 'auth.forgotTitle'],
  ] as const) {
    await page.getByRole('button', { name: tr(link) }).click();
    await page.getByRole('heading', { name: tr(title) }).waitFor();
    await page.locator('.ant-form').waitFor();
    await page.getByRole('button', { name: tr('auth.backToSignIn') }).click();
    await page.getByTestId('login-form').waitFor();
  }

  // spec §5: what the form refuses never reaches the server (issue #9: account "d", password "12" was sent).
  const refused: string[] = [];
  const watch = (r: Request) => void (r.url().includes('/user/login') && refused.push(r.url()));
  page.on('request', watch);
  await signIn('d', '12');
  await page.getByText(tr('common.validation.passwordMin', { min: 6 })).waitFor();
  // the refused field is named to screen readers by its message, and takes the focus
  assert.equal(await page.locator('#password').getAttribute('aria-invalid'), 'true');
  assert.equal(await page.locator('#password-problem').innerText(), tr('common.validation.passwordMin', { min: 6 }));
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'password');
  await page.locator('#username').fill('a'.repeat(21));
  await page.getByText(tr('common.validation.accountMax', { max: 20 })).waitFor();
  await page.getByTestId('login-submit').click();
  await screenshot('login-refused');
  page.off('request', watch);
  assert.deepEqual(refused, [], 'no sign-in request was sent');

  await signIn(ADMIN.username, ADMIN.password);
  await waitForPath('/company/create');
  await page.getByTestId('company-form').waitFor();
  // company 0: no menu entries to offer yet
  assert.equal(await page.getByTestId('sidebar').locator('[role=menuitem]').count(), 0);
  await screenshot('company-create');

  // spec §2: with company 0 everything else goes to /company/create
  await page.goto(`${server.baseUrl}/system/log`);
  await waitForPath('/company/create');

  await page.locator('#name').fill('Acme Access Ltd');
  await page.locator('#phone').fill('+8613800000000');
  await page.locator('#address').fill('1 Main Street');
  await page.locator('#location').fill('116.397,39.909');
  // The dashboard's code arriving late leaves the create form on screen under the new address for that time: a second
  // submit there (click or Enter) must not create a second company.
  const creates: string[] = [];
  const countCreate = (r: Request) => void (r.method() === 'POST' && r.url().includes('/company/create') && creates.push(r.url()));
  page.on('request', countCreate);
  const slowDashboard = /\/assets\/DashboardPage-[^/]*\.js$/;
  let release = () => {};
  const held = new Promise<void>((done) => (release = done));
  await page.route(slowDashboard, async (r) => {
    await held;
    await r.continue();
  });
  await page.getByTestId('company-submit').click();
  await page.waitForURL((u) => u.pathname === '/dashboard');
  assert.equal(await page.evaluate(() => document.documentElement.dataset['route']), '/company/create', 'the create form is still on screen');
  await page.getByTestId('company-submit').click({ force: true });
  await page.locator('#name').press('Enter');
  release();
  await waitForPath('/dashboard');
  await page.unroute(slowDashboard);
  page.off('request', countCreate);
  assert.equal(creates.length, 1, 'one company created');
  await page.getByTestId('dashboard').waitFor();
  await page.getByText(tr('dashboard.operationsToday')).waitFor();
  // the creation itself is in the recent operations
  await page.locator('[data-testid=dashboard] .ant-table-row').first().waitFor();
  await screenshot('dashboard');

  const menu = await page.getByTestId('sidebar').innerText();
  assert.match(menu, new RegExp(tr('route.log')));
  assert.match(menu, new RegExp(tr('route.manager')));
});

step('initial admin creates a sub-admin with only "log view"', async () => {
  await page.getByTestId('sidebar').getByText(tr('route.manager')).click();
  await waitForPath('/system/manager');
  await page.getByTestId('manager-create').click();
  const form = page.getByTestId('manager-form');
  await form.locator('#name').fill(SUB.name);
  await form.locator('#username').fill(SUB.username);
  await form.locator('#password').fill(SUB.password);
  await form.locator('#repassword').fill(SUB.password);
  await form.getByLabel(tr('manager.rights.logView')).check();
  await screenshot('manager-dialog');
  await page
    .locator('.ant-modal')
    .getByRole('button', { name: tr('common.actions.save') })
    .click();
  const row = page.locator('.ant-table-row', { hasText: SUB.username });
  await row.waitFor();
  assert.match(await row.innerText(), new RegExp(tr('manager.rights.logView')));
  await screenshot('managers');
  await signOut();
  assert.equal(new URL(page.url()).searchParams.get('redirect'), '/system/manager');
});

step('the sub-admin sees the operation log but not the administrators', async () => {
  await signIn(SUB.username, SUB.password);
  // the redirect back to /system/manager (the main administrator's page) is not open to this user: home, not "not found"
  await waitForPath('/dashboard');
  await page.getByTestId('dashboard').waitFor();
  const menu = await page.getByTestId('sidebar').innerText();
  assert.match(menu, new RegExp(tr('route.log')));
  assert.doesNotMatch(menu, new RegExp(tr('route.manager')));
  await screenshot('sub-admin-dashboard');

  await page.goto(`${server.baseUrl}/system/manager`);
  await waitForPath('/404');
  await screenshot('sub-admin-404');

  await page.goto(`${server.baseUrl}/system/log`);
  await waitForPath('/system/log');
  await page.locator('.ant-table-row').first().waitFor();
  await screenshot('sub-admin-log');
});

// Keys whose translations must be on the operation-log page, and antd's own range-picker placeholder.
const PAGE_KEYS = ['route.log', 'route.dashboard', 'route.system', 'log.fields.module', 'log.fields.description', 'log.fields.admin'];
const ANTD_START_DATE: Record<string, string> = { 'zh-CN': '开始日期', zh_tw: '開始日期', 'en-US': 'Start date', ja: '開始日付' };
const FOLDER: Record<string, string> = { 'zh-CN': 'zh-CN', zh_tw: 'zh-TW', 'en-US': 'en-US', ja: 'ja' };
// Server-rendered text (the log's descriptions) must follow the switch too, not stay in the language it was fetched in.
const SIGNED_IN: Record<string, string> = { 'zh-CN': '登录系统', zh_tw: '登入系統', 'en-US': 'Signed in', ja: 'ログインしました' };

step('every language is fully translated', async () => {
  const fetchedBefore = fetchedLanguages.length;
  for (const lang of ['zh-CN', 'zh_tw', 'ja', 'en-US']) {
    await chooseLanguage(lang);
    const trIn = translator(loadLocale(FOLDER[lang]!));
    await page.getByText(trIn('route.log'), { exact: true }).first().waitFor();
    await page.getByText(SIGNED_IN[lang]!, { exact: true }).first().waitFor({ timeout: 10_000 });
    const text = await page.locator('body').innerText();
    for (const key of PAGE_KEYS) assert.ok(text.includes(trIn(key)), `${lang}: "${trIn(key)}" (${key}) not shown`);
    // no raw i18n key anywhere on the page
    const rawKey = text.match(/\b[a-z][a-zA-Z]*(?:\.[a-z][a-zA-Z0-9]*){1,3}\b/g)?.filter((m) => EN.has(m)) ?? [];
    assert.deepEqual(rawKey, [], `${lang}: raw keys visible`);
    assert.doesNotMatch(text, /\b[a-z]+\.[a-z][a-zA-Z]+\.[a-zA-Z]+\b/, `${lang}: key-like text visible`);
    // antd's locale follows
    const placeholder = await page.locator('.ant-picker-range input').first().getAttribute('placeholder');
    assert.equal(placeholder, ANTD_START_DATE[lang], `${lang}: antd locale`);
    assert.equal(await page.evaluate(() => document.documentElement.lang), FOLDER[lang]);
    await screenshot(`language-${FOLDER[lang]}`);
  }
  // each language's texts were fetched when first chosen, once (English came with the page)
  assert.deepEqual(fetchedLanguages.slice(fetchedBefore), ['zh-CN', 'zh-TW', 'ja']);
});

step('the sub-admin changes the password and signs in with it', async () => {
  await page.getByTestId('avatar-menu').click();
  await page.getByRole('menuitem', { name: tr('layout.avatar.profile') }).click();
  const form = page.getByTestId('change-password-form');
  await form.locator('#orig').fill(SUB.password);
  await form.locator('#new').fill(NEW_PASSWORD);
  await form.locator('#renew').fill(NEW_PASSWORD);
  await screenshot('change-password');
  await page
    .locator('.ant-modal', { has: form })
    .getByRole('button', { name: tr('common.actions.save') })
    .click();
  await form.waitFor({ state: 'hidden' });
  // the session goes on with the refreshed token
  await page.reload();
  await waitForPath('/system/log');

  await signOut();
  await signIn(SUB.username, SUB.password);
  await page.getByTestId('login-error').waitFor();
  assert.ok(pathname() === '/login');
  await page.locator('#password').fill(NEW_PASSWORD);
  await page.getByTestId('login-submit').click();
  await waitForPath('/system/log');
  await screenshot('signed-in-with-new-password');
});

step('an answer that arrives after sign-out neither asks to sign in again nor shows an error', async () => {
  // The log query sent now is held until the session has ended, so the server answers it for a token that is gone
  // (as a poll in flight at sign-out is). Before the fix that answer opened the sign-in-again prompt over the login page.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/log/list**', async (route) => {
    await released;
    await route.continue();
  });
  // the query this step sends (its keyword), not one the page sent before the route was set: on a starved machine the
  // previous step's list could still be in flight, and its answer (for the live session) was taken for this one
  const answered = page.waitForResponse((r) => r.url().includes('/log/list') && new URL(r.url()).searchParams.get('keyword') === 'sign');
  await page.getByPlaceholder(tr('log.keyword')).fill('sign');
  await page.keyboard.press('Enter');
  await signOut();
  release();
  const body = (await (await answered).json()) as { code: number };
  assert.equal(body.code, CODES.ILLEGAL_TOKEN, 'the held query was answered for the ended session');
  await page.unroute('**/log/list**');
  await page.waitForTimeout(500); // the prompt and the toast came up within a frame of the answer
  assert.equal(await page.locator('.ant-modal-confirm:visible, .ant-message-notice:visible').count(), 0);
  await signIn(SUB.username, NEW_PASSWORD);
  await waitForPath('/system/log');
});

step('messages: the bell leads to the list, mark all read clears the badge', async () => {
  await page.getByTestId('message-bell').click();
  await waitForPath('/message/message');
  // the rows of this page, not those of the log still on screen while it loads
  await page.getByTestId('message-page').locator('.ant-table-row').first().waitFor();
  await screenshot('messages');
  await page.getByRole('button', { name: tr('message.markAllRead') }).click();
  await page.locator('.ant-badge-count').waitFor({ state: 'detached' });
  // the list's rows follow once its refetch answers
  await page.getByText(tr('message.unread'), { exact: true }).first().waitFor({ state: 'detached' });
});

step('settings drawer and mobile mode', async () => {
  await page.getByRole('button', { name: tr('layout.settings.title') }).click();
  await page.locator('.ant-drawer-open').waitFor();
  await screenshot('settings-drawer');
  await page.keyboard.press('Escape');
  await page
    .locator('.ant-drawer-open')
    .waitFor({ state: 'detached' })
    .catch(() => undefined);

  // spec §2: below 992 px the sidebar is closed, opens from the hamburger and closes after navigating
  await page.setViewportSize({ width: 800, height: 900 });
  await page.getByTestId('sidebar').waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: tr('layout.toggleSidebar') }).click();
  await page.getByTestId('sidebar').waitFor({ state: 'visible' });
  await page.waitForTimeout(500); // let the drawer finish sliding in for the screenshot
  await screenshot('mobile-menu');
  await page.getByTestId('sidebar').getByText(tr('route.dashboard')).click();
  await waitForPath('/dashboard');
  await page.getByTestId('sidebar').waitFor({ state: 'hidden' });
  await screenshot('mobile-dashboard');
  await page.setViewportSize({ width: 1366, height: 820 });
});

step('a session that ends while a page is open: the sign-in page comes, and the reason stays on it', async () => {
  // the server refuses the profile from now on, as for a session ended elsewhere; a language switch refetches what the
  // console holds, the profile too
  const ENDED = 'The session was ended elsewhere';
  await page.route('**/user/info**', (r) => r.fulfill({ json: { code: 50014, message: ENDED, data: null } }));
  await chooseLanguage('ja');
  await waitForPath('/login');
  await page.getByTestId('login-form').waitFor();
  // the shell has gone with its antd App; the message is shown by the one beside the router (lib/feedback.ts)
  await page.locator('.ant-message-notice', { hasText: ENDED }).waitFor();
  await page.unroute('**/user/info**');
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(journey.pageErrors, []);
});
