// Run one or many emulated smart circuit breakers (docs/breaker-protocol.md) against the server's broker.
//   node tools/breaker-emulator/cli.ts --url mqtt://127.0.0.1:1883 --uuid BRK-0001 --password SECRET [--lines 4] [--count 3]

import { parseArgs } from 'node:util';
import { EmulatedBreaker, type BreakerEvent } from './breaker.ts';

const HELP = `Usage: node tools/breaker-emulator/cli.ts --uuid UUID --password PW [options]

  --url URL           broker (default mqtt://127.0.0.1:1883: the server's embedded broker)
  --uuid UUID         the breaker's uuid as registered in the console; with --count > 1, -1, -2, … is added
  --password PW       its MQTT password (shown once when it was registered)
  --count N           number of breakers (default 1; all with the same password)
  --lines N           lines per breaker (default 2)
  --report-ms N       NotifyStatus period (default 5000)
  --overcurrent SPEC  force a fault, e.g. 0@30s (line 0 thirty seconds after start); also --leakage, --overtemp
  --offline-every DUR go offline for a while every DUR (e.g. 10m), then come back
  --quiet             only print commands, trips and presence
  -h, --help

Keys while running: o N = overcurrent on line N, l N = leakage, d = go offline, u = come back, q = quit.`;

function duration(s: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(s.trim());
  if (!m) throw new Error(`bad duration: ${s}`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
}

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
    uuid: { type: 'string' },
    password: { type: 'string' },
    count: { type: 'string', default: '1' },
    lines: { type: 'string', default: '2' },
    'report-ms': { type: 'string', default: '5000' },
    overcurrent: { type: 'string' },
    leakage: { type: 'string' },
    overtemp: { type: 'string' },
    'offline-every': { type: 'string' },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help || !values.uuid || !values.password) {
  console.log(HELP);
  process.exit(values.help ? 0 : 2);
}
const count = Number(values.count);
const uuids = count > 1 ? Array.from({ length: count }, (_, i) => `${values.uuid}-${i + 1}`) : [values.uuid];
const breakers: EmulatedBreaker[] = [];
for (const uuid of uuids) {
  const b = new EmulatedBreaker({ url: values.url, uuid, password: values.password, lines: Number(values.lines), reportMs: Number(values['report-ms']) });
  b.on('event', (e: BreakerEvent) => {
    if (values.quiet && e.type === 'request') return;
    console.log(`${new Date().toISOString()} ${uuid} ${JSON.stringify(e)}`);
  });
  try {
    await b.start();
  } catch (err) {
    console.error(`${uuid}: refused (${(err as Error).message}); is it registered, and is the password right?`);
    process.exit(1);
  }
  breakers.push(b);
}
console.log(`${breakers.length} breaker(s) online at ${values.url}`);

for (const kind of ['overcurrent', 'leakage', 'overtemp'] as const) {
  const spec = values[kind];
  if (!spec) continue;
  const [line, at] = spec.split('@');
  setTimeout(() => breakers.forEach((b) => b.fault(Number(line), kind)), at ? duration(at) : 0);
}
if (values['offline-every']) {
  const every = duration(values['offline-every']);
  setInterval(async () => {
    for (const b of breakers) await b.stop();
    setTimeout(() => breakers.forEach((b) => void b.start().catch(() => {})), Math.min(60_000, every / 4));
  }, every);
}

if (process.stdin.isTTY) {
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (text: string) => {
    const [cmd, arg] = text.trim().split(/\s+/);
    if (cmd === 'q') process.exit(0);
    if (cmd === 'o') breakers.forEach((b) => b.fault(Number(arg ?? 0), 'overcurrent'));
    if (cmd === 'l') breakers.forEach((b) => b.fault(Number(arg ?? 0), 'leakage'));
    if (cmd === 'd') breakers.forEach((b) => void b.stop());
    if (cmd === 'u') breakers.forEach((b) => void b.start().catch((err: Error) => console.error(err.message)));
  });
}
const stop = async () => {
  for (const b of breakers) await b.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
