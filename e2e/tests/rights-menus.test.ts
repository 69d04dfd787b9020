// Browser journey: menus follow rights everywhere (issue #28). For every function right a sub-administrator can be
// given (spec §6), one with only that right signs in and opens every entry its sidebar shows; no page may meet a
// refusal on the way (an HTTP 403 or an envelope "No authority"), silent or shown. A menu that leads to a refusal is a
// bug either in the menu (it should not be there) or in the page (it asks for what it does not need).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { CODES, FUNCTION_RIGHT_KEYS, rightsFromFunctions, type FunctionRight } from '@faceadmin/shared';
import { filterRoutes, ROUTE_TABLE, type RouteNode } from '../../apps/web/src/app/routes/routeTable.ts';
import { api } from '../lib/api.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { facePhoto } from '../lib/faces.ts';
import { signInAndCreateCompany, signOut, translator, waitForPath } from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const tr = translator(loadLocale('en-US'));
const REFUSED = new Set<number>([CODES.NO_AUTHORITY]);

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;

before(async () => {
  server = await startServer(ADMIN);
  journey = await openJourney({ prefix: 'rights-menus-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await server?.stop();
});

/** The sidebar's leaves for these rights (the route table decides the menu), section first. */
function menuOf(rights: FunctionRight): { section?: RouteNode; entry: RouteNode }[] {
  const routes = filterRoutes(ROUTE_TABLE, { ...rightsFromFunctions([rights]), is_admin: 1 }, 'normal', { main: false, options: {} });
  const out: { section?: RouteNode; entry: RouteNode }[] = [];
  for (const r of routes) {
    if (r.hidden || (r.path === '/watch' && !WATCHED_BY.has(rights))) continue;
    if (!r.children) out.push({ entry: r });
    else for (const c of r.children) if (!c.hidden && c.page) out.push({ section: r, entry: c });
  }
  return out;
}

/**
 * The rights whose administrators open the watch screens here: the section's screens differ by the reads they need
 * (consoles: face view or breakers; guard desks and dormitory: attendance or face view; the big screens: everyone), so
 * these cover each: everything, attendance, face view, breakers, and one that sees only the big screens (workflow).
 */
const WATCHED_BY: ReadonlySet<FunctionRight> = new Set(['all', 'attendance', 'faceView', 'breaker', 'workflow']);

/** Waits until the page has asked nothing of the API for a moment (the live stream aside). */
async function settle(p: Page, inflight: () => number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if (inflight() > 0) quietSince = Date.now();
    // half a second without a request: a page's queries start on mount, and one that waits for another follows it
    // within a render
    else if (Date.now() - quietSince > 500) return;
    await p.waitForTimeout(100);
  }
}

step('the main administrator creates the company, a department and a face device (the pages have something to show)', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Rights Demo Ltd', phone: '+8613800000028' });
  const dept = await api<{ id: number }>(page, 'POST', '/org/create', { name: 'Front desk', parent_id: 0 });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await facePhoto('Ada', 120))], { type: 'image/jpeg' }), 'ada.jpg');
  const { pic } = await api<{ pic: string }>(page, 'POST', '/person/upload', form);
  await api(page, 'POST', '/person/create', { number: '1', name: 'Ada Lovelace', phone: '13800000028', organizations: [dept.id], pic });
  await api(page, 'POST', '/device/create', { name: 'Gate 1', serial: 'RIGHTS0001', ip: '10.0.0.28', password: 'p' });
  for (const right of FUNCTION_RIGHT_KEYS) {
    const username = `sub_${right}`.slice(0, 20);
    await api(page, 'POST', '/manager/create', { name: username, username, password: 'secret1', repassword: 'secret1', rights: [right], role: 'sub' });
  }
});

/**
 * The sub-administrators' browser: one context, as one front-desk computer each of them signs in to in turn (signing
 * out in between, as a user does, ends one session before the next). A right whose test failed leaves it in an unknown
 * state: the next right then starts in a fresh one.
 */
let shared: { ctx: BrowserContext; p: Page; clean: boolean } | undefined;
/** What the API answered the signed-in sub-administrator: refusals, and how many requests are still out. */
const seen = { where: '/login', inflight: 0, refusals: [] as string[] };
const isApi = (url: string) => url.includes('/api/management/') && !url.includes('/api/management/events');

async function subAdminPage(): Promise<Page> {
  if (shared?.clean) {
    // sign out as a user does: the avatar menu, then the confirmation
    const { p } = shared;
    await signOut(p, tr);
    return p;
  }
  await shared?.ctx.close();
  // requests the closed context left out are not this one's
  seen.inflight = 0;
  const ctx = await journey.browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
  const p = await ctx.newPage();
  p.setDefaultTimeout(15_000);
  p.on('request', (r) => {
    if (isApi(r.url())) seen.inflight++;
  });
  p.on('requestfailed', (r) => {
    if (isApi(r.url())) seen.inflight--;
  });
  p.on('response', (res: Response) => {
    if (!isApi(res.url())) return;
    const where = seen.where;
    const refusals = seen.refusals;
    void (async () => {
      try {
        const url = new URL(res.url()).pathname;
        if (res.status() === 403) refusals.push(`${where}: HTTP 403 ${url}`);
        else if ((res.headers()['content-type'] ?? '').includes('json')) {
          const body = (await res.json()) as { code?: number; message?: string };
          if (typeof body.code === 'number' && REFUSED.has(body.code)) refusals.push(`${where}: ${body.code} ${body.message ?? ''} ${url}`);
        }
      } catch {
        // the page went on before the body was read
      } finally {
        seen.inflight--;
      }
    })();
  });
  shared = { ctx, p, clean: false };
  await p.goto(`${server.baseUrl}/login`);
  return p;
}

after(async () => {
  await shared?.ctx.close();
});

for (const right of FUNCTION_RIGHT_KEYS) {
  test(`a sub-administrator with only "${right}" opens every menu entry it shows and meets no refusal`, async () => {
    const entries = menuOf(right);
    assert.ok(entries.length > 0);
    // this right's answers from here on, its predecessor's sign-out included
    const refusals: string[] = [];
    Object.assign(seen, { where: '/login', refusals });
    const p = await subAdminPage();
    shared!.clean = false;
    const username = `sub_${right}`.slice(0, 20);
    await p.locator('#username').fill(username);
    await p.locator('#password').fill('secret1');
    await p.getByTestId('login-submit').click();
    await p.waitForURL((u) => u.pathname !== '/login');
    const sidebar = p.getByTestId('sidebar');
    await sidebar.waitFor();
    seen.where = new URL(p.url()).pathname;
    await settle(p, () => seen.inflight);
    for (const { section, entry } of entries) {
      seen.where = entry.path;
      const item = sidebar.getByRole('menuitem').filter({ has: p.getByText(tr(entry.titleKey), { exact: true }) });
      if (section && !(await item.isVisible())) await sidebar.getByText(tr(section.titleKey), { exact: true }).click();
      await item.click();
      await waitForPath(p, entry.path);
      await settle(p, () => seen.inflight);
      const shown = await p.getByText(tr('errors.noAuthority'), { exact: true }).count();
      if (shown) refusals.push(`${seen.where}: "${tr('errors.noAuthority')}" on screen`);
      // a watch screen fills the window (no sidebar, or drawn over it): back to the page before it
      if (section?.path === '/watch') {
        await p.goBack();
        await p.waitForURL((u) => u.pathname !== entry.path);
        await sidebar.waitFor();
      }
    }
    if (right === 'attendance') {
      // the rule's people picker finds people by name for an administrator who cannot read the people's records
      seen.where = '/attendance/rule (people picker)';
      const { section, entry } = entries.find((e) => e.entry.path === '/attendance/rule')!;
      const rules = sidebar.getByRole('menuitem').filter({ has: p.getByText(tr(entry.titleKey), { exact: true }) });
      if (section && !(await rules.isVisible())) await sidebar.getByText(tr(section.titleKey), { exact: true }).click();
      await rules.click();
      await waitForPath(p, '/attendance/rule');
      await p.getByTestId('rule-create').click();
      const picker = p.getByTestId('rule-form').getByTestId('rule-people');
      await picker.click();
      await picker.locator('input').fill('Ada');
      await p.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'Ada Lovelace (1)' }).waitFor();
      await settle(p, () => seen.inflight);
      // Escape closes the people's list, a second the drawer
      await p.keyboard.press('Escape');
      await p.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').waitFor({ state: 'hidden' });
      // The closed list's popup leaves the Escape stack (@rc-component/portal useEscKeyDown) a render after it is
      // hidden: on a starved machine that second Escape can still go to it, and the drawer stays. A person who sees the
      // drawer still open presses Escape again.
      const form = p.getByTestId('rule-form');
      for (let i = 0; i < 3 && (await form.isVisible()); i++) {
        await p.keyboard.press('Escape');
        await form.waitFor({ state: 'hidden', timeout: 3000 }).catch(() => undefined);
      }
      await form.waitFor({ state: 'hidden' });
    }
    // no request of this session still out: the next one's answers are its own
    await settle(p, () => seen.inflight);
    assert.deepEqual(refusals, [], `refusals met by "${right}"`);
    shared!.clean = true;
  });
}
