/**
 * A process to be killed (test/killed-leader.test.ts): on the PostgreSQL database of argv[2] it takes the role
 * argv[3] and starts the exclusive job argv[4], whose run never ends; it prints "holding" once it holds both and then
 * waits for its SIGKILL (no clean close: the locks go only because its sessions die with it).
 */
import { openDatabase } from '../src/db/database.ts';
import { leadership } from '../src/db/leader.ts';
import { createScheduler, postgresJobLock } from '../src/jobs/scheduler.ts';

const [url, role, job] = process.argv.slice(2) as [string, string, string];
const database = openDatabase({ dataDir: '', databaseUrl: url });
const log = { warn: () => undefined, info: () => undefined, error: () => undefined, debug: () => undefined };
const held = leadership(database, role, log);
await held.start();
if (!held.held) throw new Error('the role was not free');
const pool = database.pgPool!;
const jobs = createScheduler({ log, lock: postgresJobLock(() => pool.connect()) });
let entered!: () => void;
const running = new Promise<void>((r) => (entered = r));
jobs.add({ name: job, exclusive: true, run: () => (entered(), new Promise<void>(() => undefined)) });
void jobs.runNow(job);
await running;
process.stdout.write('holding\n');
setInterval(() => undefined, 1 << 30);
