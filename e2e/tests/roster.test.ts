// Browser journey of issue #30 "take over a working site", its first screen: a ZK terminal in service before this
// server (tools/zk-emulator/site.ts: 12 users with enrolment faces) is read from the device list's More menu, and its
// users are shown beside the company's people. Reading changes nothing on either side; applying the chosen rows
// makes the new users people of a department and links the person already here, the terminal keeping its users.
// Then a second terminal holding some of the same numbers (one under another name) joins, and the whole site is
// reviewed and applied at once (/device/takeover): a number both terminals hold becomes one person.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { seedSite, type SiteUser } from '../../tools/zk-emulator/site.ts';
import { createTerminal, type Terminal } from '../../tools/zk-emulator/terminal.ts';
import { api } from '../lib/api.ts';
import { axeViolations } from '../lib/axe.ts';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { facePhoto, smallFacePhoto } from '../lib/faces.ts';
import { menu as menuOf, pickTreeOption, signInAndCreateCompany, translator, waitForPath as waitForPathOf } from '../lib/journey.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const SERIAL = 'E2EROSTER01';
const DEVICE = 'Old front door';
const TAKEN_OVER = 'Taken over';
const EN = loadLocale('en-US');
const tr = translator(EN);
const site = seedSite({ users: 12, punches: 0, seed: 3 });
const known = site.users[0]!;
// left on the terminal by its own choice when applying, then removed from it
const leftUser = site.users[11]!;
// The second terminal of the site (the back gate): the known person's colleague, one number held by both terminals
// alike (its face larger at the gate: the one a new person takes), one the terminals hold under different names, and
// two numbers of its own under one name (the second's face too small for the face check). The first two extra numbers
// are put on the front door too, as if enrolled there long ago.
const SERIAL2 = 'E2EROSTER02';
const DEVICE2 = 'Old back gate';
const extra = seedSite({ users: 4, punches: 0, seed: 5, firstPin: 101 }).users as [SiteUser, SiteUser, SiteUser, SiteUser];
const shared: SiteUser = { ...extra[0], name: 'Quinn Shared' };
const split: SiteUser = { ...extra[1], name: 'Rosa Split' };
const twin1: SiteUser = { ...extra[2], name: 'Tao Twin' };
const twin2: SiteUser = { ...extra[3], name: 'Tao Twin' };
const colleague = site.users[1]!;
// a larger JPEG of the same picture: bytes before its end marker
const larger = (face: Buffer) => Buffer.concat([face.subarray(0, face.length - 2), Buffer.alloc(4096), face.subarray(face.length - 2)]);
const backGate = {
  users: [colleague, { ...shared, face: larger(shared.face!) }, { ...split, name: 'Rosa Splitt' }, twin1, twin2],
  punches: [],
};

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let terminal: Terminal | undefined;
let terminal2: Terminal | undefined;
let deviceId: number;

/** An option of the select box open now. */
const option = (text: string) => page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text });
const rosterRows = () => page.locator('[data-testid=roster-table] .ant-table-row');
const rosterRow = (pin: string) => page.locator('[data-testid=roster-table] .ant-table-row', { has: page.getByRole('cell', { name: pin, exact: true }) });

/** The page's card passes axe's WCAG 2.1 AA rules (the shell around it is not this journey's subject). */
async function accessible(what: string, card = '[data-testid=device-roster-page]') {
  // At rest: the pointer off the button it last clicked (antd's hover colour of the default theme, #40a9ff, is 2.5:1
  // on white, a finding for the theme, not for this page).
  await page.mouse.move(0, 0);
  const found = await axeViolations(page, card);
  assert.deepEqual(found, [], `${what}: ${JSON.stringify(found, null, 2)}`);
}

before(async () => {
  server = await startServer(ADMIN, { DEVICE_POLL_SECONDS: '1' });
  journey = await openJourney({ prefix: 'roster-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await terminal?.stop();
  await terminal2?.stop();
  await server?.stop();
});

step('a company with one person (the same number and name as a user on the terminal) and the terminal, online', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Take-over Ltd', phone: '+8613800000030' });
  const dept = await api<{ id: number }>(page, 'POST', '/org/create', { name: 'Staff', parent_id: 0 });
  // where the terminal's new users go when the take-over is applied
  await api(page, 'POST', '/org/create', { name: TAKEN_OVER, parent_id: 0 });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await facePhoto(known.name, 200))], { type: 'image/jpeg' }), 'known.jpg');
  const { pic } = await api<{ pic: string }>(page, 'POST', '/person/upload', form);
  await api(page, 'POST', '/person/create', { number: known.pin, name: known.name, phone: '13800000030', organizations: [dept.id], pic });
  deviceId = (await api<{ id: number }>(page, 'POST', '/device/create', { name: DEVICE, serial: SERIAL, ip: '192.168.7.30', password: '123456' })).id;
  terminal = createTerminal({ server: server.baseUrl, sn: SERIAL, pollMs: 500, retryMs: 1000, ip: '192.168.7.30', site });
  await terminal.start();

  await menuOf(page, tr('route.device'), tr('route.deviceList'), 'device-list-page');
  const row = page.locator('[data-testid=device-table] .ant-table-row', { hasText: SERIAL });
  await row.locator('[data-testid=device-online][data-online="1"]').waitFor({ timeout: 20_000 });
  // the terminal's own count of its users comes with its first poll (INFO)
  await row.locator('[data-testid=device-users][data-read="1"]').waitFor({ timeout: 20_000 });
});

step('More → Take over opens the roster page, which says that reading changes nothing', async () => {
  const row = page.locator('[data-testid=device-table] .ant-table-row', { hasText: SERIAL });
  await row.getByTestId('device-more').click();
  await page.getByRole('menuitem', { name: tr('device.actions.takeOver') }).click();
  await waitForPathOf(page, `/device/roster/${deviceId}`);
  await page.getByTestId('device-roster-page').waitFor();
  await page.getByTestId('roster-intro').getByText(tr('device.roster.intro')).waitFor();
  await page.getByTestId('device-header').getByText(DEVICE).waitFor();
  await page.getByText(tr('device.roster.empty')).waitFor();
  // the whole site's review is a link away
  assert.equal(await page.getByTestId('roster-site-link').getAttribute('href'), '/device/takeover');
});

step('Read the terminal: 12 rows with faces, the known person matched, the rest new', async () => {
  await page.getByTestId('roster-read').click();
  // progress while the read runs, then the outcome
  await page.getByTestId('roster-done').waitFor({ timeout: 30_000 });
  const summary = tr('device.roster.summary', { count: 12, time: '\u0000' }).split('\u0000')[0]!;
  await page.getByTestId('roster-summary').getByText(summary).waitFor();
  // the whole roster counted by how each user stands
  await page
    .getByTestId('roster-summary')
    .getByText(tr('device.roster.counts', { matched: 1, conflict: 0, byName: 0, new: 11 }))
    .waitFor();
  await rosterRows().nth(11).waitFor();
  assert.equal(await rosterRows().count(), 12);
  const faces = page.locator('[data-testid=roster-table] [data-testid=roster-face]');
  await faces.nth(site.users.filter((u) => u.face).length - 1).waitFor({ timeout: 20_000 });
  assert.equal(await faces.count(), site.users.filter((u) => u.face).length);
  for (const img of await faces.all()) {
    // loaded, however long a busy machine takes, then a picture
    const loaded = await img.evaluate((el: HTMLImageElement) => {
      if (el.complete) return el.naturalWidth > 0;
      return new Promise<boolean>((done) => {
        el.addEventListener('load', () => done(el.naturalWidth > 0));
        el.addEventListener('error', () => done(false));
      });
    });
    assert.ok(loaded, 'the face is a picture');
    assert.match((await img.getAttribute('alt')) ?? '', /\S/);
  }

  const match = rosterRow(known.pin).getByTestId('roster-match');
  assert.equal(await match.getAttribute('data-match'), 'matched');
  assert.equal(await match.innerText(), tr('device.roster.match.matched'));
  const matches = await page
    .locator('[data-testid=roster-table] [data-testid=roster-match]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-match')));
  assert.deepEqual(
    matches.filter((m) => m === 'matched'),
    ['matched'],
  );
  assert.equal(matches.filter((m) => m === 'new').length, 11);
  await journey.screenshot('read');

  // nothing was changed by reading: the terminal keeps its 12 users, People has its one person
  assert.equal(terminal!.users.size, 12);
  assert.equal((await api<{ total: number }>(page, 'GET', '/person/list?pageSize=100')).total, 1);
  await accessible('the roster page, wide');
});

step(
  'Apply to all rows in a department, one left on the terminal by its own choice: 10 people created, the known one linked, the terminal keeps its 12 users',
  async () => {
    // the known person's row can only be linked or left; a new user's row created or left
    await rosterRow(leftUser.pin).getByTestId('roster-choice').click();
    await option(tr('device.roster.choice.skip')).click();
    await rosterRow(leftUser.pin).getByTestId('roster-choice').getByText(tr('device.roster.choice.skip')).waitFor();
    await rosterRow(known.pin)
      .getByTestId('roster-choice')
      .getByText(tr('device.roster.choice.link', { name: known.name }))
      .waitFor();
    const applyButton = page.getByTestId('roster-apply');
    assert.ok(await applyButton.isDisabled(), 'nothing chosen yet');
    await pickTreeOption(page, page.getByTestId('roster-department'), TAKEN_OVER);
    assert.ok(await applyButton.isDisabled(), 'no row chosen yet');
    await page.getByTestId('roster-select-page').check();
    await applyButton.getByText(tr('device.roster.apply.button', { count: 12 })).waitFor();
    await applyButton.click();

    const confirm = page.getByTestId('roster-apply-confirm');
    await confirm.getByText(tr('device.roster.apply.confirm', { create: 10, link: 1, skip: 1 })).waitFor();
    await confirm.getByText(tr('device.roster.unmanagedNote')).waitFor();
    await journey.screenshot('apply-confirm');
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: tr('device.roster.apply.ok') })
      .click();

    const counts = page.getByTestId('roster-applied-counts');
    await counts.waitFor({ timeout: 30_000 });
    assert.equal(await counts.innerText(), tr('device.roster.apply.result', { created: 10, linked: 1, skipped: 1, unchanged: 0 }));
    // the list is read again: every user but the one left is now a person here, managed
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=roster-table] [data-testid=roster-managed]').length === 11);
    assert.equal(await rosterRow(leftUser.pin).getByTestId('roster-match').getAttribute('data-match'), 'new');
    assert.equal(await rosterRow(leftUser.pin).getByTestId('roster-managed').count(), 0);
    assert.equal(
      await page
        .getByTestId('roster-apply')
        .getByText(tr('device.roster.apply.button', { count: 0 }))
        .count(),
      1,
      'the selection is cleared',
    );
    await journey.screenshot('applied');

    assert.equal((await api<{ total: number }>(page, 'GET', '/person/list?pageSize=50')).total, 11);
    assert.equal(terminal!.users.size, 12);
    await accessible('the roster page, applied');
  },
);

step('"On the terminal, not managed" lists the user left; removing it asks first, then the terminal no longer holds it', async () => {
  await page.getByTestId('roster-show').click();
  await option(tr('device.roster.show.unmanaged', { count: 1 })).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=roster-table] .ant-table-row').length === 1);
  const row = rosterRow(leftUser.pin);
  // managed users offer no removal (they leave a terminal through the ledger)
  await row.getByTestId(`roster-remove-${leftUser.pin}`).click();
  const dialog = page.locator('.ant-popconfirm');
  await dialog.getByText(tr('device.roster.remove.confirmTitle', { name: leftUser.name, device: DEVICE })).waitFor();
  await dialog.getByText(tr('device.roster.remove.confirm')).waitFor();
  await page.mouse.move(0, 0);
  assert.deepEqual(await axeViolations(page, '.ant-popconfirm'), [], 'the removal confirmation');
  await dialog.getByRole('button', { name: tr('device.roster.remove.ok') }).click();
  await page.getByText(tr('device.roster.remove.done')).waitFor();
  // the terminal confirms; the user leaves the list
  await page.getByText(tr('device.roster.emptyUnmanaged')).waitFor({ timeout: 20_000 });
  assert.equal(terminal!.users.has(leftUser.pin), false);
  assert.equal(terminal!.users.size, 11);
  await page.getByTestId('roster-show').click();
  await option(tr('device.roster.show.all', { count: 11 })).click();
  await rosterRows().nth(10).waitFor();
});

step('on a phone (390 px) the rows are cards and nothing overflows the screen', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.locator('[data-testid=roster-table] .fa-row-card').nth(10).waitFor();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `the page is ${wide} px wide`);
    await journey.screenshot('phone');
    await accessible('the roster page on a phone');
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
});

const siteRows = () => page.locator('[data-testid=takeover-table] .ant-table-row');
const siteRow = (pin: string) => page.locator('[data-testid=takeover-table] .ant-table-row', { has: page.getByRole('cell', { name: pin, exact: true }) });
const numbers = (count: number) => tr('device.takeover.count.numbers', { count });
const terminals = (count: number) => tr('device.takeover.count.terminals', { count });

step('a second terminal joins, sharing numbers with the first (one under another name); the device list offers taking over the site', async () => {
  terminal!.seed({ users: [shared, split], punches: [] });
  await api(page, 'POST', '/device/create', { name: DEVICE2, serial: SERIAL2, ip: '192.168.7.31', password: '123456' });
  backGate.users[4] = { ...twin2, face: await smallFacePhoto() };
  terminal2 = createTerminal({ server: server.baseUrl, sn: SERIAL2, pollMs: 500, retryMs: 1000, ip: '192.168.7.31', site: backGate });
  await terminal2.start();
  await menuOf(page, tr('route.device'), tr('route.deviceList'), 'device-list-page');
  const row = page.locator('[data-testid=device-table] .ant-table-row', { hasText: SERIAL2 });
  await row.locator('[data-testid=device-online][data-online="1"]').waitFor({ timeout: 20_000 });
  await page.getByTestId('device-takeover').getByText(tr('device.takeover.open')).click();
  await waitForPathOf(page, '/device/takeover');
  await page.getByTestId('device-takeover-page').waitFor();
  await page.getByTestId('takeover-intro').getByText(tr('device.takeover.intro')).waitFor();
});

step('Read every terminal: progress while the two answer, then one row a number with the terminals holding it, and the counts', async () => {
  // The progress is a status screen readers announce: how many of the two terminals answered, and the numbers read so
  // far. Both emulated terminals may answer within a second, so what it said is gathered as it is drawn.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    new MutationObserver(() => {
      const el = document.querySelector('[role=status][data-testid=takeover-progress]');
      if (el?.textContent && seen.at(-1) !== el.textContent) seen.push(el.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByTestId('takeover-read').click();
  await page
    .getByTestId('takeover-done')
    .getByText(tr('device.takeover.done', { terminals: terminals(2) }))
    .waitFor({ timeout: 30_000 });
  // 11 numbers left on the front door, 2 more put on it, 2 of the back gate's own: 15; 3 on both
  const summary = `${tr('device.takeover.summary', { numbers: numbers(15), terminals: terminals(2), across: 3, conflict: 0, split: 1, twin: 2 })} ${tr(
    'device.roster.counts',
    { matched: 11, conflict: 0, byName: 0, new: 4 },
  )}`;
  await page.getByTestId('takeover-summary').getByText(summary).waitFor({ timeout: 20_000 });
  // the face check has looked at every face read (one refused: the back gate's too small): which face is taken is settled
  await page
    .getByTestId('takeover-summary')
    .getByText(tr('device.roster.faceCounts', { faceRefused: 1, faceUnchecked: 0 }))
    .waitFor({ timeout: 60_000 });
  await siteRows().nth(14).waitFor();
  assert.equal(await siteRows().count(), 15);
  const progress = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
  assert.ok(progress.length > 0 && progress.every((text) => text.includes(terminals(2))), JSON.stringify(progress));

  // the shared number: on both terminals, the back gate's (larger) face taken, new here
  const one = siteRow(shared.pin);
  assert.deepEqual(
    (await one.getByTestId('takeover-terminal').allInnerTexts()).map((x) => x.trim()),
    [DEVICE, tr('device.takeover.faceFrom', { name: DEVICE2 })],
  );
  assert.equal(await one.locator('[data-testid=takeover-terminal][data-face="1"]').count(), 1);
  assert.equal(await one.getByTestId('roster-match').getAttribute('data-match'), 'new');
  assert.equal(await one.getByTestId('roster-face').count(), 1);
  // the split number says each terminal's name, and stays unless chosen; the two numbers under one name say so
  await siteRow(split.pin)
    .getByTestId('takeover-split')
    .getByText(tr('device.takeover.split', { names: `${DEVICE}: ${split.name} · ${DEVICE2}: Rosa Splitt` }))
    .waitFor();
  await siteRow(twin1.pin)
    .getByTestId('takeover-twins')
    .getByText(tr('device.takeover.twins', { numbers: twin2.pin }))
    .waitFor();
  // the face check's verdict on a face too small, in the server's words (it checks the faces after the read)
  await siteRow(twin2.pin)
    .getByTestId('roster-face-refused')
    .getByText(tr('device.roster.faceRefused', { reason: '' }).trim())
    .waitFor({ timeout: 60_000 });
  assert.equal(await siteRow(shared.pin).getByTestId('roster-face-refused').count(), 0, 'the shared face passes');
  await siteRow(split.pin).getByTestId('roster-choice').getByText(tr('device.takeover.choice.skip')).waitFor();
  await siteRow(twin2.pin).getByTestId('roster-choice').getByText(tr('device.takeover.choice.skip')).waitFor();
  await siteRow(shared.pin).getByTestId('roster-choice').getByText(tr('device.roster.choice.create')).waitFor();
  await siteRow(colleague.pin)
    .getByTestId('roster-choice')
    .getByText(tr('device.roster.choice.link', { name: colleague.name }))
    .waitFor();

  // the filter says how many each way; on several terminals: the three shared numbers
  await page.getByTestId('takeover-show').click();
  await option(tr('device.takeover.show.conflicts', { count: 3 })).waitFor();
  await option(tr('device.takeover.show.all', { count: 15 })).waitFor();
  await option(tr('device.takeover.show.across', { count: 3 })).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=takeover-table] .ant-table-row').length === 3);
  await page.getByTestId('takeover-show').click();
  await option(tr('device.takeover.show.all', { count: 15 })).click();
  await siteRows().nth(14).waitFor();
  await journey.screenshot('site-read');
  await accessible('the site page, wide', '[data-testid=device-takeover-page]');
});

step('Apply the site to every row in a department: the shared number becomes one person, on both terminals, which keep their users', async () => {
  const before = (await api<{ total: number }>(page, 'GET', '/person/list?pageSize=100')).total;
  await pickTreeOption(page, page.getByTestId('takeover-department'), TAKEN_OVER);
  await page.getByTestId('takeover-select-page').check();
  const applyButton = page.getByTestId('takeover-apply');
  await applyButton.getByText(tr('device.roster.apply.button', { count: 15 })).waitFor();
  await applyButton.click();
  const confirm = page.getByTestId('roster-apply-confirm');
  await confirm.getByText(tr('device.takeover.apply.confirm', { create: 1, link: 11, skip: 3 })).waitFor();
  await confirm.getByText(tr('device.takeover.unmanagedNote')).waitFor();
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: tr('device.roster.apply.ok') })
    .click();

  const counts = page.getByTestId('device-takeover-page').getByTestId('roster-applied-counts');
  await counts.waitFor({ timeout: 30_000 });
  // one person created; of the eleven already here, the colleague linked on the back gate, the ten the front door holds
  // only (taken over there before) unchanged: the server counts a number once
  assert.equal(await counts.innerText(), tr('device.takeover.apply.result', { created: 1, linked: 1, skipped: 3, unchanged: 10 }));
  await siteRow(shared.pin).getByTestId('roster-managed').waitFor({ timeout: 20_000 });
  assert.equal(await siteRow(shared.pin).getByTestId('roster-match').getAttribute('data-match'), 'matched');
  await journey.screenshot('site-applied');

  const people = await api<{ total: number; items: { id: number; number: string }[] }>(page, 'GET', '/person/list?pageSize=100');
  assert.equal(people.total, before + 1);
  assert.equal(people.items.filter((p) => p.number === shared.pin).length, 1, 'one person for the shared number');
  for (const id of [deviceId, (await api<{ id: number; name: string }[]>(page, 'GET', '/device/names')).find((d) => d.name === DEVICE2)!.id]) {
    const held = await api<{ items: { number: string }[] }>(page, 'GET', `/device/persons?id=${id}&pageSize=100`);
    assert.ok(
      held.items.some((x) => x.number === shared.pin),
      `the shared number is managed on device ${id}`,
    );
  }
  assert.equal(terminal!.users.size, 13);
  assert.equal(terminal2!.users.size, 5);
  await accessible('the site page, applied', '[data-testid=device-takeover-page]');
});

step('the site page on a phone (390 px): cards, nothing overflows the screen', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.locator('[data-testid=takeover-table] .fa-row-card').nth(14).waitFor();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `the page is ${wide} px wide`);
    await journey.screenshot('site-phone');
    await accessible('the site page on a phone', '[data-testid=device-takeover-page]');
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(journey.pageErrors, []);
});
