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
