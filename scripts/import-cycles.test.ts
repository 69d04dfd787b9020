import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { findCycles, importGraph } from './import-cycles.ts';

const root = path.resolve(import.meta.dirname, '..');

test('no import cycles in the server, the console or the shared package (type imports included)', () => {
  const graph = importGraph(root, ['apps/server', 'apps/web', 'packages/shared']);
  // the graph is read, not empty: the server's app imports its modules, the console's route table its pages
  assert.ok(graph.size > 500, `${graph.size} files`);
  assert.ok(graph.get('apps/server/src/app.ts')?.some((t) => t.startsWith('apps/server/src/modules/')));
  assert.ok(graph.get('apps/web/src/app/routes/router.tsx')?.some((t) => t.startsWith('apps/web/src/features/')));
  assert.deepEqual(findCycles(graph), []);
});

test('every form of import counts, and a cycle of any length is found and named', () => {
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'import-cycles-'));
  try {
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    write('src/a.ts', "import type {\n  B,\n} from './lib/b.ts';\nexport const a = 1;\n");
    write('src/lib/b.ts', "export { c } from '../c.tsx';\n");
    write('src/c.tsx', "const a = () => import('./a.ts');\n");
    write('src/d.ts', "import './d.ts';\nimport { x } from 'node:fs';\n");
    write('src/e.ts', "import { a } from './a.ts';\n");
    const graph = importGraph(dir, ['src']);
    assert.deepEqual(graph.get('src/a.ts'), ['src/lib/b.ts']);
    assert.deepEqual(graph.get('src/lib/b.ts'), ['src/c.tsx']);
    assert.deepEqual(findCycles(graph), [['src/a.ts', 'src/c.tsx', 'src/lib/b.ts'], ['src/d.ts']]);
    // one edge less, no cycle
    write('src/c.tsx', 'export const c = 1;\n');
    write('src/d.ts', '');
    assert.deepEqual(findCycles(importGraph(dir, ['src'])), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
