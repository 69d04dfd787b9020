import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { amzDate, authorization, EMPTY_SHA256, uriEncode } from './sigv4.ts';
import { asStream, checkKey, meter, typeOfKey, type FileInfo, type FileStore } from './store.ts';

export interface S3Settings {
  /** http(s)://host[:port] of the S3-compatible service; buckets are addressed by path (endpoint/bucket/key) */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** keys are stored under this prefix in the bucket ('' by default) */
  prefix?: string;
}

export class S3Error extends Error {
  readonly status: number;
  constructor(status: number, operation: string, body: string) {
    const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1];
    super(`S3 ${operation} answered ${status}${code ? ` ${code}` : ''}`);
    this.status = status;
  }
}

const decodeXml = (s: string) =>
  s.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-f]+);/gi, (_m, e: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
    if (named[e.toLowerCase()]) return named[e.toLowerCase()]!;
    return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });

/**
 * A request with a streamed body, over node:http(s): its pipe waits for the socket (fetch's request body reads
 * the whole file ahead into memory when the peer is slower than the disk). Answered as a fetch Response.
 */
function upload(url: string, method: string, headers: Record<string, string>, body: Readable): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = (url.startsWith('https:') ? https : http).request(url, { method, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.length < 64 && parts.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const status = res.statusCode ?? 502;
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(parts), { status, headers: h }));
      });
    });
    req.on('error', reject);
    pipeline(body, req).catch(reject);
  });
}

/** fetch's body as a Node stream (typed loosely: the DOM and Node typings of a web stream differ). */
const nodeStream = (body: unknown): Readable => Readable.fromWeb(body as WebReadableStream);

/**
 * Files in an S3-compatible bucket (MinIO, Ceph, AWS, …), signed with SigV4 over fetch; no SDK. A stream of unknown
 * length is first spooled to a temp file (S3 wants the length and the hash up front), so nothing is held in memory.
 */
export function s3FileStore(s: S3Settings): FileStore {
  const endpoint = new URL(s.endpoint);
  const base = endpoint.pathname.replace(/\/+$/, '');
  const creds = { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey, region: s.region };
  const objectPath = (key: string) => `${base}/${uriEncode(s.bucket)}/${`${s.prefix ?? ''}${checkKey(key)}`.split('/').map(uriEncode).join('/')}`;

  async function send(
    operation: string,
    method: string,
    p: string,
    o: { query?: Record<string, string>; headers?: Record<string, string>; body?: Readable; payloadHash?: string } = {},
  ) {
    const headers: Record<string, string> = {
      host: endpoint.host,
      'x-amz-date': amzDate(new Date()),
      'x-amz-content-sha256': o.payloadHash ?? EMPTY_SHA256,
      ...o.headers,
    };
    const query = o.query ?? {};
    headers.authorization = authorization(creds, { method, path: p, query, headers, payloadHash: headers['x-amz-content-sha256']! });
    const qs = Object.entries(query)
      .map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`)
      .join('&');
    const { host: _host, ...sent } = headers;
    const url = `${endpoint.origin}${p}${qs ? `?${qs}` : ''}`;
    const res = o.body ? await upload(url, method, sent, o.body) : await fetch(url, { method, headers: sent });
    return { res, fail: async () => new S3Error(res.status, operation, await res.text().catch(() => '')) };
  }

  const infoOf = (res: Response): FileInfo => ({
    size: Number(res.headers.get('content-length') ?? 0),
    contentType: res.headers.get('content-type') ?? 'application/octet-stream',
    modifiedAt: Date.parse(res.headers.get('last-modified') ?? '') || 0,
  });

  return {
    kind: 's3',
    async put(key, data, opts = {}) {
      const p = objectPath(key);
      const m = meter(opts.maxBytes);
      let tmp: string | undefined;
      let body: Readable;
      if (Buffer.isBuffer(data)) {
        await pipeline(asStream(data), m.stream, async function* (src) {
          for await (const _ of src);
        });
        body = Readable.from([data]);
      } else {
        tmp = path.join(os.tmpdir(), `fa-s3-${randomBytes(8).toString('hex')}`);
        try {
          await pipeline(data, m.stream, fs.createWriteStream(tmp, { mode: 0o600 }));
        } catch (e) {
          await fs.promises.rm(tmp, { force: true });
          throw e;
        }
        body = fs.createReadStream(tmp);
      }
      const r = m.result();
      try {
        const { res, fail } = await send('PutObject', 'PUT', p, {
          headers: { 'content-length': String(r.size), 'content-type': opts.contentType ?? typeOfKey(key) },
          body,
          payloadHash: r.sha256,
        });
        if (!res.ok) throw await fail();
        await res.body?.cancel();
      } finally {
        if (tmp) await fs.promises.rm(tmp, { force: true });
      }
      return r;
    },
    async get(key) {
      const { res, fail } = await send('GetObject', 'GET', objectPath(key));
      if (res.status === 404) {
        await res.body?.cancel();
        return undefined;
      }
      if (!res.ok || !res.body) throw await fail();
      return { ...infoOf(res), stream: nodeStream(res.body) };
    },
    async head(key) {
      const { res } = await send('HeadObject', 'HEAD', objectPath(key));
      if (res.status === 404) return undefined;
      if (!res.ok) throw new S3Error(res.status, 'HeadObject', '');
      return infoOf(res);
    },
    async delete(key) {
      const { res, fail } = await send('DeleteObject', 'DELETE', objectPath(key));
      if (!res.ok && res.status !== 404) throw await fail();
      await res.body?.cancel();
    },
    async *list(prefix) {
      let token: string | undefined;
      const strip = (s.prefix ?? '').length;
      do {
        const query: Record<string, string> = { 'list-type': '2', prefix: `${s.prefix ?? ''}${prefix}`, 'max-keys': '1000' };
        if (token) query['continuation-token'] = token;
        const { res, fail } = await send('ListObjectsV2', 'GET', `${base}/${uriEncode(s.bucket)}`, { query });
        if (!res.ok) throw await fail();
        const xml = await res.text();
        for (const [, item] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
          const field = (name: string) => decodeXml(new RegExp(`<${name}>([^<]*)</${name}>`).exec(item!)?.[1] ?? '');
          yield { key: field('Key').slice(strip), size: Number(field('Size')), modifiedAt: Date.parse(field('LastModified')) || 0 };
        }
        token = /<IsTruncated>true<\/IsTruncated>/.test(xml) ? decodeXml(/<NextContinuationToken>([^<]*)</.exec(xml)?.[1] ?? '') || undefined : undefined;
      } while (token);
    },
  };
}
