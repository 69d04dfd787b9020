// Browser journey of issue #30's "Done when", its terminal half: a site in service before this server, an emulated ZK
// terminal (PUSH) holding Z users with faces and P stored punches over this month and the last, and an emulated
// Hikvision terminal (ISAPI) holding I users, S of them numbers the ZK terminal holds too (S − 1 the same people, one
// under another name), one name held under two numbers, and one face too small for the face check. A new company with
// an office-hours rule takes the site over as a new user would: the ZK terminal's log is fetched first (its punches
// wait as strangers, their numbers unknown), the whole site is read and reviewed (Z + I − S numbers, S on both
// terminals, the split number, the two numbers under one name, the refused face), the conflicts are settled and
// every row applied into a department; then the people are there with their photos, both terminals still hold every
// user, the Hikvision log is fetched for the two months, last month's attendance is computed from the fetched punches,
// no stranger is left, and applying again makes no one new.
//
// Sizes: small by default (Z=20, P=600, I=15, S=5: the suite's), the with TAKEOVER_SCALE=full (Z=200, P=5000,
// I=150, S=50). The same steps either way; every count asserted is computed from the sizes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { seededRandom } from '../../apps/server/src/lib/random.ts';
import { until as untilOf } from '../../apps/server/test/terminals.ts';
import { createIsapiTerminal, type EmulatedUser, type IsapiTerminal } from '../../tools/isapi-emulator/terminal.ts';
import { siteFaces, varyJpeg } from '../../tools/site-faces.ts';
import { FAMILY as SITE_FAMILY, GIVEN, seedSite, type SitePunch, type SiteUser } from '../../tools/zk-emulator/site.ts';
import { createTerminal, type Terminal } from '../../tools/zk-emulator/terminal.ts';
import { api } from '../lib/api.ts';
import { axeViolations } from '../lib/axe.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { smallFacePhoto } from '../lib/faces.ts';
import {
  chooseOption,
  inputOf,
  menu as menuOf,
  modal as modalOf,
  openPath,
  pickTreeOption,
  signInAndCreateCompany,
  toast as toastOf,
  translator,
  typeDate,
  typeRange,
  waitForPath,
} from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const FULL = process.env.TAKEOVER_SCALE === 'full';
/** users on the ZK terminal, its stored punches, users on the Hikvision terminal, and the numbers both hold */
const Z = FULL ? 200 : 20;
const P = FULL ? 5000 : 600;
const I = FULL ? 150 : 15;
const S = FULL ? 50 : 5;
/** every number the site holds, once */
const N = Z + I - S;
/** waits that grow with the site (reads, the face check of Z + I faces, a month recomputed for N people) */
const SCALE = FULL ? 8 : 1;

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const ZK_SERIAL = 'E2ETAKEOVER01';
const ZK_NAME = 'Main entrance (ZK)';
const HIK_SERIAL = 'HIKTAKEOVER01';
const HIK_NAME = 'Warehouse gate (Hikvision)';
const HIK_PASSWORD = 'hik-Pass-30';
const DEPARTMENT = 'Taken over';
const tr = translator(loadLocale('en-US'));

// ---- the site, deterministic

// the emulator's names, and two more family names: a name of its own for every number at the sizes
const FAMILY = [...SITE_FAMILY, 'Haddad', 'Ivanova'];
/** A name of its own for each number (360 of them): names repeat only where the journey says so. */
const nameOf = (pin: number) => `${GIVEN[(pin - 1) % GIVEN.length]} ${FAMILY[Math.floor((pin - 1) / GIVEN.length) % FAMILY.length]}`;
assert.ok(Z + I + 1 <= GIVEN.length * FAMILY.length, 'a name of its own for every number');

/** Numbers 1…Z on the ZK terminal; Z−S+1…Z on both; Z+1…N on the Hikvision terminal alone. */
const SHARED_FIRST = Z - S + 1;
/** held by both terminals under different names (the ZK terminal's is the one the review shows first) */
const SPLIT = Z;
const SPLIT_OTHER_NAME = nameOf(Z + I + 1);
/** a ZK user and a Hikvision-only user under one name */
const TWIN_ZK = 3;
const TWIN_HIK = Z + 1;
/** a Hikvision-only user whose face is too small for the face check */
const SMALL_FACE = Z + 2;
/** whose month is checked: one punching at the ZK terminal, one at the Hikvision terminal, every working day */
const ZK_WORKER = 4;
const HIK_WORKER = Z + 3;

/** Dates in this machine's zone, which the browser (and so the new company) and both emulated terminals share. */
const ymd = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const TZ_MINUTES = -new Date().getTimezoneOffset();
const today = new Date();
const FIRST = new Date(today.getFullYear(), today.getMonth() - 1, 1);
const LAST_MONTH = ymd(FIRST).slice(0, 7);
const LAST_MONTH_END = ymd(new Date(today.getFullYear(), today.getMonth(), 0));
/** every day from the first of last month to yesterday: the punch logs' days (today's results are not final) */
const DAYS: string[] = [];
for (let d = new Date(FIRST); ymd(d) < ymd(today); d.setDate(d.getDate() + 1)) DAYS.push(ymd(d));
const isWeekday = (day: string) => ![0, 6].includes(new Date(`${day}T12:00:00`).getDay());
const WEEKDAYS = DAYS.filter(isWeekday);
/** Monday to Friday of last month: the office-hours rule's working days there (no holiday is set) */
const LAST_MONTH_WORKDAYS = WEEKDAYS.filter((d) => d.startsWith(LAST_MONTH)).length;

const pad = (n: number) => String(n).padStart(2, '0');
const clock = (seconds: number) => `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;

/**
 * A log of punches: `worker` in and out on every working day (08:40–08:54, 18:02–18:11: on time for 09:00–18:00),
 * then punches of the others at random between 07:00 and 20:00 until `total`; no two of one number in one second.
 */
function punchLog(worker: number, others: number[], total: number, seed: number): { pin: string; time: string }[] {
  const r = seededRandom(seed);
  const seen = new Set<string>();
  const out: { pin: string; time: string }[] = [];
  const add = (pin: number, time: string) => {
    const key = `${pin} ${time}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ pin: String(pin), time });
  };
  WEEKDAYS.forEach((day, i) => {
    add(worker, `${day} ${clock(8 * 3600 + 40 * 60 + ((i * 7) % 15) * 60 + (i % 50))}`);
    add(worker, `${day} ${clock(18 * 3600 + 2 * 60 + ((i * 5) % 10) * 60 + (i % 40))}`);
  });
  while (out.length < total)
    add(others[Math.floor(r() * others.length)]!, `${DAYS[Math.floor(r() * DAYS.length)]} ${clock(7 * 3600 + Math.floor(r() * 13 * 3600))}`);
  return out.sort((a, b) => a.time.localeCompare(b.time) || a.pin.localeCompare(b.pin));
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const ZK_PINS = range(1, Z);
const HIK_PINS = range(SHARED_FIRST, N);

/** The ZK terminal: seedSite's users (faces, cards, PIN 1 its super administrator) under the journey's names. */
const zkSite = (() => {
  const { users } = seedSite({ users: Z, punches: 0, seed: 30, validity: 0 });
  const named: SiteUser[] = users.map((u) => ({ ...u, name: nameOf(Number(u.pin)) }));
  const punches: SitePunch[] = punchLog(
    ZK_WORKER,
    ZK_PINS.filter((p) => p !== ZK_WORKER),
    P,
    31,
  ).map((x) => ({ ...x, status: Number(x.time.slice(11, 13)) < 12 ? 0 : 1, verify: 15 }));
  return { users: named, punches };
})();
assert.equal(zkSite.punches.length, P);

/** The Hikvision terminal's log: its worker every working day, and 3 punches a user besides. */
const hikLog = punchLog(
  HIK_WORKER,
  HIK_PINS.filter((p) => p !== HIK_WORKER),
  2 * WEEKDAYS.length + 3 * I,
  32,
);

/** Puts the Hikvision site straight into the emulator's memory: users, faces, a card for every other own user, the log. */
async function seedHikvision(t: IsapiTerminal): Promise<void> {
  const [portrait] = siteFaces();
  const small = await smallFacePhoto();
  for (const pin of HIK_PINS) {
    const employeeNo = String(pin);
    const name = pin === SPLIT ? SPLIT_OTHER_NAME : pin === TWIN_HIK ? nameOf(TWIN_ZK) : nameOf(pin);
    const user: EmulatedUser = {
      employeeNo,
      name,
      userType: 'normal',
      valid: { enable: true, beginTime: '2024-01-01T00:00:00', endTime: '2037-12-31T23:59:59' },
      password: '',
    };
    t.users.set(employeeNo, user);
    t.faces.set(employeeNo, pin === SMALL_FACE ? small : varyJpeg(portrait!, `faceadmin-e2e takeover hik ${pin}`));
    // below the ZK cards' range (10,000,000 and up): no card is held twice
    if (pin > Z && pin % 2 === 0) t.cards.set(String(5_000_000 + pin), employeeNo);
  }
  for (const x of hikLog) {
    const at = new Date(x.time.replace(' ', 'T')).getTime();
    const hour = Number(x.time.slice(11, 13));
    t.record({
      at,
      major: 5,
      minor: 75,
      employeeNo: x.pin,
      name: t.users.get(x.pin)!.name,
      verifyMode: 'face',
      attendanceStatus: hour < 12 ? 'checkIn' : 'checkOut',
    });
  }
}

// ---- the journey

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let zk: Terminal | undefined;
let hik: IsapiTerminal | undefined;
let zkId: number;
let hikId: number;

const until = <T>(what: string, check: () => T | Promise<T>, timeoutMs = 30_000) => untilOf(what, check, timeoutMs, 250);
const toast = (text: string) => toastOf(page, text);
const deviceRow = (serial: string) => page.locator('[data-testid=device-table] .ant-table-row', { hasText: serial });
const siteRows = () => page.locator('[data-testid=takeover-table] .ant-table-row');
const siteRow = (pin: number) => page.locator(`[data-testid=takeover-table] .ant-table-row[data-row-key="${pin}"]`);
const totalText = (count: number) => page.locator('.ant-pagination-total-text', { hasText: tr('common.total', { count }) });
const numbers = (count: number) => tr('device.takeover.count.numbers', { count });
const terminals = (count: number) => tr('device.takeover.count.terminals', { count });

/** Every page of a list answer (100 a page). */
async function everything<T>(apiPath: string): Promise<T[]> {
  const out: T[] = [];
  for (let p = 1; ; p++) {
    const r = await api<{ items: T[]; total: number }>(page, 'GET', `${apiPath}${apiPath.includes('?') ? '&' : '?'}pageSize=100&page=${p}`);
    out.push(...r.items);
    if (out.length >= r.total || r.items.length === 0) return out;
  }
}

/** The page's card passes axe's WCAG 2.1 AA rules (the shell around it is not this journey's subject). */
async function accessible(what: string, card: string) {
  // at rest: the pointer off the button it last clicked (antd's hover colour of the default theme is a theme finding)
  await page.mouse.move(0, 0);
  const found = await axeViolations(page, card);
  assert.deepEqual(found, [], `${what}: ${JSON.stringify(found, null, 2)}`);
}

/** Devices → the device list, waiting for it. */
const openDevices = () => menuOf(page, tr('route.device'), tr('route.deviceList'), 'device-list-page');

/** Device list → a device's More → Re-upload punches, from the first of last month to today, OK. */
async function fetchPunches(serial: string): Promise<void> {
  await openDevices();
  await deviceRow(serial).getByTestId('device-more').click();
  await page.getByRole('menuitem', { name: tr('device.actions.queryPunches') }).click();
  const dialog = modalOf(page, tr('device.actions.queryPunches'));
  await dialog.getByText(tr('device.queryPunchesHint')).waitFor();
  await typeRange(dialog.locator('.ant-picker-range'), ymd(FIRST), ymd(today));
  const inputs = dialog.locator('.ant-picker-range input');
  await until('the range typed', async () => (await inputs.nth(0).inputValue()) === ymd(FIRST) && (await inputs.nth(1).inputValue()) === ymd(today));
  await dialog.getByRole('button', { name: tr('common.actions.ok') }).click();
  await dialog.waitFor({ state: 'hidden' });
  await toast(tr('device.result.queued'))
    .or(toast(tr('device.result.done')))
    .first()
    .waitFor();
}

/** The take-over page's rows, 100 a page, every page's chosen (the choice is kept across pages): the button counts them all. */
async function chooseEveryRow(): Promise<void> {
  await chooseOption(page, page.locator('[data-testid=device-takeover-page] .ant-pagination-options .ant-select'), '100 / page');
  const pages = Math.ceil(N / 100);
  let first = '';
  for (let p = 1; p <= pages; p++) {
    if (p > 1) await page.locator('[data-testid=device-takeover-page] .ant-pagination-next').click();
    const shown = Math.min(100, N - (p - 1) * 100);
    // the page's own rows, not the last page's while the next one loads
    await until(
      `page ${p} of the review`,
      async () => (await siteRows().count()) === shown && (await siteRows().first().getAttribute('data-row-key')) !== first,
    );
    first = (await siteRows().first().getAttribute('data-row-key')) ?? '';
    await page.getByTestId('takeover-select-page').check();
  }
  await page
    .getByTestId('takeover-apply')
    .getByText(tr('device.roster.apply.button', { count: N }))
    .waitFor();
}

/**
 * Asks to apply and confirms: the confirmation's plan, then the answer's counts line (returned). The apply runs on the
 * server in the background; with `progress`, its progress bar is seen first (an apply that makes people and stores
 * their faces takes seconds, longer than the console's first poll).
 */
async function applyChosen(plan: { create: number; link: number; skip: number }, opts: { progress?: boolean } = {}): Promise<Locator> {
  await page.getByTestId('takeover-apply').click();
  const confirm = page.getByTestId('roster-apply-confirm');
  await confirm.getByText(tr('device.takeover.apply.confirm', plan)).waitFor();
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: tr('device.roster.apply.ok') })
    .click();
  if (opts.progress) await page.getByRole('progressbar', { name: tr('device.roster.apply.progressLabel') }).waitFor();
  const counts = page.getByTestId('device-takeover-page').getByTestId('roster-applied-counts');
  // one transaction a batch of 200 a terminal, the faces stored first
  await counts.waitFor({ timeout: 60_000 * SCALE });
  return counts;
}

before(async () => {
  server = await startServer(ADMIN, { DEVICE_POLL_SECONDS: '1' });
  hik = await createIsapiTerminal({ password: HIK_PASSWORD, serial: HIK_SERIAL, timezone: TZ_MINUTES });
  await seedHikvision(hik);
  journey = await openJourney({ prefix: 'takeover-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await zk?.stop();
  await hik?.stop();
  await server?.stop();
});

step('a new company, the department the site comes into, and office hours (Monday–Friday 09:00–18:00) on it', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Working Site Ltd', phone: '+8613800000330' });
  const dept = await api<{ id: number }>(page, 'POST', '/org/create', { name: DEPARTMENT, parent_id: 0 });
  const day = ['day'];
  // a new rule covers earlier days too (no effective date): last month is computed by it
  await api(page, 'POST', '/attendance/rule/create', {
    name: 'Office hours',
    mode: 'fixed',
    shifts: [{ key: 'day', name: 'Day', start: '09:00', end: '18:00', breaks: [] }],
    weekdays: { 0: [], 1: day, 2: day, 3: day, 4: day, 5: day, 6: [] },
    person_ids: [],
    department_ids: [dept.id],
  });
});

step(`both terminals of the site come online: the ZK one holding ${Z} users and ${P} punches, the Hikvision one ${I} users`, async () => {
  // added as the installer would (their own people only: no scope pushes everyone onto them), on this machine's clock
  zkId = (
    await api<{ id: number }>(page, 'POST', '/device/create', {
      name: ZK_NAME,
      serial: ZK_SERIAL,
      ip: '192.168.30.10',
      password: '123456',
      attendance_scope: 'selected',
      tz_offset: TZ_MINUTES,
    })
  ).id;
  zk = createTerminal({ server: server.baseUrl, sn: ZK_SERIAL, pollMs: 500, retryMs: 1000, ip: '192.168.30.10', site: zkSite });
  await zk.start();
  hikId = (
    await api<{ id: number }>(page, 'POST', '/device/create', {
      name: HIK_NAME,
      serial: HIK_SERIAL,
      protocol: 'isapi',
      ip: '127.0.0.1',
      port: hik!.port,
      account: 'admin',
      password: HIK_PASSWORD,
      attendance_scope: 'selected',
      tz_offset: TZ_MINUTES,
    })
  ).id;
  await openDevices();
  for (const serial of [ZK_SERIAL, HIK_SERIAL]) await deviceRow(serial).locator('[data-testid=device-online][data-online="1"]').waitFor({ timeout: 30_000 });
  // the ZK terminal's own count of its users comes with its first poll (INFO)
  await deviceRow(ZK_SERIAL).locator('[data-testid=device-users][data-read="1"]').waitFor({ timeout: 20_000 });
  assert.equal(zk.users.size, Z);
  assert.equal(hik!.users.size, I);
});

step('Re-upload punches on the ZK terminal for this month and the last: the strangers list holds its punches, under numbers no one here has', async () => {
  await fetchPunches(ZK_SERIAL);
  // the terminal answers at its next poll, its records first
  await until(
    'the ZK log stored',
    async () => (await api<{ total: number }>(page, 'GET', `/attendance/list?device_id=${zkId}&pageSize=1`)).total === P,
    60_000 * SCALE,
  );
  await openPath(page, '/stranger');
  await page.getByTestId('stranger-page').waitFor();
  await totalText(P).waitFor();
  await page.getByTestId('stranger-card').first().waitFor();
  // each card names the number the terminal knows them by, which no one here has
  const named = new Set(zkSite.users.map((u) => tr('stranger.unknownNumber', { number: u.pin })));
  const cards = await page.getByTestId('stranger-kind').allInnerTexts();
  assert.ok(cards.length > 0 && cards.every((k) => named.has(k)), JSON.stringify(cards));
  // every punch of the log, under the terminal's numbers
  const strangers = await everything<{ number: string; device: string }>(`/stranger/list?device_id=${zkId}`);
  assert.equal(strangers.length, P);
  assert.deepEqual([...new Set(strangers.map((s) => s.number))].sort(), [...new Set(zkSite.punches.map((x) => x.pin))].sort());
  assert.ok(strangers.every((s) => s.device === ZK_NAME));
  await journey.screenshot('strangers-before', false);
});

step(`Devices → Take over the site → Read every terminal: ${N} numbers, ${S} on both terminals, one split, two under one name, one face refused`, async () => {
  await openDevices();
  await page.getByTestId('device-takeover').getByText(tr('device.takeover.open')).click();
  await waitForPath(page, '/device/takeover');
  await page.getByTestId('device-takeover-page').waitFor();
  await page.getByTestId('takeover-intro').getByText(tr('device.takeover.intro')).waitFor();
  await page.getByText(tr('device.takeover.empty')).waitFor();

  await page.getByTestId('takeover-read').click();
  await page
    .getByTestId('takeover-done')
    .getByText(tr('device.takeover.done', { terminals: terminals(2) }))
    .waitFor({ timeout: 60_000 * SCALE });
  // Z + I − S numbers; the S shared ones on both terminals; none taken here yet (a new company: every number new); one
  // number under two names (split), and one name under two numbers: both numbers say so (twin counts rows)
  const summary = `${tr('device.takeover.summary', { numbers: numbers(N), terminals: terminals(2), across: S, conflict: 0, split: 1, twin: 2 })} ${tr(
    'device.roster.counts',
    { matched: 0, conflict: 0, byName: 0, new: N },
  )}`;
  await page.getByTestId('takeover-summary').getByText(summary).waitFor({ timeout: 30_000 });
  // the face check looks at every face read, one at a time, after the read: one refused, the rest pass
  await page
    .getByTestId('takeover-summary')
    .getByText(tr('device.roster.faceCounts', { faceRefused: 1, faceUnchecked: 0 }))
    .waitFor({ timeout: 60_000 + (Z + I) * 1500 });
  await siteRows()
    .nth(Math.min(N, 20) - 1)
    .waitFor();
  await totalText(N).waitFor();
  await journey.screenshot('read');

  // nothing was written by reading: no person, and each terminal still holds what it held
  assert.equal((await api<{ total: number }>(page, 'GET', '/person/list?pageSize=1')).total, 0);
  assert.equal(zk!.users.size, Z);
  assert.equal(hik!.users.size, I);

  // The filter counts what is to settle before applying: the split number, the two numbers under one name, and the
  // number whose only face the check refuses (S on several terminals).
  await page.getByTestId('takeover-show').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: tr('device.takeover.show.all', { count: N }) }).waitFor();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: tr('device.takeover.show.across', { count: S }) }).waitFor();
  await page.keyboard.press('Escape');
  await chooseOption(page, page.getByTestId('takeover-show'), tr('device.takeover.show.conflicts', { count: 4 }));
  await until('the rows to settle', async () => (await siteRows().count()) === 4);
  assert.deepEqual(
    (await siteRows().evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-key')))).map(Number).sort((a, b) => a - b),
    [TWIN_ZK, SPLIT, TWIN_HIK, SMALL_FACE].sort((a, b) => a - b),
  );
  await siteRow(SPLIT)
    .getByTestId('takeover-split')
    .getByText(tr('device.takeover.split', { names: `${ZK_NAME}: ${nameOf(SPLIT)} · ${HIK_NAME}: ${SPLIT_OTHER_NAME}` }))
    .waitFor();
  assert.equal(await siteRow(SPLIT).getByTestId('takeover-terminal').count(), 2);
  await siteRow(TWIN_ZK)
    .getByTestId('takeover-twins')
    .getByText(tr('device.takeover.twins', { numbers: String(TWIN_HIK) }))
    .waitFor();
  await siteRow(TWIN_HIK)
    .getByTestId('takeover-twins')
    .getByText(tr('device.takeover.twins', { numbers: String(TWIN_ZK) }))
    .waitFor();
  // the face check's verdict, in the server's words
  await siteRow(SMALL_FACE)
    .getByTestId('roster-face-refused')
    .getByText(tr('device.roster.faceRefused', { reason: '' }).trim())
    .waitFor();
  // the doubtful rows stay on the terminals unless chosen; the refused face's number is made a person without it
  for (const pin of [SPLIT, TWIN_ZK, TWIN_HIK]) await siteRow(pin).getByTestId('roster-choice').getByText(tr('device.takeover.choice.skip')).waitFor();
  await siteRow(SMALL_FACE).getByTestId('roster-choice').getByText(tr('device.roster.choice.create')).waitFor();
  await journey.screenshot('conflicts');
});

step('the take-over page passes axe (WCAG 2.1 AA) at desktop width, the conflicts shown', async () => {
  await accessible('the take-over page, wide', '[data-testid=device-takeover-page]');
});

step(`settle the conflicts (each is a person of its own), then apply every row into ${DEPARTMENT}: ${N} people created`, async () => {
  // the split number is one person under the name the review shows; two people really do share a name
  for (const pin of [SPLIT, TWIN_ZK, TWIN_HIK]) {
    await chooseOption(page, siteRow(pin).getByTestId('roster-choice'), tr('device.roster.choice.create'));
    await siteRow(pin).getByTestId('roster-choice').getByText(tr('device.roster.choice.create')).waitFor();
  }
  await chooseOption(page, page.getByTestId('takeover-show'), tr('device.takeover.show.all', { count: N }));
  await until('every number listed again', async () => (await siteRows().count()) === Math.min(N, 20));
  await pickTreeOption(page, page.getByTestId('takeover-department'), DEPARTMENT);
  await chooseEveryRow();

  const counts = await applyChosen({ create: N, link: 0, skip: 0 }, { progress: true });
  assert.equal(await counts.innerText(), tr('device.takeover.apply.result', { created: N, linked: 0, skipped: 0, unchanged: 0 }));
  // the one face the check refused: that person is made without it, and the answer says why
  const lines = await page.getByTestId('roster-applied-rows').locator('li').allInnerTexts();
  assert.equal(lines.length, 1, JSON.stringify(lines));
  assert.ok(lines[0]!.startsWith(tr('device.roster.apply.facelessRow', { pin: SMALL_FACE, reason: '' })), lines[0]);
  // the list is read again: every number now a person here; the shared ones one person each, managed on both terminals
  await chooseOption(page, page.getByTestId('takeover-show'), tr('device.takeover.show.across', { count: S }));
  await until(
    'the shared numbers, managed',
    async () => (await siteRows().count()) === S && (await page.locator('[data-testid=takeover-table] [data-testid=roster-managed]').count()) === S,
  );
  const matches = await page
    .locator('[data-testid=takeover-table] [data-testid=roster-match]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-match')));
  assert.deepEqual(new Set(matches), new Set(['matched']));
  await journey.screenshot('applied');

  const people = await everything<{ number: string; name: string; pic: string }>('/person/list');
  assert.equal(people.length, N);
  assert.deepEqual(
    people.map((p) => Number(p.number)).sort((a, b) => a - b),
    range(1, N),
  );
  // the split number: one person, under the name its row showed (the terminal the review made it from)
  const splitName = people.find((p) => p.number === String(SPLIT))!.name;
  assert.ok([nameOf(SPLIT), SPLIT_OTHER_NAME].includes(splitName), splitName);
  await siteRow(SPLIT).getByText(splitName, { exact: true }).waitFor();
  assert.equal(people.filter((p) => p.name === nameOf(TWIN_ZK)).length, 2);
});

step(`the people list has the ${N} people with their photos (the refused face's person without one); each terminal still holds every user`, async () => {
  await menuOf(page, tr('route.user'), tr('route.personList'), 'person-list-page');
  await totalText(N).waitFor();
  const rows = page.locator('[data-testid=person-table] .ant-table-row');
  // ten a page
  await rows.nth(Math.min(N, 10) - 1).waitFor();
  // a photo on every row of the page but the refused face's person's, should it be on it
  const faceless = await rows.filter({ hasText: nameOf(SMALL_FACE) }).count();
  assert.equal(await page.locator('[data-testid=person-table] [data-testid=person-photo]').count(), (await rows.count()) - faceless);
  for (const img of await page
    .locator('[data-testid=person-table] [data-testid=person-photo] img, [data-testid=person-table] img[data-testid=person-photo]')
    .all())
    await until('the photo drawn', () => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0));
  const keyword = page.getByTestId('person-keyword').locator('input');
  await keyword.fill(nameOf(SMALL_FACE));
  await keyword.press('Enter');
  await totalText(1).waitFor();
  await rows.filter({ hasText: nameOf(SMALL_FACE) }).waitFor();
  assert.equal(await page.locator('[data-testid=person-table] [data-testid=person-photo]').count(), 0, 'no photo for the refused face');
  const people = await everything<{ number: string; pic: string }>('/person/list');
  assert.deepEqual(
    people.filter((p) => !p.pic).map((p) => p.number),
    [String(SMALL_FACE)],
  );

  // nothing is lost on the terminals: every user each held, still there
  assert.deepEqual(
    [...zk!.users.keys()].map(Number).sort((a, b) => a - b),
    ZK_PINS,
  );
  assert.deepEqual(
    [...hik!.users.keys()].map(Number).sort((a, b) => a - b),
    HIK_PINS,
  );
  assert.equal(hik!.faces.size, I);
});

step('Re-upload punches on the Hikvision terminal for this month and the last: its log is stored, for the people it holds', async () => {
  await fetchPunches(HIK_SERIAL);
  await menuOf(page, tr('route.attendance'), tr('route.attendanceList'), 'punch-list-page');
  await chooseOption(page, page.getByTestId('punch-device-filter'), HIK_NAME);
  // the list reads itself again every 10 s while the terminal's pages of events come in
  await totalText(hikLog.length).waitFor({ timeout: 60_000 * SCALE });
  assert.equal(await page.locator('[data-testid=punch-table] .ant-table-row', { hasText: tr('punch.stranger') }).count(), 0, 'no stranger among them');
  // every one of them a person's (the page shows the newest; the list's answer counts them all)
  assert.equal((await api<{ total: number }>(page, 'GET', `/attendance/list?device_id=${hikId}&stranger=1&pageSize=1`)).total, 0);
  assert.equal(hik!.users.size, I);
});

step(`Attendance update for last month: the report shows every working day (${LAST_MONTH_WORKDAYS}) present for a ZK and a Hikvision worker`, async () => {
  await menuOf(page, tr('route.attendance'), tr('route.attendanceReport'), 'month-report-page');
  await typeDate(page.getByTestId('month-picker'), LAST_MONTH);
  await until('the report on last month', async () => (await inputOf(page.getByTestId('month-picker')).inputValue()) === LAST_MONTH);
  await page.getByTestId('att-update').click();
  const dialog = modalOf(page, tr('att.update.title'));
  await typeRange(dialog.getByTestId('att-update-range'), `${LAST_MONTH}-01`, LAST_MONTH_END);
  await dialog.getByTestId('att-update-start').click();
  const progress = dialog.getByTestId('att-update-progress');
  await progress.waitFor();
  await until('the update finished', async () => (await progress.getAttribute('data-percent')) === '100', 120_000 * SCALE);
  await toast(tr('att.update.done')).first().waitFor();
  await dialog.getByRole('button', { name: tr('common.actions.cancel') }).click();
  await dialog.waitFor({ state: 'hidden' });

  const days = Number(LAST_MONTH_END.slice(8, 10));
  for (const pin of [ZK_WORKER, HIK_WORKER]) {
    const name = nameOf(pin);
    const keyword = inputOf(page.getByTestId('month-keyword'));
    await keyword.fill(name);
    await keyword.press('Enter');
    const row = page.getByTestId('month-table').locator('tbody tr', { hasText: name });
    await until(
      `${name} in the report`,
      async () => (await page.getByTestId('month-table').locator('tbody tr.ant-table-row').count()) === 1 && (await row.count()) === 1,
    );
    // number, name, department, one cell per day of the month, working days, present days, …
    const cells = await row.locator('td').allInnerTexts();
    assert.equal(Number(cells[3 + days]), LAST_MONTH_WORKDAYS, `${name}'s working days: ${cells.join(' | ')}`);
    assert.equal(Number(cells[4 + days]), LAST_MONTH_WORKDAYS, `${name}'s present days: ${cells.join(' | ')}`);
    assert.equal(await row.locator('[data-testid=month-grid-cell][data-status=normal]').count(), LAST_MONTH_WORKDAYS, `${name}'s days on time`);
  }
  await journey.screenshot('month');
});

step('the strangers list no longer holds the numbers taken over: their punches are the people’s', async () => {
  await openPath(page, '/stranger');
  await page.getByTestId('stranger-page').waitFor();
  await page.getByText(tr('stranger.empty')).waitFor();
  assert.equal((await api<{ total: number }>(page, 'GET', '/stranger/list?pageSize=1')).total, 0);
  // the ZK log, every punch now a person's
  const punches = await api<{ total: number }>(page, 'GET', `/attendance/list?device_id=${zkId}&stranger=1&pageSize=1`);
  assert.equal(punches.total, 0);
  assert.equal((await api<{ total: number }>(page, 'GET', `/attendance/list?device_id=${zkId}&pageSize=1`)).total, P);
});

step('applying the whole site again makes no one new: no person created, the people and the terminals as they were', async () => {
  // the terminals have taken every record a link sent them (a link still on its way is counted as linked again)
  await until(
    'every record on the terminals',
    async () => {
      for (const id of [zkId, hikId]) if ((await everything<{ state: string }>(`/device/persons?id=${id}`)).some((r) => r.state !== 'synced')) return false;
      return true;
    },
    60_000 * SCALE,
  );
  await openDevices();
  await page.getByTestId('device-takeover').click();
  await waitForPath(page, '/device/takeover');
  await totalText(N).waitFor();
  const summary = `${tr('device.takeover.summary', { numbers: numbers(N), terminals: terminals(2), across: S, conflict: 0, split: 1, twin: 2 })} ${tr(
    'device.roster.counts',
    { matched: N, conflict: 0, byName: 0, new: 0 },
  )}`;
  await page.getByTestId('takeover-summary').getByText(summary).waitFor();
  await pickTreeOption(page, page.getByTestId('takeover-department'), DEPARTMENT);
  await chooseEveryRow();
  // every number is the same person now, offered as a link (nothing to write), the doubtful ones left as they are
  const counts = await applyChosen({ create: 0, link: N - 3, skip: 3 });
  // a link the terminals hold already writes nothing and is counted unchanged
  assert.equal(await counts.innerText(), tr('device.takeover.apply.result', { created: 0, linked: 0, skipped: 3, unchanged: N - 3 }));
  assert.equal(await page.getByTestId('roster-applied-rows').count(), 0);
  assert.equal((await api<{ total: number }>(page, 'GET', '/person/list?pageSize=1')).total, N);
  assert.equal((await api<{ total: number }>(page, 'GET', '/stranger/list?pageSize=1')).total, 0);
  assert.equal(zk!.users.size, Z);
  assert.equal(hik!.users.size, I);
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(journey.pageErrors, []);
});
