import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import 'dayjs/locale/ja';
import 'dayjs/locale/en';
import { LANGUAGE_STORAGE_KEY, LOCALE_FOLDER, resolveLanguage, type Language } from './languages.ts';
import { toast } from './feedback.ts';
import { createStore, useStore } from './store.ts';

type Tree = { [key: string]: string | Tree };

// Every src/locales/<folder>/<namespace>.json becomes the top-level key <namespace>, so a key reads
// `manager.fields.username` whichever file it sits in. A language's files are one chunk (vite.config.ts), fetched when
// the language is first used: the console starts with its own language only (#31's first load: the four weighed 79 KB
// brotli, one weighs 24–27).
const files = import.meta.glob<Tree>('../locales/*/*.json', { import: 'default' });
const loading = new Map<Language, Promise<void>>();

/** Fetches a language's texts into i18next once (again after a failed try). */
function loadLanguage(lang: Language): Promise<void> {
  let p = loading.get(lang);
  if (!p) {
    const folder = LOCALE_FOLDER[lang];
    const parts = Object.entries(files).flatMap(([path, load]) => {
      const m = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
      return m && m[1] === folder && m[2] ? [load().then((tree) => [m[2], tree] as const)] : [];
    });
    p = Promise.all(parts).then((entries) => {
      i18next.addResourceBundle(lang, 'translation', Object.fromEntries(entries), true, true);
    });
    p.catch(() => loading.delete(lang));
    loading.set(lang, p);
  }
  return p;
}

const DAYJS_LOCALE: Record<Language, string> = { 'zh-CN': 'zh-cn', zh_tw: 'zh-tw', 'en-US': 'en', ja: 'ja' };

function readSaved(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

const initial = resolveLanguage(readSaved(), navigator.languages ?? [navigator.language]);

export const languageStore = createStore<Language>(initial, (lang) => {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    // not persisted
  }
  void i18next.changeLanguage(lang);
  dayjs.locale(DAYJS_LOCALE[lang]);
  document.documentElement.lang = LOCALE_FOLDER[lang];
});

void i18next.use(initReactI18next).init({
  resources: {},
  lng: initial,
  fallbackLng: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  // texts that arrive after the first drawing (a language whose fetch failed at the start) redraw what uses them
  react: { bindI18nStore: 'added' },
});
dayjs.locale(DAYJS_LOCALE[initial]);
document.documentElement.lang = LOCALE_FOLDER[initial];

/** Settles once the starting language's texts are in (main.tsx renders then). */
export const i18nReady: Promise<void> = loadLanguage(initial);

export const getLanguage = (): Language => languageStore.get();
let requested: Language = initial;
/**
 * Switches the console's language once its texts have arrived (the first switch to a language fetches them). The last
 * choice wins: a language still arriving when another is chosen is not applied. A fetch that fails says so, and
 * rejects (the client-error report takes it).
 */
export function setLanguage(lang: Language): Promise<void> {
  requested = lang;
  return loadLanguage(lang).then(
    () => {
      if (requested === lang) languageStore.set(lang);
    },
    (err: unknown) => {
      if (requested === lang) toast({ type: 'error', content: i18next.t('layout.languageFailed') });
      throw err;
    },
  );
}
export const useLanguage = (): Language => useStore(languageStore);
export { i18next };
