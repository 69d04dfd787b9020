import type { Insertable } from 'kysely';
import type { PunchTable } from '../../db/schema.ts';
import type { Executor } from '../../db/database.ts';
import { countUpTo } from '../../db/count.ts';
import { olderThan, type Cursor } from '../../lib/xlsx.ts';
import { reusableQuery } from '../../db/reusable.ts';
import { likeKeyword } from '../../lib/schemas.ts';
import { parseJson } from '../../lib/json.ts';
import { nowIso, zonedToUtcMs } from '../../lib/time.ts';
import type { DayStatus } from '@faceadmin/shared';

/** A punch as written: the table's columns (the id is generated). */
export type PunchInsert = Insertable<PunchTable>;

/**
 * A plain face punch at a wall time of the device's zone, with nothing measured: the row a terminal's upload
 * stores (the demo, tests and benchmarks write months of them at once).
 */
export function plainPunch(f: { companyId: number; deviceId: number; personId: number | null; pin: string; local: string; zone: string }): PunchInsert {
  return {
    company_id: f.companyId,
    device_id: f.deviceId,
    person_id: f.personId,
    pin: f.pin,
    local_time: f.local,
    time: new Date(zonedToUtcMs(f.local, f.zone)).toISOString(),
    status: 0,
    verify: 15,
    workcode: '',
    temperature: null,
    mask: null,
    alcohol: null,
    alcohol_over: null,
    photo: '',
    stranger: 0,
    created_at: nowIso(),
  };
}

/** A keyword finding at most this many people reads their punches by person (punchesRepository.keyword). */
const KEYWORD_PEOPLE = 200;

/** A punch search's keyword (punchesRepository.keyword): its LIKE pattern, and the people it finds (undefined: too many). */
export interface PunchKeyword {
  pattern: ReturnType<typeof likeKeyword>;
  people: number[] | undefined;
}

export interface PunchFilter {
  keyword?: PunchKeyword | undefined;
  deviceId?: number | undefined;
  personId?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
  stranger?: number | undefined;
  /** newest first after this row (an export's next batch) */
  before?: Cursor | undefined;
  offset: number;
  limit: number;
}

/** Columns of a stored punch, in the order the reusable insert binds them. */
const COLUMNS = [
  'company_id',
  'device_id',
  'person_id',
  'pin',
  'local_time',
  'time',
  'status',
  'verify',
  'workcode',
  'temperature',
  'mask',
  'alcohol',
  'alcohol_over',
  'health',
  'photo',
  'stranger',
  'created_at',
] as const satisfies readonly (keyof PunchInsert)[];
const pick = (r: PunchInsert) => Object.fromEntries(COLUMNS.map((c) => [c, r[c] ?? null])) as PunchInsert;

/** Statement sizes: rows (or PINs) are padded up to one of these, so a handful of SQL texts serve every upload. */
const SIZES = [1, 2, 4, 8, 16, 32, 64, 128];
const sizeFor = (n: number) => SIZES.find((s) => s >= n) ?? SIZES[SIZES.length - 1]!;
/** `xs` cut into statement-sized parts, each padded with copies of its last item. */
function parts<T>(xs: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += SIZES[SIZES.length - 1]!) {
    const part = xs.slice(i, i + SIZES[SIZES.length - 1]!);
    const size = sizeFor(part.length);
    while (part.length < size) part.push(part[part.length - 1]!);
    out.push(part);
  }
  return out;
}

/** What an insert stored, as its RETURNING answers it. */
export interface StoredPunchRow {
  id: number;
  company_id: number;
  device_id: number;
  pin: string;
  local_time: string;
  time: string;
}

/**
 * Punch ingestion's two statements (the PIN lookup and the insert), compiled once per size and reused,
 * for one database. A padded row is a copy of a real one: the duplicate key makes it a no-op.
 */
export function punchWriter() {
  const insert = reusableQuery({
    build: (db, rows: PunchInsert[]) =>
      db
        .insertInto('punches')
        .values(rows.map(pick))
        .onConflict((oc) => oc.columns(['device_id', 'pin', 'local_time']).doNothing())
        .returning(['id', 'company_id', 'device_id', 'pin', 'local_time', 'time']),
    count: (rows) => rows.length,
    params: (rows) => rows.flatMap((r) => COLUMNS.map((c) => r[c] ?? null)),
  });
  const people = reusableQuery({
    build: (db, a: { companyId: number; pins: string[] }) =>
      db.selectFrom('persons').select(['id', 'number']).where('company_id', '=', a.companyId).where('number', 'in', a.pins),
    count: (a) => a.pins.length,
    params: (a) => [a.companyId, ...a.pins],
  });
  return {
    /** Person ids by number (PIN) within one company. */
    async personIds(db: Executor, companyId: number, pins: string[]): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      for (const part of parts(pins)) {
        const { rows } = await people<{ id: number; number: string }>(db, { companyId, pins: part });
        for (const r of rows) out.set(r.number, r.id);
      }
      return out;
    },
    /**
     * Inserts, skipping any (device, PIN, device time) already stored: re-uploads and replays add nothing. Answers the
     * rows it stored (a duplicate, of a stored row or within the upload, is not among them).
     */
    async insertIgnore(db: Executor, rows: PunchInsert[]): Promise<StoredPunchRow[]> {
      const out: StoredPunchRow[] = [];
      for (const part of parts(rows)) out.push(...(await insert<StoredPunchRow>(db, part)).rows);
      return out;
    },
  };
}

/** The columns presentPunch (punches.presenter.ts) reads, over punches p, devices d and persons u (left join). */
export const PUNCH_COLUMNS = [
  'p.id',
  'p.pin',
  'p.person_id',
  'p.local_time',
  'p.time',
  'p.status',
  'p.verify',
  'p.temperature',
  'p.mask',
  'p.alcohol',
  'p.alcohol_over',
  'p.photo',
  'p.stranger',
  'p.device_id',
  'd.name as device_name',
  'd.direction',
  'u.name as person_name',
  'u.number as person_number',
] as const;

export const punchesRepository = {
  /**
   * The status of the attendance day that used each punch (the attendance module writes those results; a punch
   * is used by the day of its own date or, for a night shift, the day before).
   */
  async results(db: Executor, punches: { id: number; person_id: number | null; local_time: string }[]): Promise<Map<number, DayStatus>> {
    const out = new Map<number, DayStatus>();
    const people = [...new Set(punches.map((p) => p.person_id).filter((x): x is number => x !== null))];
    if (!people.length) return out;
    const dates = new Set<string>();
    for (const p of punches) {
      const d = p.local_time.slice(0, 10);
      dates.add(d);
      dates.add(new Date(Date.parse(`${d}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10));
    }
    const days = await db
      .selectFrom('attendance_days')
      .select(['status', 'manual_status', 'detail'])
      .where('person_id', 'in', people)
      .where('date', 'in', [...dates])
      .execute();
    for (const d of days) {
      const used = parseJson<{ used?: number[] }>(d.detail, {}).used ?? [];
      for (const id of used) out.set(id, (d.manual_status ?? d.status) as DayStatus);
    }
    return out;
  },
  /** Links a capture photo to its punch; the punch's id, or null while the punch has not arrived. */
  /** The punch of this key gets the photo (`onlyBare`: unless it has one already); answers its id, or null. */
  async setPhoto(db: Executor, deviceId: number, pin: string, localTime: string, photo: string, o: { onlyBare?: boolean } = {}): Promise<number | null> {
    let q = db.updateTable('punches').set({ photo }).where('device_id', '=', deviceId).where('pin', '=', pin).where('local_time', '=', localTime);
    if (o.onlyBare) q = q.where('photo', '=', '');
    const r = await q.returning('id').executeTakeFirst();
    return r?.id ?? null;
  },
  /**
   * A punch search's keyword, with the people it finds, looked up once for a list or a whole export. Their punches are
   * then read by person (an index), not by testing every punch of the range against the keyword (a month of a big
   * company's: 4.4 M). A known person's punch carries their number as its PIN, so PINs are searched among the punches
   * of no one known: a person's punches are found by what the person is now (name, number), not by an old number. A
   * keyword that finds very many people (a common name part) matches densely: `people` undefined, each punch tested.
   */
  async keyword(db: Executor, companyId: number, text: string): Promise<PunchKeyword> {
    const pattern = likeKeyword(text);
    const found = await db
      .selectFrom('persons')
      .select('id')
      .where('company_id', '=', companyId)
      .where('search', 'like', pattern)
      .limit(KEYWORD_PEOPLE + 1)
      .execute();
    return { pattern, people: found.length <= KEYWORD_PEOPLE ? found.map((r) => r.id) : undefined };
  },
  /**
   * A page of punches, newest first, and their count up to COUNT_LIMIT (`more` when there are more: a big company's
   * year of punches, 52 M rows, took seconds to count, for each console on the page every 10 s);
   * `withTotal: false` skips counting (exports page through it).
   */
  async list(db: Executor, companyId: number, f: PunchFilter, withTotal = true) {
    let q = db
      .selectFrom('punches as p')
      .leftJoin('persons as u', 'u.id', 'p.person_id')
      .leftJoin('persons as dp', 'dp.id', 'p.dual_partner_id')
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .where('p.company_id', '=', companyId);
    if (f.deviceId) q = q.where('p.device_id', '=', f.deviceId);
    if (f.personId) q = q.where('p.person_id', '=', f.personId);
    if (f.from) q = q.where('p.time', '>=', f.from);
    if (f.to) q = q.where('p.time', '<', f.to);
    if (f.before) q = q.where(olderThan(f.before, 'p'));
    // stranger 1: what is no punch of a known person (a stranger, or a registered person refused); 0: the punches.
    if (f.stranger !== undefined) q = q.where('p.stranger', f.stranger ? '<>' : '=', 0);
    if (f.keyword) {
      const { pattern, people } = f.keyword;
      // The people it found, by person (an index); too many, each punch's person tested. A PIN among the punches of no
      // one known (an index too); PINs may carry letters: lower() on both sides (the pattern is lower-cased) so
      // PostgreSQL matches as SQLite does.
      q = q.where((eb) =>
        eb.or([
          ...(people === undefined ? [eb('u.search', 'like', pattern)] : people.length ? [eb('p.person_id', 'in', people)] : []),
          eb.and([eb('p.person_id', 'is', null), eb(eb.fn('lower', ['p.pin']), 'like', pattern)]),
        ]),
      );
    }
    const [items, counted] = await Promise.all([
      q
        .select([...PUNCH_COLUMNS, 'p.dual_state', 'dp.name as dual_partner_name'])
        .orderBy('p.time', 'desc')
        .orderBy('p.id', 'desc')
        .limit(f.limit)
        .offset(f.offset)
        .execute(),
      // newest first, as the page reads them: through the (company, time) index. Unordered, PostgreSQL chose a
      // sequential scan to stop at the limit, which began where another scan of the table stood: 52 M rows read
      withTotal ? countUpTo(db, q.select('p.id').orderBy('p.time', 'desc')) : { total: -1, more: false },
    ]);
    return { items, ...counted };
  },
  find: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('punches').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),

  /** Two-person devices by company (spec §9): the dual-authentication sweep's work list. */
  dualDevices: (db: Executor) => db.selectFrom('devices').select(['id', 'company_id', 'name']).where('function_type', '=', 'dualAuth').execute(),
  /**
   * Recognised punches on these devices not yet decided ('' or 'pending'), oldest first. `sinceLocal` bounds the
   * (device_id, local_time) index range: device wall clocks are within a day of UTC, so two days back is safe.
   */
  dualCandidates: (db: Executor, companyId: number, deviceIds: number[], sinceLocal: string) =>
    db
      .selectFrom('punches as p')
      .leftJoin('persons as u', 'u.id', 'p.person_id')
      .select(['p.id', 'p.device_id', 'p.person_id', 'p.time', 'p.local_time', 'p.dual_state', 'p.created_at', 'u.name as person_name'])
      .where('p.company_id', '=', companyId)
      .where('p.device_id', 'in', deviceIds)
      .where('p.local_time', '>=', sinceLocal)
      .where('p.stranger', '=', 0)
      .where('p.person_id', 'is not', null)
      .where('p.dual_state', 'in', ['', 'pending'])
      .orderBy('p.time')
      .orderBy('p.id')
      .execute(),
  setDual: (db: Executor, companyId: number, id: number, state: 'pending' | 'paired' | 'unpaired', partnerId: number | null) =>
    db.updateTable('punches').set({ dual_state: state, dual_partner_id: partnerId }).where('company_id', '=', companyId).where('id', '=', id).execute(),
};
