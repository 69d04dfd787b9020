// Browser journey of issue #19 "Visitors": an employee invites a visitor from the self-service page on a 390×844
// phone and copies the one-time link; the visitor opens it on their own phone and uploads a face; the emulated ZKTeco
// door (tools/zk-emulator) receives them through the sync ledger as a user valid only within the window; the
// terminal lets them in inside it (the visitor log shows the entry with its photo, the employee's inbox the arrival)
// and refuses them after it (a failure in the log); the employee cancels and the door forgets the visitor.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { createTerminal, type Terminal, type TerminalUser } from '../../tools/zk-emulator/terminal.ts';
import { journeySteps, openJourney, openPhone, shoot, type Journey } from '../lib/browser.ts';
import { facePhoto } from '../lib/faces.ts';
import { menu, signInAndCreateCompany, translator } from '../lib/journey.ts';
import { api } from '../lib/api.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const SERIAL = 'E2EVISIT0001';
const DOOR = 'Lobby gate';
const HOST = 'Eve Host';
const VISITOR = 'Victor Guest';
const tr = translator(loadLocale('en-US'));

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let host: { context: BrowserContext; page: Page };
let guest: { context: BrowserContext; page: Page };
let terminal: Terminal | undefined;
let deviceId = 0;
let hostLink = '';
let visitLink = '';
let user: TerminalUser | undefined;

const shot = (p: Page, name: string) => shoot(p, `visitors-${name}`);

async function until<T>(what: string, check: () => T | Promise<T>, ms = 30_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const phone = () => openPhone(journey);

before(async () => {
  // no SMS gateway: the employee passes the link on (the copy button)
  server = await startServer(ADMIN, { DEVICE_POLL_SECONDS: '1', SMS_SENDER: 'none' });
  journey = await openJourney({ prefix: 'visitors-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});

after(async () => {
  await host?.context.close().catch(() => undefined);
  await guest?.context.close().catch(() => undefined);
  await journey?.close();
  await terminal?.stop();
  await server?.stop();
});

step('the administrator registers the door and turns on "Allow visitors"; the terminal calls in', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Visitors Demo Ltd', phone: '+8613800000019' });
  // setup that other journeys walk through: a department, the employee, the device, the employee's sign-in link
  const dept = await api<{ id: number }>(page, 'POST', '/org/create', { name: 'Office' });
  const upload = new FormData();
  upload.append('file', new Blob([new Uint8Array(await facePhoto(HOST, 30))], { type: 'image/jpeg' }), 'eve.jpg');
  const { pic } = await api<{ pic: string }>(page, 'POST', '/person/upload', upload);
  const eve = await api<{ id: number }>(page, 'POST', '/person/create', { number: '1', name: HOST, phone: '13800000019', organizations: [dept.id], pic });
  const device = await api<{ id: number }>(page, 'POST', '/device/create', { name: DOOR, serial: SERIAL, ip: '192.168.9.19', password: '123456' });
  deviceId = device.id;
  hostLink = `${server.baseUrl}${(await api<{ path: string }>(page, 'POST', '/workflow/link', { person_id: eve.id })).path}`;

  await menu(page, tr('route.device'), tr('route.deviceList'), 'device-list-page');
  await page.locator('[data-testid=device-table] .ant-table-row', { hasText: SERIAL }).getByTestId('device-settings').click();
  const drawer = page.getByTestId('settings-form');
  const allow = drawer.locator('#flags_allowvisit');
  await allow.waitFor();
  if ((await allow.getAttribute('aria-checked')) !== 'true') await allow.click();
  await page.getByTestId('settings-save').click();
  await drawer.waitFor({ state: 'hidden' });
  terminal = createTerminal({ server: server.baseUrl, sn: SERIAL, pollMs: 500, retryMs: 1000, ip: '192.168.9.19' });
  await terminal.start();
  await until('the terminal took the option', () => terminal!.options.allowvisit === '1');
});

step('Eve, on her phone, invites a visitor from the self-service page and copies the link', async () => {
  host = await phone();
  const p = host.page;
  await p.goto(hostLink);
  await p.getByTestId('self-name').getByText(HOST).waitFor();
  await p.getByTestId('self-tab-visitors').click();
  await p.getByTestId('self-visitor-invite').click();
  const form = p.getByTestId('visitor-form');
  await form.getByTestId('visitor-name').fill(VISITOR);
  await form.getByTestId('visitor-phone').fill('13911112222');
  await form.getByTestId('visitor-company').fill('Acme Ltd');
  await form.getByTestId('visitor-reason').fill('Contract meeting');
  // a multiple choice stays open after a pick
  await form.getByTestId('visitor-doors').click();
  await p.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: DOOR }).click();
  await p.keyboard.press('Escape');
  await shot(p, 'invite-form');
  const fits = await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  assert.ok(fits, 'the invitation fits the phone without a horizontal scroll bar');
  await form.getByTestId('visitor-submit').click();
  await p.getByTestId('visitor-invited').waitFor();
  await p.getByText(tr('visitor.copyHint')).waitFor();
  visitLink = (await p.getByTestId('visitor-link').innerText()).trim();
  assert.match(visitLink, /\/visit\/[A-Za-z0-9_-]{32}$/);
  await p.getByTestId('visitor-link-copy').click();
  await shot(p, 'invited');
  await p.getByTestId('visitor-back').click();
  await p.getByTestId('self-visitor').filter({ hasText: VISITOR }).getByText(tr('visitor.states.invited')).waitFor();
});

step('the visitor opens the link on their phone, sees the invitation and uploads a face; the door receives them', async () => {
  guest = await phone();
  const p = guest.page;
  await p.goto(visitLink);
  await p.getByTestId('visit-welcome').getByText(VISITOR, { exact: false }).waitFor();
  await p.getByText(DOOR).waitFor();
  // what is not a picture is refused with the reason (the checks of people's photos)
  await p.locator('input[type=file]').setInputFiles({ name: 'face.txt', mimeType: 'image/jpeg', buffer: Buffer.from('not a picture') });
  await p.getByTestId('visit-face-error').getByText('JPEG or PNG', { exact: false }).waitFor();
  await p.locator('input[type=file]').setInputFiles({ name: 'face.jpg', mimeType: 'image/jpeg', buffer: await facePhoto(VISITOR, 90) });
  await p.getByTestId('visit-face-done').waitFor();
  await shot(p, 'visitor-page');
  const onDoor = await until('the visitor on the door', () => [...terminal!.users.values()].find((u) => u.name === VISITOR));
  user = onDoor;
  assert.match(onDoor.pin, /^\d+$/, 'a numeric PIN');
  assert.ok(onDoor.startDatetime && onDoor.endDatetime, 'valid only within the window');
  await until('the face on the door', () => terminal!.photos.has(user!.pin));
  // the console's device people page shows the visitor like anyone
  await page.goto(`${server.baseUrl}/device/personManage/${deviceId}`);
  await page.locator('[data-testid=ledger-table] .ant-table-row', { hasText: VISITOR }).waitFor();
});

step('inside the window the door opens: the visitor log shows the entry with its photo, Eve gets the arrival', async () => {
  const r = await terminal!.recognize({ pin: user!.pin, photo: await facePhoto('capture', 150) });
  assert.equal(r.outcome, 'opened');
  await menu(page, tr('route.system'), tr('route.visitorLog'), 'visitor-log-page');
  const row = page.locator('[data-testid=visit-table] .ant-table-row', { hasText: VISITOR });
  await row.getByTestId('visit-status').getByText(tr('visitor.open.success')).waitFor({ timeout: 20_000 });
  await row.getByText(HOST).waitFor();
  await row.getByTestId('visit-photo').waitFor();
  const p = host.page;
  await p.getByTestId('self-tab-inbox').click();
  await p.getByText(`Your visitor ${VISITOR} has arrived`).waitFor({ timeout: 20_000 });
  await shot(p, 'arrival');
});

step('after the window the terminal refuses the visitor: a failure in the visitor log', async () => {
  // a minute after the window's end, in the terminal's own clock
  const late = new Date(Date.parse(`${user!.endDatetime.replace(' ', 'T')}Z`) + 60_000).toISOString().slice(0, 19).replace('T', ' ');
  const r = await terminal!.recognize({ pin: user!.pin, time: late });
  assert.equal(r.outcome, 'refused');
  await page.reload();
  const row = page.locator('[data-testid=visit-table] .ant-table-row', { hasText: VISITOR }).filter({ has: page.getByText(tr('visitor.open.failure')) });
  await row.waitFor({ timeout: 20_000 });
  await shot(page, 'visitor-log');
});

step('Eve cancels the invitation: the door forgets the visitor and the ledger shows it', async () => {
  const p = host.page;
  await p.getByTestId('self-tab-visitors').click();
  const card = p.getByTestId('self-visitor').filter({ hasText: VISITOR });
  await card.getByTestId('self-visitor-cancel').click();
  await p.locator('.ant-popconfirm .ant-btn-primary').click();
  await card.getByText(tr('visitor.states.cancelled')).waitFor();
  await until('removed from the door', () => !terminal!.users.has(user!.pin));
  await page.goto(`${server.baseUrl}/device/personManage/${deviceId}`);
  await page.getByTestId('ledger-table').waitFor();
  await until('the ledger row gone', async () => !(await page.locator('[data-testid=ledger-table] .ant-table-row', { hasText: VISITOR }).count()));
});
