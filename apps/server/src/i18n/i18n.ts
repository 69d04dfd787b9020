import { DEFAULT_LANGUAGE, normalizeLanguage, type Language } from '@faceadmin/shared';
import enUS from './locales/en-US.json' with { type: 'json' };
import ja from './locales/ja.json' with { type: 'json' };
import zhCN from './locales/zh-CN.json' with { type: 'json' };
import zhTW from './locales/zh-TW.json' with { type: 'json' };

type Tree = { [k: string]: string | Tree };
export const CATALOGS: Record<Language, Tree> = { 'zh-CN': zhCN, zh_tw: zhTW, 'en-US': enUS, ja };
export type Params = Record<string, string | number>;

function lookup(tree: Tree, key: string): string | undefined {
  // Keys may themselves contain dots under log.actions ("company.create"), so try the longest leaf first.
  let node: string | Tree | undefined = tree;
  const parts = key.split('.');
  for (let i = 0; i < parts.length; i++) {
    if (typeof node !== 'object') return undefined;
    const rest = parts.slice(i).join('.');
    const whole: string | Tree | undefined = node[rest];
    if (typeof whole === 'string') return whole;
    node = node[parts[i]!];
  }
  return typeof node === 'string' ? node : undefined;
}

const plurals = new Map<Language, Intl.PluralRules>();
/** The plural form of a count in a language ('one', 'other', …): English says "1 person", "2 people". */
function pluralOf(lang: Language, count: number): string {
  let rules = plurals.get(lang);
  if (!rules) {
    rules = new Intl.PluralRules(lang === 'zh_tw' ? 'zh-TW' : lang);
    plurals.set(lang, rules);
  }
  return rules.select(count);
}

/**
 * Translates a server message key; unknown keys fall back to English, then to the key itself. With a numeric
 * `count`, a plural form of the key (`key_one`, …) is used where the language has one; the plain key is the
 * general ("other") form, so languages without plural forms (Chinese, Japanese) need nothing more.
 */
export function t(lang: Language, key: string, params: Params = {}): string {
  const count = params.count;
  const form = typeof count === 'number' ? pluralOf(lang, count) : 'other';
  const template =
    (form !== 'other' ? lookup(CATALOGS[lang], `${key}_${form}`) : undefined) ?? lookup(CATALOGS[lang], key) ?? lookup(CATALOGS['en-US'], key) ?? key;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

export function has(lang: Language, key: string): boolean {
  return lookup(CATALOGS[lang], key) !== undefined;
}

export function languageOf(header: string | string[] | undefined): Language {
  return normalizeLanguage(Array.isArray(header) ? header[0] : header) ?? DEFAULT_LANGUAGE;
}
