import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { LANGUAGES } from '@faceadmin/shared';
import { CATALOGS, has, t } from '../src/i18n/i18n.ts';

/** Server message catalogues: complete in every language, and every key the source uses exists. */

const SRC = path.join(import.meta.dirname, '../src');
const LOCALES = path.join(SRC, 'i18n/locales');

type Tree = { [k: string]: string | Tree };
function leaves(tree: Tree, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) for (const [kk, vv] of leaves(v, key)) out.set(kk, vv);
    else out.set(key, v);
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}
const SOURCE = sourceFiles(SRC).map((f) => ({ file: path.relative(SRC, f), text: fs.readFileSync(f, 'utf8') }));
function matches(re: RegExp): { value: string[]; file: string }[] {
  return SOURCE.flatMap(({ file, text }) => [...text.matchAll(re)].map((m) => ({ value: m.slice(1), file })));
}

const files = fs
  .readdirSync(LOCALES)
  .filter((f) => f.endsWith('.json'))
  .sort();
const parsed = Object.fromEntries(files.map((f) => [f, JSON.parse(fs.readFileSync(path.join(LOCALES, f), 'utf8')) as Tree]));
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('there are four server locale files and the server loads each of them', () => {
  assert.deepEqual(files, ['en-US.json', 'ja.json', 'zh-CN.json', 'zh-TW.json']);
  assert.deepEqual(Object.keys(CATALOGS).sort(), [...LANGUAGES].sort());
  const byLang: Record<string, string> = { 'zh-CN': 'zh-CN.json', zh_tw: 'zh-TW.json', 'en-US': 'en-US.json', ja: 'ja.json' };
  for (const lang of LANGUAGES) assert.deepEqual(CATALOGS[lang], parsed[byLang[lang]!], lang);
});

test('the four locale files have identical key sets, only non-empty strings, and the same placeholders', () => {
  const ref = leaves(parsed['en-US.json']!);
  assert.ok(ref.size > 50, `en-US has ${ref.size} keys`);
  for (const f of files) {
    const l = leaves(parsed[f]!);
    // Plural forms (`key_one`) are a language's own: each must have its general key beside it.
    const plural = (k: string) => /_(zero|one|two|few|many)$/.test(k);
    for (const k of l.keys()) if (plural(k)) assert.ok(l.has(k.replace(/_(zero|one|two|few|many)$/, '')), `${f} ${k} without its general form`);
    const missing = [...ref.keys()].filter((k) => !plural(k) && !l.has(k));
    const extra = [...l.keys()].filter((k) => !plural(k) && !ref.has(k));
    assert.deepEqual(missing, [], `${f} lacks keys`);
    assert.deepEqual(extra, [], `${f} has keys en-US lacks`);
    for (const [k, v] of l) {
      assert.equal(typeof v, 'string', `${f} ${k} is not a string`);
      assert.ok((v as string).trim().length > 0, `${f} ${k} is empty`);
      assert.deepEqual(placeholders(v as string), placeholders(ref.get(k) as string), `${f} ${k} placeholders differ from en-US`);
    }
  }
});

test('messages differ between languages where they should (not copied English)', () => {
  const en = leaves(parsed['en-US.json']!);
  for (const f of ['zh-CN.json', 'zh-TW.json', 'ja.json']) {
    const l = leaves(parsed[f]!);
    const same = [...en.keys()].filter((k) => k.startsWith('errors.') && l.get(k) === en.get(k) && !/^\{\w+\}\W*\{\w+\}$/.test(String(en.get(k))));
    assert.deepEqual(same, [], `${f}: untranslated errors`);
  }
});

test('every log action and module used by audit() exists in every language', () => {
  const calls = matches(/\baudit\([^;]*?'([a-z]+)',\s*'([a-zA-Z.]+)'/g);
  assert.ok(calls.length >= 8, `found ${calls.length} audit() calls`);
  const callsites = SOURCE.reduce((s, f) => s + [...f.text.matchAll(/\baudit\(/g)].length, 0) - 1; // minus the definition
  assert.equal(calls.length, callsites, 'every audit() call names its module and action as literals');
  for (const {
    value: [module, action],
    file,
  } of calls) {
    for (const lang of LANGUAGES) {
      assert.ok(has(lang, `log.actions.${action}`), `${lang}: log.actions.${action} (${file})`);
      assert.ok(has(lang, `log.modules.${module}`), `${lang}: log.modules.${module} (${file})`);
    }
    assert.ok(action!.startsWith(`${module}.`), `${action} belongs to module ${module}`);
  }
});

test('every message type used by notify() has a title and content in every language', () => {
  const calls = matches(/\bnotify\([^;]*?'([a-zA-Z]+)'/g);
  assert.ok(calls.length >= 3, `found ${calls.length} notify() calls`);
  const callsites = SOURCE.reduce((s, f) => s + [...f.text.matchAll(/\bnotify\(/g)].length, 0) - 1;
  assert.equal(calls.length, callsites, 'every notify() call names its type as a literal');
  for (const {
    value: [type],
    file,
  } of calls) {
    for (const lang of LANGUAGES) {
      assert.ok(has(lang, `messages.${type}.title`), `${lang}: messages.${type}.title (${file})`);
      assert.ok(has(lang, `messages.${type}.content`), `${lang}: messages.${type}.content (${file})`);
    }
  }
});

test('every errors.*, reasons.* and fields.* key used in the source exists in every language', () => {
  const keys = new Set(matches(/['`]((?:errors|reasons|fields|common|roles)\.[A-Za-z_]+)['`]/g).map((m) => m.value[0]!));
  assert.ok([...keys].filter((k) => k.startsWith('errors.')).length >= 20, `found ${keys.size} keys`);
  // The validation keywords the envelope translates.
  const envelope = fs.readFileSync(path.join(SRC, 'plugins/envelope.ts'), 'utf8');
  const known = /const known = \[([^\]]+)\]/
    .exec(envelope)![1]!
    .match(/'(\w+)'/g)!
    .map((s) => `reasons.${s.slice(1, -1)}`);
  for (const k of [...known, 'reasons.invalid']) keys.add(k);
  for (const key of keys) for (const lang of LANGUAGES) assert.ok(has(lang, key), `${lang}: ${key}`);
  // A missing key would come back untranslated.
  assert.equal(t('en-US', 'errors.noSuchKeyAtAll'), 'errors.noSuchKeyAtAll');
});
