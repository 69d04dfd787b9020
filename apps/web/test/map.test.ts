import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isTileUrl, itemKey, labelSides, latLngToPlan, modeOf, planSpot, planToLatLng, tileSpot } from '../src/features/map/logic.ts';

test('a floor plan is drawn latitude-up: pixels from the top-left corner flip to CRS.Simple and back', () => {
  assert.deepEqual(planToLatLng(600, 100, 50), [550, 100]);
  assert.deepEqual(latLngToPlan(600, 550, 100), { x: 100, y: 50 });
  assert.deepEqual(planToLatLng(600, 0, 0), [600, 0], 'the top-left corner is the top of the image');
  for (const [x, y] of [
    [0, 0],
    [800, 600],
    [123.4, 456.7],
  ] as const) {
    const [lat, lng] = planToLatLng(600, x, y);
    assert.deepEqual(latLngToPlan(600, lat, lng), { x, y });
  }
});

test('a drop lands on the plan (rounded to a tenth of a pixel) or nowhere', () => {
  const site = { image_width: 800, image_height: 600 };
  assert.deepEqual(planSpot(site, 550.04, 100.06), { x: 100.1, y: 50 });
  assert.deepEqual(planSpot(site, 0, 800), { x: 800, y: 600 }, 'the far corner is on the plan');
  assert.equal(planSpot(site, 601, 10), undefined, 'above the plan');
  assert.equal(planSpot(site, -1, 10), undefined, 'below it');
  assert.equal(planSpot(site, 10, -0.5), undefined, 'left of it');
  assert.equal(planSpot(site, 10, 800.5), undefined, 'right of it');
});

test('a spot on a tile map wraps the longitude and stays within Web Mercator', () => {
  assert.deepEqual(tileSpot(39.9087, 116.3975), { x: 116.3975, y: 39.9087 });
  assert.deepEqual(tileSpot(10, 190), { x: -170, y: 10 });
  assert.deepEqual(tileSpot(10, -540), { x: 180 - 360, y: 10 });
  assert.equal(tileSpot(86, 0), undefined);
});

test('tile URLs: empty, or an http(s) template naming {z}, {x} and {y} in printable ASCII', () => {
  assert.ok(isTileUrl(''));
  assert.ok(isTileUrl('https://tile.example.com/{z}/{x}/{y}.png'));
  assert.ok(isTileUrl('http://{s}.tiles.local/{z}/{y}/{x}?key=a'));
  assert.ok(!isTileUrl('https://tile.example.com/{z}/{x}.png'));
  assert.ok(!isTileUrl('ftp://tile.example.com/{z}/{x}/{y}'));
  assert.ok(!isTileUrl('https://tile.example.com/{z}/{x}/{y} .png'));
  assert.ok(!isTileUrl('https://瓦片.example.com/{z}/{x}/{y}.png'));
});

test('a site is a tile map when it has a tile URL, else its plan, else nothing yet', () => {
  assert.equal(modeOf({ tile_url: 'https://t/{z}/{x}/{y}', image_url: '/p' }), 'tiles');
  assert.equal(modeOf({ tile_url: '', image_url: '/p' }), 'plan');
  assert.equal(modeOf({ tile_url: '', image_url: '' }), 'none');
  assert.equal(itemKey({ kind: 'breaker', ref_id: 3 }), 'breaker:3');
});

test("a marker's name goes where it covers nothing: right, else left, else none (its tooltip names it)", () => {
  const frame = { left: 0, top: 0, right: 400, bottom: 300 };
  const dot = (x: number, y: number) => ({ left: x, top: y, right: x + 18, bottom: y + 18 });
  const m = (x: number, y: number, width = 100) => ({ dot: dot(x, y), width, height: 18 });
  // apart: every name on the right
  assert.deepEqual(labelSides([m(10, 10), m(10, 100), m(200, 10)], frame), ['right', 'right', 'right']);
  // two dots 40 px apart on a line (the demo's "Dorm A" and "Office B"): the first name would run over the second dot,
  // so it goes left; the second keeps the right
  assert.deepEqual(labelSides([m(150, 100), m(190, 100)], frame), ['left', 'right']);
  // at the map's right edge the name goes left rather than being cut
  assert.deepEqual(labelSides([m(370, 200)], frame), ['left']);
  // squeezed between dots and the map's left edge: no room on either side, no name
  assert.deepEqual(labelSides([m(30, 50), m(0, 50), m(60, 50)], frame), ['hidden', 'hidden', 'right']);
  // a name already written is not covered: the dot just below the first writes its name on its left
  assert.deepEqual(labelSides([m(200, 100), m(200, 110)], frame), ['right', 'left']);
  // nor is any dot: with no room left either, the second has none
  assert.deepEqual(labelSides([m(100, 100), m(100, 110)], frame), ['right', 'hidden']);
});
