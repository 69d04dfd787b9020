import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * Runs in a worker thread: copies the SQLite write-ahead log back into the database file every
 * `intervalMs` (PASSIVE: never waits for or blocks the writer). Checkpoints copy pages and fsync; on
 * the request thread they cost a punch upload ~3 µs on average and stalls of milliseconds now and then.
 */
const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const db = new DatabaseSync(file);
db.exec('PRAGMA busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch (err) {
    // Busy or I/O trouble: the next round tries again; the parent logs it once.
    parentPort?.postMessage({ error: String(err) });
  }
}, intervalMs);
parentPort?.on('message', (m: unknown) => {
  if (m === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort?.close();
  }
});
