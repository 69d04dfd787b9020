/**
 * Human-readable log lines for a terminal (`npm start`, `npm run demo` in a console window): the server
 * logs JSON (pino) and, when its output is a terminal, each line goes through formatLogLine first.
 *
 *   12:27:05 INFO  GET /api/management/user/info → 200 (3 ms)
 *   12:27:21 WARN  unregistered terminal serial=ABC123 ip=10.0.0.7
 */

const LEVELS: Record<number, { name: string; color: number }> = {
  10: { name: 'TRACE', color: 90 },
  20: { name: 'DEBUG', color: 90 },
  30: { name: 'INFO', color: 32 },
  40: { name: 'WARN', color: 33 },
  50: { name: 'ERROR', color: 31 },
  60: { name: 'FATAL', color: 31 },
};
/** pino's own fields and those a request line reads; the rest are printed as key=value. */
const OWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'v', 'err', 'req', 'res', 'method', 'url', 'responseTime']);

export interface PrettyOptions {
  colors: boolean;
}

const two = (n: number) => String(n).padStart(2, '0');
const value = (v: unknown) => (typeof v === 'string' && /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v));

/**
 * One JSON log line as one or more readable lines (an error's stack follows, indented), or null for a line
 * that says nothing the next one will not ('incoming request': 'request completed' names the request).
 */
export function formatLogLine(line: string, opts: PrettyOptions): string | null {
  let o: Record<string, any>;
  try {
    o = JSON.parse(line) as Record<string, any>;
  } catch {
    return line;
  }
  if (o === null || typeof o !== 'object') return line;
  if (o.msg === 'incoming request') return null;
  const paint = (code: number, s: string) => (opts.colors ? `\x1b[${code}m${s}\x1b[0m` : s);
  const level = LEVELS[o.level as number] ?? { name: String(o.level), color: 0 };
  const at = new Date(typeof o.time === 'number' ? o.time : Date.now());
  const time = `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;

  let text = String(o.msg ?? '');
  if ((o.msg === 'request completed' || o.msg === 'request errored') && o.method && o.url) {
    const ms = typeof o.responseTime === 'number' ? ` (${Math.round(o.responseTime)} ms)` : '';
    text = `${o.method} ${o.url} → ${o.res?.statusCode ?? '?'}${ms}${o.msg === 'request errored' ? ' failed' : ''}`;
  }
  const extra = Object.entries(o)
    .filter(([k, v]) => !OWN.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${value(v)}`);
  const out = [`${paint(2, time)} ${paint(level.color, level.name.padEnd(5))} ${[text, ...extra].filter(Boolean).join(' ')}`];
  const err = o.err as { message?: string; stack?: string; type?: string } | undefined;
  if (err)
    out.push(
      ...String(err.stack ?? `${err.type ?? 'Error'}: ${err.message ?? ''}`)
        .split('\n')
        .map((l) => `         ${l}`),
    );
  return out.join('\n');
}

/** A pino destination that writes readable lines to `target` (stdout). */
export function prettyStream(target: { write(s: string): unknown }, opts: PrettyOptions): { write(chunk: string): void } {
  return {
    write(chunk) {
      for (const line of chunk.split('\n')) {
        if (!line) continue;
        const out = formatLogLine(line, opts);
        if (out !== null) target.write(`${out}\n`);
      }
    },
  };
}
