import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import 'dayjs/locale/ja';
import 'dayjs/locale/en';
import { LANGUAGES, LANGUAGE_STORAGE_KEY, LOCALE_FOLDER, resolveLanguage, type Language } from './languages.ts';
import { createStore, useStore } from './store.ts';

type Tree = { [key: string]: string | Tree };

// Every src/locales/<folder>/<namespace>.json becomes the top-level key <namespace>, so a key reads
// `manager.fields.username` whichever file it sits in.
const files = import.meta.glob<Tree>('../locales/*/*.json', { eager: true, import: 'default' });

function resourcesFor(folder: string): Tree {
  const out: Tree = {};
  for (const [path, tree] of Object.entries(files)) {
    const m = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (m && m[1] === folder && m[2]) out[m[2]] = tree;
  }
  return out;
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
  resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: resourcesFor(LOCALE_FOLDER[l]) }])),
  lng: initial,
  fallbackLng: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});
dayjs.locale(DAYJS_LOCALE[initial]);
document.documentElement.lang = LOCALE_FOLDER[initial];

export const getLanguage = (): Language => languageStore.get();
export const setLanguage = (lang: Language): void => languageStore.set(lang);
export const useLanguage = (): Language => useStore(languageStore);
export { i18next };
