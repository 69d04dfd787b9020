import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findPgBin, freePort, startCluster, type Cluster as PgCluster } from '../../apps/server/scripts/pg-cluster.ts';
import { ROOT, startServer, type RunningServer } from './server.ts';

export const NGINX = '/usr/sbin/nginx';

export interface RunningCluster {
  /** the address the browser and the terminals use: nginx */
  baseUrl: string;
  servers: RunningServer[];
  /** nginx's error log (a journey prints it when a step fails) */
  nginxLog(): string;
  stop(): Promise<void>;
}

/**
 * The deployment of docs/deploy.md on one machine: a throwaway PostgreSQL, `count` server instances on it (each with
 * its own DATA_DIR, as on separate machines, sharing DEVICE_SECRET_KEY), and Debian's nginx in front of them with the
 * shipped docs/nginx-faceadmin.conf (its HTTPS server, on a free port over plain HTTP: TLS is not what is tested).
 */
export async function startNginxCluster(admin: { username: string; password: string }, env: Record<string, string> = {}, count = 2): Promise<RunningCluster> {
  const bin = findPgBin();
  if (!bin) throw new Error('PostgreSQL binaries not found (npm test installs postgresql)');
  const pg: PgCluster = await startCluster(bin);
  const servers: RunningServer[] = [];
  let front: NginxFront | undefined;
  const stop = async () => {
    await front?.stop();
    for (const s of servers) await s.stop();
    pg.stop();
  };
  try {
    const shared = {
      DATABASE_URL: pg.url,
      DEVICE_SECRET_KEY: randomBytes(32).toString('base64'),
      TRUST_PROXY: '127.0.0.1',
      ...env,
    };
    // One after the other: the first creates the schema and the installed administrator.
    for (let i = 0; i < count; i++) servers.push(await startServer(admin, shared));
    front = await startNginx(servers.map((s) => new URL(s.baseUrl).host));
    return { baseUrl: front.baseUrl, servers, nginxLog: front.log, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

export interface NginxFront {
  /** where nginx listens (plain HTTP on loopback) */
  baseUrl: string;
  /** what nginx wrote to stderr and its error log */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Debian's nginx with the shipped docs/nginx-faceadmin.conf in front of `upstreams` (host:port each), on a free port:
 * one worker, its own folder for pid, logs and spooled bodies. Several fronts may run at once (a bench puts one before
 * each subset of the same instances).
 */
export async function startNginx(upstreams: string[]): Promise<NginxFront> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'faceadmin-nginx-'));
  let nginx: ChildProcess | undefined;
  const stop = async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((r) => nginx!.once('exit', r));
      nginx.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (nginx.exitCode === null && nginx.signalCode === null) {
        nginx.kill('SIGKILL');
        await exited;
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    // nginx's workers drop root for nobody: the folders they spool request bodies to must be theirs to write.
    fs.chmodSync(dir, 0o755);
    for (const sub of ['body', 'proxy', 'fcgi', 'uwsgi', 'scgi']) {
      fs.mkdirSync(path.join(dir, sub));
      fs.chmodSync(path.join(dir, sub), 0o777);
    }
    const port = await freePort();
    const conf = siteConfig(fs.readFileSync(path.join(ROOT, 'docs', 'nginx-faceadmin.conf'), 'utf8'), port, upstreams);
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      [
        'worker_processes 1;',
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/error.log warn;`,
        'events { worker_connections 1024; }',
        'http {',
        `  access_log off;`,
        `  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;`,
        conf,
        '}',
      ].join('\n'),
    );
    nginx = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    nginx.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (nginx.exitCode !== null) throw new Error(`nginx exited with ${nginx.exitCode}: ${out}`);
      const ok = await fetch(`${baseUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`nginx did not answer: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return {
      baseUrl,
      log: () => out + (fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : ''),
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * The shipped site configuration made local: its upstream lists these instances, its HTTPS server listens on `port`
 * without TLS, and the plain-HTTP server (the redirect to HTTPS) is left out.
 */
export function siteConfig(text: string, port: number, upstreams: string[]): string {
  const servers = [...text.matchAll(/^server \{[\s\S]*?^\}/gm)].map((m) => m[0]);
  const https = servers.find((s) => /listen 443/.test(s));
  if (!https) throw new Error('docs/nginx-faceadmin.conf has no HTTPS server');
  const upstream = /^upstream faceadmin \{[\s\S]*?^\}/m.exec(text)?.[0];
  const map = /^map [\s\S]*?^\}/m.exec(text)?.[0] ?? '';
  if (!upstream) throw new Error('docs/nginx-faceadmin.conf has no upstream');
  const up = upstream
    .replace(/^\s*server [^\n]*\n/gm, '')
    .replace(/\{\n/, `{\n${upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=5s;`).join('\n')}\n`);
  const site = https
    .split('\n')
    .filter((l) => !/^\s*(ssl_|add_header Strict-Transport-Security|listen \[::\])/.test(l))
    .map((l) => (/^\s*listen 443/.test(l) ? `    listen 127.0.0.1:${port};` : l))
    .join('\n')
    .replace(/server_name [^;]*;/, 'server_name _;');
  return [up, map, site].join('\n\n');
}
