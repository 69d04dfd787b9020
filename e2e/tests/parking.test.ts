// Browser journey of issue #19 "Parking-lot binding" and one company option: the real server, the built console,
// Debian Chromium. The operator's side is tools/parking/parking-code.ts and a local receiver for the people push.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { parkingCode, parkingLink } from '../../tools/parking/parking-code.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { openPath, signInAndCreateCompany, toast as toastOf, translator } from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const tr = translator(loadLocale('en-US'));
const SECRET = 'journey-shared-secret-42';

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let companyId = 0;

/** The parking operator's endpoint: keeps what it receives. */
const pushes: { signature: string; timestamp: string; body: string }[] = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    pushes.push({ signature: String(req.headers['x-faceadmin-signature']), timestamp: String(req.headers['x-faceadmin-timestamp']), body });
    res.writeHead(200).end('ok');
  });
});
let receiverUrl = '';

const toast = (text: string) => toastOf(page, text);

async function until<T>(what: string, check: () => T | Promise<T>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

before(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/people`;
  // the operator's receiver is on this machine: loopback is refused unless allowed (issue #28)
  server = await startServer(ADMIN, { OUTBOUND_ALLOW: '127.0.0.0/8' });
  journey = await openJourney({ prefix: 'parking-', viewport: { width: 1280, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await server?.stop();
  await new Promise((r) => receiver.close(r));
});

step('the company form sets the parking config and the card option; the key is never shown again', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Parking Journey Ltd', phone: '+8613800000009' });
  await openPath(page, '/company/update');
  const form = page.getByTestId('company-form');
  await form.waitFor();
  await form.getByText(tr('company.optionHints.rfid')).waitFor();
  await page.getByTestId('company-option-rfid').click();
  await page.getByTestId('parking-enabled').click();
  await page.getByTestId('parking-url').fill(receiverUrl);
  await page.getByTestId('parking-key').fill(SECRET);
  await page.getByTestId('company-submit').click();
  await toast(tr('common.saved')).waitFor();
  await page.reload();
  await form.getByText(tr('company.hints.parkingKeySet')).waitFor();
  assert.equal(await page.getByTestId('parking-key').inputValue(), '', 'the secret does not come back');
  const idText = await page.getByTestId('parking-company-id').innerText();
  companyId = Number(/(\d+)\s*$/.exec(idText)?.[1]);
  assert.ok(companyId > 0, idText);
  await page.getByTestId('parking-bindings').getByText(tr('parking.bindings.empty')).waitFor();
  await journey.screenshot('company-options');
});

step('rfid on: the person form shows and requires the card number', async () => {
  await openPath(page, '/user/list');
  await page.getByTestId('person-create').click();
  const form = page.getByTestId('person-form');
  await form.getByTestId('person-rfid').waitFor({ state: 'visible' });
  await page.getByTestId('person-save').click();
  const cardItem = form.locator('.ant-form-item', { has: page.locator('#rfid') });
  await cardItem.locator('.ant-form-item-explain-error', { hasText: tr('common.validation.required') }).waitFor();
  await form.getByTestId('person-idcard').waitFor({ state: 'hidden' });
  await journey.screenshot('person-card-required', false);
  await page.keyboard.press('Escape');
});

step('a signed link opens /dzg: the user signs in and confirms; the operator receives the people, signed', async () => {
  // a new browser session: the binding page asks to sign in
  await page.context().clearCookies();
  const link = parkingLink(server.baseUrl, parkingCode({ companyId, secret: SECRET, dzgId: 'LOT-7', lotName: 'North Lot' }));
  await page.goto(link);
  const details = page.getByTestId('dzg-details');
  await details.getByText('LOT-7').waitFor();
  await details.getByText('North Lot').waitFor();
  await details.getByText('Parking Journey Ltd').waitFor();
  await page.locator('#username').fill(ADMIN.username);
  await page.locator('#password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('dzg-signed-in').waitFor();
  await journey.screenshot('dzg-confirm');
  await page.getByTestId('dzg-confirm').click();
  await page.getByTestId('dzg-done').waitFor();
  const push = (await until('the roster at the operator', () => pushes.find((p) => JSON.parse(p.body).full === true)))!;
  const expected = `sha256=${createHmac('sha256', SECRET).update(`${push.timestamp}.${push.body}`).digest('hex')}`;
  assert.equal(push.signature, expected, 'signed with the shared key');
  assert.deepEqual(JSON.parse(push.body).dzg_ids, ['LOT-7']);

  // the same link again is refused: a code binds once
  await page.goto(link);
  await page.getByTestId('dzg-invalid').getByText('already been used').waitFor();
});

step('the company page lists the binding and unbinds it after asking', async () => {
  await page.goto(`${server.baseUrl}/company/update`);
  const card = page.getByTestId('parking-bindings');
  await card.getByText('LOT-7').waitFor();
  await card.getByText('North Lot').waitFor();
  await journey.screenshot('company-bindings');
  await page.getByTestId('parking-unbind-LOT-7').click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: tr('common.actions.ok') })
    .click();
  await toast(tr('parking.bindings.unbound')).waitFor();
  await card.getByText(tr('parking.bindings.empty')).waitFor();
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(journey.pageErrors, []);
});
