import fs from 'node:fs';
import path from 'node:path';

/**
 * `node scripts/durations.ts [times.tsv]`: rewrites durations.json, the times scripts/run.ts starts the journeys by
 * (longest first), from the e2e lines of a TEST_TIMES file; by default the last `npm test`'s
 * (node_modules/.cache/test-times.tsv).
 */
const source = process.argv[2] ?? path.join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'test-times.tsv');
const times: Record<string, number> = {};
for (const line of fs.readFileSync(source, 'utf8').split('\n').filter(Boolean)) {
  const [label, ms, file] = line.split('\t');
  if (label === 'e2e' && file) times[file] = Math.round(Number(ms) / 1000) * 1000;
}
const sorted = Object.fromEntries(Object.entries(times).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(path.join(import.meta.dirname, '..', 'durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`durations.json: ${Object.keys(sorted).length} journeys`);
