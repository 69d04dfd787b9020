// Minimal PUSH server used by the emulator's own tests (not a reference server).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface FakeServerOptions {
  /** Lines after `GET OPTION FROM: <SN>` in the §5 reply. */
  options?: Record<string, string>;
  /** Refuse the §5 exchange for these serial numbers (reply a plain error). */
  refuse?: string[];
}

export interface FakeServer {
  url: string;
  requests: SeenRequest[];
  /** Options served by §5 (mutable). */
  options: Record<string, string>;
  /** Queue raw command texts (after `C:<id>:`) for a SN; returns the ids. */
  queue(sn: string, ...commands: string[]): string[];
  /** Raw devicecmd bodies received. */
  results: string[];
  /** Make the next n POSTs to /iclock/cdata with this table answer HTTP 500. */
  failNext(table: string, n: number): void;
  /** Custom handler for static files (BIOPHOTO Url=). */
  files: Map<string, Buffer>;
  uploads(table: string): SeenRequest[];
  /** Encoder of getrequest bodies (default UTF-8; set to a GB2312 encoder to talk to a language-83 device). */
  encode: (text: string) => Buffer;
  waitFor(pred: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeServer(opts: FakeServerOptions = {}): Promise<FakeServer> {
  const requests: SeenRequest[] = [];
  const results: string[] = [];
  const queues = new Map<string, string[]>();
  const failing = new Map<string, number>();
  const files = new Map<string, Buffer>();
  const options: Record<string, string> = { ...(opts.options ?? {}) };
  let nextId = 1;

  const send = (res: ServerResponse, status: number, body: string | Buffer) => {
    const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    res.writeHead(status, { 'Content-Type': 'text/plain', 'Content-Length': buf.length, Date: new Date().toUTCString() });
    res.end(buf);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const seen: SeenRequest = { method: req.method ?? '', path: u.pathname, query: u.searchParams, headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(seen);
      const sn = u.searchParams.get('SN') ?? '';
      if (files.has(u.pathname)) return send(res, 200, files.get(u.pathname)!);
      if (u.pathname === '/iclock/cdata' && req.method === 'GET' && u.searchParams.get('options') === 'all') {
        if (opts.refuse?.includes(sn)) return send(res, 200, 'unknown device');
        const lines = [`GET OPTION FROM: ${sn}`, ...Object.entries(options).map(([k, v]) => `${k}=${v}`)];
        return send(res, 200, lines.join('\n'));
      }
      if (u.pathname === '/iclock/getrequest') {
        const q = queues.get(sn) ?? [];
        queues.set(sn, []);
        return send(res, 200, q.length ? fake.encode(q.join('\n') + '\n') : 'OK');
      }
      if (u.pathname === '/iclock/devicecmd') {
        results.push(seen.body.toString('utf8'));
        return send(res, 200, 'OK');
      }
      if (u.pathname === '/iclock/cdata' && req.method === 'POST') {
        const table = u.searchParams.get('table') ?? '';
        const f = failing.get(table) ?? 0;
        if (f > 0) {
          failing.set(table, f - 1);
          return send(res, 500, 'busy');
        }
        if (table === 'ATTLOG' || table === 'OPERLOG') {
          const n = seen.body.toString('utf8').split('\n').filter(Boolean).length;
          return send(res, 200, `OK: ${n}`);
        }
        return send(res, 200, 'OK');
      }
      send(res, 404, 'not found');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const fake: FakeServer = {
    encode: (text) => Buffer.from(text, 'utf8'),
    url: `http://127.0.0.1:${port}`,
    requests,
    options,
    results,
    files,
    queue(sn, ...commands) {
      const q = queues.get(sn) ?? [];
      const ids: string[] = [];
      for (const c of commands) {
        const id = String(nextId++);
        ids.push(id);
        q.push(`C:${id}:${c}`);
      }
      queues.set(sn, q);
      return ids;
    },
    failNext(table, n) {
      failing.set(table, n);
    },
    uploads(table) {
      return requests.filter((r) => r.method === 'POST' && r.path === '/iclock/cdata' && r.query.get('table') === table);
    },
    async waitFor(pred, timeoutMs = 3000, what = 'condition') {
      const until = Date.now() + timeoutMs;
      while (!pred()) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
