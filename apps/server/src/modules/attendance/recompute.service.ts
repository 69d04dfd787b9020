import { DEFAULT_TIME_ZONE, type DayStatus } from '@faceadmin/shared';
import { CompiledQuery, type Insertable, type Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { recordChanges } from '../../db/changes.ts';
import { copyInto } from '../../db/pg-copy.ts';
import type { Database, Dialect, Executor } from '../../db/database.ts';
import type { AttendanceDayTable, DB } from '../../db/schema.ts';
import { isRetryable, transaction } from '../../db/transaction.ts';
import { chunks } from '../../lib/chunks.ts';
import { parseJson } from '../../lib/json.ts';
import { clock, isoToMs, nowIso, zonedToUtcMs } from '../../lib/time.ts';
import { computeRange, type AbsenceIn, type DayPlan, type DayResult, type PunchIn, type ShiftDef } from './engine/index.ts';
import { markDirty } from './dirty.ts';
import { addDays, datesBetween, plansFor, ruleDef, type StoredHoliday, type StoredRule } from './plans.ts';
import { publish } from '../live/publish.ts';
import { closedPeriods, isClosed, type ClosedRange } from './periods.service.ts';

const DAY = 86_400_000;
const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** The local date of an instant in a zone (one formatter per zone: making one costs more than formatting). */
export function localDate(ms: number, zone: string): string {
  let f = dateFormats.get(zone);
  if (!f) dateFormats.set(zone, (f = new Intl.DateTimeFormat('en-CA', { timeZone: zone })));
  return f.format(new Date(ms));
}

/** At most this many day results are listed in one `day` event; more are announced as a batch to refetch. */
const LIVE_DAYS_MAX = 50;

export async function loadRule(ex: Executor, ruleId: number): Promise<StoredRule | undefined> {
  const r = await ex.selectFrom('attendance_rules').selectAll().where('id', '=', ruleId).executeTakeFirst();
  if (!r) return undefined;
  const shifts = await ex.selectFrom('attendance_shifts').selectAll().where('rule_id', '=', ruleId).orderBy('sort').execute();
  const cycles = await ex.selectFrom('attendance_cycles').selectAll().where('rule_id', '=', ruleId).execute();
  return {
    ...r,
    shifts: shifts.map((s): ShiftDef => ({
      id: s.id,
      name: s.name,
      start: s.start,
      end: s.end,
      breaks: parseJson(s.breaks, []),
      lateGraceMin: s.late_grace_min,
      earlyGraceMin: s.early_grace_min,
      checkInBeforeMin: s.check_in_before_min,
      checkInAfterMin: s.check_in_after_min,
      checkOutBeforeMin: s.check_out_before_min,
      checkOutAfterMin: s.check_out_after_min,
    })),
    cycles: cycles.map((c) => ({ id: c.id, days: parseJson<number[]>(c.days, []) })),
  };
}

/** The parts of a row's range outside closed periods. */
function openParts(row: DirtyRow, closed: readonly ClosedRange[]): DirtyRow[] {
  let parts = [row];
  for (const c of closed)
    parts = parts.flatMap((p) => {
      if (c.to_date < p.from_date || c.from_date > p.to_date) return [p];
      const out: DirtyRow[] = [];
      if (p.from_date < c.from_date) out.push({ ...p, to_date: addDays(c.from_date, -1) });
      if (c.to_date < p.to_date) out.push({ ...p, from_date: addDays(c.to_date, 1) });
      return out;
    });
  return parts;
}

interface DirtyRow {
  person_id: number;
  company_id: number;
  from_date: string;
  to_date: string;
  queued_at: string;
  /** the queue row's change counter when read; null for a computation asked for directly (no queue row) */
  seq: number | null;
}

/** Everything of one company the engine needs besides each person's own rows, read once per batch. */
export async function companyContext(ex: Executor, companyId: number, from: string, to: string) {
  const company = await ex.selectFrom('companies').select(['time_zone', 'filter_seconds']).where('id', '=', companyId).executeTakeFirst();
  const ruleRows = await ex.selectFrom('attendance_rules').select('id').where('company_id', '=', companyId).execute();
  const rules = new Map<number, StoredRule>();
  for (const r of ruleRows) {
    const rule = await loadRule(ex, r.id);
    if (rule) rules.set(r.id, rule);
  }
  const members = await ex.selectFrom('attendance_rule_members').select(['rule_id', 'kind', 'ref_id']).where('company_id', '=', companyId).execute();
  const epochs = await ruleEpochs(ex, companyId, rules, members);
  const parents = new Map(
    (await ex.selectFrom('departments').select(['id', 'parent_id']).where('company_id', '=', companyId).execute()).map((d) => [d.id, d.parent_id]),
  );
  const holidays: StoredHoliday[] = (
    await ex
      .selectFrom('attendance_holidays')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('to_date', '>=', addDays(from, -1))
      .where('from_date', '<=', addDays(to, 1))
      .execute()
  ).map((h) => ({ ...h, rule_ids: parseJson<number[]>(h.rule_ids, []) }));
  /** The rule (the version in force) a person is under in an epoch: named directly, else through their department or one above it. */
  const inEpoch = (e: Epoch, personId: number, departments: number[]): StoredRule | undefined => {
    const d = e.direct.get(personId);
    if (d !== undefined) return e.rules.get(d);
    for (const start of departments) {
      for (let id: number | undefined = start, hops = 0; id && hops < 100; id = parents.get(id), hops++) {
        const r = e.byDept.get(id);
        if (r !== undefined) return e.rules.get(r);
      }
    }
    return undefined;
  };
  const epochAt = (date: string) => {
    let i = epochs.length - 1;
    while (i > 0 && epochs[i]!.from > date) i--;
    return i;
  };
  /** The rule a person is under on a date (its version then). */
  const ruleOf = (personId: number, departments: number[], date: string): StoredRule | undefined => inEpoch(epochs[epochAt(date)]!, personId, departments);
  /** A range cut into runs of days under the same rule version (one run when the company has no rule history). */
  const runsOf = (personId: number, departments: number[], from: string, to: string): RuleRun[] => {
    if (epochs.length === 1) return [{ from, to, rule: inEpoch(epochs[0]!, personId, departments) }];
    const out: RuleRun[] = [];
    for (let i = epochAt(from); i < epochs.length && epochs[i]!.from <= to; i++) {
      const rule = inEpoch(epochs[i]!, personId, departments);
      const start = i === 0 || epochs[i]!.from < from ? from : epochs[i]!.from;
      const end = i + 1 < epochs.length && addDays(epochs[i + 1]!.from, -1) < to ? addDays(epochs[i + 1]!.from, -1) : to;
      const last = out[out.length - 1];
      if (last && last.rule === rule) last.to = end;
      else out.push({ from: start, to: end, rule });
    }
    return out;
  };
  const all = new Set(epochs.flatMap((e) => [...e.rules.values()]));
  return {
    zone: company?.time_zone ?? DEFAULT_TIME_ZONE,
    filterSeconds: company?.filter_seconds ?? 0,
    holidays,
    ruleOf,
    runsOf,
    rules: [...all],
  };
}

/** Days from `from` to `to` under one rule version (none: no rule then). */
interface RuleRun {
  from: string;
  to: string;
  rule: StoredRule | undefined;
}
/** From `from` on (until the next epoch), these rule versions and memberships are in force. */
interface Epoch {
  from: string;
  rules: Map<number, StoredRule>;
  direct: Map<number, number>;
  byDept: Map<number, number>;
}
type Member = { rule_id: number; kind: string; ref_id: number };

/**
 * The company's rule history as epochs (#17): a rule without versions applies on every date as it is now; a rule
 * with versions applies from its first version's date, each version until the next. Without any history there is
 * one epoch, read as before.
 */
async function ruleEpochs(ex: Executor, companyId: number, current: Map<number, StoredRule>, members: Member[]): Promise<Epoch[]> {
  const epoch = (from: string, rules: Map<number, StoredRule>, list: Member[]): Epoch => ({
    from,
    rules,
    direct: new Map(list.filter((m) => m.kind === 'person' && rules.has(m.rule_id)).map((m) => [m.ref_id, m.rule_id])),
    byDept: new Map(list.filter((m) => m.kind === 'department' && rules.has(m.rule_id)).map((m) => [m.ref_id, m.rule_id])),
  });
  const rows = await ex
    .selectFrom('attendance_rule_versions')
    .select(['rule_id', 'effective_from', 'rule', 'members'])
    .where('company_id', '=', companyId)
    .orderBy('effective_from')
    .execute();
  if (!rows.length) return [epoch('', current, members)];
  const versions = new Map<number, { from: string; rule: StoredRule; members: Member[] }[]>();
  for (const r of rows) {
    if (!current.has(r.rule_id)) continue;
    // The snapshot is the rule as loadRule read it then; its id is the rule's.
    const rule = { ...parseJson<StoredRule>(r.rule, current.get(r.rule_id)!), id: r.rule_id };
    const list = parseJson<{ kind: string; ref_id: number }[]>(r.members, []).map((m) => ({ ...m, rule_id: r.rule_id }));
    (versions.get(r.rule_id) ?? versions.set(r.rule_id, []).get(r.rule_id)!).push({ from: r.effective_from, rule, members: list });
  }
  const starts = ['', ...new Set(rows.map((r) => r.effective_from))].sort();
  const out: Epoch[] = [];
  for (const from of starts) {
    const rules = new Map<number, StoredRule>();
    const list: Member[] = [];
    for (const [id, rule] of current) {
      const vs = versions.get(id);
      if (!vs) {
        rules.set(id, rule);
        continue;
      }
      let v: (typeof vs)[number] | undefined;
      for (const x of vs) if (x.from <= from) v = x;
      if (!v) continue; // not in force yet
      rules.set(id, v.rule);
      list.push(...v.members);
    }
    out.push(epoch(from, rules, [...list, ...members.filter((m) => !versions.has(m.rule_id))]));
  }
  return out;
}

const DAY_COLUMNS = [
  'company_id',
  'person_id',
  'date',
  'rule_id',
  'status',
  'late_min',
  'early_min',
  'worked_min',
  'overtime_min',
  'leave_min',
  'out_min',
  'absent_min',
  'leave_kinds',
  'leave_half_days',
  'detail',
  'manual_status',
  'manual_reason',
  'computed_at',
] as const satisfies readonly (keyof AttendanceDayTable)[];
/** What a recomputation replaces: every column but the key and the hand-set result (manual status and reason). */
const KEPT = new Set<string>(['company_id', 'person_id', 'date', 'manual_status', 'manual_reason']);
const DAY_UPDATES = DAY_COLUMNS.filter((c) => !KEPT.has(c));

/**
 * Day results written (or replaced; a manual result's columns are left alone) on SQLite with one multi-row statement.
 * The SQL is written out once rather than built by the query builder for every row: a month for 10,000 people
 * is 310,000 rows, and building them spent more time than SQLite storing them. (PostgreSQL: upsertDaysPg.)
 */
async function upsertDaysSqlite(ex: Executor, rows: Insertable<AttendanceDayTable>[]): Promise<ChangedDay[]> {
  const params: unknown[] = [];
  for (const r of rows) for (const c of DAY_COLUMNS) params.push(r[c] ?? null);
  return (await ex.executeQuery<ChangedDay>(CompiledQuery.raw(upsertText(rows.length), params))).rows;
}
/** A day the upsert wrote: new, or with other figures than it had (what consoles and integrators are told of). */
interface ChangedDay {
  person_id: number;
  date: string;
  status: string;
  late_min: number;
  early_min: number;
}
const CHANGED_DAY = 'returning person_id, date, status, late_min, early_min';
/**
 * A recalculated day whose figures did not change is not written again (no new row version, no index update: most
 * days of an "attendance update" come out as they were), so `computed_at` is when the result last changed.
 */
function changedOnly(dialect: Dialect): string {
  const distinct = dialect === 'postgres' ? 'is distinct from' : 'is not';
  return `where ${DAY_UPDATES.filter((c) => c !== 'computed_at')
    .map((c) => `attendance_days.${c} ${distinct} excluded.${c}`)
    .join(' or ')}`;
}
const ON_CONFLICT = `on conflict (person_id, date) do update set ${DAY_UPDATES.map((c) => `${c} = excluded.${c}`).join(', ')}`;
/** The batch's rows on their way in (PostgreSQL): a temporary table of the session, emptied at each commit. */
const PG_INCOMING = 'create temporary table if not exists attendance_days_in (like attendance_days) on commit delete rows';
const PG_UPSERT =
  `insert into attendance_days (${DAY_COLUMNS.join(', ')}) select ${DAY_COLUMNS.join(', ')} from attendance_days_in order by person_id, date ` +
  `${ON_CONFLICT} ${changedOnly('postgres')} ${CHANGED_DAY}`;
/**
 * On PostgreSQL any number of rows copied (COPY, db/pg-copy.ts) into a temporary table and upserted from it in one
 * statement, in (person, date) order. A statement of one array per column cost 2.5 s more for a month of 10,000 people
 * (310,000 rows; bench/attendance.bench.ts): the driver quoted every element and PostgreSQL parsed the arrays back.
 * The rows are unique by (person, date), as ON CONFLICT requires.
 */
async function upsertDaysPg(trx: Transaction<DB>, rows: Insertable<AttendanceDayTable>[]): Promise<ChangedDay[]> {
  // a transaction's own connection: the temporary table is the session's, emptied when the transaction commits
  await trx.executeQuery(CompiledQuery.raw(PG_INCOMING));
  await copyInto(trx, 'attendance_days_in', DAY_COLUMNS, rows);
  return (await trx.executeQuery<ChangedDay>(CompiledQuery.raw(PG_UPSERT))).rows;
}
const upsertTexts = new Map<number, string>();
/** SQLite's upsert text for a number of rows, made once per size (statementSizes keeps the sizes few). */
function upsertText(count: number): string {
  let text = upsertTexts.get(count);
  if (text) return text;
  const tuple = `(${DAY_COLUMNS.map(() => '?').join(',')})`;
  text =
    `insert into attendance_days (${DAY_COLUMNS.join(', ')}) values ${Array(count).fill(tuple).join(', ')} ` +
    `${ON_CONFLICT} ${changedOnly('sqlite')} ${CHANGED_DAY}`;
  upsertTexts.set(count, text);
  return text;
}

/**
 * A stored punch as read for the engine, as a row array (id, time, device, then the model's readings when a rule
 * judges them): a month for 10,000 people is 1.24 M of them, and arrays cost less to make than objects.
 */
type StoredPunch = [id: number, time: string, deviceId: number, temperature?: number | null, alcoholOver?: number | null, health?: string | null];
const PUNCH_READ = 'select id, time, device_id from punches where person_id = ? and company_id = ? and time >= ? and time < ? order by time';
const PUNCH_READ_MODEL = PUNCH_READ.replace('device_id from', 'device_id, temperature, alcohol_over, health from');

/**
 * PostgreSQL's reading of punches: per person one text of their punches in time order, each its id, time and device
 * (with the model's readings, also temperature, alcohol flag and health colour, `-` for none) between unit
 * separators (U+001F), punches between record separators (U+001E): control characters no field holds.
 */
const pgPunchText = (fields: string) =>
  `select person_id, string_agg(concat_ws(chr(31), ${fields}), chr(30) order by time, id) as punches from punches ` +
  'where person_id = any($1::integer[]) and company_id = $2 and time >= $3 and time < $4 group by person_id';
const PG_PUNCHES = pgPunchText('id, time, device_id');
const PG_PUNCHES_MODEL = pgPunchText(`id, time, device_id, coalesce(temperature::text, '-'), coalesce(alcohol_over::text, '-'), coalesce(health, '-')`);
/** One person's punches from PG_PUNCHES' text (none: no punches in the range). */
export function parsePgPunches(text: string | undefined, readings: boolean): StoredPunch[] {
  if (!text) return [];
  const out: StoredPunch[] = [];
  const nullable = (v: string | undefined) => (v === undefined || v === '-' ? null : v);
  for (const one of text.split('\x1e')) {
    const f = one.split('\x1f');
    if (!readings) out.push([Number(f[0]), f[1]!, Number(f[2])]);
    else {
      const t = nullable(f[3]);
      const a = nullable(f[4]);
      out.push([Number(f[0]), f[1]!, Number(f[2]), t === null ? null : Number(t), a === null ? null : Number(a), nullable(f[5])]);
    }
  }
  return out;
}

/** A stored punch as the engine reads it, with only what the person's rule looks at. */
function punchIn(p: StoredPunch, rule: StoredRule, directions: Map<number, string>): PunchIn {
  const out: PunchIn = { id: p[0], at: isoToMs(p[1]), deviceId: p[2] };
  if (rule.use_direction === 1) out.direction = directions.get(p[2]) === 'out' ? 'out' : 'in';
  if (rule.model !== 'default') {
    out.temperature = p[3] ?? null;
    // the rule's alarm (#17): at or above it the punch is refused under the temperature model
    out.temperatureAlarm = rule.alarm_temp;
    // The reading was judged against the device's threshold when it was taken (stored as a flag).
    out.alcohol = p[4] ?? null;
    out.alcoholThreshold = p[4] == null ? null : 1;
    out.health = (p[5] ?? null) as PunchIn['health'];
  }
  return out;
}

/**
 * Rows cut into statements of 500, 100, 20 or 1: the statement text depends on the row count, and a few sizes keep
 * the prepared-statement cache from filling with one large single-use statement per batch remainder.
 */
function statementSizes<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  let i = 0;
  for (const size of [500, 100, 20, 1]) for (; rows.length - i >= size; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** Rows of these people, read with one statement per 500 of them. */
async function perPerson<T extends { person_id: number }>(ids: number[], read: (part: number[]) => Promise<T[]>): Promise<Map<number, T[]>> {
  const out = new Map<number, T[]>();
  for (const part of chunks(ids)) for (const r of await read(part)) (out.get(r.person_id) ?? out.set(r.person_id, []).get(r.person_id)!).push(r);
  return out;
}

/** The dates a batch's queue rows span, from the earliest start to the latest end. */
function rangeOf(rows: readonly DirtyRow[]): { from: string; to: string } {
  const from = rows.reduce((m, r) => (r.from_date < m ? r.from_date : m), rows[0]!.from_date);
  const to = rows.reduce((m, r) => (r.to_date > m ? r.to_date : m), rows[0]!.to_date);
  return { from, to };
}

/** People per batch: inputs are read once per kind per batch (bench/attendance.bench.ts measures this size). */
export const BATCH_PEOPLE = 500;

/** A batch's results as computed, before they are written. */
interface Computed {
  rows: DirtyRow[];
  upserts: Insertable<AttendanceDayTable>[];
  /** Dates whose results go (a manual result stays): no rule, or after the person left. */
  cleared: DirtyRow[];
  computed: Map<number, DayResult[]>;
}

/**
 * Turns queued person-days into stored day results with the engine, a batch of people at a time: one read per
 * kind of input for the whole batch (people, their departments, punches of the range and a day either side,
 * absences, the grid; rules and holidays once per company), one pure computation per person, multi-row writes
 * in one transaction. A manual result stays as the administrator set it; the computed one is kept beside it.
 */
export function recomputeService(deps: { database: Database; log: FastifyBaseLogger }) {
  const { db } = deps.database;

  /** Computes the rows' day results; writes them (and clears the queue rows) unless `dryRun`. */
  async function company(companyId: number, rows: DirtyRow[], dryRun = false): Promise<{ days: number; results: Map<number, DayResult[]> }> {
    const c = await compute(companyId, rows, dryRun);
    return { days: dryRun ? c.upserts.length : await write(companyId, c), results: c.computed };
  }

  /** The rows' day results computed from the stored inputs (lean unless `dryRun`, which keeps whole explanations). */
  async function compute(companyId: number, rows: DirtyRow[], dryRun = false): Promise<Computed> {
    const { from, to } = rangeOf(rows);
    const ctx = await companyContext(db, companyId, from, to);
    const ids = rows.map((r) => r.person_id);
    const startIso = new Date(zonedToUtcMs(addDays(from, -1), ctx.zone)).toISOString();
    const endIso = new Date(zonedToUtcMs(addDays(to, 3), ctx.zone)).toISOString();
    const people = await perPerson(ids, (part) =>
      db
        .selectFrom('persons')
        .select(['id as person_id', 'work_status', 'left_at', 'joined_on'])
        .where('company_id', '=', companyId)
        .where('id', 'in', part)
        .execute(),
    );
    const depts = await perPerson(ids, (part) =>
      db.selectFrom('person_departments').select(['person_id', 'department_id']).where('person_id', 'in', part).execute(),
    );
    const grids = await perPerson(ids, (part) =>
      db
        .selectFrom('attendance_schedule')
        .select(['person_id', 'date', 'shift_id'])
        .where('person_id', 'in', part)
        .where('date', '>=', addDays(from, -1))
        .where('date', '<=', addDays(to, 1))
        .execute(),
    );
    // One statement per person: with a long IN list the planner may walk the company's whole (company, time)
    // range instead of each person's (person, time) entries — a month for 10,000 people, 20 times over.
    const directions = new Map(
      (await db.selectFrom('devices').select(['id', 'direction']).where('company_id', '=', companyId).execute()).map((d) => [d.id, d.direction]),
    );
    // The model's readings are read only when one of the company's rules judges them.
    const readings = ctx.rules.some((r) => r.model !== 'default');
    // A person's punches are read just before their computation, so they die young (read for the whole batch first,
    // 62,000 arrays outlived the young generation and cost old-generation collections). On SQLite through the
    // read-only connection, one prepared statement returning arrays (committed data only): building the query
    // 10,000 times cost more than running it.
    const reader = deps.database.sqliteReader?.();
    const read = reader?.prepare(readings ? PUNCH_READ_MODEL : PUNCH_READ);
    read?.setReturnArrays(true);
    // On PostgreSQL a round trip per person cost more than the reading, and a row per punch cost more in the driver
    // (parsing 1.24 M rows and their objects) than the reading: the batch's punches come 500 people a statement
    // (its planner takes the (person, time) index for each of them), one row per person with their punches in time
    // order as one text (pgPunchText).
    const pgPunches = deps.database.dialect === 'postgres' ? new Map<number, string>() : undefined;
    if (pgPunches)
      for (const part of chunks(ids))
        for (const r of (
          await db.executeQuery<{ person_id: number; punches: string }>(
            CompiledQuery.raw(readings ? PG_PUNCHES_MODEL : PG_PUNCHES, [part, companyId, startIso, endIso]),
          )
        ).rows)
          pgPunches.set(r.person_id, r.punches);
    const punchesOf = async (id: number): Promise<StoredPunch[]> => {
      if (pgPunches) return parsePgPunches(pgPunches.get(id), readings);
      if (read) return read.all(id, companyId, startIso, endIso) as unknown as StoredPunch[];
      // SQLite without its read-only connection (an in-memory database has none): through the query builder.
      return (
        await db
          .selectFrom('punches')
          .select(['id', 'time', 'device_id', 'temperature', 'alcohol_over', 'health'])
          .where('person_id', '=', id)
          .where('company_id', '=', companyId)
          .where('time', '>=', startIso)
          .where('time', '<', endIso)
          .orderBy('time')
          .execute()
      ).map((p): StoredPunch => (readings ? [p.id, p.time, p.device_id, p.temperature, p.alcohol_over, p.health] : [p.id, p.time, p.device_id]));
    };
    const absences = await perPerson(ids, (part) =>
      db.selectFrom('attendance_absences').selectAll().where('person_id', 'in', part).where('to_at', '>=', startIso).where('from_at', '<', endIso).execute(),
    );
    const at = nowIso();
    const now = clock.now();
    const upserts: Insertable<AttendanceDayTable>[] = [];
    /** Dates whose results go (a manual result stays): no rule, or after the person left. */
    const cleared: DirtyRow[] = [];
    const computed = new Map<number, DayResult[]>();
    // Without grid rows a person's plans depend only on the rule and the dates: computed once per batch.
    const shared = new Map<StoredRule, Map<string, DayPlan[]>>();
    for (const whole of rows) {
      const who = people.get(whole.person_id)?.[0];
      let mine: StoredPunch[] | undefined; // read at the first run that computes
      // Someone who left keeps the results up to the day they left (in the company's zone), none after it.
      const leftOn = who && who.work_status !== 1 && who.left_at ? localDate(isoToMs(who.left_at), ctx.zone) : null;
      // The range in runs of days under the same rule version (#17: an edit applies from its date on).
      const runs =
        who && (who.work_status === 1 || leftOn)
          ? ctx.runsOf(
              whole.person_id,
              (depts.get(whole.person_id) ?? []).map((d) => d.department_id),
              whole.from_date,
              whole.to_date,
            )
          : [{ from: whole.from_date, to: whole.to_date, rule: undefined }];
      for (const run of runs) {
        const row = { ...whole, from_date: run.from, to_date: run.to };
        const rule = run.rule;
        // Nor any before the hire date.
        const joinedOn = who?.joined_on ?? null;
        if (!rule || (leftOn && leftOn < row.from_date) || (joinedOn && joinedOn > row.to_date)) {
          cleared.push(row);
          continue;
        }
        if (leftOn && leftOn < row.to_date) cleared.push({ ...row, from_date: addDays(leftOn, 1) });
        if (joinedOn && joinedOn > row.from_date) cleared.push({ ...row, to_date: addDays(joinedOn, -1) });
        const own = grids.get(row.person_id);
        const key = `${row.from_date}/${row.to_date}`;
        const cache = shared.get(rule) ?? shared.set(rule, new Map()).get(rule)!;
        let plans = own ? undefined : cache.get(key);
        if (!plans) {
          const dates = [addDays(row.from_date, -1), ...datesBetween(row.from_date, row.to_date), addDays(row.to_date, 1)];
          plans = plansFor(rule, dates, new Map((own ?? []).map((g) => [g.date, g.shift_id])), ctx.holidays);
          if (!own) cache.set(key, plans);
        }
        const before = plans[0]!;
        const after = plans[plans.length - 1]!;
        const rest = plans.slice(1, -1);
        const results: DayResult[] = computeRange({
          zone: ctx.zone,
          rule: ruleDef(rule),
          days: rest,
          before,
          after,
          punches: (mine ??= await punchesOf(row.person_id)).map((p) => punchIn(p, rule, directions)),
          absences: (absences.get(row.person_id) ?? []).map((a): AbsenceIn => ({
            id: a.id,
            kind: a.kind as AbsenceIn['kind'],
            from: isoToMs(a.from_at),
            to: isoToMs(a.to_at),
            label: a.reason,
            ...(a.leave_type ? { leaveType: a.leave_type } : {}),
          })),
          filterSeconds: ctx.filterSeconds,
          now,
          leftOn,
          joinedOn,
          // Only figures and the punches used are stored; a dry run (explain) wants the whole explanation.
          lean: !dryRun,
        });
        computed.set(row.person_id, [...(computed.get(row.person_id) ?? []), ...results]);
        for (const r of results) {
          upserts.push({
            company_id: companyId,
            person_id: row.person_id,
            date: r.date,
            rule_id: rule.id,
            status: r.status,
            late_min: r.lateMin,
            early_min: r.earlyMin,
            worked_min: r.workedMin,
            overtime_min: r.overtimeMin,
            leave_min: r.leaveMin ?? 0,
            out_min: r.outMin ?? 0,
            absent_min: r.absentMin ?? 0,
            leave_kinds: r.leaveKinds && Object.keys(r.leaveKinds).length ? JSON.stringify(r.leaveKinds) : '{}',
            leave_half_days: Math.round((r.leaveDays ?? 0) * 2),
            // Only what lists need (the punches it used); the explanation is recomputed on demand (explain()),
            // which keeps a month for 10,000 people a few MB instead of hundreds.
            detail: `{"used":[${r.used.join(',')}]}`, // JSON of { used } (ids are numbers), without stringify's walk
            manual_status: null,
            manual_reason: null,
            computed_at: at,
          });
        }
      }
    }
    return { rows, upserts, cleared, computed };
  }

  /** Computed results written in one transaction, the queue rows they answer cleared; answers the days written. */
  async function write(companyId: number, computed: Computed): Promise<number> {
    const { rows } = computed;
    const { from, to } = rangeOf(rows);
    let written = 0;
    await transaction(db, async (trx) => {
      // Closed periods (#17): their days are neither written nor cleared; the stored results stay as they are. Read
      // here rather than with the inputs, so a period closed while the batch was computed is kept too.
      const closed = await closedPeriods(trx, companyId, addDays(from, -1), addDays(to, 1));
      const upserts = closed.length ? computed.upserts.filter((u) => !isClosed(closed, u.date)) : computed.upserts;
      const cleared = closed.length ? computed.cleared.flatMap((c) => openParts(c, closed)) : computed.cleared;
      // Claim the queue rows first, in person order (the lock order every writer follows, dirty.ts). On PostgreSQL a
      // row another transaction is marking right now is skipped, not waited for: it stays queued for the next round.
      // Only people whose row is still there are written: a row gone means another worker wrote newer results.
      const queued = rows.filter((r) => r.seq !== null);
      const claimed = new Map<number, number>();
      for (const part of chunks(queued.map((r) => r.person_id).sort((a, b) => a - b))) {
        let q = trx.selectFrom('attendance_dirty').select(['person_id', 'seq']).where('person_id', 'in', part).orderBy('person_id');
        if (deps.database.dialect === 'postgres') q = q.forUpdate().skipLocked();
        for (const r of await q.execute()) claimed.set(r.person_id, r.seq);
      }
      const mine = (personId: number, seq: number | null) => seq === null || claimed.has(personId);
      const clear = cleared.filter((c) => mine(c.person_id, c.seq));
      const seqOf = new Map(rows.map((r) => [r.person_id, r.seq]));
      const ups = upserts.filter((u) => mine(u.person_id, seqOf.get(u.person_id) ?? null));
      // No rule (or left): no results for those days (a manual result stays).
      const removed: { person_id: number; date: string }[] = [];
      for (const c of clear)
        removed.push(
          ...(await trx
            .deleteFrom('attendance_days')
            .where('person_id', '=', c.person_id)
            .where('date', '>=', c.from_date)
            .where('date', '<=', c.to_date)
            .where('manual_status', 'is', null)
            .returning(['person_id', 'date'])
            .execute()),
        );
      // In (person, date) order, so two batches touching the same days lock them in one order.
      ups.sort((a, b) => a.person_id - b.person_id || (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      // Only days whose figures changed come back (the upsert skips the rest): what anyone is told of.
      const changed: ChangedDay[] = [];
      if (deps.database.dialect === 'postgres') {
        if (ups.length) changed.push(...(await upsertDaysPg(trx, ups)));
      } else for (const part of statementSizes(ups)) changed.push(...(await upsertDaysSqlite(trx, part)));
      written = ups.length;
      await recordChanges(
        trx,
        companyId,
        'day',
        [...changed, ...removed].map((d) => ({ ref: d.person_id, date: d.date })),
      );
      // The watchers' screens follow: a few days listed (a punch's day), a batch only as "refetch". A recalculation
      // that changed nothing (a retried upload, a rule saved as it was) announces nothing.
      if (changed.length || removed.length) {
        const days =
          changed.length <= LIVE_DAYS_MAX && !removed.length
            ? changed.map((u) => ({
                person_id: u.person_id,
                date: u.date,
                status: u.status as DayStatus,
                late_min: u.late_min ?? 0,
                early_min: u.early_min ?? 0,
              }))
            : null;
        await publish(trx, companyId, 'day', { days }, ['attendance']);
      }
      // Done, unless a change widened a person's range meanwhile (its seq moved on: it stays queued).
      const done = queued.filter((r) => claimed.get(r.person_id) === r.seq);
      for (const part of chunks(done))
        await trx
          .deleteFrom('attendance_dirty')
          .where((eb) =>
            eb(
              eb.refTuple('person_id', 'seq'),
              'in',
              part.map((r) => eb.tuple(r.person_id, r.seq!)),
            ),
          )
          .execute();
    });
    return written;
  }

  /**
   * One company's batch. Deadlocks and serialization failures are retried inside transaction(); a batch that still
   * fails is worked person by person, so one person whose inputs cannot be computed does not hold back the others.
   * That person's queue row goes (logged) only if nobody widened it meanwhile: a mark set since is never dropped.
   */
  async function batch(companyId: number, list: DirtyRow[], computed?: Promise<Computed>): Promise<number> {
    try {
      return computed ? await write(companyId, await computed) : (await company(companyId, list)).days;
    } catch (e) {
      if (isRetryable(e)) {
        // Still contended after every retry: the rows stay queued for the next round.
        deps.log.warn({ err: e, companyId, people: list.length }, 'attendance recompute contended; left queued');
        return 0;
      }
      if (list.length > 1) {
        let days = 0;
        for (const r of list) days += await batch(companyId, [r]);
        return days;
      }
      const r = list[0]!;
      deps.log.error({ err: e, companyId, personId: r.person_id }, 'attendance recompute failed');
      await db.deleteFrom('attendance_dirty').where('person_id', '=', r.person_id).where('seq', '=', r.seq!).execute();
      return 0;
    }
  }

  return {
    /** Recomputes one person's range now (tests, and the single-punch path). */
    person: async (companyId: number, personId: number, from: string, to: string) =>
      (await company(companyId, [{ company_id: companyId, person_id: personId, from_date: from, to_date: to, queued_at: '', seq: null }])).days,
    /** One person-day computed now from the stored inputs, with its whole explanation; nothing is written. */
    async explain(companyId: number, personId: number, date: string): Promise<DayResult | undefined> {
      const r = await company(companyId, [{ company_id: companyId, person_id: personId, from_date: date, to_date: date, queued_at: '', seq: null }], true);
      return r.results.get(personId)?.[0];
    },
    /**
     * Some people's days over a range computed now with their whole explanation, a batch of 500 people at a time;
     * nothing is written (closing a period keeps each stored result's explanation, #28).
     */
    async explainRange(companyId: number, personIds: readonly number[], from: string, to: string): Promise<Map<number, DayResult[]>> {
      const out = new Map<number, DayResult[]>();
      for (const part of chunks(personIds, 500)) {
        const rows = part.map((id) => ({ company_id: companyId, person_id: id, from_date: from, to_date: to, queued_at: '', seq: null }));
        for (const [id, days] of (await company(companyId, rows, true)).results) out.set(id, days);
      }
      return out;
    },
    /**
     * Works through the queue: up to `limit` people, oldest first, company by company in batches of `batch` people
     * (BATCH_PEOPLE). Returns what it did. No batch starts once `signal` aborts or the time is past `until` (epoch
     * ms): the rest stay queued for the next run.
     *
     * On PostgreSQL a batch's inputs are read and computed while the batch before is still computed or written: the
     * database works on the write (most of a batch's time there, bench/attendance.bench.ts) while this process
     * computes, so the two cores work at once. Writes still go one at a time, company by company. On SQLite, whose
     * writes are this process's own work, batches run one after another.
     */
    async runOnce(
      limit = BATCH_PEOPLE,
      { signal, until = Infinity, batch: size = BATCH_PEOPLE }: { signal?: AbortSignal; until?: number; batch?: number } = {},
    ): Promise<{ people: number; days: number }> {
      const rows = await db.selectFrom('attendance_dirty').selectAll().orderBy('queued_at').limit(limit).execute();
      const byCompany = new Map<number, DirtyRow[]>();
      for (const r of rows) (byCompany.get(r.company_id) ?? byCompany.set(r.company_id, []).get(r.company_id)!).push(r);
      const batches = [...byCompany].flatMap(([companyId, list]) => chunks(list, size).map((part) => ({ companyId, list: part })));
      const overlap = deps.database.dialect === 'postgres';
      let days = 0;
      let people = 0;
      let writing: Promise<number> = Promise.resolve(0);
      for (const { companyId, list } of batches) {
        if (signal?.aborted || Date.now() > until) break;
        people += list.length;
        if (!overlap) {
          days += await batch(companyId, list);
          continue;
        }
        const computed = compute(companyId, list);
        // A failure is handled where the write awaits it (batch: person by person); meanwhile it is not unhandled.
        computed.catch(() => undefined);
        days += await writing;
        writing = batch(companyId, list, computed);
      }
      days += await writing;
      return { people, days };
    },
    /** Punches stored: the day of each punch and the day before (a night shift started then) wait to be recomputed. */
    async onPunches(trx: Executor, punches: { companyId: number; personId: number; time: string }[]) {
      const zones = new Map<number, string>();
      const byPerson = new Map<string, { companyId: number; personId: number; from: string; to: string }>();
      for (const p of punches) {
        let zone = zones.get(p.companyId);
        if (!zone) {
          zone = (await trx.selectFrom('companies').select('time_zone').where('id', '=', p.companyId).executeTakeFirst())?.time_zone ?? DEFAULT_TIME_ZONE;
          zones.set(p.companyId, zone);
        }
        const day = localDate(Date.parse(p.time), zone);
        const key = `${p.companyId}/${p.personId}`;
        const was = byPerson.get(key);
        const from = addDays(day, -1);
        byPerson.set(key, {
          companyId: p.companyId,
          personId: p.personId,
          from: was && was.from < from ? was.from : from,
          to: was && was.to > day ? was.to : day,
        });
      }
      // in ascending person order, as every writer marks (dirty.ts)
      for (const v of [...byPerson.values()].sort((a, b) => a.personId - b.personId))
        await markDirty(trx, v.companyId, [v.personId], { from: v.from, to: v.to });
    },
  };
}
export type RecomputeService = ReturnType<typeof recomputeService>;
export { DAY };
