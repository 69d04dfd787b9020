import { test } from 'node:test';
import assert from 'node:assert/strict';

// The session cookie as the console writes it (issue #28): Secure whenever the console is served over https.
const written: string[] = [];
const page = { protocol: 'http:' };
Object.assign(globalThis, {
  location: page,
  document: {
    get cookie() {
      return '';
    },
    set cookie(v: string) {
      written.push(v);
    },
  },
});
const { setToken, clearToken } = await import('../src/lib/token.ts');

test('over https the Admin-Token cookie is Secure, set and cleared; over plain http (LAN) it cannot be', () => {
  page.protocol = 'https:';
  setToken('tok-1');
  assert.match(written.at(-1)!, /^Admin-Token=tok-1; path=\/; SameSite=Lax; Secure$/);
  clearToken();
  assert.match(written.at(-1)!, /^Admin-Token=; expires=.*; Secure$/);
  page.protocol = 'http:';
  setToken('tok-2');
  assert.equal(written.at(-1), 'Admin-Token=tok-2; path=/; SameSite=Lax');
});
