import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import i18next, { type TFunction } from 'i18next';
import { LANGUAGES, LOCALE_FOLDER } from '../src/lib/languages.ts';
import { pagination } from '../src/ui/paging.ts';

const LOCALES = path.resolve(import.meta.dirname, '..', 'src', 'locales');
const common = (folder: string) => JSON.parse(readFileSync(path.join(LOCALES, folder, 'common.json'), 'utf8')) as object;
const i18n = i18next.createInstance();
await i18n.init({
  resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: { common: common(LOCALE_FOLDER[l]) } }])),
  lng: 'en-US',
  fallbackLng: false,
  interpolation: { escapeValue: false },
});

test('a list the server stopped counting shows "more than" its count, in every language; a counted one its total (#32)', () => {
  assert.ok(readdirSync(LOCALES).length >= LANGUAGES.length);
  const shown = (lang: string, more: boolean) => {
    const p = pagination({ page: 1, pageSize: 20 }, () => undefined, 10_000, i18n.getFixedT<string>(lang) as TFunction, [20, 50], more);
    return String((p.showTotal as (n: number, range: [number, number]) => unknown)(10_000, [1, 20]));
  };
  assert.equal(shown('en-US', true), 'More than 10000');
  assert.equal(shown('en-US', false), '10000 in total');
  for (const lang of LANGUAGES) {
    assert.notEqual(shown(lang, true), shown(lang, false), lang);
    assert.match(shown(lang, true), /10000/, lang);
  }
});

test('past the count of a list the server stopped counting, the pager still offers the next page (#32)', () => {
  const t = i18n.getFixedT<string>('en-US') as TFunction;
  const at = (page: number, more: boolean) => pagination({ page, pageSize: 20 }, () => undefined, 10_000, t, [20, 50], more);
  assert.equal(at(500, true).total, 10_020, 'the page after 500');
  assert.equal(at(700, true).total, 14_020, 'and after 700');
  assert.equal(at(1, true).total, 10_000);
  assert.equal(at(500, false).total, 10_000, 'a counted list ends at its count');
  assert.equal(String((at(700, true).showTotal as (n: number, r: [number, number]) => unknown)(14_020, [13_981, 14_000])), 'More than 10000');
});
