import { API_PREFIX, DEVICE_OPTION_DEFAULTS, pathOf, personsApi, punchesApi, type LivePunch, type RightKey } from '@faceadmin/shared';
import { recordChanges } from '../../db/changes.ts';
import type { Executor } from '../../db/database.ts';
import { chunks } from '../../lib/chunks.ts';
import { parseJson } from '../../lib/json.ts';
import { publish, tapWants } from '../live/publish.ts';
import { presentPunch } from './punches.presenter.ts';
import { PUNCH_COLUMNS } from './punches.repository.ts';

/** Punch events are for the people who watch doors or attendance. */
export const PUNCH_RIGHTS: readonly RightKey[] = ['attendance', 'face'];
/** Only records taken this recently are news; an upload of a backlog is not replayed on the guard's screen. */
export const LIVE_AGE_MS = 10 * 60_000;
/** At most this many events per upload (a terminal catching up after an outage sends hundreds at once). */
export const LIVE_PER_UPLOAD = 20;

/** A punch a write just stored (insertIgnore's answer: duplicates of stored rows are not among them). */
export interface StoredKey {
  id: number;
  company_id: number;
}

/**
 * Announces punches a write just stored, in its transaction (consoles and integrators hear only committed ones, and a
 * retried upload, storing nothing, announces nothing):
 * - every one to the integrators: the changes feed, and a `punch` (or `stranger`) webhook whatever its age;
 * - those in `live` (what the watchers' screens take as news: taken just now, a few per upload) to the consoles as a
 *   `punch` event, with an `alarm` for a stranger, a fever, alcohol over the device's limit or a red health code.
 * Each event says when the record reached the server and whether it came late (a backlog), and names a visitor's
 * invitation; they go out in the terminals' order (by time, per device).
 */
export async function announcePunches(trx: Executor, stored: readonly StoredKey[], live: ReadonlySet<number>): Promise<void> {
  if (!stored.length) return;
  const byCompany = new Map<number, number[]>();
  for (const s of stored) (byCompany.get(s.company_id) ?? byCompany.set(s.company_id, []).get(s.company_id)!).push(s.id);
  const wanted: number[] = [];
  const tapped = new Set<number>();
  for (const [companyId, ids] of byCompany) {
    await recordChanges(
      trx,
      companyId,
      'punch',
      ids.map((ref) => ({ ref })),
    );
    const tap = await tapWants(trx, companyId, 'punch');
    for (const id of ids) {
      if (tap) tapped.add(id);
      if (tap || live.has(id)) wanted.push(id);
    }
  }
  if (!wanted.length) return;
  for (const { event, row } of await punchEvents(trx, wanted)) {
    const toLive = live.has(row.id);
    await publish(trx, row.company_id, 'punch', event, PUNCH_RIGHTS, null, toLive && tapped.has(row.id) ? 'all' : toLive ? 'live' : 'tap');
    if (!toLive) continue;
    const alarmTemp = Number(parseJson<{ alarmTemp?: number }>(row.device_options, {}).alarmTemp ?? DEVICE_OPTION_DEFAULTS.alarmTemp);
    const alarm = (source: 'stranger' | 'temperature' | 'alcohol' | 'health', value: number | null, kind: string = source) =>
      publish(
        trx,
        row.company_id,
        'alarm',
        {
          source,
          kind,
          subject: event.name || event.number,
          device_id: row.device_id,
          breaker_id: null,
          punch_id: row.id,
          value,
          at: row.time,
        },
        PUNCH_RIGHTS,
      );
    // refused: a person of the company's; a PIN it does not know is an unknown, as on the strangers page
    if (row.stranger) await alarm('stranger', null, event.refused ? 'refused' : 'unknown');
    if (row.temperature !== null && row.temperature >= alarmTemp) await alarm('temperature', row.temperature);
    if (row.alcohol_over === 1) await alarm('alcohol', row.alcohol);
    if (row.health === 'red') await alarm('health', null);
  }
}

/**
 * Stored punches as the live stream and webhooks show them (the changes feed too), in the terminals' order: each
 * device's by time. A refused person's record keeps only their number (it is no punch of theirs): the event names
 * them all the same, so the watchers see who it was.
 */
export async function punchEvents(ex: Executor, ids: readonly number[]) {
  const read = (part: number[]) =>
    ex
      .selectFrom('punches as p')
      .leftJoin('persons as u', 'u.id', 'p.person_id')
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .select([...PUNCH_COLUMNS, 'p.company_id', 'p.health', 'p.created_at', 'd.options as device_options', 'u.photo as face', 'u.revision'])
      .where('p.id', 'in', part)
      .execute();
  const rows: Awaited<ReturnType<typeof read>> = [];
  for (const part of chunks(ids)) rows.push(...(await read(part)));
  rows.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.id - b.id));
  if (!rows.length) return [];
  const refused = rows.filter((r) => r.stranger === 2);
  const named = new Map<string, { id: number; number: string; name: string; photo: string; revision: number }>();
  for (const [companyId, pins] of groupBy(
    refused,
    (r) => r.company_id,
    (r) => r.pin,
  ))
    for (const part of chunks([...new Set(pins)]))
      for (const k of await ex
        .selectFrom('persons')
        .select(['id', 'number', 'name', 'photo', 'revision'])
        .where('company_id', '=', companyId)
        .where('number', 'in', part)
        .execute())
        named.set(`${companyId}/${k.number}`, k);
  const who = (r: (typeof rows)[number]) => r.person_id ?? (r.stranger === 2 ? (named.get(`${r.company_id}/${r.pin}`)?.id ?? null) : null);
  const personIds = [...new Set(rows.map(who).filter((x): x is number => x !== null))];
  const depts = new Map<number, { id: number; name: string }[]>();
  const visitors = new Map<number, { id: number; inviter: string }>();
  for (const part of chunks(personIds)) {
    const links = await ex
      .selectFrom('person_departments as pd')
      .innerJoin('departments as dp', 'dp.id', 'pd.department_id')
      .select(['pd.person_id', 'dp.id', 'dp.name'])
      .where('pd.person_id', 'in', part)
      .execute();
    for (const l of links) (depts.get(l.person_id) ?? depts.set(l.person_id, []).get(l.person_id)!).push({ id: l.id, name: l.name });
    // a visitor is the hidden person of one invitation
    for (const v of await ex.selectFrom('visitors').select(['id', 'person_id', 'inviter_name']).where('person_id', 'in', part).orderBy('id').execute())
      visitors.set(v.person_id, { id: v.id, inviter: v.inviter_name });
  }
  return rows.map((r) => {
    const personId = who(r);
    const k = r.stranger === 2 ? named.get(`${r.company_id}/${r.pin}`) : undefined;
    const shown = k ? { ...r, person_name: k.name, person_number: k.number } : r;
    const face = k ? k.photo : r.face;
    const revision = k ? k.revision : r.revision;
    const mine = personId === null ? [] : (depts.get(personId) ?? []);
    const event: LivePunch = {
      ...presentPunch(shown),
      person_id: personId,
      face_url: personId !== null && face ? `${API_PREFIX}${pathOf(personsApi.photo, { id: personId })}?v=${revision ?? 0}` : '',
      department: mine.map((d) => d.name).join(', '),
      department_ids: mine.map((d) => d.id),
      health: r.health,
      refused: k !== undefined,
      received_at: r.created_at,
      late: Date.parse(r.created_at) - Date.parse(r.time) > LIVE_AGE_MS,
      visitor: (personId !== null && r.stranger === 0 && visitors.get(personId)) || null,
    };
    return { event, row: r };
  });
}

/** Values of `xs` by a key. */
function groupBy<T, K, V>(xs: readonly T[], key: (x: T) => K, value: (x: T) => V): Map<K, V[]> {
  const out = new Map<K, V[]>();
  for (const x of xs) (out.get(key(x)) ?? out.set(key(x), []).get(key(x))!).push(value(x));
  return out;
}

/** A capture photo found its punch: consoles showing that punch add the picture. */
export async function publishPhoto(db: Executor, companyId: number, punchId: number): Promise<void> {
  await publish(db, companyId, 'photo', { id: punchId, pic_url: API_PREFIX + pathOf(punchesApi.photo, { id: punchId }) }, PUNCH_RIGHTS);
}
