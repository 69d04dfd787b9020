import type { PunchExportBody } from '@faceadmin/shared';

/** Pure helpers of the punch-records page, unit-tested under node --test. */

export interface PunchFilters {
  keyword?: string | undefined;
  device_id?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
  stranger?: 0 | 1 | undefined;
}

/** The list query / export body, empty filters left out (dates are the company's days, as the server reads them). */
export function punchParams(f: PunchFilters): PunchExportBody {
  const out: PunchExportBody = {};
  const keyword = f.keyword?.trim();
  if (keyword) out.keyword = keyword;
  if (f.device_id) out.device_id = f.device_id;
  if (f.from) out.from = f.from;
  if (f.to) out.to = f.to;
  if (f.stranger) out.stranger = 1;
  return out;
}

/** Temperature / alcohol cells: empty when the device measured nothing. */
export function measure(value: number | null | undefined, digits: number, unit: string): string {
  return value === null || value === undefined ? '' : `${value.toFixed(digits)}${unit}`;
}
