import { API_PREFIX, pathOf, punchesApi, type DayStatus } from '@faceadmin/shared';
import type { punchesRepository } from './punches.repository.ts';

type ListRow = Awaited<ReturnType<typeof punchesRepository.list>>['items'][number];
/** The list's rows; other readers (live, dashboard) select the common columns without the dual-authentication ones. */
type Row = Omit<ListRow, 'dual_state' | 'dual_partner_name'> & Partial<Pick<ListRow, 'dual_state' | 'dual_partner_name'>>;
/** The number a record shows: its person's, else the terminal's PIN, where 0 is a terminal's "no one" (shown as none). */
export const shownNumber = (personNumber: string | null, pin: string): string => personNumber ?? (pin === '0' ? '' : pin);

/** Day and time as the terminal saw them (its local clock): what people expect on the record. */
export const presentPunch = (r: Row, result: DayStatus | null = null) => ({
  id: r.id,
  person_id: r.person_id,
  number: shownNumber(r.person_number, r.pin),
  name: r.person_name ?? '',
  device_id: r.device_id,
  device: r.device_name,
  direction: r.direction,
  day: r.local_time.slice(0, 10),
  time: r.local_time.slice(11),
  utc: r.time,
  status: r.status,
  verify: r.verify,
  temperature: r.temperature,
  mask: r.mask,
  alcohol: r.alcohol,
  alcohol_over: r.alcohol_over === 1,
  pic_url: r.photo ? API_PREFIX + pathOf(punchesApi.photo, { id: r.id }) : '',
  // 1 a stranger, 2 a registered person the terminal refused (punches.service STRANGER): neither is a punch of theirs.
  stranger: r.stranger !== 0,
  result,
  ...(r.dual_state !== undefined
    ? { dual_state: (r.dual_state || null) as 'pending' | 'paired' | 'unpaired' | null, dual_partner: r.dual_partner_name ?? null }
    : {}),
});
