import type { CompanyInput, CompanyOptions, CompanyOptionsView } from '@faceadmin/shared';
import type { Executor } from '../../db/database.ts';
import { parseJson } from '../../lib/json.ts';
import { companiesRepository, type CompanyRow } from './companies.repository.ts';

export const DEFAULT_OPTIONS: CompanyOptions = {
  iocount: 0,
  rfid: 0,
  idcard: 0,
  number: 1,
  alarmRing: 0,
  thirdParty: 0,
  parking: { enabled: 0, url: '', key: '' },
  dualAuth: 0,
  internalTesting: 0,
};
export const DEFAULT_FILTER_SECONDS = 60;

/** A blank parking key keeps the stored one (the console never receives it, so it cannot send it back). */
export function mergeOptions(base: CompanyOptions, patch: CompanyInput['options']): CompanyOptions {
  const parking = { ...(patch?.parking ?? {}) };
  if (!parking.key?.trim()) delete parking.key;
  return { ...base, ...(patch ?? {}), parking: { ...base.parking, ...parking } };
}

/** What the API shows: the shared secret only as set / not set. */
export function viewOptions(o: CompanyOptions): CompanyOptionsView {
  return { ...o, parking: { enabled: o.parking.enabled, url: o.parking.url, key_set: o.parking.key !== '' } };
}

/** The options as the operation log keeps them: never the parking secret itself. */
export function auditedOptions(patch: NonNullable<CompanyInput['options']>): Record<string, unknown> {
  if (!patch.parking || patch.parking.key === undefined) return patch;
  const { key, ...parking } = patch.parking;
  return { ...patch, parking: { ...parking, ...(key.trim() ? { key_set: true } : {}) } };
}

export function optionsOf(row: Pick<CompanyRow, 'options'>): CompanyOptions {
  return mergeOptions(DEFAULT_OPTIONS, parseJson<Partial<CompanyOptions>>(row.options, {}));
}

/** The company's options as stored (features that switch on them read this; the API shows `viewOptions`). */
export async function loadOptions(db: Executor, companyId: number): Promise<CompanyOptions> {
  const row = await companiesRepository.find(db, companyId);
  return row ? optionsOf(row) : DEFAULT_OPTIONS;
}

/**
 * spec §3 Company options rfid / idcard / number: with the option on, the person's card number or ID-card number
 * is shown and required (form, import, export); off, hidden and not asked for. The person number is different:
 * every person has one (it is the terminal's PIN), so the server proposes the next free one when it is omitted,
 * whatever the option; the option (on by default) only decides whether the console shows and asks for it.
 */
export const PERSON_OPTION_FIELDS = ['rfid', 'idcard'] as const;
export const requiredPersonFields = (o: CompanyOptions) => PERSON_OPTION_FIELDS.filter((f) => o[f] === 1);
