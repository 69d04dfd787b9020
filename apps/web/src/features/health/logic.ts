import type { AlcoholExportBody, HealthColor, HealthExportBody } from '@faceadmin/shared';

/** Pure helpers of the health-code and alcohol record pages, unit-tested under node --test. */

interface RangeFilters {
  keyword?: string | undefined;
  device_id?: number | undefined;
  /** the company's calendar days */
  from?: string | undefined;
  to?: string | undefined;
}
export interface HealthFilters extends RangeFilters {
  color?: HealthColor | undefined;
}
export interface AlcoholFilters extends RangeFilters {
  over?: 0 | 1 | undefined;
}

function rangeParams(f: RangeFilters): RangeFilters {
  const out: RangeFilters = {};
  const keyword = f.keyword?.trim();
  if (keyword) out.keyword = keyword;
  if (f.device_id) out.device_id = f.device_id;
  if (f.from) out.from = f.from;
  if (f.to) out.to = f.to;
  return out;
}

/** The list query / export body: empty filters left out. */
export function healthParams(f: HealthFilters): HealthExportBody {
  return { ...rangeParams(f), ...(f.color ? { color: f.color } : {}) } as HealthExportBody;
}
export function alcoholParams(f: AlcoholFilters): AlcoholExportBody {
  return { ...rangeParams(f), ...(f.over === 0 || f.over === 1 ? { over: f.over } : {}) };
}

/** spec §4 health-code colours as tag colours (antd's "gold" reads as yellow on white). */
export const COLOR_TAG: Record<HealthColor, string> = { green: 'green', yellow: 'gold', red: 'red' };
