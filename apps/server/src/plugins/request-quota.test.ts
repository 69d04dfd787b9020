import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { API, DIALECT, makeApp, type TestApp } from '../../test/helpers.ts';
import { requestQuota } from './request-quota.ts';

let t: TestApp;
before(async () => (t = await makeApp()));
after(() => t.close());

const captcha = (ip: string) => t.app.inject({ method: 'GET', url: `${API}/user/captcha`, remoteAddress: ip, headers: { 'x-lang': 'en-US' } });

test(`a route limit counts in the database: 20 a minute per address, then a translated refusal until the window closes (${DIALECT})`, async () => {
  const ip = '203.0.113.201';
  for (let i = 0; i < 20; i++) assert.equal((await captcha(ip)).statusCode, 200, `request ${i + 1}`);
  const refused = await captcha(ip);
  assert.equal(refused.statusCode, 429);
  const body = refused.json<{ code: number; message: string }>();
  assert.equal(body.code, CODES.TOO_MANY);
  assert.ok(body.message.length > 0, 'a message the console shows');
  assert.equal((await captcha('203.0.113.202')).statusCode, 200, 'another address is not held back');

  const db = t.app.database.db;
  const rows = await db.selectFrom('request_quota').selectAll().where('key', 'like', '%203.0.113.201%').execute();
  assert.equal(rows.length, 1, 'one row for the route and address');
  assert.equal(rows[0]!.count, 21);
  // The window closes: the next request opens a new one.
  await db
    .updateTable('request_quota')
    .set({ expires: Date.now() - 1 })
    .where('key', 'like', '%203.0.113.201%')
    .execute();
  assert.equal((await captcha(ip)).statusCode, 200);
  const reopened = await db.selectFrom('request_quota').select(['count', 'expires']).where('key', 'like', '%203.0.113.201%').executeTakeFirstOrThrow();
  assert.equal(reopened.count, 1);
  assert.ok(Number(reopened.expires) > Date.now() + 50_000, 'a minute from now');
  // The cleanup removes closed windows only.
  await db
    .updateTable('request_quota')
    .set({ expires: Date.now() - 1 })
    .where('key', 'like', '%203.0.113.202%')
    .execute();
  await requestQuota.prune(db, Date.now());
  const left = (await db.selectFrom('request_quota').select('key').execute()).map((r) => r.key);
  assert.ok(left.some((k) => k.includes('203.0.113.201')));
  assert.ok(!left.some((k) => k.includes('203.0.113.202')));
});
