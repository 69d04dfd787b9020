import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CODES } from '@faceadmin/shared';
import { accountProblem, captchaNeeded, passwordProblem, problemMessage } from '../src/features/auth/logic.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A language's translation of `namespace.path.to.key`, with {{values}} filled in (as i18next does). */
function loadCatalog(lang: string) {
  return (key: string, values: Record<string, number>): string | undefined => {
    const [ns, ...rest] = key.split('.');
    const file = path.resolve(import.meta.dirname, '..', 'src', 'locales', lang, `${ns}.json`);
    let node: unknown = JSON.parse(readFileSync(file, 'utf8'));
    for (const k of rest) node = (node as Record<string, unknown> | undefined)?.[k];
    return typeof node === 'string' ? node.replace(/\{\{(\w+)\}\}/g, (_, v: string) => String(values[v])) : undefined;
  };
}

test('sign-in form: spec §5 refuses a password under 6 characters, a missing or blank account, and one over 20', () => {
  // The pair the issue saw sent: refused on the password before any request.
  assert.equal(accountProblem('d'), null, 'a one-letter account exists (accounts need 1 to 20 characters)');
  assert.equal(passwordProblem('12'), 'passwordMin');
  assert.equal(passwordProblem('12345'), 'passwordMin');
  assert.equal(passwordProblem('123456'), null);
  assert.equal(passwordProblem('      '), null, 'spaces are part of a password');
  assert.equal(passwordProblem(''), 'required');
  assert.equal(passwordProblem(undefined), 'required');
  assert.equal(accountProblem(undefined), 'required');
  assert.equal(accountProblem('   '), 'required');
  assert.equal(accountProblem('a'.repeat(20)), null);
  assert.equal(accountProblem(`  ${'a'.repeat(20)}  `), null, 'counted trimmed, as the server trims it');
  assert.equal(accountProblem('a'.repeat(21)), 'accountMax');
});

test('sign-in form: every problem has a message in all four languages', () => {
  for (const lang of ['zh-CN', 'zh-TW', 'en-US', 'ja']) {
    const catalog = loadCatalog(lang);
    for (const p of ['required', 'accountMax', 'passwordMin'] as const) {
      const [key, values] = problemMessage(p);
      const text = catalog(key, values);
      assert.ok(text && text !== key, `${lang} ${key}`);
      for (const v of Object.values(values)) assert.ok(text.includes(String(v)), `${lang} ${key} names ${v}`);
    }
  }
});

test('sign-in form: the captcha shows when the server asks for it or announces it for the next attempt', () => {
  assert.equal(captchaNeeded(CODES.CAPTCHA_REQUIRED, { captcha: true, field: 'icode' }), true);
  assert.equal(captchaNeeded(CODES.BAD_CREDENTIALS, { captcha: true, retry_after: 1 }), true);
  assert.equal(captchaNeeded(CODES.TOO_MANY, { captcha: true, retry_after: 4 }), true);
  assert.equal(captchaNeeded(CODES.BAD_CREDENTIALS, { captcha: false, retry_after: 0 }), false);
  assert.equal(captchaNeeded(CODES.TOO_MANY, null), false);
});
