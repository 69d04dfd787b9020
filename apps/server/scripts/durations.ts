import fs from 'node:fs';
import path from 'node:path';

/**
 * `node scripts/durations.ts [times.tsv]`: rewrites test/durations.json, the times test/shards.ts deals the files out
 * by, from the PostgreSQL lines of a TEST_TIMES file (scripts/file-times.ts writes one during a run); by default the
 * last `npm test`'s (node_modules/.cache/test-times.tsv).
 */
const source = process.argv[2] ?? path.join(import.meta.dirname, '..', '..', '..', 'node_modules', '.cache', 'test-times.tsv');
const times: Record<string, number> = {};
for (const line of fs.readFileSync(source, 'utf8').split('\n').filter(Boolean)) {
  const [label, ms, file] = line.split('\t');
  if (label === 'server PostgreSQL' && file) times[file] = Math.round(Number(ms) / 100) * 100;
}
const sorted = Object.fromEntries(Object.entries(times).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(path.join(import.meta.dirname, '..', 'test', 'durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(sorted).length} files`);
