import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isChunkLoadError, reloadForNewBuild, RELOAD_WINDOW_MS } from '../src/lib/staleBuild.ts';

test("a chunk that did not load is told apart from a page's own error, in each browser's words", () => {
  for (const message of [
    'Failed to fetch dynamically imported module: https://door.example/assets/DeviceListPage-Cq3x.js', // Chromium
    'error loading dynamically imported module: https://door.example/assets/DeviceListPage-Cq3x.js', // Firefox
    'Importing a module script failed.', // Safari
    'Unable to preload CSS for /assets/MapPage-hFrtwG3F.css', // Vite's preload
  ])
    assert.equal(isChunkLoadError(new TypeError(message)), true, message);
  assert.equal(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'name')")), false);
  assert.equal(isChunkLoadError(undefined), false);
});

function browser(path: string, load: number) {
  const items = new Map<string, string>();
  const env = {
    storage: { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) },
    reloads: 0,
    reload: () => env.reloads++,
    now: 1_000_000,
    path,
    load,
  };
  return env;
}

test('a stale chunk reloads the page once; the same failure right after that reload shows instead of looping', () => {
  const env = browser('/device/list', 1);
  assert.equal(reloadForNewBuild(env), true);
  assert.equal(env.reloads, 1);
  // the same page asking again before it has gone (React's second effect run): no second reload
  assert.equal(reloadForNewBuild(env), true);
  assert.equal(env.reloads, 1);
  // the reloaded page fails the same way at once: the failure is shown
  Object.assign(env, { load: 2, now: env.now + 3_000 });
  assert.equal(reloadForNewBuild(env), false);
  assert.equal(env.reloads, 1);
  // another page, or the same one a while later (the next upgrade): reloads again
  Object.assign(env, { load: 3, path: '/person/list' });
  assert.equal(reloadForNewBuild(env), true);
  Object.assign(env, { load: 4, path: '/device/list', now: env.now + RELOAD_WINDOW_MS + 1 });
  assert.equal(reloadForNewBuild(env), true);
  assert.equal(env.reloads, 3);
});

test('without storage to remember it in, nothing reloads (it could loop)', () => {
  const env = browser('/device/list', 1);
  env.storage.setItem = () => {
    throw new Error('QuotaExceededError');
  };
  assert.equal(reloadForNewBuild(env), false);
  assert.equal(env.reloads, 0);
});

test('where the tab’s storage cannot be read (site data blocked; here there is none at all), nothing reloads', () => {
  assert.equal(reloadForNewBuild(), false);
});
