import fs from 'node:fs';
import path from 'node:path';

/**
 * The import graph of the server, the console and the shared package, read from the files' text: every relative
 * `import … from`, `export … from`, bare `import '…'` and `import('…')` (type imports included: they couple modules
 * too). The repository writes every relative import with its extension, so a specifier resolves to one file.
 * scripts/import-cycles.test.ts fails on any cycle; it replaced eslint's import-x/no-cycle, which spent 28 s of the
 * check's CPU on what takes this well under one.
 */
const SPECIFIER = /(?:\b(?:import|export)\s[^;]*?\bfrom\s*|\bimport\s*\(?\s*)'(\.{1,2}\/[^']+)'/g;

export type Graph = Map<string, string[]>;

/** The files under `dirs` (relative to `root`) and what each imports of them, as paths relative to `root`. */
export function importGraph(root: string, dirs: string[]): Graph {
  const graph: Graph = new Map();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', '.shards'].includes(entry.name)) walk(rel);
      } else if (/\.tsx?$/.test(entry.name)) {
        const text = fs.readFileSync(path.join(root, rel), 'utf8');
        const targets = new Set<string>();
        for (const m of text.matchAll(SPECIFIER)) targets.add(path.posix.join(path.posix.dirname(rel), m[1]!));
        graph.set(rel, [...targets]);
      }
    }
  };
  for (const d of dirs) walk(d);
  return graph;
}

/** Every cycle of the graph, each as the files on it (a strongly connected component of two or more, or a self-import). */
export function findCycles(graph: Graph): string[][] {
  // Tarjan's strongly connected components, iterative so that a deep chain of imports cannot overflow the stack.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: [string, number][] = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1]!;
      const [node, i] = top;
      const edges = (graph.get(node) ?? []).filter((t) => graph.has(t));
      if (i < edges.length) {
        top[1]++;
        const to = edges[i]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push([to, 0]);
        } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(node)!));
      if (low.get(node) === index.get(node)) {
        const component: string[] = [];
        for (let m = stack.pop()!; ; m = stack.pop()!) {
          onStack.delete(m);
          component.push(m);
          if (m === node) break;
        }
        if (component.length > 1 || edges.includes(node)) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}
