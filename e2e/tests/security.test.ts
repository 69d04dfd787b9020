// Browser journey of the security headers (issue #28): script payloads stored in free-text fields through the API
// (company, departments, a person, devices, a holiday, a site, a sub-administrator) are shown as text on the pages
// that list them, nothing of them runs, and the console's own scripts and styles work under its strict CSP in
// Chromium with no violation reported. Markup slipped into the page past React is stopped by the CSP itself, and a
// foreign page that frames the console gets nothing.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { api } from '../lib/api.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { facePhoto } from '../lib/faces.ts';
import { openPath, signInAndCreateCompany } from '../lib/journey.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const IMG = '<img src=x onerror=window.__xss=1>';
const SCRIPT = '<script>window.__xss=1</script>';
const SVG = '"><svg onload=window.__xss=1>';
const LINK = 'javascript:window.__xss=1';

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let context: BrowserContext;

// Before any script of a page: the CSP violations it reports, and the flag a payload would set.
const RECORD_VIOLATIONS = () => {
  const w = window as unknown as { __csp: string[] };
  w.__csp = [];
  document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
};

before(async () => {
  server = await startServer(ADMIN);
  journey = await openJourney({ prefix: 'security-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
  context = page.context();
  await context.addInitScript(RECORD_VIOLATIONS);
});

after(async () => {
  await journey?.close();
  await server?.stop();
});

/** Nothing ran and nothing was refused on `p` so far. */
async function clean(p: Page, where: string): Promise<void> {
  const seen = await p.evaluate(() => {
    const w = window as unknown as { __csp?: string[]; __xss?: unknown };
    return { csp: w.__csp, xss: w.__xss };
  });
  assert.equal(seen.xss, undefined, `${where}: a payload ran`);
  assert.deepEqual(seen.csp, [], `${where}: CSP violations`);
  assert.deepEqual(journey.pageErrors, [], `${where}: page errors`);
}

/** Opens a console path and waits until `ready` shows; the payload texts shown there are listed in `shows`. */
async function visit(path: string, ready: string, shows: string[] = []): Promise<void> {
  await openPath(page, path);
  await page.locator(ready).first().waitFor();
  for (const text of shows) await page.getByText(text, { exact: false }).first().waitFor();
  await page.waitForTimeout(500); // images (src=x) fail and handlers would fire by now
  await clean(page, path);
}

step('the console is sent with its CSP, nosniff and no framing; it signs in and renders under them', async () => {
  const res = await page.goto(`${server.baseUrl}/login`);
  const headers = res!.headers();
  assert.match(headers['content-security-policy'] ?? '', /script-src 'self'(;|$)/);
  assert.match(headers['content-security-policy'] ?? '', /frame-ancestors 'none'/);
  assert.equal(headers['x-content-type-options'], 'nosniff');
  assert.equal(headers['x-frame-options'], 'DENY');
  // the styles apply under style-src: the sign-in button has its colour (the theme's, set at run time), not a
  // transparent default
  const background = await page.getByTestId('login-submit').evaluate((b) => getComputedStyle(b).backgroundColor);
  assert.notEqual(background, 'rgba(0, 0, 0, 0)');
  await clean(page, '/login');
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: SCRIPT, phone: '+8613800000028' });
  await page.getByTestId('sidebar').waitFor();
  // and antd's (its stylesheet, and the theme's variables written at run time): the menu's side has its dark colour
  const side = await page
    .locator('.ant-layout-sider')
    .first()
    .evaluate((b) => getComputedStyle(b).backgroundColor);
  assert.notEqual(side, 'rgba(0, 0, 0, 0)');
  await clean(page, '/dashboard');
});

step('script payloads are stored in free-text fields through the API', async () => {
  const top = await api<{ id: number }>(page, 'POST', '/org/create', { name: IMG });
  await api(page, 'POST', '/org/create', { name: SVG, parent_id: top.id });
  await api(page, 'POST', '/org/create', { name: LINK });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await facePhoto('X', 30))], { type: 'image/jpeg' }), 'x.jpg');
  const { pic } = await api<{ pic: string }>(page, 'POST', '/person/upload', form);
  await api(page, 'POST', '/person/create', { number: '1', name: IMG, phone: '13800000028', organizations: [top.id], pic, description: SCRIPT });
  await api(page, 'POST', '/device/create', { name: SVG, serial: 'XSS00001', ip: '10.0.0.28', password: 'p' });
  await api(page, 'POST', '/device/create', { name: SCRIPT, serial: 'XSS00002', ip: '10.0.0.29', password: 'p' });
  await api(page, 'POST', '/attendance/holiday/create', { name: LINK, kind: 'holiday', from_date: '2026-10-01', to_date: '2026-10-03', rule_ids: [] });
  const day = ['day'];
  await api(page, 'POST', '/attendance/rule/create', {
    name: IMG,
    mode: 'fixed',
    shifts: [{ key: 'day', name: '<svg onload=f()>', start: '09:00', end: '18:00', breaks: [] }],
    weekdays: { 0: [], 1: day, 2: day, 3: day, 4: day, 5: day, 6: [] },
    person_ids: [],
    department_ids: [top.id],
  });
  await api(page, 'POST', '/site/create', { name: IMG });
  await api(page, 'POST', '/manager/create', { name: SVG, username: 'xsssub', password: 'secret1', repassword: 'secret1', rights: ['all'], role: 'sub' });
});

step('the pages that show them show text, and nothing runs or is refused by the CSP', async () => {
  await visit('/dashboard', '[data-testid=sidebar]', [SCRIPT]);
  await visit('/user/organization', '[data-testid=organization-page]', [IMG, SVG, LINK]);
  await visit('/user/list', '[data-testid=person-list-page]', [IMG]);
  // the person's drawer (name and description in the form)
  await page.getByTestId('person-edit').first().click();
  await page.getByTestId('person-form').waitFor();
  await page.waitForTimeout(800);
  await clean(page, 'the person drawer');
  await page.keyboard.press('Escape');
  await visit('/device/list', '[data-testid=device-list-page], [data-testid=device-table]', [SVG, SCRIPT]);
  await visit('/attendance/list', '[data-testid=punch-list-page], .ant-table', []);
  await visit('/attendance/holiday', '.ant-table', [LINK]);
  await visit('/attendance/rule', '.ant-table', [IMG]);
  await visit('/map', '.ant-tabs, .ant-empty', [IMG]);
  await visit('/system/manager', '.ant-table', [SVG]);
  await visit('/system/log', '.ant-table', []);
  await visit('/company/list', '.ant-table, .ant-list', [SCRIPT]);
  await visit('/consoles', '.ant-card', []);
});

step("a photo being uploaded is previewed (data:/blob: images) and the dashboard's charts draw under the CSP", async () => {
  await visit('/user/list', '[data-testid=person-list-page]');
  await page.getByTestId('person-create').click();
  const form = page.getByTestId('person-form');
  await form.waitFor();
  await form
    .getByTestId('face-upload')
    .locator('input[type=file]')
    .setInputFiles({ name: 'preview.jpg', mimeType: 'image/jpeg', buffer: await facePhoto('Preview', 200) });
  const preview = form.getByTestId('face-preview').locator('img').first();
  await preview.waitFor();
  await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await preview.elementHandle());
  await clean(page, 'the face preview');
  await page.keyboard.press('Escape');
  await visit('/dashboard', '[data-testid=sidebar]');
  await page.locator('canvas').first().waitFor({ timeout: 20_000 });
  await clean(page, 'the dashboard charts');
});

step('markup slipped into the page past React cannot run: the CSP refuses the inline handler and reports it', async () => {
  await page.evaluate(() => {
    const d = document.createElement('div');
    d.innerHTML = '<img src="data:," onerror="window.__xss=1"><a id="xss-link" href="javascript:window.__xss=1">x</a>';
    document.body.append(d);
    const s = document.createElement('script');
    s.textContent = 'window.__xss = 1';
    document.body.append(s);
  });
  await page.locator('#xss-link').evaluate((a) => (a as HTMLAnchorElement).click());
  await page.waitForTimeout(500);
  const seen = await page.evaluate(() => ({ xss: (window as unknown as { __xss?: unknown }).__xss, csp: (window as unknown as { __csp: string[] }).__csp }));
  assert.equal(seen.xss, undefined, 'nothing ran');
  assert.ok(
    seen.csp.some((v) => v.startsWith('script-src')),
    `the refusal is reported: ${JSON.stringify(seen.csp)}`,
  );
  // the page itself goes on working
  await page.evaluate(() => ((window as unknown as { __csp: string[] }).__csp = []));
  await visit('/user/organization', '[data-testid=organization-page]', [IMG]);
});

step('the OpenAPI page renders under the same CSP', async () => {
  await page.goto(`${server.baseUrl}/api/docs/`);
  await page.locator('.swagger-ui .info .title').waitFor({ timeout: 20_000 });
  await clean(page, '/api/docs');
});

step('a foreign page that frames the console gets nothing', async () => {
  const foreign = await journey.browser.newContext({ reducedMotion: 'reduce' });
  const p = await foreign.newPage();
  await p.setContent(`<iframe id="f" src="${server.baseUrl}/login" width="800" height="600"></iframe>`);
  await p.waitForTimeout(2000);
  const frame = p.frames().find((f) => f !== p.mainFrame());
  const inside = frame ? await frame.locator('#username').count() : 0;
  assert.equal(inside, 0, 'the sign-in form is not shown inside a foreign frame');
  await foreign.close();
});
