import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeLanguage } from './languages.ts';
import { ALL_RIGHTS, functionsFromRights, NO_RIGHTS, rightsFromFunctions } from './rights.ts';

test('function rights fold into the rights object, the highest grant winning', () => {
  assert.deepEqual(rightsFromFunctions([]), NO_RIGHTS);
  assert.deepEqual(rightsFromFunctions(['logView']), { ...NO_RIGHTS, log: 1 });
  assert.equal(rightsFromFunctions(['userView', 'userEdit']).person, 2);
  assert.equal(rightsFromFunctions(['userEdit', 'userView']).person, 2);
  assert.deepEqual(rightsFromFunctions(['all']), ALL_RIGHTS);
});

test('rights objects map back to the boxes the manager form shows', () => {
  assert.deepEqual(functionsFromRights(ALL_RIGHTS), ['all']);
  assert.deepEqual(functionsFromRights({ ...NO_RIGHTS, face: 2, log: 1 }), ['faceView', 'faceEdit', 'logView']);
  assert.deepEqual(functionsFromRights(rightsFromFunctions(['userView', 'breaker'])), ['userView', 'breaker']);
});

test('languages: the spec spellings and browser variants', () => {
  assert.equal(normalizeLanguage('zh_tw'), 'zh_tw');
  assert.equal(normalizeLanguage('zh-TW'), 'zh_tw');
  assert.equal(normalizeLanguage('zh-Hant-HK'), 'zh_tw');
  assert.equal(normalizeLanguage('zh-CN'), 'zh-CN');
  assert.equal(normalizeLanguage('en-GB'), 'en-US');
  assert.equal(normalizeLanguage('ja-JP'), 'ja');
  assert.equal(normalizeLanguage('fr-FR'), undefined);
  assert.equal(normalizeLanguage(''), undefined);
});
