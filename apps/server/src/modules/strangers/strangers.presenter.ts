import { API_PREFIX, pathOf, strangersApi, type Stranger } from '@faceadmin/shared';
import type { StrangerRow } from './strangers.repository.ts';

/** Day and time as the terminal saw them (its clock); a refused person by name, an unknown face without one. */
export const presentStranger = (r: StrangerRow): Stranger => ({
  id: r.id,
  device_id: r.device_id,
  device: r.device_name,
  day: r.local_time.slice(0, 10),
  time: r.local_time.slice(11),
  utc: r.time,
  kind: r.stranger === 2 && r.person_id !== null ? 'refused' : 'unknown',
  person_id: r.stranger === 2 ? r.person_id : null,
  name: r.stranger === 2 ? (r.person_name ?? '') : '',
  number: r.pin === '0' ? '' : r.pin,
  temperature: r.temperature,
  pic_url: r.photo ? API_PREFIX + pathOf(strangersApi.photo, { id: r.id }) : '',
});
