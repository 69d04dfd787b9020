import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { mosquittoAcl } from '../src/gateways/mqtt/index.ts';
import { mosquittoHash } from '../src/gateways/mqtt/transport.ts';

/**
 * A real Mosquitto for the breaker suite: ephemeral port, the ACL and password files the server maintains, a pid
 * file for the server's SIGHUP. `findMosquitto()` is null when the binary is absent (the suite then skips with a
 * message locally; under CI=true that is a failure, see breakers.test.ts).
 */
export function findMosquitto(): string | null {
  for (const p of ['/usr/sbin/mosquitto', '/usr/bin/mosquitto', '/usr/local/sbin/mosquitto', '/usr/local/bin/mosquitto']) if (fs.existsSync(p)) return p;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, 'mosquitto');
    if (dir && fs.existsSync(p)) return p;
  }
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address() as net.AddressInfo;
      s.close(() => resolve(a.port));
    });
  });
}

export interface Mosquitto {
  url: string;
  /** the server's environment for this broker */
  env: Record<string, string>;
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}

export async function startMosquitto(bin: string): Promise<Mosquitto> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-mosq-'));
  const port = await freePort();
  const user = 'faceadmin';
  const password = randomBytes(12).toString('hex');
  const passwd = path.join(dir, 'passwd');
  const acl = path.join(dir, 'acl');
  const pidFile = path.join(dir, 'pid');
  fs.writeFileSync(passwd, `${user}:${mosquittoHash(password)}\n`, { mode: 0o600 });
  fs.writeFileSync(acl, mosquittoAcl(user), { mode: 0o600 });
  const conf = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `password_file ${passwd}`,
      `acl_file ${acl}`,
      // docs/breaker-protocol.md §1: a device's client id is its user name (its uuid), whatever it sends.
      'use_username_as_clientid true',
      'persistence false',
      // Request/reply frames are small: without this, Nagle's algorithm holds each for a delayed ACK (~40 ms).
      'set_tcp_nodelay true',
      'log_dest none',
      // As root, Mosquitto would drop to the mosquitto user and could not reread files the server wrote 0600.
      ...(process.getuid?.() === 0 ? ['user root'] : []),
      '',
    ].join('\n'),
  );
  let child!: ChildProcess;
  let stderr = '';
  async function run() {
    child = spawn(bin, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    fs.writeFileSync(pidFile, String(child.pid));
    // Ready when the port accepts connections.
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`mosquitto exited: ${stderr}`);
      const ok = await new Promise<boolean>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => {
          s.end();
          resolve(true);
        });
        s.on('error', () => resolve(false));
      });
      if (ok) break;
      if (i > 100) throw new Error(`mosquitto did not listen on ${port}: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  async function halt() {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await run();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    env: {
      MQTT_URL: `mqtt://127.0.0.1:${port}`,
      MQTT_USERNAME: user,
      MQTT_PASSWORD: password,
      MQTT_PASSWORD_FILE: passwd,
      MQTT_ACL_FILE: acl,
      MQTT_RELOAD_PID_FILE: pidFile,
    },
    /** The broker goes away (its files stay): every client loses its connection. */
    down: halt,
    /** The broker is back on the same port, with the same files (nothing retained survives: persistence is off). */
    up: run,
    async stop() {
      await halt();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
