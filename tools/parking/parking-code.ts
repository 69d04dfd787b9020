/**
 * Prints a signed /dzg link for a company, as a parking operator would make it (docs/api-parking.md). For humans
 * trying the binding and for the e2e journey. Self-contained on purpose: it is the operator's reference code.
 *
 *   node tools/parking/parking-code.ts --company 3 --secret 'the shared key' --dzg LOT-7 [--lot "North Lot"]
 *        [--base http://localhost:8080] [--ttl 600]
 */
import { createHmac, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

export interface CodeInput {
  companyId: number;
  secret: string;
  dzgId: string;
  lotName?: string;
  /** seconds the code stays valid (the server refuses more than a day) */
  ttl?: number;
  nowS?: number;
}

/** base64url(JSON payload) "." base64url(HMAC-SHA256(secret, first part)) */
export function parkingCode(i: CodeInput): string {
  const now = i.nowS ?? Math.floor(Date.now() / 1000);
  const payload = {
    v: 1,
    company_id: i.companyId,
    dzg_id: i.dzgId,
    ...(i.lotName ? { lot_name: i.lotName } : {}),
    nonce: randomBytes(16).toString('base64url'),
    exp: now + (i.ttl ?? 600),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const sig = createHmac('sha256', i.secret).update(body).digest('base64url');
  return `${body}.${sig}`;
}

export const parkingLink = (base: string, code: string) => `${base.replace(/\/+$/, '')}/dzg?code=${encodeURIComponent(code)}`;

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      company: { type: 'string' },
      secret: { type: 'string' },
      dzg: { type: 'string' },
      lot: { type: 'string' },
      base: { type: 'string', default: 'http://localhost:8080' },
      ttl: { type: 'string', default: '600' },
    },
  });
  const companyId = Number(values.company);
  if (!Number.isInteger(companyId) || companyId < 1 || !values.secret || !values.dzg) {
    console.error('usage: node tools/parking/parking-code.ts --company ID --secret KEY --dzg ACCOUNT [--lot NAME] [--base URL] [--ttl S]');
    process.exit(2);
  }
  const code = parkingCode({ companyId, secret: values.secret, dzgId: values.dzg, lotName: values.lot, ttl: Number(values.ttl) });
  console.log(parkingLink(values.base, code));
}
