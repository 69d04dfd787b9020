import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { API, makeApp, type TestApp } from './helpers.ts';

let plain: TestApp;
let proxied: TestApp;
before(async () => {
  plain = await makeApp();
  proxied = await makeApp({ TRUST_PROXY: '10.0.0.1' });
});
after(async () => {
  await plain.close();
  await proxied.close();
});

/** Fails sign-in `n` times from `peer`, each with a different forged X-Forwarded-For, and returns the last code. */
async function failWithForgedAddresses(t: TestApp, n: number, peer: string): Promise<number> {
  let code = 0;
  for (let i = 0; i < n; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/user/login`,
      remoteAddress: peer,
      headers: { 'x-forwarded-for': `198.51.100.${i}` },
      payload: { username: `nobody${i}`, password: 'wrong-password' },
    });
    code = res.json<{ code: number }>().code;
  }
  return code;
}

test('a forged X-Forwarded-For does not escape the per-address sign-in limit', async () => {
  assert.equal(await failWithForgedAddresses(plain, 31, '203.0.113.7'), 40029);
});

test('behind a configured proxy, the forwarded client address is the one throttled', async () => {
  // Through the trusted proxy each forged address is a different client, so none reaches the limit.
  assert.equal(await failWithForgedAddresses(proxied, 31, '10.0.0.1'), 40010);
});
