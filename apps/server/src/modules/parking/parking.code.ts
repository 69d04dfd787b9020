import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signed code a parking operator puts in the /dzg link (docs/api-parking.md): base64url of the JSON payload,
 * a dot, base64url of HMAC-SHA256 over that first part with the company's shared secret. Pure: no clock, no store.
 */
export interface ParkingCodePayload {
  v: 1;
  company_id: number;
  /** the operator's account / lot id being bound */
  dzg_id: string;
  /** shown to the user; optional */
  lot_name?: string;
  /** unique per code: a code binds once */
  nonce: string;
  /** Unix seconds */
  exp: number;
}

/** Codes live at most this long (an operator asking for more gets the code refused as expired past it). */
export const MAX_CODE_LIFETIME_S = 24 * 3600;

export const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest();

export function signParkingCode(payload: ParkingCodePayload, secret: string): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${hmac(secret, body).toString('base64url')}`;
}

/** The payload without trusting it (to find whose secret verifies it); undefined when it is not one. */
export function readParkingCode(code: string): ParkingCodePayload | undefined {
  const [body, sig, extra] = code.split('.');
  if (!body || !sig || extra !== undefined) return undefined;
  try {
    const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<ParkingCodePayload>;
    if (p.v !== 1 || !Number.isSafeInteger(p.company_id) || (p.company_id ?? 0) < 1) return undefined;
    if (typeof p.dzg_id !== 'string' || !/^[A-Za-z0-9_.:-]{1,64}$/.test(p.dzg_id)) return undefined;
    if (typeof p.nonce !== 'string' || !/^[A-Za-z0-9_-]{8,64}$/.test(p.nonce)) return undefined;
    if (!Number.isSafeInteger(p.exp)) return undefined;
    if (p.lot_name !== undefined && (typeof p.lot_name !== 'string' || p.lot_name.length > 100)) return undefined;
    return p as ParkingCodePayload;
  } catch {
    return undefined;
  }
}

/** Whether the signature is the secret's (constant time). */
export function signatureValid(code: string, secret: string): boolean {
  const [body, sig] = code.split('.');
  if (!body || !sig || !secret) return false;
  const given = Buffer.from(sig, 'base64url');
  const expected = hmac(secret, body);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The headers of a push to the operator: `t=<unix s>` and `sha256=<hex HMAC over "<t>.<body>">`, like Stripe's. */
export function pushHeaders(secret: string, body: string, nowS: number): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-faceadmin-timestamp': String(nowS),
    'x-faceadmin-signature': `sha256=${createHmac('sha256', secret).update(`${nowS}.${body}`).digest('hex')}`,
  };
}
