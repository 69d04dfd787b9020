import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../apps/server/scripts/pg-cluster.ts';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
const START_LIMIT_MS = 120_000;

export interface RunningServer {
  baseUrl: string;
  /** the server process (a bench reads its CPU time) */
  pid: number;
  stop(): Promise<void>;
  /** Kills the process at once (SIGKILL: no clean close), as a crashed or unplugged machine. */
  kill(): Promise<void>;
  log(): string;
}

/** Starts the real server (apps/server/src/main.ts) on a free port with a fresh data directory; `env` adds settings (e.g. DEVICE_POLL_SECONDS). */
export async function startServer(admin: { username: string; password: string }, env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'faceadmin-e2e-'));
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'apps', 'server', 'src', 'main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      WEB_DIST: path.join(ROOT, 'apps', 'web', 'dist'),
      SCRYPT_LOG2N: '12',
      LOG_LEVEL: 'warn',
      // the embedded MQTT broker on a free port: 1883 may be taken by another server on this machine
      MQTT_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));

  const baseUrl = `http://127.0.0.1:${port}`;
  // Only a hang guard: a demo start seeds its company first (about 8 s of CPU), and beside other journeys and busy
  // processes that can take well over 30 s. An exit is reported at once.
  const deadline = Date.now() + START_LIMIT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/api/management/system/config`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`server did not answer within ${START_LIMIT_MS / 1000} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    baseUrl,
    pid: child.pid!,
    log: () => output,
    async kill() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
