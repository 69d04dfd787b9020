import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, DIALECT, makeApp, makeCompany, type TestApp } from './helpers.ts';

let t: TestApp;
before(async () => (t = await makeApp()));
after(() => t.close());

test(`a company can be created and read back (${DIALECT})`, async () => {
  const c = await makeCompany(t, 'Smoke Co');
  const info = await call(t.app, 'GET', '/company/info', { token: c.main });
  assert.equal(info.code, 20000);
  assert.equal(info.data.name, 'Smoke Co');
});
