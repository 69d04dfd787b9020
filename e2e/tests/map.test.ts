// Browser journey of the device map (issue #16 /map): the real server and the built console in Debian Chromium. A
// site gets its own floor plan (an image made here, no internet tiles), a device and a breaker are dragged onto it,
// a marker is moved and opened, markers' names never cover each other, and the page is read at phone width (the list
// below the map).
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { SiteDetail } from '@faceadmin/shared';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { menu, modal as modalOf, signInAndCreateCompany, toast, translator } from '../lib/journey.ts';
import { api, callApi } from '../lib/api.ts';
import { loadLocale } from '../lib/locales.ts';
import { ROOT, startServer, type RunningServer } from '../lib/server.ts';

// sharp is the server's dependency: the journey borrows it to draw a floor plan.
const sharp = createRequire(path.join(ROOT, 'apps', 'server', 'package.json'))('sharp') as (input: Buffer) => { png(): { toBuffer(): Promise<Buffer> } };

const ADMIN = { username: 'admin', password: 'Admin-pass-1' };
const tr = translator(loadLocale('en-US'));
const PLAN = { width: 1200, height: 800 };

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;
let siteId = 0;

const site = () => api<SiteDetail>(page, 'GET', `/site/info?id=${siteId}`);
const floorPlan = () =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${PLAN.width}" height="${PLAN.height}"><rect width="100%" height="100%" fill="#fff"/>` +
        `<rect x="20" y="20" width="${PLAN.width - 40}" height="${PLAN.height - 40}" fill="none" stroke="#444" stroke-width="6"/></svg>`,
    ),
  )
    .png()
    .toBuffer();

before(async () => {
  server = await startServer(ADMIN);
  journey = await openJourney({ prefix: 'map-', viewport: { width: 1440, height: 900 } });
  page = journey.page;
});
after(async () => {
  await journey?.close();
  await server?.stop();
});

step('sign in, add a device and a breaker, open the device map from the menu: no sites yet', async () => {
  await signInAndCreateCompany(page, server.baseUrl, ADMIN, { name: 'Map Works Ltd', phone: '+8613800000016' });
  await api(page, 'POST', '/device/create', { name: 'Front gate', serial: 'E2EMAP01', ip: '192.168.1.30', password: 'dev-secret' });
  await api(page, 'POST', '/breaker/create', { alias: 'Lobby power', uuid: 'E2E-MAP-BRK1', sort: 1 });
  await menu(page, '', tr('route.map'), 'map-page');
  await page.getByText(tr('map.noSites')).waitFor();
});

step('create a site, upload its floor plan: the plan is drawn at its size, everything is unplaced', async () => {
  await page.getByTestId('site-create').click();
  const dialog = modalOf(page, tr('map.createSite'));
  await dialog.getByTestId('site-tile-url').fill('https://tiles.example.com/{z}/{x}.png');
  await dialog.getByTestId('site-name').fill('Head office');
  await dialog.getByTestId('site-save').click();
  await dialog.getByText(tr('map.tileUrlInvalid')).waitFor();
  await dialog.getByTestId('site-tile-url').fill('');
  await dialog.getByTestId('site-save').click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByTestId('site-tab').filter({ hasText: 'Head office' }).waitFor();
  siteId = Number(new URL(page.url()).searchParams.get('site'));
  assert.ok(siteId > 0);
  await page.getByText(tr('map.noPlan')).waitFor();
  await page.locator('input[type=file]').setInputFiles({ name: 'office.png', mimeType: 'image/png', buffer: await floorPlan() });
  await toast(page, tr('map.planUploaded')).waitFor();
  await page.locator('.fa-map-canvas .leaflet-image-layer').waitFor();
  await page.getByText(tr('map.planSize', { width: PLAN.width, height: PLAN.height })).waitFor();
  assert.equal(await page.getByTestId('map-unplaced').count(), 2);
  assert.equal(await page.getByTestId('map-placed').count(), 0);
});

/**
 * What the markers' names cover: another name, another marker, or the map's edge (a name with no room is hidden and
 * shows on hover, so it covers nothing).
 */
const labelClashes = () =>
  page.evaluate(() => {
    const frame = document.querySelector('[data-testid=site-map]')!.getBoundingClientRect();
    const pins = Array.from(document.querySelectorAll<HTMLElement>('.fa-map-pin')).map((pin) => ({
      name: pin.querySelector<HTMLElement>('.fa-map-label')!,
      dot: pin.querySelector<HTMLElement>('.fa-map-dot')!.getBoundingClientRect(),
    }));
    const hit = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const out: string[] = [];
    for (const [i, p] of pins.entries()) {
      if (getComputedStyle(p.name).visibility === 'hidden') continue;
      const r = p.name.getBoundingClientRect();
      if (r.left < frame.left || r.right > frame.right) out.push(`${p.name.innerText}: past the map's edge`);
      for (const [j, q] of pins.entries()) {
        if (j === i) continue;
        if (hit(r, q.dot)) out.push(`${p.name.innerText} covers the marker of ${q.name.innerText}`);
        if (j > i && getComputedStyle(q.name).visibility !== 'hidden' && hit(r, q.name.getBoundingClientRect()))
          out.push(`${p.name.innerText} and ${q.name.innerText} overlap`);
      }
    }
    return out;
  });

step('drag the device and the breaker onto the plan: they are saved where they fell', async () => {
  const map = page.getByTestId('site-map');
  const box = (await map.boundingBox())!;
  await page
    .getByTestId('map-unplaced')
    .filter({ hasText: 'Front gate' })
    .dragTo(map, { targetPosition: { x: box.width / 2, y: box.height / 2 } });
  await page.getByTestId('map-placed').filter({ hasText: 'Front gate' }).waitFor();
  await page
    .getByTestId('map-unplaced')
    .filter({ hasText: 'Lobby power' })
    .dragTo(map, { targetPosition: { x: box.width / 2 + 70, y: box.height / 2 + 8 } });
  await page.getByTestId('map-placed').filter({ hasText: 'Lobby power' }).waitFor();
  assert.equal(await page.locator('.fa-map-pin').count(), 2);
  // the breaker sits where the device's name was written: the name moves to the device's left, covering nothing
  await page.locator('.fa-map-label--left', { hasText: 'Front gate' }).waitFor();
  assert.deepEqual(await labelClashes(), []);
  const s = await site();
  const gate = s.placements.find((p) => p.name === 'Front gate')!;
  const lobby = s.placements.find((p) => p.name === 'Lobby power')!;
  // The plan is fitted into the view, so the middle of the view is the middle of the plan.
  assert.ok(Math.abs(gate.x - PLAN.width / 2) < 3 && Math.abs(gate.y - PLAN.height / 2) < 3, `${gate.x},${gate.y}`);
  assert.ok(lobby.x > gate.x && lobby.y > gate.y, 'right of and below the device');
  assert.equal(gate.state, 'offline');
  assert.ok(await page.locator('.fa-map-dot--device.fa-map-dot--offline').isVisible(), 'an offline device is grey');
});

step('drag a marker to move it; open it: name, state, last seen and a link to its page', async () => {
  const before = (await site()).placements.find((p) => p.name === 'Lobby power')!;
  const pin = page.locator('.fa-map-pin', { has: page.locator('.fa-map-dot--breaker') });
  const b = (await pin.boundingBox())!;
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2 - 150, b.y + b.height / 2 - 100, { steps: 10 });
  await page.mouse.up();
  let moved = before;
  for (let i = 0; i < 50 && moved.x === before.x; i++) {
    await page.waitForTimeout(100);
    moved = (await site()).placements.find((p) => p.name === 'Lobby power')!;
  }
  assert.ok(moved.x < before.x && moved.y < before.y, `moved from ${before.x},${before.y} to ${moved.x},${moved.y}`);
  await pin.click();
  const popup = page.getByTestId('map-popup');
  await popup.getByText('Lobby power').waitFor();
  await popup.getByText(tr('map.states.offline')).waitFor();
  await popup.getByText(`${tr('map.lastSeen')}: ${tr('map.never')}`).waitFor();
  assert.match((await popup.getByTestId('map-open').getAttribute('href')) ?? '', /^\/circuitBreaker\/\d+$/);
  await journey.screenshot('placed', false);
});

step('remove the breaker from the map: it is back in the unplaced list', async () => {
  await page.getByTestId('map-popup').getByTestId('map-unplace').click();
  await toast(page, tr('map.removed')).waitFor();
  await page.getByTestId('map-unplaced').filter({ hasText: 'Lobby power' }).waitFor();
  assert.equal(await page.locator('.fa-map-pin').count(), 1);
});

step('at phone width the list sits below the map; a tap places an item in the middle of the view', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  const map = (await page.getByTestId('site-map').boundingBox())!;
  const list = (await page.getByTestId('map-unplaced').first().boundingBox())!;
  assert.ok(list.y > map.y + map.height, 'the list is below the map');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 1, `no sideways scrolling (${overflow}px)`);
  await page
    .getByTestId('map-unplaced')
    .filter({ hasText: 'Lobby power' })
    .getByRole('button', { name: tr('map.placeHere') })
    .click();
  await page.getByTestId('map-placed').filter({ hasText: 'Lobby power' }).waitFor();
  // both in the middle of a narrow map: still no name covers another or runs off the map
  assert.deepEqual(await labelClashes(), []);
  await journey.screenshot('phone');
  await page.setViewportSize({ width: 1440, height: 900 });
});

step('delete the site after confirming: its placements go, the device and breaker stay', async () => {
  await page.getByTestId('site-delete').click();
  await page.locator('.ant-modal-confirm-title', { hasText: tr('map.deleteConfirm', { name: 'Head office' }) }).waitFor();
  await page.locator('.ant-modal-confirm .ant-btn-dangerous').click();
  await page.getByText(tr('map.noSites')).waitFor();
  assert.equal((await callApi(page, 'GET', `/site/info?id=${siteId}`)).code, 40004);
  assert.equal((await api<{ total: number }>(page, 'GET', '/device/list')).total, 1);
});
