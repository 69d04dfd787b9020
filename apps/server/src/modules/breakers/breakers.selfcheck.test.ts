import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, type BreakerDetail, type LineInfo } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';

/** Issue #18: the console's self-check confirmation names the server's BREAKER_SELF_CHECK_SECONDS, not always 10 s. */
let t: TestApp;
let A: Company;
before(async () => {
  t = await makeApp({ BREAKER_SELF_CHECK_SECONDS: '7' });
  A = await makeCompany(t, 'Self-check Co');
});
after(() => t.close());

test(`the breaker and line answers carry the configured self-check length (${DIALECT})`, async () => {
  const r = await call(t.app, 'POST', '/breaker/create', { token: A.main, body: { uuid: 'SELF-0001', sort: 1, linenum: 2 } });
  assert.equal(r.code, CODES.OK, r.message);
  const info = (await call<BreakerDetail>(t.app, 'GET', '/breaker/info', { token: A.main, query: { id: r.data.breaker.id } })).data;
  assert.equal(info.selfcheck_seconds, 7);
  const line = await call<LineInfo>(t.app, 'GET', '/breaker/line/info', { token: A.main, query: { id: info.lines[0]!.id } });
  assert.equal(line.code, CODES.OK, line.message);
  assert.equal(line.data.selfcheck_seconds, 7);
});
