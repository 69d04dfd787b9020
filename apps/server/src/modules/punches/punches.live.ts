import { API_PREFIX, DEVICE_OPTION_DEFAULTS, pathOf, personsApi, punchesApi, type LivePunch, type RightKey } from '@faceadmin/shared';
import type { Executor } from '../../db/database.ts';
import { parseJson } from '../../lib/json.ts';
import { publish } from '../live/publish.ts';
import { presentPunch } from './punches.presenter.ts';
import { PUNCH_COLUMNS } from './punches.repository.ts';

/** Punch events are for the people who watch doors or attendance. */
export const PUNCH_RIGHTS: readonly RightKey[] = ['attendance', 'face'];
/** Only records taken this recently are news; an upload of a backlog is not replayed on the guard's screen. */
export const LIVE_AGE_MS = 10 * 60_000;
/** At most this many events per upload (a terminal catching up after an outage sends hundreds at once). */
export const LIVE_PER_UPLOAD = 20;

export interface LiveKey {
  companyId: number;
  deviceId: number;
  pin: string;
  localTime: string;
}

/**
 * Announces punches a group commit just stored (in its transaction, so consoles hear only committed ones): each as
 * a `punch` event with the person's face and departments, plus an `alarm` for a stranger, a fever, alcohol over the
 * device's limit or a red health code. Rows stored earlier (a retried upload) are not announced again: only rows
 * whose created_at is this group's.
 */
export async function publishPunches(trx: Executor, keys: LiveKey[], createdAt: string): Promise<void> {
  if (!keys.length) return;
  const rows = await trx
    .selectFrom('punches as p')
    .leftJoin('persons as u', 'u.id', 'p.person_id')
    .innerJoin('devices as d', 'd.id', 'p.device_id')
    .select([...PUNCH_COLUMNS, 'p.company_id', 'p.health', 'd.options as device_options', 'u.photo as face', 'u.revision'])
    .where('p.created_at', '=', createdAt)
    .where((eb) => eb.or(keys.map((k) => eb.and([eb('p.device_id', '=', k.deviceId), eb('p.pin', '=', k.pin), eb('p.local_time', '=', k.localTime)]))))
    .orderBy('p.time')
    .execute();
  if (!rows.length) return;
  // A refused person's record keeps only their number (it is no punch of theirs): the watchers still see who it was.
  const refusedPins = [...new Set(rows.filter((r) => r.stranger === 2).map((r) => r.pin))];
  if (refusedPins.length) {
    const known = await trx
      .selectFrom('persons')
      .select(['id', 'number', 'name', 'photo', 'revision', 'company_id'])
      .where('company_id', '=', rows[0]!.company_id)
      .where('number', 'in', refusedPins)
      .execute();
    for (const r of rows) {
      const k = r.stranger === 2 ? known.find((x) => x.number === r.pin && x.company_id === r.company_id) : undefined;
      if (k) Object.assign(r, { person_name: k.name, person_number: k.number, face: k.photo, revision: k.revision, refusedId: k.id });
    }
  }
  const who = (r: (typeof rows)[number]) => r.person_id ?? (r as { refusedId?: number }).refusedId ?? null;
  const personIds = [...new Set(rows.map(who).filter((x): x is number => x !== null))];
  const depts = new Map<number, { id: number; name: string }[]>();
  if (personIds.length) {
    const links = await trx
      .selectFrom('person_departments as pd')
      .innerJoin('departments as dp', 'dp.id', 'pd.department_id')
      .select(['pd.person_id', 'dp.id', 'dp.name'])
      .where('pd.person_id', 'in', personIds)
      .execute();
    for (const l of links) (depts.get(l.person_id) ?? depts.set(l.person_id, []).get(l.person_id)!).push({ id: l.id, name: l.name });
  }
  for (const r of rows) {
    const personId = who(r);
    const mine = personId === null ? [] : (depts.get(personId) ?? []);
    const event: LivePunch = {
      ...presentPunch(r),
      // a refused person is named (their record keeps only the number): the watchers see who it was
      person_id: personId,
      face_url: personId !== null && r.face ? `${API_PREFIX}${pathOf(personsApi.photo, { id: personId })}?v=${r.revision ?? 0}` : '',
      department: mine.map((d) => d.name).join(', '),
      department_ids: mine.map((d) => d.id),
      health: r.health,
      refused: r.stranger === 2,
    };
    await publish(trx, r.company_id, 'punch', event, PUNCH_RIGHTS);
    const alarmTemp = Number(parseJson<{ alarmTemp?: number }>(r.device_options, {}).alarmTemp ?? DEVICE_OPTION_DEFAULTS.alarmTemp);
    const alarm = (source: 'stranger' | 'temperature' | 'alcohol' | 'health', value: number | null, kind: string = source) =>
      publish(
        trx,
        r.company_id,
        'alarm',
        {
          source,
          kind,
          subject: event.name || event.number,
          device_id: r.device_id,
          breaker_id: null,
          punch_id: r.id,
          value,
          at: r.time,
        },
        PUNCH_RIGHTS,
      );
    if (r.stranger) await alarm('stranger', null, r.stranger === 2 ? 'refused' : 'unknown');
    if (r.temperature !== null && r.temperature >= alarmTemp) await alarm('temperature', r.temperature);
    if (r.alcohol_over === 1) await alarm('alcohol', r.alcohol);
    if (r.health === 'red') await alarm('health', null);
  }
}

/** A capture photo found its punch: consoles showing that punch add the picture. */
export async function publishPhoto(db: Executor, companyId: number, punchId: number): Promise<void> {
  await publish(db, companyId, 'photo', { id: punchId, pic_url: API_PREFIX + pathOf(punchesApi.photo, { id: punchId }) }, PUNCH_RIGHTS);
}
