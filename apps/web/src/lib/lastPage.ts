import { readLocal, writeLocal } from './store.ts';

/**
 * The page of a menu section this browser opened last (the watchers' screens: a guard's computer keeps showing the
 * guard desk), kept in the browser like the language; storage that is full or forbidden remembers nothing.
 */
const key = (section: string) => `faceadmin.last:${section}`;

export const rememberPage = (section: string, path: string): void => writeLocal(key(section), path);

export const lastPage = (section: string): string | undefined => readLocal<string | undefined>(key(section), undefined);
