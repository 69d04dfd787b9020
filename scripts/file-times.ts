import { appendFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A node:test reporter that prints nothing and appends each test file's wall time to the file named by TEST_TIMES, one
 * line each: `<label>\t<ms>\t<file>` (the label from TEST_TIMES_LABEL). `npm test` (scripts/test.ts) collects them
 * and ends with the slowest files, so the next person sees where the time goes. Without TEST_TIMES it does nothing.
 *
 * node:test reports each file, run in its own process, as a test named by its path: its `test:complete` carries the
 * file's whole time, hooks included. The server's files run in shards (apps/server/test/shards.ts): there a file is a
 * suite, named by its path, declared in shards.ts, and the shard itself is left out.
 */
export default async function* fileTimes(
  source: AsyncIterable<{ type: string; data?: { name?: string; file?: string; nesting?: number; details?: { duration_ms?: number; type?: string } } }>,
) {
  const out = process.env.TEST_TIMES;
  const label = process.env.TEST_TIMES_LABEL ?? '';
  const lines: string[] = [];
  for await (const event of source) {
    const d = event.data;
    if (event.type !== 'test:complete' || !d?.file || !d.name) continue;
    const ownProcess = d.nesting === 0 && path.resolve(d.name) === d.file && !d.file.includes(`${path.sep}.shards${path.sep}`);
    const inShard = d.details?.type === 'suite' && d.file.endsWith(path.join('test', 'shards.ts')) && d.name.endsWith('.test.ts');
    if (!ownProcess && !inShard) continue;
    lines.push(`${label}\t${Math.round(d.details?.duration_ms ?? 0)}\t${ownProcess ? path.relative(process.cwd(), d.file) : d.name}\n`);
  }
  if (out && lines.length) appendFileSync(out, lines.join(''));
}

/** node --test's reporter flags for a runner: spec on stdout, and this reporter beside it when TEST_TIMES is set. */
export function reporterArgs(): string[] {
  const spec = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
  if (!process.env.TEST_TIMES) return spec;
  return [...spec, `--test-reporter=${import.meta.filename}`, '--test-reporter-destination=stdout'];
}
