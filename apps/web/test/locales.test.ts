import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', 'src');
const LOCALES = path.join(ROOT, 'locales');
const FOLDERS = ['zh-CN', 'zh-TW', 'en-US', 'ja'];

type Tree = { [k: string]: string | Tree };

function flatten(tree: Tree, prefix: string, out: Map<string, string>): void {
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else flatten(v, key, out);
  }
}

/** All keys of one language: <namespace file>.<path in file>. */
function keysOf(folder: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of readdirSync(path.join(LOCALES, folder))
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const tree = JSON.parse(readFileSync(path.join(LOCALES, folder, file), 'utf8')) as Tree;
    flatten(tree, path.basename(file, '.json'), out);
  }
  return out;
}

const all = Object.fromEntries(FOLDERS.map((f) => [f, keysOf(f)])) as Record<string, Map<string, string>>;
const reference = all['en-US']!;

// i18next plural forms: `key_one`, `key_other`… stand for one key `key` (called with a `count`).
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const baseOf = (key: string): string => key.replace(PLURAL_SUFFIX, '');
const baseKeys = (keys: Map<string, string>): string[] => [...new Set([...keys.keys()].map(baseOf))].sort();
/** The plural categories each language must spell out: English one/other, Chinese and Japanese other only. */
const categoriesOf = (folder: string): string[] => [...new Intl.PluralRules(folder).resolvedOptions().pluralCategories].sort();
/** Base keys that are plural in English. */
const pluralKeys = new Set([...reference.keys()].filter((k) => PLURAL_SUFFIX.test(k)).map(baseOf));

test('the four locale folders exist with the same namespace files', () => {
  const files = FOLDERS.map((f) => readdirSync(path.join(LOCALES, f)).sort().join(','));
  for (const f of files) assert.equal(f, files[0]);
});

for (const folder of FOLDERS) {
  test(`${folder} has exactly the key set of en-US (plural forms aside)`, () => {
    const keys = baseKeys(all[folder]!);
    const ref = baseKeys(reference);
    const missing = ref.filter((k) => !keys.includes(k));
    const extra = keys.filter((k) => !ref.includes(k));
    assert.deepEqual({ missing, extra }, { missing: [], extra: [] });
  });

  test(`${folder} spells out its language's plural forms (and English's, so key sets stay identical) for every plural key`, () => {
    // i18next picks only the forms a language has; the English-only ones (`_one` in Chinese and Japanese) are
    // carried so every language has the same keys.
    const want = [...new Set([...categoriesOf(folder), ...categoriesOf('en-US')])].sort();
    const forms = new Map<string, string[]>();
    for (const key of all[folder]!.keys()) {
      const m = PLURAL_SUFFIX.exec(key);
      if (m) forms.set(baseOf(key), [...(forms.get(baseOf(key)) ?? []), m[1]!]);
    }
    for (const base of pluralKeys) {
      assert.deepEqual((forms.get(base) ?? []).sort(), want, `${folder}: ${base} plural forms`);
      assert.ok(!all[folder]!.has(base), `${folder}: ${base} is both plain and plural`);
    }
    for (const base of forms.keys()) assert.ok(pluralKeys.has(base), `${folder}: ${base} is plural here but not in en-US`);
  });

  test(`${folder} has no empty translations and keeps every {{placeholder}}`, () => {
    for (const [key, value] of all[folder]!) {
      assert.ok(value.trim(), `${folder}: ${key} is empty`);
      // a plural form is held to the English "other" form
      const ref = PLURAL_SUFFIX.test(key) ? `${baseOf(key)}_other` : key;
      const want = (reference.get(ref)?.match(/\{\{\w+\}\}/g) ?? []).sort();
      const got = (value.match(/\{\{\w+\}\}/g) ?? []).sort();
      assert.deepEqual(got, want, `${folder}: ${key} placeholders`);
    }
  });
}

// Values that are the same in every language (acronyms, product words, units).
const UNIVERSAL = /^(OK|IP|URL|Logo|IC|SMS|mg\/100 ?mL|mg\/L|% BAC)$/;

for (const folder of ['zh-CN', 'zh-TW', 'ja']) {
  test(`${folder} is really translated (every value has CJK text)`, () => {
    const untranslated = [...all[folder]!].filter(([, v]) => !/[\u3040-\u30ff\u3400-\u9fff]/.test(v) && !UNIVERSAL.test(v));
    assert.deepEqual(untranslated, []);
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === 'locales' ? [] : sourceFiles(p);
    return /\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}

test('every literal key used in the source exists, and plural keys are given a count', () => {
  const used = new Set<string>();
  const countless: string[] = [];
  for (const file of sourceFiles(ROOT)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z]+(?:\.[a-zA-Z0-9]+)+)'(\s*,\s*\{[^}]*)?/g)) {
      used.add(m[1]!);
      // without `count` i18next looks the plain key up, which a plural key does not have
      if (pluralKeys.has(m[1]!) && !/\bcount\b/.test(m[2] ?? '')) countless.push(`${path.relative(ROOT, file)}: ${m[1]}`);
    }
    for (const m of text.matchAll(/titleKey:\s*'([a-zA-Z]+(?:\.[a-zA-Z0-9]+)+)'/g)) used.add(m[1]!);
  }
  assert.ok(used.size > 50, `found only ${used.size} keys — is the scan broken?`);
  const missing = [...used].filter((k) => !reference.has(k) && !pluralKeys.has(k)).sort();
  assert.deepEqual(missing, []);
  assert.deepEqual(countless, []);
});
