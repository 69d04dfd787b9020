import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures (docs/api-integrations.md), the way Stripe and GitHub sign: HMAC-SHA256 with the endpoint's
 * secret over `${timestamp}.${body}`, sent as `X-FaceAdmin-Signature: t=<timestamp>,v1=<hex>` beside
 * `X-FaceAdmin-Timestamp` (Unix seconds) and `X-FaceAdmin-Event-Id`. The timestamp in the signed text is what lets a
 * receiver refuse a replayed delivery (older than its tolerance).
 */
export const SIGNATURE_HEADER = 'x-faceadmin-signature';
export const TIMESTAMP_HEADER = 'x-faceadmin-timestamp';
export const EVENT_ID_HEADER = 'x-faceadmin-event-id';
export const EVENT_TYPE_HEADER = 'x-faceadmin-event';

export const signatureOf = (secret: string, timestamp: number, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

export function signedHeaders(secret: string, timestamp: number, body: string, eventId: string, type: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'FaceAdmin-Webhooks/1',
    [TIMESTAMP_HEADER]: String(timestamp),
    [EVENT_ID_HEADER]: eventId,
    [EVENT_TYPE_HEADER]: type,
    [SIGNATURE_HEADER]: `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`,
  };
}

/** What a receiver does (the docs' snippet, tested): the signature matches and the timestamp is recent. */
export function verifySignature(secret: string, header: string, body: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=') as [string, string]));
  const ts = Number(parts.t);
  if (!Number.isInteger(ts) || Math.abs(nowSeconds - ts) > toleranceSeconds || !parts.v1) return false;
  const expected = Buffer.from(signatureOf(secret, ts, body), 'hex');
  const got = Buffer.from(parts.v1, 'hex');
  return got.length === expected.length && timingSafeEqual(got, expected);
}
