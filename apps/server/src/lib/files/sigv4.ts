import { createHash, createHmac } from 'node:crypto';

/** AWS Signature Version 4 for S3 (path-style requests), on node:crypto alone. */
export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service?: string;
}

export const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
export const EMPTY_SHA256 = sha256Hex('');

/** RFC 3986 encoding as SigV4 wants it: only A–Z a–z 0–9 - . _ ~ stay as they are. */
export const uriEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `20130524T000000Z` */
export const amzDate = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

export interface SignInput {
  method: string;
  /** the path as sent, already encoded segment by segment */
  path: string;
  query: Record<string, string>;
  /** lower-case names; host and x-amz-date included */
  headers: Record<string, string>;
  payloadHash: string;
}

export function canonicalRequest(r: SignInput): { text: string; signedHeaders: string } {
  const query = Object.keys(r.query)
    .sort()
    .map((k) => `${uriEncode(k)}=${uriEncode(r.query[k]!)}`)
    .join('&');
  const names = Object.keys(r.headers)
    .map((h) => h.toLowerCase())
    .sort();
  const canonicalHeaders = names.map((h) => `${h}:${String(r.headers[h]).trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  return { text: [r.method, r.path, query, canonicalHeaders, signedHeaders, r.payloadHash].join('\n'), signedHeaders };
}

/** The Authorization header for a request whose headers carry `x-amz-date` (and `host`). */
export function authorization(creds: SigV4Credentials, r: SignInput): string {
  const date = r.headers['x-amz-date']!;
  const day = date.slice(0, 8);
  const scope = `${day}/${creds.region}/${creds.service ?? 's3'}/aws4_request`;
  const { text, signedHeaders } = canonicalRequest(r);
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(text)].join('\n');
  let key = hmac(`AWS4${creds.secretAccessKey}`, day);
  key = hmac(key, creds.region);
  key = hmac(key, creds.service ?? 's3');
  key = hmac(key, 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}
