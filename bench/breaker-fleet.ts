/**
 * A fleet of emulated breakers in its own process (breakers.bench.ts and breaker-reconnect.bench.ts start it, so
 * the server's CPU figures are the server's alone). Prints `ready <n>` once every breaker is connected; stops on
 * SIGTERM.
 *   node breaker-fleet.ts <url> <uuid-prefix> <count> <password> <reportMs> <lines> [burst]
 * `burst`: every breaker dials at once, as a fleet does after a server restart, and one that is refused or
 * times out (the emulator waits 5 s for CONNACK) dials again 2 s later, as a device would.
 */
import { EmulatedBreaker, startFleet } from '../tools/breaker-emulator/breaker.ts';

const [url, prefix, count, password, reportMs, lines, mode] = process.argv.slice(2);
const uuids = Array.from({ length: Number(count) }, (_, i) => `${prefix}-${String(i + 1).padStart(5, '0')}`);
const options = { url: url!, password: password!, reportMs: Number(reportMs), tickMs: 1000, lines: Number(lines), reconnectMs: 2000 };

const live = new Set<EmulatedBreaker>();
process.on('SIGTERM', () => {
  void Promise.all([...live].map((b) => b.kill())).finally(() => process.exit(0));
});

async function burst(): Promise<EmulatedBreaker[]> {
  return Promise.all(
    uuids.map(async (uuid) => {
      for (;;) {
        const b = new EmulatedBreaker({ ...options, uuid });
        live.add(b);
        try {
          await b.start();
          return b;
        } catch {
          live.delete(b);
          await b.kill().catch(() => {});
          await new Promise((r) => setTimeout(r, 2000));
        }
      }
    }),
  );
}

const fleet = mode === 'burst' ? await burst() : await startFleet({ ...options, uuids, concurrency: 25 });
for (const b of fleet) live.add(b);
console.log(`ready ${fleet.length}`);
