import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The console's layers (docs/architecture.md): lib/ and ui/ under features/, under app/ (the shell: router, route
 * table, layout, providers). eslint.config.js refuses an import that runs back up; this counts them over the whole
 * tree, `import()` and `export … from` included (the lint rule sees static imports only), so one fails `npm test` too.
 */
const SRC = path.resolve(import.meta.dirname, '..', 'src');

type Layer = 'app' | 'features' | 'lib' | 'ui';
const LAYERS: readonly string[] = ['app', 'features', 'lib', 'ui'] satisfies Layer[];
/** What each layer may not import. */
const FORBIDDEN: Record<Layer, Layer[]> = { app: [], features: ['app'], lib: ['app', 'features'], ui: ['app', 'features'] };

/** The layer of a path under src/ (main.tsx and locales/ are none). */
function layerOf(rel: string): Layer | undefined {
  const top = rel.split(/[\\/]/)[0] ?? '';
  return LAYERS.includes(top) ? (top as Layer) : undefined;
}

/** Every .ts and .tsx file under src/, by its path under src/, with its text. */
function sources(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name)) out.set(path.relative(SRC, p), fs.readFileSync(p, 'utf8'));
    }
  };
  walk(SRC);
  return out;
}

/** The imports of these files that run back up, as "from → to" (paths under src/). */
function backArrows(files: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of files) {
    const from = layerOf(file);
    if (!from) continue;
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = path.relative(SRC, path.resolve(path.dirname(path.join(SRC, file)), fileName));
      const to = layerOf(target);
      if (to && FORBIDDEN[from].includes(to)) out.push(`${file} → ${target}`);
    }
  }
  return out;
}

test("no import runs back up the console's layers (feature → app, lib → app or a feature, ui → app or a feature)", () => {
  const files = sources();
  assert.ok([...files.keys()].some((f) => layerOf(f) === 'lib') && [...files.keys()].some((f) => layerOf(f) === 'features'));
  assert.deepEqual(backArrows(files), []);
});

test('an arrow that came back up would be counted, whatever form its import takes', () => {
  const cases: [string, string][] = [
    ['features/logs/api.ts', "import { ROUTE_TABLE } from '../../app/routes/routeTable.ts';"],
    ['features/dashboard/pages/DashboardPage.tsx', "const Layout = lazy(() => import('../../../app/layout/Layout.tsx'));"],
    ['lib/session.ts', "export { usePersons } from '../features/persons/api.ts';"],
    ['lib/tags.ts', "import type { RouteNode } from '../app/routes/routeTable.ts';"],
    ['ui/format.ts', "import { usePersons } from '../features/persons/api.ts';"],
    ['ui/LanguageSelect.tsx', "import { Layout } from '../app/layout/Layout.tsx';"],
  ];
  const files = sources();
  const before = backArrows(files).length;
  for (const [file, line] of cases) {
    const key = path.join(...file.split('/'));
    const text = files.get(key);
    assert.ok(text !== undefined, `${file} exists`);
    assert.equal(backArrows(new Map(files).set(key, `${line}\n${text}`)).length, before + 1, `${file}: ${line}`);
  }
});
