// Browser journey of the client errors (issue #21, spec §8): the built console reports its uncaught errors and
// unhandled rejections to the server; a main administrator finds them under System → Client errors, deduplicated
// with a count, reads the stack and deletes them after confirming.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { until as untilOf } from '../../apps/server/test/terminals.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { menu as menuOf, signInAndCreateCompany, translator } from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const tr = translator(loadLocale('en-US'));

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;

const until = (what: string, check: () => boolean | Promise<boolean>, ms = 15_000) => untilOf(what, check, ms, 250);
const row = (text: string) => page.locator('[data-testid=client-error-table] .ant-table-row', { hasText: text });

before(async () => {
  server = await startServer(ADMIN);
  journey = await openJourney({ prefix: 'client-errors-', viewport: { width: 1600, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await server?.stop();
});

step('an uncaught error (twice) and an unhandled rejection in the console reach the server', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Errors Demo Ltd', phone: '+8613800000021' });
  const reports: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/management/system/clientError')) reports.push(r.postData() ?? '');
  });
  // Thrown from a timer: nothing catches them, as with a bug in an event handler.
  await page.evaluate(() => {
    const boom = () => {
      throw new Error('Journey boom');
    };
    setTimeout(boom, 0);
    void Promise.reject(new Error('Journey rejection'));
  });
  await until('two reports sent', () => reports.length === 2);
  const first = JSON.parse(reports.find((r) => r.includes('Journey boom'))!) as Record<string, string>;
  assert.equal(first.kind, 'error');
  assert.equal(first.url, `${server.baseUrl}/dashboard`);
  assert.match(first.release ?? '', /^\d+\.\d+\.\d+\+\d{12}$/, 'the build is named');
  assert.match(first.stack ?? '', /Journey boom/);
  // The same error again after a reload (a new page load sends it once more): one entry, counted twice.
  await page.reload();
  await page.getByTestId('sidebar').waitFor();
  await page.evaluate(() => {
    const boom = () => {
      throw new Error('Journey boom');
    };
    setTimeout(boom, 0);
  });
  await until('the third report sent', () => reports.length === 3);
});

step('System → Client errors lists them with their count, and the stack opens below a row', async () => {
  await menuOf(page, tr('route.system'), tr('route.clientErrors'), 'client-error-table');
  await row('Journey boom').waitFor();
  const boom = row('Journey boom');
  assert.match((await boom.innerText()).replace(/\s+/g, ' '), /\b2\b.*Error: Journey boom/);
  assert.match(await row('Journey rejection').innerText(), new RegExp(tr('clientError.kinds.rejection')));
  await boom.locator('.ant-table-row-expand-icon').click();
  await page
    .locator('.ant-table-expanded-row', { hasText: tr('clientError.fields.stack') })
    .first()
    .waitFor();
  assert.match(await page.locator('.ant-table-expanded-row pre').first().innerText(), /Journey boom/);
});

step('deleting asks first, then the entry is gone', async () => {
  const boom = row('Journey boom');
  await boom.getByRole('button', { name: tr('common.actions.delete') }).click();
  const confirm = page.locator('.ant-popconfirm', { hasText: tr('clientError.deleteConfirm', { count: 1 }) });
  await confirm.waitFor();
  assert.equal(await row('Journey boom').count(), 1, 'nothing deleted before the confirmation');
  await confirm.getByRole('button', { name: tr('common.actions.ok') }).click();
  await until('the entry is gone', async () => (await row('Journey boom').count()) === 0);
  assert.equal(await row('Journey rejection').count(), 1);
});

// A console left open across an upgrade asks for a page's chunk by the old build's name, which is gone: it reloads
// once and opens the page from the new build, and reports nothing (lib/staleBuild.ts). Here the server answers the
// page's chunk with a 404 the first time, as a server upgraded meanwhile would.
step('a page whose chunk is gone (an upgrade meanwhile) reloads once and opens; one that stays gone shows the failure, once', async () => {
  let loads = 0;
  const counted = () => loads++;
  page.on('load', counted);
  const reports: string[] = [];
  const onReport = (r: { url(): string; postData(): string | null }) => {
    if (r.url().endsWith('/api/management/system/clientError')) reports.push(r.postData() ?? '');
  };
  page.on('request', onReport);
  let asked = 0;
  await page.route('**/assets/DeviceListPage-*.js', (route) => (asked++ === 0 ? route.fulfill({ status: 404, body: 'gone' }) : route.continue()));
  await menuOf(page, tr('route.device'), tr('route.deviceList'), 'device-list-page');
  assert.ok(asked >= 2, 'asked for the chunk again after the reload');
  assert.equal(loads, 1, 'one reload');
  assert.equal(new URL(page.url()).pathname, '/device/list');
  assert.equal(reports.length, 0, 'nothing reported');

  // Gone for good (the server is at fault, not the build): one reload, then the failure with its reload button.
  await page.route('**/assets/PersonListPage-*.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await menuOf(page, tr('route.user'), tr('route.personList'), 'render-error');
  assert.equal(loads, 2, 'one more reload, not a loop');
  await until('the failure reported', () => reports.some((r) => r.includes('PersonListPage')));
  page.off('load', counted);
  page.off('request', onReport);
  await page.unrouteAll();
});
