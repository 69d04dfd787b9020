import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatLogLine, prettyStream } from './pretty-log.ts';

const at = new Date(2026, 10, 20, 8, 5, 9).getTime(); // local 08:05:09
const line = (o: Record<string, unknown>) => JSON.stringify({ level: 30, time: at, pid: 1, hostname: 'h', reqId: 'req-1', ...o });
const plain = { colors: false };

test('a completed request is one line: method, URL, status and time', () => {
  const out = formatLogLine(
    line({ msg: 'request completed', method: 'GET', url: '/api/management/user/info', res: { statusCode: 200 }, responseTime: 3.4 }),
    plain,
  );
  assert.equal(out, '08:05:09 INFO  GET /api/management/user/info → 200 (3 ms)');
  assert.equal(formatLogLine(line({ msg: 'incoming request', req: { method: 'GET', url: '/x' } }), plain), null, 'said by the completed line');
});

test('other fields follow as key=value; strings with spaces and objects as JSON', () => {
  const out = formatLogLine(line({ level: 40, msg: 'unregistered terminal', serial: 'ABC123', ip: '10.0.0.7', note: 'two words', jobs: ['a', 'b'] }), plain);
  assert.equal(out, '08:05:09 WARN  unregistered terminal serial=ABC123 ip=10.0.0.7 note="two words" jobs=["a","b"]');
});

test('an error carries its stack on the lines below, indented', () => {
  const out = formatLogLine(
    line({ level: 50, msg: 'terminal request failed', err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x (y.ts:1:1)' } }),
    plain,
  );
  assert.equal(out, '08:05:09 ERROR terminal request failed\n         Error: boom\n             at x (y.ts:1:1)');
});

test('colours only when asked; a line that is not JSON passes as it is', () => {
  assert.doesNotMatch(formatLogLine(line({ msg: 'hello' }), plain)!, /\x1b\[/);
  assert.match(formatLogLine(line({ msg: 'hello' }), { colors: true })!, /\x1b\[32mINFO/);
  assert.equal(formatLogLine('not json', plain), 'not json');
});

test('the stream writes one readable line per log line and skips what formatLogLine drops', () => {
  const written: string[] = [];
  const stream = prettyStream({ write: (s: string) => written.push(s) }, plain);
  stream.write(`${line({ msg: 'incoming request' })}\n`);
  stream.write(`${line({ msg: 'scheduler started' })}\n`);
  assert.deepEqual(written, ['08:05:09 INFO  scheduler started\n']);
});
