import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveLanguage } from '../src/lib/languages.ts';

test('a saved choice wins', () => {
  assert.equal(resolveLanguage('ja', ['en-US']), 'ja');
  assert.equal(resolveLanguage('zh_tw', ['en-US']), 'zh_tw');
});

test('then the browser language', () => {
  assert.equal(resolveLanguage(null, ['fr-FR', 'zh-TW']), 'zh_tw');
  assert.equal(resolveLanguage('klingon', ['en-GB']), 'en-US');
});

test('default zh-CN', () => {
  assert.equal(resolveLanguage(null, ['fr-FR']), 'zh-CN');
  assert.equal(resolveLanguage(undefined, []), 'zh-CN');
});
