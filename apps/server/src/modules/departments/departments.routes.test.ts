import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { call, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let A: Company;
let B: Company;
before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Dept A');
  B = await makeCompany(t, 'Dept B');
});
after(() => t.close());

const create = (token: string, body: object, lang?: string) => call(t.app, 'POST', '/org/create', { token, body, ...(lang ? { lang } : {}) });
const tree = async (token: string) => (await call(t.app, 'GET', '/org/tree', { token })).data as any[];
const find = (nodes: any[], id: number): any => {
  for (const n of nodes) {
    if (n.id === id) return n;
    const f = find(n.children, id);
    if (f) return f;
  }
};

test('a department tree is built, nested and ordered', async () => {
  const hq = (await create(A.main, { name: 'HQ' })).data.id;
  const rnd = (await create(A.main, { name: 'R&D', parent_id: hq, sort: 2 })).data.id;
  const sales = (await create(A.main, { name: 'Sales', parent_id: hq, sort: 1 })).data.id;
  const fw = (await create(A.main, { name: 'Firmware', parent_id: rnd })).data.id;
  const nodes = await tree(A.main);
  const hqNode = find(nodes, hq);
  assert.deepEqual(
    hqNode.children.map((c: any) => c.name),
    ['Sales', 'R&D'],
    'children ordered by sort',
  );
  assert.equal(find(nodes, fw).parent_id, rnd);
  assert.equal(find(nodes, sales).total, 0);
});

test('name is required and unique among siblings; the error names the field in the caller language', async () => {
  const r = await create(A.main, { name: '   ' }, 'en-US');
  assert.equal(r.code, CODES.VALIDATION);
  assert.match(r.message, /^Name/);
  const missing = await create(A.main, {}, 'ja');
  assert.equal(missing.code, CODES.VALIDATION);
  assert.match(missing.message, /名前/);
  await create(A.main, { name: 'Twins' });
  const dup = await create(A.main, { name: 'Twins' });
  assert.equal(dup.code, CODES.CONFLICT);
  assert.equal((await tree(A.main)).filter((n) => n.name === 'Twins').length, 1, 'nothing written');
});

test('moving under itself or a descendant is refused and changes nothing; a legal move works', async () => {
  const top = (await create(A.main, { name: 'Top' })).data.id;
  const mid = (await create(A.main, { name: 'Mid', parent_id: top })).data.id;
  const leaf = (await create(A.main, { name: 'Leaf', parent_id: mid })).data.id;
  for (const parent of [top, leaf, mid]) {
    const target = parent === mid ? mid : top;
    const r = await call(t.app, 'POST', '/org/update', { token: A.main, body: { id: target, name: target === top ? 'Top' : 'Mid', parent_id: parent } });
    assert.equal(r.code, CODES.RULE, `move ${target} under ${parent}`);
  }
  assert.equal(find(await tree(A.main), leaf).parent_id, mid);
  const ok = await call(t.app, 'POST', '/org/update', { token: A.main, body: { id: leaf, name: 'Leaf', parent_id: top } });
  assert.equal(ok.code, CODES.OK);
  assert.equal(find(await tree(A.main), leaf).parent_id, top);
});

test('delete is refused while sub-departments exist, then allowed', async () => {
  const p = (await create(A.main, { name: 'Parent' })).data.id;
  const c = (await create(A.main, { name: 'Child', parent_id: p })).data.id;
  const refused = await call(t.app, 'POST', '/org/delete', { token: A.main, body: { id: p }, lang: 'en-US' });
  assert.equal(refused.code, CODES.RULE);
  assert.match(refused.message, /Parent still has sub-departments/);
  assert.ok(find(await tree(A.main), p));
  assert.equal((await call(t.app, 'POST', '/org/delete', { token: A.main, body: { id: c } })).code, CODES.OK);
  assert.equal((await call(t.app, 'POST', '/org/delete', { token: A.main, body: { id: p } })).code, CODES.OK);
  assert.equal(find(await tree(A.main), p), undefined);
});

test("another company's departments are not found, and parents cannot be borrowed across companies", async () => {
  const bDept = (await create(B.main, { name: 'B only' })).data.id;
  assert.equal((await call(t.app, 'POST', '/org/update', { token: A.main, body: { id: bDept, name: 'hijack' } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'POST', '/org/delete', { token: A.main, body: { id: bDept } })).code, CODES.NOT_FOUND);
  assert.equal((await create(A.main, { name: 'Cuckoo', parent_id: bDept })).code, CODES.NOT_FOUND);
  assert.equal(find(await tree(A.main), bDept), undefined);
  assert.equal(find(await tree(B.main), bDept).name, 'B only');
});

test('user view may read the tree but not change it; user edit may', async () => {
  const viewer = await makeSub(t, A, ['userView']);
  const editor = await makeSub(t, A, ['userView', 'userEdit']);
  assert.equal((await call(t.app, 'GET', '/org/tree', { token: viewer.token })).code, CODES.OK);
  assert.equal((await create(viewer.token, { name: 'Nope' })).code, CODES.NO_AUTHORITY);
  assert.equal((await create(editor.token, { name: 'Yes' })).code, CODES.OK);
});

test('every change is in the operation log', async () => {
  const r = await call(t.app, 'GET', '/log/list', { token: A.main, query: { module: 'department', pageSize: 100 }, lang: 'en-US' });
  const actions = new Set(r.data.items.map((i: any) => i.action));
  for (const a of ['department.create', 'department.move', 'department.delete']) assert.ok(actions.has(a), a);
  assert.ok(r.data.items.some((i: any) => i.description === 'Created department HQ'));
});
