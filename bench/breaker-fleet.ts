/**
 * A fleet of emulated breakers in its own process (breakers.bench.ts starts it, so the server's CPU figures
 * are the server's alone). Prints `ready <n>` once every breaker is connected; stops on SIGTERM.
 *   node breaker-fleet.ts <url> <uuid-prefix> <count> <password> <reportMs> <lines>
 */
import { startFleet } from '../tools/breaker-emulator/breaker.ts';

const [url, prefix, count, password, reportMs, lines] = process.argv.slice(2);
const uuids = Array.from({ length: Number(count) }, (_, i) => `${prefix}-${String(i + 1).padStart(5, '0')}`);
const fleet = await startFleet({
  url: url!,
  uuids,
  password: password!,
  reportMs: Number(reportMs),
  tickMs: 1000,
  lines: Number(lines),
  reconnectMs: 2000,
  concurrency: 25,
});
console.log(`ready ${fleet.length}`);
process.on('SIGTERM', () => {
  void Promise.all(fleet.map((b) => b.kill())).finally(() => process.exit(0));
});
