import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import { binary, endpoint, isBinary, pathOf } from './endpoint.ts';
import { apiContract } from './index.ts';

test('pathOf fills the path parameters, encoded', () => {
  const e = endpoint({
    method: 'GET',
    path: '/a/:name/b/:id',
    params: Type.Object({ name: Type.String(), id: Type.Integer() }),
    response: binary('image/jpeg'),
  });
  assert.equal(pathOf(e, { name: 'x y.jpg', id: 7 }), '/a/x%20y.jpg/b/7');
});

test('isBinary tells downloads from JSON answers', () => {
  assert.equal(isBinary(binary('image/jpeg')), true);
  assert.equal(isBinary(Type.Object({ binary: Type.String() })), false);
  assert.equal(isBinary(Type.Null()), false);
});

test('entries are unique, GETs take no JSON body and uploads are POSTs without one', () => {
  const seen = new Set<string>();
  for (const [group, entries] of Object.entries(apiContract)) {
    for (const [name, e] of Object.entries(entries)) {
      const key = `${e.method} ${e.path}`;
      assert.match(e.path, /^\/[\w/:]+$/, `${group}.${name}`);
      assert.ok(!seen.has(key), `${key} twice`);
      seen.add(key);
      // A GET carries no JSON body, and an upload's body is its form.
      if (e.method === 'GET') assert.ok(!('body' in e), `${group}.${name}`);
      if ('multipart' in e) assert.ok(!('body' in e) && e.method === 'POST', `${group}.${name}`);
    }
  }
});
