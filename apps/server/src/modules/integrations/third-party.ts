import { CODES, DEFAULT_TIME_ZONE, type CompanyOptions } from '@faceadmin/shared';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { webhooksRepository } from './integrations.repository.ts';

/** Integrations exist only while the company's option thirdParty is on (spec §3 Company, §6). */
export async function requireThirdParty(db: Executor, companyId: number): Promise<{ zone: string }> {
  const c = await webhooksRepository.companyOptions(db, companyId);
  if (!c || !parseJson<Partial<CompanyOptions>>(c.options, {}).thirdParty) throw new AppError(CODES.NO_AUTHORITY, 403, 'errors.thirdPartyOff');
  return { zone: c.time_zone ?? DEFAULT_TIME_ZONE };
}

const formats = new Map<string, Intl.DateTimeFormat>();
/** The calendar day of an instant in a zone ('YYYY-MM-DD'): a key's expiry date is a day of its company. */
export function dayIn(zone: string, ms: number): string {
  let f = formats.get(zone);
  if (!f) formats.set(zone, (f = new Intl.DateTimeFormat('en-CA', { timeZone: zone })));
  return f.format(new Date(ms));
}
