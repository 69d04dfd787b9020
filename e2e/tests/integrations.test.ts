// Browser journey of the integrations (issue #19): the real server, the built console, Debian Chromium, and a webhook
// receiver started by this test. Turn the company option thirdParty on, create an API key and call the API with it as
// curl would, register webhooks, and watch signed deliveries, a retry after a 500 and a pause. The server runs with a
// 2 s first retry and a 10 s pause period (WEBHOOK_RETRY_SECONDS, WEBHOOK_PAUSE_SECONDS) so the journey need not wait a day.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { until as untilOf } from '../../apps/server/test/terminals.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { facePhoto } from '../lib/faces.ts';
import { menu as menuOf, modal as modalOf, signInAndCreateCompany, toast, translator } from '../lib/journey.ts';
import { api as consoleApi } from '../lib/api.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const tr = translator(loadLocale('en-US'));

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let apiKey = '';
let secret = '';

/** The customer's receiver: /ok answers 500 to its first request and 200 after; /broken always 500. */
interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
}
const received: Received[] = [];
let okCalls = 0;
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const status = req.url === '/ok' ? (++okCalls === 1 ? 500 : 200) : 500;
    received.push({ path: req.url ?? '', headers: req.headers, body, status });
    res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'thanks' : 'receiver is down');
  });
});
let receiverBase = '';

const until = (what: string, check: () => boolean | Promise<boolean>, ms = 30_000) => untilOf(what, check, ms, 250);
const row = (table: string, text: string) => page.locator(`[data-testid=${table}] .ant-table-row`, { hasText: text });
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${server.baseUrl}/api/management${path}`, { ...init, headers: { 'x-api-key': apiKey, 'x-lang': 'en-US', ...(init.headers ?? {}) } }).then(
    async (r) => ({ status: r.status, ...((await r.json()) as { code: number; message: string; data: any }) }),
  );

before(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // the receiver is on this machine: loopback is refused unless allowed (issue #28)
  server = await startServer(ADMIN, { WEBHOOK_RETRY_SECONDS: '2', WEBHOOK_PAUSE_SECONDS: '10', OUTBOUND_ALLOW: '127.0.0.0/8' });
  journey = await openJourney({ prefix: 'integrations-', viewport: { width: 1600, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await server?.stop();
  receiver.close();
});

step('integrations appear only once the company option thirdParty is on', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Integrations Demo Ltd', phone: '+8613800000019' });
  const sidebar = page.getByTestId('sidebar');
  // the System section opens by default (a click would close it)
  const log = sidebar.getByRole('menuitem', { name: tr('route.log') });
  if (!(await log.isVisible())) await sidebar.getByText(tr('route.system'), { exact: true }).click();
  await log.waitFor();
  assert.equal(await sidebar.getByRole('menuitem', { name: tr('route.integrations') }).count(), 0, 'hidden while the option is off');
  await page.goto(`${server.baseUrl}/company/update`);
  await page.getByTestId('company-form').waitFor();
  const option = page.locator('#options_thirdParty');
  if ((await option.getAttribute('aria-checked')) !== 'true') await option.click();
  await page.getByTestId('company-submit').click();
  await toast(page, tr('common.saved')).first().waitFor();
  await menuOf(page, tr('route.system'), tr('route.integrations'), 'integrations-page');
});

step('create an API key: shown once, then used as curl would', async () => {
  await page.getByTestId('key-create').click();
  const dialog = modalOf(page, tr('integrations.newKey'));
  await dialog.getByTestId('key-name').fill('Payroll export');
  await dialog.getByText(tr('integrations.scopes.people_read'), { exact: true }).click();
  await dialog.getByText(tr('integrations.scopes.people_write'), { exact: true }).click();
  await dialog.getByTestId('key-save').click();
  const shown = modalOf(page, tr('integrations.keyCreated'));
  apiKey = ((await shown.getByTestId('integration-secret').innerText()) ?? '').trim();
  assert.match(apiKey, /^fa_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
  await shown.getByRole('button', { name: tr('integrations.copied') }).click();
  await row('key-table', 'Payroll export').waitFor();
  assert.ok(!(await page.getByTestId('key-table').innerText()).includes(apiKey.slice(12)), 'the list never shows the key');
  await journey.screenshot('keys');

  const list = await api('/person/list');
  assert.equal(list.code, 20000, list.message);
  const punches = await api('/attendance/list');
  assert.equal(punches.status, 403);
  assert.equal(punches.code, 40003);
  assert.match(punches.message, /does not have the scope punches:read/);
});

step('register a webhook to a local receiver; its secret is shown once', async () => {
  await page.getByRole('tab', { name: tr('integrations.tabs.webhooks') }).click();
  await page.getByTestId('webhook-create').click();
  const dialog = modalOf(page, tr('integrations.newWebhook'));
  await dialog.getByTestId('webhook-name').fill('CRM');
  await dialog.getByTestId('webhook-url').fill(`${receiverBase}/ok`);
  await dialog.getByText(tr('integrations.events.person_changed'), { exact: true }).click();
  await dialog.getByTestId('webhook-save').click();
  const shown = modalOf(page, tr('integrations.secretTitle'));
  secret = (await shown.getByTestId('integration-secret').innerText()).trim();
  assert.match(secret, /^whsec_/);
  await shown.getByRole('button', { name: tr('integrations.copied') }).click();
  await row('webhook-table', 'CRM').waitFor();
});

step('a person created through the key reaches the receiver signed, after a 500 and a retry', async () => {
  // a face photo, then the person: both with the key only (curl -F / curl -d)
  const dept = await fetch(`${server.baseUrl}/api/management/org/tree`, { headers: { 'x-api-key': apiKey } });
  assert.equal(dept.status, 403, 'departments are not a scoped route');
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await facePhoto('Key Person', 120))], { type: 'image/jpeg' }), 'face.jpg');
  const up = await api('/person/upload', { method: 'POST', body: form });
  assert.equal(up.code, 20000, up.message);
  const org = (await consoleApi<{ id: number }>(page, 'POST', '/org/create', { name: 'Finance' })).id;
  const made = await api('/person/create', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Key Person', phone: '13800000019', organizations: [org], pic: up.data.pic }),
  });
  assert.equal(made.code, 20000, made.message);

  await until('the delivery, its 500 and its retry', () => received.filter((r) => r.path === '/ok').length >= 2);
  const [first, second] = received.filter((r) => r.path === '/ok');
  assert.equal(first!.status, 500);
  assert.equal(second!.status, 200);
  assert.equal(first!.headers['x-faceadmin-event-id'], second!.headers['x-faceadmin-event-id'], 'the retry is the same event');
  for (const r of [first!, second!]) {
    const ts = String(r.headers['x-faceadmin-timestamp']);
    const expected = createHmac('sha256', secret).update(`${ts}.${r.body}`).digest('hex');
    assert.equal(r.headers['x-faceadmin-signature'], `t=${ts},v1=${expected}`, 'signed with the secret shown once');
  }
  const body = JSON.parse(second!.body);
  assert.equal(body.type, 'person.changed');
  assert.deepEqual(body.data, { person_ids: [made.data.id], kind: 'saved' });

  await row('webhook-table', 'CRM')
    .getByRole('button', { name: tr('integrations.deliveries') })
    .click();
  const delivered = page.locator('[data-testid=delivery-table] .ant-table-row', { hasText: 'person.changed' });
  await delivered.filter({ hasText: tr('integrations.deliveryStates.succeeded') }).waitFor({ timeout: 20_000 });
  const text = await delivered.first().innerText();
  assert.match(text, /\b2\b/, 'two attempts');
  assert.match(text, /200/);
  await journey.screenshot('deliveries');
  await page.keyboard.press('Escape');
});

step('an endpoint failing for the pause period is paused, and resumes', async () => {
  await page.getByTestId('webhook-create').click();
  const dialog = modalOf(page, tr('integrations.newWebhook'));
  await dialog.getByTestId('webhook-name').fill('Broken receiver');
  await dialog.getByTestId('webhook-url').fill(`${receiverBase}/broken`);
  await dialog.getByText(tr('integrations.events.alarm'), { exact: true }).click();
  await dialog.getByTestId('webhook-save').click();
  await modalOf(page, tr('integrations.secretTitle'))
    .getByRole('button', { name: tr('integrations.copied') })
    .click();
  const broken = row('webhook-table', 'Broken receiver');
  await broken.getByRole('button', { name: tr('integrations.sendTest') }).click();
  await toast(page, tr('integrations.testQueued')).first().waitFor();
  // 500, retries 2 s, 4 s, 8 s apart: the attempt 10 s after the first failure pauses it
  await until(
    'the pause',
    async () => {
      await page.reload();
      await page.getByRole('tab', { name: tr('integrations.tabs.webhooks') }).click();
      return (await broken.innerText().catch(() => '')).includes(tr('integrations.webhookStates.paused'));
    },
    60_000,
  );
  assert.ok(received.filter((r) => r.path === '/broken').length >= 3, 'retried before the pause');
  await journey.screenshot('paused');
  await broken.getByRole('button', { name: tr('integrations.resume') }).click();
  await toast(page, tr('integrations.resumed')).first().waitFor();
  await broken.filter({ hasText: tr('integrations.webhookStates.active') }).waitFor();
});
