import { appendFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A node:test reporter that prints nothing and appends each test file's wall time to the file named by TEST_TIMES, one
 * line each: `<label>\t<ms>\t<file>` (the label from TEST_TIMES_LABEL). `npm test` (scripts/test.ts) collects them
 * and ends with the slowest files, so the next person sees where the time goes. Without TEST_TIMES it does nothing.
 *
 * node:test reports each file, run in its own process, as a test named by its path: its `test:complete` carries the
 * file's whole time, hooks included.
 */
export default async function* fileTimes(
  source: AsyncIterable<{ type: string; data?: { name?: string; file?: string; nesting?: number; details?: { duration_ms?: number } } }>,
) {
  const out = process.env.TEST_TIMES;
  const label = process.env.TEST_TIMES_LABEL ?? '';
  const lines: string[] = [];
  for await (const event of source) {
    const d = event.data;
    if (event.type !== 'test:complete' || !d?.file || !d.name || d.nesting !== 0) continue;
    if (path.resolve(d.name) !== d.file) continue;
    lines.push(`${label}\t${Math.round(d.details?.duration_ms ?? 0)}\t${path.relative(process.cwd(), d.file)}\n`);
  }
  if (out && lines.length) appendFileSync(out, lines.join(''));
}

/** node --test's reporter flags for a runner: spec on stdout, and this reporter beside it when TEST_TIMES is set. */
export function reporterArgs(): string[] {
  const spec = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
  if (!process.env.TEST_TIMES) return spec;
  return [...spec, `--test-reporter=${import.meta.filename}`, '--test-reporter-destination=stdout'];
}
