import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './server.ts';

type Tree = { [k: string]: string | Tree };

/** Flat key → text map of one console language folder (apps/web/src/locales/<folder>). */
export function loadLocale(folder: string): Map<string, string> {
  const dir = path.join(ROOT, 'apps', 'web', 'src', 'locales', folder);
  const out = new Map<string, string>();
  const walk = (tree: Tree, prefix: string) => {
    for (const [k, v] of Object.entries(tree)) {
      if (typeof v === 'string') out.set(`${prefix}.${k}`, v);
      else walk(v, `${prefix}.${k}`);
    }
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    walk(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Tree, path.basename(file, '.json'));
  }
  return out;
}

/** Flat key → text map of the server's messages in one language (apps/server/src/i18n/locales/<folder>.json). */
export function loadServerLocale(folder: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (tree: Tree, prefix: string) => {
    for (const [k, v] of Object.entries(tree)) {
      if (typeof v === 'string') out.set(prefix ? `${prefix}.${k}` : k, v);
      else walk(v, prefix ? `${prefix}.${k}` : k);
    }
  };
  walk(JSON.parse(readFileSync(path.join(ROOT, 'apps', 'server', 'src', 'i18n', 'locales', `${folder}.json`), 'utf8')) as Tree, '');
  return out;
}
