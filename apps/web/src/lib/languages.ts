import { DEFAULT_LANGUAGE, LANGUAGES, normalizeLanguage, type Language } from '@faceadmin/shared';

/** Locale folder under src/locales for each API language (the API spells Traditional Chinese zh_tw). */
export const LOCALE_FOLDER: Record<Language, string> = {
  'zh-CN': 'zh-CN',
  zh_tw: 'zh-TW',
  'en-US': 'en-US',
  ja: 'ja',
};

/** Each language's name in itself, for the language selector. */
export const LANGUAGE_LABEL: Record<Language, string> = {
  'zh-CN': '简体中文',
  zh_tw: '繁體中文',
  'en-US': 'English',
  ja: '日本語',
};

export const LANGUAGE_STORAGE_KEY = 'faceadmin.language';

/** spec §1: a saved choice, then the browser language, then zh-CN. */
export function resolveLanguage(saved: string | null | undefined, browser: readonly string[]): Language {
  const fromSaved = normalizeLanguage(saved);
  if (fromSaved) return fromSaved;
  for (const b of browser) {
    const l = normalizeLanguage(b);
    if (l) return l;
  }
  return DEFAULT_LANGUAGE;
}

export { LANGUAGES };
export type { Language };
