import { API_PREFIX, pathOf, punchesApi, type AlcoholRecord, type HealthRecord } from '@faceadmin/shared';
import type { healthRepository } from './health.repository.ts';
import { shownNumber } from './punches.presenter.ts';

type HealthRow = Awaited<ReturnType<typeof healthRepository.list>>['items'][number];
type AlcoholRow = Awaited<ReturnType<typeof healthRepository.alcohol>>['items'][number];

const photoUrl = (punchId: number | null, photo: string | null) => (punchId && photo ? API_PREFIX + pathOf(punchesApi.photo, { id: punchId }) : '');

/** Day and time as the terminal saw them (its local clock), like the punch records. */
export const presentHealth = (r: HealthRow): HealthRecord => ({
  id: r.id,
  person_id: r.person_id,
  number: shownNumber(r.person_number, r.pin),
  name: r.name || (r.person_name ?? ''),
  id_number: r.id_number,
  device_id: r.device_id,
  device: r.device_name,
  place: r.place,
  day: r.local_time.slice(0, 10),
  time: r.local_time.slice(11),
  utc: r.time,
  temperature: r.temperature,
  color: (r.color as HealthRecord['color']) ?? null,
  nat_time: r.nat_time,
  nat_result: r.nat_result as HealthRecord['nat_result'],
  trip: r.trip,
  vaccine_count: r.vaccine_count,
  vaccine_time: r.vaccine_time,
  pic_url: photoUrl(r.punch_id, r.photo),
});

export const presentAlcohol = (r: AlcoholRow): AlcoholRecord => ({
  id: r.id,
  person_id: r.person_id,
  number: shownNumber(r.person_number, r.pin),
  name: r.person_name ?? '',
  device_id: r.device_id,
  device: r.device_name,
  day: r.local_time.slice(0, 10),
  time: r.local_time.slice(11),
  utc: r.time,
  alcohol: r.alcohol ?? 0,
  over: r.alcohol_over === 1,
  temperature: r.temperature,
  pic_url: photoUrl(r.id, r.photo),
});
