import { createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transform } from 'node:stream';
import os from 'node:os';
import path from 'node:path';

/**
 * A tiny S3-compatible server for tests: one bucket, path-style PUT/GET/HEAD/DELETE of objects (kept in a temp
 * folder, streamed both ways) and ListObjectsV2 with continuation tokens. Every request must carry a valid AWS
 * SigV4 signature, checked here with code of its own (not the server's signer); a signed payload hash must match
 * the body. Rejections are counted.
 */
export interface S3Emulator {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** requests refused for a bad signature or payload hash */
  rejected: number;
  requests: number;
  /** ListObjectsV2 pages are at most this long (small to test continuation) */
  maxKeys: number;
  close(): Promise<void>;
}

interface Obj {
  file: string;
  size: number;
  type: string;
  modified: Date;
}

const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hex = (d: string | Buffer) => createHash('sha256').update(d).digest('hex');
const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startS3Emulator(o: { bucket?: string; region?: string } = {}): Promise<S3Emulator> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-s3-'));
  const objects = new Map<string, Obj>();
  const em = {
    bucket: o.bucket ?? 'faceadmin-test',
    region: o.region ?? 'us-east-1',
    accessKeyId: 'AKIDEMULATOR',
    secretAccessKey: randomBytes(20).toString('base64'),
    rejected: 0,
    requests: 0,
    maxKeys: 1000,
  };

  /** The signature the request should carry, or a reason it cannot be checked. */
  function expected(req: http.IncomingMessage, url: URL): { ok: boolean; reason?: string } {
    const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      req.headers.authorization ?? '',
    );
    if (!auth) return { ok: false, reason: 'no SigV4 authorization' };
    const [, key, day, region, signed, signature] = auth;
    if (key !== em.accessKeyId || region !== em.region) return { ok: false, reason: 'unknown key or region' };
    const date = String(req.headers['x-amz-date'] ?? '');
    if (!date.startsWith(day!)) return { ok: false, reason: 'date' };
    const when = Date.parse(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`);
    if (!(Math.abs(Date.now() - when) < 15 * 60_000)) return { ok: false, reason: 'request time too skewed' };
    const names = signed!.split(';');
    if (!names.includes('host') || !names.includes('x-amz-date')) return { ok: false, reason: 'host and x-amz-date must be signed' };
    const query = [...url.searchParams.entries()]
      .map(([k, v]) => [enc(k), enc(v)] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const headers = names.map((n) => `${n}:${String(req.headers[n] ?? '').trim()}\n`).join('');
    const canonical = [req.method, url.pathname, query, headers, signed, String(req.headers['x-amz-content-sha256'] ?? '')].join('\n');
    const toSign = `AWS4-HMAC-SHA256\n${date}\n${day}/${region}/s3/aws4_request\n${hex(canonical)}`;
    let k = createHmac('sha256', `AWS4${em.secretAccessKey}`).update(day!).digest();
    for (const part of [region, 's3', 'aws4_request']) k = createHmac('sha256', k).update(part).digest();
    const want = createHmac('sha256', k).update(toSign).digest('hex');
    return want === signature ? { ok: true } : { ok: false, reason: 'signature does not match' };
  }

  const fail = (res: http.ServerResponse, status: number, code: string, message = '') => {
    res.writeHead(status, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${xml(message)}</Message></Error>`);
  };

  const server = http.createServer((req, res) => {
    em.requests++;
    const url = new URL(req.url ?? '/', 'http://emulator');
    const check = expected(req, url);
    if (!check.ok) {
      em.rejected++;
      req.resume();
      return fail(res, 403, 'SignatureDoesNotMatch', check.reason);
    }
    const parts = url.pathname.split('/').slice(1);
    if (decodeURIComponent(parts[0] ?? '') !== em.bucket) return fail(res, 404, 'NoSuchBucket');
    const key = parts.slice(1).map(decodeURIComponent).join('/');
    if (!key) {
      if (req.method !== 'GET' || url.searchParams.get('list-type') !== '2') return fail(res, 400, 'NotImplemented');
      const prefix = url.searchParams.get('prefix') ?? '';
      const after = url.searchParams.get('continuation-token') ? Buffer.from(url.searchParams.get('continuation-token')!, 'base64url').toString() : '';
      const max = Math.min(Number(url.searchParams.get('max-keys') ?? 1000), em.maxKeys);
      const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
      const page = keys.slice(0, max);
      const truncated = keys.length > page.length;
      const items = page
        .map((k) => {
          const obj = objects.get(k)!;
          return `<Contents><Key>${xml(k)}</Key><LastModified>${obj.modified.toISOString()}</LastModified><Size>${obj.size}</Size></Contents>`;
        })
        .join('');
      const next = truncated ? `<NextContinuationToken>${Buffer.from(page[page.length - 1]!).toString('base64url')}</NextContinuationToken>` : '';
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${em.bucket}</Name><Prefix>${xml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><IsTruncated>${truncated}</IsTruncated>${items}${next}</ListBucketResult>`,
      );
    }
    const obj = objects.get(key);
    if (req.method === 'PUT') {
      if (!req.headers['content-length']) return fail(res, 411, 'MissingContentLength');
      const claimed = String(req.headers['x-amz-content-sha256'] ?? '');
      const file = path.join(dir, randomBytes(8).toString('hex'));
      const hash = createHash('sha256');
      let size = 0;
      const out = fs.createWriteStream(file);
      // hashed on the way to the file, with backpressure (a 'data' listener would read the body as fast as it comes)
      const count = new Transform({
        transform(c: Buffer, _e, cb) {
          hash.update(c);
          size += c.length;
          cb(null, c);
        },
      });
      req.pipe(count).pipe(out);
      out.on('finish', () => {
        if (claimed !== 'UNSIGNED-PAYLOAD' && hash.digest('hex') !== claimed) {
          em.rejected++;
          fs.rmSync(file, { force: true });
          return fail(res, 400, 'XAmzContentSHA256Mismatch');
        }
        if (size !== Number(req.headers['content-length'])) return fail(res, 400, 'IncompleteBody');
        if (obj) fs.rmSync(obj.file, { force: true });
        objects.set(key, { file, size, type: String(req.headers['content-type'] ?? 'binary/octet-stream'), modified: new Date() });
        res.writeHead(200, { etag: '"emulated"' });
        res.end();
      });
      return;
    }
    if (req.method === 'DELETE') {
      if (obj) {
        objects.delete(key);
        fs.rmSync(obj.file, { force: true });
      }
      res.writeHead(204);
      return res.end();
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (!obj) return req.method === 'HEAD' ? (res.writeHead(404), res.end()) : fail(res, 404, 'NoSuchKey');
      res.writeHead(200, { 'content-length': obj.size, 'content-type': obj.type, 'last-modified': obj.modified.toUTCString() });
      if (req.method === 'HEAD') return res.end();
      return fs.createReadStream(obj.file).pipe(res);
    }
    return fail(res, 405, 'MethodNotAllowed');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(em, {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  });
}
