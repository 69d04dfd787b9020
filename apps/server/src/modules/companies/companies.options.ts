import type { CompanyInput, CompanyOptions } from '@faceadmin/shared';
import { parseJson } from '../../lib/json.ts';
import type { CompanyRow } from './companies.repository.ts';

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

export function mergeOptions(base: CompanyOptions, patch: CompanyInput['options']): CompanyOptions {
  return { ...base, ...(patch ?? {}), parking: { ...base.parking, ...(patch?.parking ?? {}) } };
}

export function optionsOf(row: CompanyRow): CompanyOptions {
  return mergeOptions(DEFAULT_OPTIONS, parseJson<Partial<CompanyOptions>>(row.options, {}));
}
