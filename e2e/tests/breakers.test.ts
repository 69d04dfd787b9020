// Browser journey of the smart circuit breakers (issue #12): the real server with its embedded MQTT broker, the
// built console, Debian Chromium and an emulated breaker (tools/breaker-emulator) speaking docs/breaker-protocol.md.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { freePort } from '../../apps/server/scripts/pg-cluster.ts';
import { until as untilOf } from '../../apps/server/test/terminals.ts';
import { EmulatedBreaker } from '../../tools/breaker-emulator/breaker.ts';
import { journeySteps, openJourney, shoot, type Journey } from '../lib/browser.ts';
import { menu as menuOf, modal as modalOf, openPath, signInAndCreateCompany, toast, translator, waitForPath as waitForPathOf } from '../lib/journey.ts';
import { api } from '../lib/api.ts';
import { loadLocale } from '../lib/locales.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const UUID = 'E2E-BRK-0001';
const ALIAS = 'Dormitory B';
/** The server's self-check length for this journey (BREAKER_SELF_CHECK_SECONDS; spec §9 says 10 s in production). */
const SELF_CHECK_S = 3;
const tr = translator(loadLocale('en-US'));

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let mqttPort: number;
let emu: EmulatedBreaker | undefined;
let password = '';
/** The emulated breaker's clock runs this far ahead (to reach a timer's minute without waiting for it). */
let shift = 0;

const waitForPath = (expected: string | RegExp) => waitForPathOf(page, expected);
const until = (what: string, check: () => boolean | Promise<boolean>) => untilOf(what, check, 20_000, 200);
const lineRow = (n: number) => page.locator('[data-testid=line-table] .ant-table-row').nth(n);
const lineSwitch = (n: number) => lineRow(n).getByTestId('line-switch');

before(async () => {
  mqttPort = await freePort();
  server = await startServer(ADMIN, { MQTT_PORT: String(mqttPort), MQTT_HOST: '127.0.0.1', BREAKER_SELF_CHECK_SECONDS: String(SELF_CHECK_S) });
  journey = await openJourney({ prefix: 'breakers-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await emu?.kill().catch(() => {});
  await server?.stop();
});

step('sign in, turn the alarm ring on, open the breaker list from the menu', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Acme Dorms Ltd', phone: '+8613800000012' });
  await openPath(page, '/company/update');
  await page.getByTestId('company-form').waitFor();
  await page.locator('#options_alarmRing').click();
  await page.getByTestId('company-submit').click();
  await toast(page, tr('common.saved')).first().waitFor();
  await menuOf(page, tr('route.circuitBreaker'), tr('route.circuitBreakerList'), 'breaker-list-page');
});

step('§5: uuid and sort are required; registering shows the MQTT password once with the connection facts', async () => {
  await page.getByTestId('breaker-create').click();
  const dialog = modalOf(page, tr('breaker.create'));
  await dialog.locator('#sort').fill('');
  await dialog.getByTestId('breaker-save').click();
  await dialog
    .locator('.ant-form-item-explain-error', { hasText: tr('common.validation.required') })
    .first()
    .waitFor();
  assert.equal(await dialog.locator('.ant-form-item-explain-error', { hasText: tr('common.validation.required') }).count(), 2, 'uuid and sort');
  await dialog.locator('#uuid').fill('BRK/1');
  await dialog.locator('.ant-form-item-explain-error', { hasText: tr('breaker.validation.uuid', { min: 4, max: 40 }) }).waitFor();
  await dialog.locator('#uuid').fill(UUID);
  await dialog.locator('#alias').fill(ALIAS);
  await dialog.locator('#sort').fill('1');
  await dialog.locator('#linenum').fill('2');
  await dialog.getByTestId('breaker-save').click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByTestId('breaker-password').waitFor();
  password = (await page.getByTestId('breaker-password').innerText()).trim();
  assert.match(password, /^\S{12,}$/);
  const text = await page.locator('.ant-modal', { has: page.getByTestId('breaker-password') }).innerText();
  for (const fact of ['127.0.0.1', UUID, `fa/${UUID}`, tr('breaker.password.once')]) assert.ok(text.includes(fact), fact);
  // the port the server's broker listens on (not a guess: this server runs it on a free port, not 1883)
  assert.equal((await page.getByTestId('breaker-port').innerText()).trim(), String(mqttPort));
  await journey.screenshot('password', false);
  await page.getByTestId('breaker-password-done').click();
  await page.getByTestId('breaker-password').waitFor({ state: 'detached' });
  const row = page.locator('[data-testid=breaker-table] .ant-table-row', { hasText: UUID });
  await row.locator('[data-testid=breaker-online][data-online="0"]').waitFor();
  assert.ok(!(await page.content()).includes(password), 'the password is gone once the dialog closes');
});

step('the breaker calls in: online with live power in the list', async () => {
  emu = new EmulatedBreaker({
    url: `mqtt://127.0.0.1:${mqttPort}`,
    uuid: UUID,
    password,
    lines: 2,
    reportMs: 300,
    tickMs: 200,
    reconnectMs: 500,
    now: () => Date.now() + shift,
    baseLoadW: [800, 400],
  });
  await emu.start();
  const row = page.locator('[data-testid=breaker-table] .ant-table-row', { hasText: UUID });
  await row.locator('[data-testid=breaker-online][data-online="1"]').waitFor({ timeout: 20_000 });
  await until('the list shows power', async () => /\d+(\.\d+)? k?W/.test(await row.getByTestId('breaker-power').innerText()));
  // search
  await page.getByTestId('breaker-keyword').locator('input').fill('nothing-like-it');
  await page.getByTestId('breaker-keyword').locator('input').press('Enter');
  await row.waitFor({ state: 'detached' });
  await page.getByTestId('breaker-keyword').locator('input').fill('Dormitory');
  await page.getByTestId('breaker-keyword').locator('input').press('Enter');
  await row.waitFor();
  await journey.screenshot('list');
});

step('the device detail follows the breaker live (server-sent events): lines with power, voltage and switch state', async () => {
  await page.locator('[data-testid=breaker-table] .ant-table-row', { hasText: UUID }).getByTestId('breaker-open').click();
  await waitForPath(/^\/circuitBreaker\/\d+$/);
  await page.getByTestId('breaker-detail-page').waitFor();
  await page.locator('[data-testid=breaker-live]', { hasText: tr('breaker.live.on') }).waitFor();
  await page.locator('[data-testid=breaker-online][data-online="1"]').waitFor();
  assert.equal(await page.locator('[data-testid=line-table] .ant-table-row').count(), 2);
  await until('line 1 shows power', async () => /^[1-9]\d* W$/.test(await lineRow(0).getByTestId('line-power').innerText()));
  // A figure the breaker reports is on the page without a reload: the emulator's next report changes the power.
  const before = await lineRow(0).getByTestId('line-power').innerText();
  emu!.lines[0]!.baseW = 1500;
  await until('the new power arrives', async () => (await lineRow(0).getByTestId('line-power').innerText()) !== before);
  assert.equal(await lineSwitch(0).getAttribute('data-oc'), '1');
  await journey.screenshot('detail');
});

step('switching line 1 off asks first, naming the line and the breaker; Cancel leaves it on; confirmed, the breaker switches it off, then on', async () => {
  const confirm = page.locator('.ant-modal-confirm', { hasText: tr('breaker.powerOff.title', { line: 'L1', breaker: ALIAS }) });
  await lineSwitch(0).click();
  await confirm.waitFor();
  assert.ok((await confirm.innerText()).includes(tr('breaker.powerOff.content')));
  await page.waitForTimeout(400); // the dialog zooms in: only for the picture
  await journey.screenshot('switch-off-confirm', false);
  await confirm.getByTestId('power-off-cancel').click();
  await confirm.waitFor({ state: 'detached' });
  await page.waitForTimeout(500);
  assert.equal(emu!.lines[0]!.on, true, 'cancelled: the breaker was not told anything');
  assert.equal(await lineSwitch(0).getAttribute('data-oc'), '1');
  await lineSwitch(0).click();
  await confirm.waitFor();
  await confirm.getByTestId('power-off-ok').click();
  await toast(page, 'The breaker confirmed: the line is off').waitFor();
  assert.equal(emu!.lines[0]!.on, false);
  await lineRow(0).locator('[data-testid=line-switch][data-oc="0"]').waitFor();
  // switching on cuts nothing: no question
  await lineSwitch(0).click();
  await toast(page, 'The breaker confirmed: the line is on').waitFor();
  assert.equal(emu!.lines[0]!.on, true);
  await lineRow(0).locator('[data-testid=line-switch][data-oc="1"]').waitFor();
  assert.equal(await page.locator('.ant-modal-confirm').count(), 0);
});

step('self-check asks first (spec §9), naming the configured length, then the line drops for it and comes back; the check passes', async () => {
  await lineRow(1).getByTestId('line-selfcheck-run').click();
  const confirm = page.locator('.ant-modal-confirm', { hasText: tr('breaker.selfCheck.confirm', { count: SELF_CHECK_S }) });
  await confirm.waitFor();
  await page.getByTestId('selfcheck-ok').click();
  await lineRow(1).locator('[data-testid=line-switch][data-oc="0"]').waitFor();
  await lineRow(1).locator('[data-testid=line-selfcheck][data-state="running"]').waitFor();
  await journey.screenshot('selfcheck-running', false);
  await lineRow(1).locator('[data-testid=line-selfcheck][data-state="passed"]').waitFor({ timeout: 20_000 });
  await lineRow(1).locator('[data-testid=line-switch][data-oc="1"]').waitFor();
  assert.equal(emu!.lines[1]!.on, true);
});

/** HH:mm two minutes ahead in the breaker's zone (the server set it to the company's). */
function twoMinutesAhead(): { time: string; at: number } {
  const at = Date.now() + 2 * 60_000;
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: emu!.tz, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return { time: `${p.hour}:${p.minute}`, at };
}

step(
  'a weekly timer switching line 2 off asks first (naming the line and the breaker), is written to the breaker, and the breaker runs it at its minute',
  async () => {
    await page.getByTestId('timer-create').click();
    const dialog = modalOf(page, tr('breaker.timer.create'));
    // every day of the week, so the journey runs whatever the day
    for (const d of ['d6', 'd0'])
      await dialog
        .getByTestId('timer-weekdays')
        .getByText(tr(`breaker.weekdays.${d}`), { exact: true })
        .click();
    const { time, at } = twoMinutesAhead();
    const input = dialog.locator('#time');
    await input.click();
    await input.fill(time);
    await input.press('Enter');
    await dialog.getByTestId('timer-lines').getByText('L1', { exact: true }).first().click();
    await dialog.getByTestId('timer-action').getByText(tr('breaker.timer.actions.off'), { exact: true }).click();
    await dialog.getByTestId('timer-save').click();
    const confirm = page.locator('.ant-modal-confirm', { hasText: tr('breaker.powerOff.timerTitle', { line: 'L2', breaker: ALIAS }) });
    await confirm.waitFor();
    await confirm.getByTestId('power-off-ok').click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.locator('[data-testid=timer-table] .ant-table-row', { hasText: time });
    await row.locator('[data-testid=timer-sync][data-sync="synced"]').waitFor();
    assert.equal(emu!.jobs.size, 1);
    const job = [...emu!.jobs.values()][0]!;
    // every weekday as picked (the live updates arriving meanwhile must not reset the dialog)
    assert.match(job.timespec, / 0,1,2,3,4,5,6$/);
    assert.deepEqual(
      job.calls.map((c) => [c.params.id, c.params.on]),
      [[1, false]],
    );
    await journey.screenshot('timer', false);
    // The breaker's clock reaches the timer's minute: it switches line 2 off by itself; the page follows.
    shift = Math.floor(at / 60_000) * 60_000 + 1000 - Date.now();
    emu!.tick();
    assert.equal(emu!.lines[1]!.on, false);
    await lineRow(1).locator('[data-testid=line-switch][data-oc="0"]').waitFor();
    shift = 0;
  },
);

step('an overcurrent trips line 1: the alarm shows on the line, in the history and in the bell, and rings', async () => {
  // a gesture first: browsers only start audio after one (the ring is counted either way)
  await page.getByTestId('breaker-title').click();
  const unread = async () => Number(await page.getByTestId('message-bell').getAttribute('data-unread'));
  const unreadBefore = await unread();
  emu!.fault(0, 'overcurrent', 60_000);
  await lineRow(0).locator('[data-testid=line-alarm][data-alarm="overcurrent"]').waitFor();
  await page.locator('[data-testid=alarm-table] [data-testid=alarm-type][data-alarm="overcurrent"]').first().waitFor({ timeout: 30_000 });
  // The bell polls every 20 s (spec §9): its count and the ring follow within one poll. (The badge may already show
  // earlier messages: the count has to rise.)
  await untilOf('the bell counts the alarm', async () => (await unread()) > unreadBefore, 45_000, 200);
  await page.locator('[data-testid=message-bell]').locator('xpath=ancestor::*[contains(@class,"ant-badge")]').locator('.ant-badge-count').waitFor();
  await until('the alarm rang', async () => (await page.evaluate(() => (window as unknown as { __faBreakerRings?: number }).__faBreakerRings ?? 0)) >= 1);
  await journey.screenshot('alarm');
  await page.getByTestId('message-bell').click();
  await waitForPath('/message/message');
  await page.getByText(`${ALIAS}: overcurrent on L1`).first().waitFor();
  await page.goBack();
  await page.getByTestId('breaker-detail-page').waitFor();
});

step('line detail: §5 name and limits required; limits are written to the breaker; energy chart', async () => {
  await lineRow(0).getByTestId('line-open').click();
  await waitForPath(/^\/circuitBreakerLine\/\d+$/);
  await page.getByTestId('line-detail-page').waitFor();
  await page
    .getByTestId('energy-chart')
    .getByText(tr('breaker.chart.total', { kwh: 'X' }).split('X')[0]!)
    .waitFor();
  const card = page.getByTestId('limits-card');
  await card.locator('#title').fill('');
  await card.locator('#mxgg').fill('');
  await card.getByTestId('limits-save').click();
  await card
    .locator('.ant-form-item-explain-error', { hasText: tr('common.validation.required') })
    .nth(1)
    .waitFor();
  await card.locator('#title').fill('Room 301 sockets');
  await card.locator('#mxgg').fill('2200');
  await card.locator('#amps').fill('10');
  await card.getByTestId('limits-save').click();
  await toast(page, tr('breaker.limits.written')).waitFor();
  assert.equal(emu!.lines[0]!.powerLimit, 2200);
  assert.equal(emu!.lines[0]!.currentLimit, 10);
  await page.locator('[data-testid=line-title]', { hasText: 'Room 301 sockets' }).waitFor();
  await journey.screenshot('line');
});

step(
  'sub-admins: the breaker right reads without the write controls; without it (and without face-device view) no breaker menu and no map, and the paths lead to 404',
  async () => {
    for (const [username, rights] of [
      ['breakerview', ['breaker']],
      ['attonly', ['attendance']],
    ] as const)
      await api(page, 'POST', '/manager/create', { name: username, username, password: 'secret1', repassword: 'secret1', rights, role: 'sub' });
    const as = async (username: string) => {
      const ctx = await journey.browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
      const p = await ctx.newPage();
      await p.goto(`${server.baseUrl}/login`);
      await p.locator('#username').fill(username);
      await p.locator('#password').fill('secret1');
      await p.getByTestId('login-submit').click();
      await p.waitForURL((u) => u.pathname !== '/login');
      await p.goto(`${server.baseUrl}/circuitBreaker/index`);
      return { p, ctx };
    };
    const viewer = await as('breakerview');
    await viewer.p.locator('[data-testid=breaker-table] .ant-table-row', { hasText: UUID }).waitFor();
    assert.equal(await viewer.p.getByTestId('breaker-create').count(), 0, 'no add button without face-device edit');
    await viewer.p.getByTestId('breaker-open').first().click();
    await viewer.p.locator('[data-testid=breaker-live]', { hasText: tr('breaker.live.on') }).waitFor();
    assert.equal(await viewer.p.locator('[data-testid=line-switch].ant-switch-disabled').count(), 2, 'switches are read-only');
    assert.equal(await viewer.p.getByTestId('timer-create').count(), 0);
    await viewer.ctx.close();
    const outsider = await as('attonly');
    await outsider.p.waitForURL((u) => u.pathname === '/404');
    await outsider.p.goto(`${server.baseUrl}/dashboard`);
    const sidebar = outsider.p.getByTestId('sidebar');
    await sidebar.getByText(tr('route.attendance'), { exact: true }).first().waitFor();
    assert.equal(await sidebar.getByText(tr('route.circuitBreaker'), { exact: true }).count(), 0, 'no breaker menu');
    assert.equal(await sidebar.getByText(tr('route.map'), { exact: true }).count(), 0, 'no map');
    await outsider.p.goto(`${server.baseUrl}/map`);
    await outsider.p.waitForURL((u) => u.pathname === '/404');
    assert.equal(await outsider.p.getByText('No authority').count(), 0);
    await shoot(outsider.p, 'breakers-refused');
    await outsider.ctx.close();
  },
);

step('the power chart draws the readings of the last minutes (not yet folded by the minute job)', async () => {
  await page.getByRole('button', { name: tr('breaker.line.back') }).click();
  await page.getByTestId('breaker-detail-page').waitFor();
  await page.getByTestId('power-chart').locator('canvas').first().waitFor({ timeout: 20_000 });
  assert.equal(await page.getByTestId('power-empty').count(), 0);
  // a month's energy per line (issue #18): bars for the month, the month picker and the month's total
  const energy = page.getByTestId('line-energy-chart');
  await energy.locator('canvas').first().waitFor({ timeout: 20_000 });
  await energy.getByTestId('line-energy-month').waitFor();
  await energy.getByText(tr('breaker.chart.byLineTotal', { kwh: 'X' }).split('X')[0]!).waitFor();
  await page.waitForTimeout(1500); // the series animates in: only for the picture
  await journey.screenshot('detail-chart');
});

step("the breaker drops off: the page shows it offline at once and a switch is refused with the server's message", async () => {
  await emu!.kill();
  await page.locator('[data-testid=breaker-online][data-online="0"]').waitFor();
  await page.getByText(tr('breaker.offlineHint')).waitFor();
  await lineSwitch(1).click();
  await toast(page, `${ALIAS} is offline: the command was not sent`).waitFor();
  await lineRow(1).locator('[data-testid=line-switch][data-oc="0"]').waitFor();
  await journey.screenshot('offline', false);
});

step('on a 390 px phone the detail, the line and the list pages stay usable (cards, no sideways scrolling)', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  const noOverflow = async (what: string) => {
    const w = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(w <= 392, `${what}: the page is ${w} px wide`);
  };
  await page.locator('[data-testid=line-table] .fa-row-card').first().waitFor();
  await noOverflow('detail');
  await journey.screenshot('mobile-detail');
  await page.locator('[data-testid=line-table] .fa-row-card').first().getByTestId('line-open').click();
  await page.getByTestId('line-detail-page').waitFor();
  await noOverflow('line');
  await journey.screenshot('mobile-line');
  await page.getByRole('button', { name: tr('breaker.line.back') }).click();
  await page.getByTestId('breaker-detail-page').waitFor();
  await page.getByRole('button', { name: tr('breaker.back') }).click();
  await page.locator('[data-testid=breaker-table] .fa-row-card', { hasText: UUID }).waitFor();
  await noOverflow('list');
  await journey.screenshot('mobile-list');
  assert.deepEqual(journey.pageErrors, []);
});
