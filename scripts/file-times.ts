import { appendFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A node:test reporter that prints nothing and appends each test file's wall time to the file named by TEST_TIMES, one
 * line each: `<label>\t<ms>\t<file>` (the label from TEST_TIMES_LABEL), and each failure with its error to the file
 * named by TEST_FAILURES. `npm test` (scripts/test.ts) collects them and ends with the failures and the slowest files,
 * so the next person sees what failed and where the time goes. Without those variables it does nothing. The server's
 * runner (apps/server/scripts/test-all.ts) and the journeys' (e2e/scripts/run.ts) use it; the short steps (scripts,
 * shared, tools, web) print their failures in their own output only.
 *
 * node:test reports each file, run in its own process, as a test named by its path: its `test:complete` carries the
 * file's whole time, hooks included. The server's files run in shards (apps/server/test/shards.ts): there a file is a
 * suite, named by its path, declared in shards.ts, and the shard itself is left out.
 */
interface ReporterEvent {
  type: string;
  data?: {
    name?: string;
    file?: string;
    line?: number;
    nesting?: number;
    details?: { duration_ms?: number; type?: string; error?: FailureError };
  };
}
interface FailureError {
  message?: string;
  stack?: string;
  failureType?: string;
  cause?: unknown;
}

/** What a failure says, in at most `max` characters: the cause's stack (or message) when node:test wrapped it. */
export function failureText(error: FailureError | undefined, max = 1500): string {
  const cause = error?.cause as FailureError | string | undefined;
  const inner = typeof cause === 'string' ? cause : (cause?.stack ?? cause?.message);
  const text = (inner ?? error?.stack ?? error?.message ?? 'no error given')
    .split('\n')
    .filter((line) => !/^\s+at .*\(?node:(internal|async_hooks)/.test(line)) // node's own frames say nothing here
    .join('\n')
    .trim();
  return text.length > max ? `${text.slice(0, max)} …` : text;
}

export default async function* fileTimes(source: AsyncIterable<ReporterEvent>) {
  const out = process.env.TEST_TIMES;
  const failuresOut = process.env.TEST_FAILURES;
  const label = process.env.TEST_TIMES_LABEL ?? '';
  const lines: string[] = [];
  for await (const event of source) {
    const d = event.data;
    // Each failure with its error, for npm test to repeat at its end: CI shows the end of a long output only, and a
    // failure deep in an early step went unread (a PostgreSQL server test, stop 40). A suite failing because a test in
    // it failed, and a test cancelled with its suite, add nothing to that test's own entry.
    if (event.type === 'test:fail' && d?.name) {
      const kind = d.details?.error?.failureType;
      if (kind !== 'subtestsFailed' && kind !== 'cancelledByParent') {
        const where = d.file ? `${path.relative(process.cwd(), d.file)}${d.line ? `:${d.line}` : ''}` : '';
        const body = failureText(d.details?.error).replace(/^/gm, '    ');
        // written at once: a suite killed for running too long (apps/server/scripts/test-all.ts) keeps what failed before
        if (failuresOut)
          appendFileSync(failuresOut, `${label ? `[${label}] ` : ''}${d.name}${where ? `  (${where})` : ''}${kind ? ` — ${kind}` : ''}\n${body}\n\n`);
      }
    }
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
