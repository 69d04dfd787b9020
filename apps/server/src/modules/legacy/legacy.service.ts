import { randomBytes } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import {
  CARD_PATTERN,
  LEGACY_FIELDS,
  LIMITS,
  PERSON_NUMBER_PATTERN,
  type Gender,
  type Language,
  type LegacyField,
  type LegacyImport,
  type LegacyKind,
  type LegacyMapping,
  type LegacyPreview,
  type LegacyReport,
  type LegacyRunBody,
} from '@faceadmin/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import type { PunchRecord } from '../../gateways/terminal-events.ts';
import { t } from '../../i18n/i18n.ts';
import { chunks } from '../../lib/chunks.ts';
import { badInput, conflict, notFound } from '../../lib/errors.ts';
import type { FileStore } from '../../lib/files/store.ts';
import { parseJson } from '../../lib/json.ts';
import { isCalendarDate, nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { departmentsRepository } from '../departments/departments.repository.ts';
import { departmentPaths } from '../departments/departments.service.ts';
import { devicesRepository, type DeviceRow } from '../devices/devices.repository.ts';
import { audit } from '../logs/logs.service.ts';
import type { PeopleChangedHook } from '../persons/people-changed.ts';
import { newPersonRow, personsRepository, VISITOR, type PersonInsert } from '../persons/persons.repository.ts';
import { genderOf } from '../persons/gender.ts';
import { syncedChanged } from '../persons/persons.service.ts';
import type { PunchesService } from '../punches/punches.service.ts';
import { guessMapping, missingField } from './legacy.mapping.ts';
import { readLegacyFile, type LegacyEncoding, type LegacySheet } from './parse.ts';

/** Rows written in one transaction (employees), or handed to the punch writer at once (transactions). */
const PEOPLE_BATCH = 500;
const PUNCH_BATCH = 2000;
/** Rows refused are reported up to this many (the count says how many in all). */
const ERRORS_SHOWN = 200;
/** A run whose instance stopped answering for this long is over (its progress stopped moving). */
const STALE_MS = 10 * 60_000;
const SAMPLE_ROWS = 5;
/** An upload not imported for real is deleted after this long. */
const SWEEP_AFTER_MS = 7 * 86_400_000;

type Row = Awaited<ReturnType<typeof loadRow>>;
async function loadRow(db: Executor, companyId: number, id: number) {
  return db.selectFrom('legacy_imports').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
}

/** 'YYYY-MM-DD' from the ways exports write a day (2026-11-02, 2026/11/2, 2026.11.02, 2026年11月2日, 20261102), '' when none. */
export function dayOf(text: string): string {
  const s = text.trim();
  const m = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?$/.exec(s) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (!m) return '';
  const day = `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
  return isCalendarDate(day) ? day : '';
}

/** 'HH:mm:ss' from 8:05, 08:05:09, 8:05:09 (seconds 00 when left out), '' when none. */
export function clockOf(text: string): string {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) return '';
  return `${m[1]!.padStart(2, '0')}:${m[2]}:${m[3] ?? '00'}`;
}

/** A punch's device-local moment 'YYYY-MM-DD HH:mm:ss' from one cell ("2026-11-02 08:59:07", "2026/11/2 8:59", ISO with T) or a day and a time. */
export function momentOf(day: string, clock?: string): string {
  if (clock !== undefined && clock.trim() !== '') {
    const d = dayOf(day);
    const c = clockOf(clock);
    return d && c ? `${d} ${c}` : '';
  }
  const m = /^(\S+?)[ T]+(\d{1,2}:\d{2}(?::\d{2})?)(?:\.\d+)?$/.exec(day.trim());
  if (!m) return '';
  const d = dayOf(m[1]!);
  const c = clockOf(m[2]!);
  return d && c ? `${d} ${c}` : '';
}

const STATE_WORDS: [number, string[]][] = [
  [0, ['checkin', 'c/in', 'in', 'i', '签到', '上班', '上班签到', '出勤', '簽到', '上班簽到', '出社']],
  [1, ['checkout', 'c/out', 'out', 'o', '签退', '下班', '下班签退', '退勤', '簽退', '下班簽退']],
  [2, ['breakout', 'break out', '外出', '休息开始', '休息開始', '外出開始']],
  [3, ['breakin', 'break in', '外出返回', '返回', '休息结束', '休息結束', '戻り']],
  [4, ['overtimein', 'overtime in', 'ot in', '加班签到', '加班簽到', '残業開始']],
  [5, ['overtimeout', 'overtime out', 'ot out', '加班签退', '加班簽退', '残業終了']],
];
const STATES = new Map(STATE_WORDS.flatMap(([n, words]) => words.map((w) => [w.replace(/\s+/g, '').toLowerCase(), n] as const)));

/** The punch state (ZK status 0–5: in, out, break out, break in, overtime in, overtime out); empty → 0; undefined when unreadable. */
export function stateOf(text: string): number | undefined {
  const s = text.normalize('NFKC').replace(/\s+/g, '').toLowerCase();
  if (s === '') return 0;
  if (/^[0-5]$/.test(s)) return Number(s);
  return STATES.get(s);
}

/** What a batch counts of the report (the rest is counted outside any transaction). */
type Tally = Pick<LegacyReport, 'created' | 'updated' | 'unchanged' | 'departments' | 'failed' | 'errors'>;
const emptyTally = (): Tally => ({ created: 0, updated: 0, unchanged: 0, departments: 0, failed: 0, errors: [] });
function merge(report: LegacyReport, t: Tally) {
  report.created += t.created;
  report.updated += t.updated;
  report.unchanged += t.unchanged;
  report.departments += t.departments;
  report.failed += t.failed;
  for (const e of t.errors) if (report.errors.length < ERRORS_SHOWN) report.errors.push(e);
}
/** A department's name is stored up to this long (the departments' schema). */
const DEPARTMENT_NAME_MAX = LIMITS.textMax;

/** A department path's key: the same path however its letters are written (full-width, case). */
const pathKey = (p: string) => p.normalize('NFKC').toLowerCase();
/** '总部/研发部', '总部 > 研发部', '总部\\研发部' → ['总部', '研发部'] */
const splitPath = (text: string) =>
  text
    .split(/[/\\>＞]+/)
    .map((p) => p.trim())
    .filter(Boolean);
/** Where a run puts departments (departmentIndex): its root, every path here, and what a dry run would make. */
interface DepartmentIndex {
  rootId: number;
  rootPath: string;
  byPath: Map<string, number>;
  wouldMake: Set<string>;
}

const NUMBER = new RegExp(PERSON_NUMBER_PATTERN);
const CARD = new RegExp(CARD_PATTERN);

interface Work {
  tenant: Tenant;
  lang: Language;
  row: NonNullable<Row>;
  sheet: LegacySheet;
  mapping: LegacyMapping;
  body: LegacyRunBody;
  report: LegacyReport;
  progress: (done: number) => Promise<void>;
}

/**
 * Taking over a working site from the old software's files (issue #30, docs/legacy-import.md): an export is uploaded
 * and previewed (its encoding detected, its columns mapped by their headers or as this company mapped them last),
 * then run — dry (counts and each refused row, nothing written) or for real, in the background with its progress in
 * the database. Employees become people (their department paths made); transactions become punches through the
 * terminals' own writer, so a punch the terminal uploads later, or a second import, stores nothing twice.
 */
export function legacyService(deps: {
  database: Database;
  files: FileStore;
  punches: PunchesService;
  peopleChanged: PeopleChangedHook;
  log: FastifyBaseLogger;
}) {
  const { db } = deps.database;
  const running = new Set<Promise<void>>();
  let stopping = false;

  const present = (r: NonNullable<Row>): LegacyImport => ({
    id: r.id,
    kind: r.kind as LegacyKind,
    file_name: r.file_name,
    state: r.state as LegacyImport['state'],
    dry_run: r.dry_run === 1,
    done: r.done,
    total: r.total,
    report: r.report ? parseJson<LegacyReport | null>(r.report, null) : null,
    reason: r.reason,
  });

  async function fileOf(r: NonNullable<Row>): Promise<Buffer> {
    const f = r.file_key ? await deps.files.get(r.file_key) : undefined;
    if (!f) throw badInput('legacy.fileGone', 'id');
    const parts: Buffer[] = [];
    for await (const c of f.stream) parts.push(c as Buffer);
    return Buffer.concat(parts);
  }

  const label = (lang: Language, f: LegacyField) => t(lang, `legacy.fields.${f}`);

  /**
   * One refused row, with its row number in the file, the field's label and why; into the report, or into the tally
   * of a transaction's attempt (merged once it commits: a retried attempt counts nothing twice).
   */
  function refuse(w: Work, index: number, field: LegacyField, key: string, params: Record<string, string | number> = {}, into: Tally = w.report) {
    into.failed++;
    if (into.errors.length < ERRORS_SHOWN)
      into.errors.push({
        row: w.sheet.lines[index] ?? index + 2,
        field: label(w.lang, field),
        reason: t(w.lang, `legacy.reasons.${key}`, { field: label(w.lang, field), ...params }),
      });
  }

  /** A mapped cell of a row, trimmed ('' when the field is not mapped). */
  const cellOf = (w: Work, cells: string[], f: LegacyField) => {
    const i = w.mapping[f];
    return i === undefined || i === null ? '' : (cells[i] ?? '').trim();
  };

  /** A row's person number, or '' when it is refused (empty, or not a number a person may have). */
  function numberOf(w: Work, cells: string[], index: number): string {
    const number = cellOf(w, cells, 'number');
    if (!number) refuse(w, index, 'number', 'required');
    else if (!NUMBER.test(number) || number.length > LIMITS.personNumberMax) refuse(w, index, 'number', 'badNumber', { value: number });
    else return number;
    return '';
  }

  /** One employee row as read, before it meets the stored people. */
  interface Wanted {
    index: number;
    number: string;
    name: string;
    phone: string;
    card: string;
    hired: string | null;
    /** null: the cell said nothing (a stored gender stays) */
    gender: Gender | null;
    dept: string[] | null;
  }

  /** Where a run puts departments: under the one chosen (else at the top), found by their paths ('总部/研发部'). */
  async function departmentIndex(w: Work): Promise<DepartmentIndex> {
    const depts = await departmentsRepository.all(db, w.tenant.companyId);
    const rootId = w.body.department_id ?? 0;
    const pathOf = departmentPaths(depts);
    return {
      rootId,
      rootPath: rootId ? pathOf.get(rootId)! : '',
      byPath: new Map<string, number>(depts.map((d) => [pathKey(pathOf.get(d.id)!), d.id])),
      wouldMake: new Set<string>(),
    };
  }

  /**
   * A department path's id under the run's root, made (with its parents) when missing and counted in the attempt's
   * tally; 'planned' on a dry run for one not made yet (counted once in `wouldMake`).
   */
  async function departmentOf(ex: Executor, w: Work, d: DepartmentIndex, parts: string[], made: Map<string, number>, tally: Tally, now: string) {
    let parent = d.rootId;
    let path = d.rootPath;
    let planned = false;
    for (const whole of parts) {
      // as stored (the name's limit), so the same path is found again by the next import
      const part = whole.slice(0, DEPARTMENT_NAME_MAX);
      path = path ? `${path}/${part}` : part;
      const k = pathKey(path);
      let id = made.get(k) ?? d.byPath.get(k);
      if (id === undefined) {
        if (w.body.dry_run) {
          d.wouldMake.add(k);
          planned = true;
          continue;
        }
        id = await departmentsRepository.insert(ex, w.tenant.companyId, { parent_id: parent, name: part, sort: 0, created_at: now });
        made.set(k, id);
        tally.departments++;
      }
      parent = id;
    }
    return planned ? ('planned' as const) : parent;
  }

  async function employees(w: Work) {
    const d = await departmentIndex(w);
    const seen = new Set<string>();
    let done = 0;
    for (const batch of chunks(
      w.sheet.rows.map((cells, index) => ({ cells, index })),
      PEOPLE_BATCH,
    )) {
      const wanted: Wanted[] = [];
      for (const { cells, index } of batch) {
        const number = numberOf(w, cells, index);
        if (!number) continue;
        if (seen.has(number)) {
          w.report.duplicates++;
          continue;
        }
        seen.add(number);
        const first = cellOf(w, cells, 'first_name');
        const last = cellOf(w, cells, 'last_name');
        // family name first in Chinese and Japanese, given name first otherwise
        const joined = /[\u3040-\u30ff\u4e00-\u9fff]/.test(first + last) ? `${last}${first}` : [first, last].filter(Boolean).join(' ');
        const name = cellOf(w, cells, 'name') || joined;
        if (!name) {
          refuse(w, index, 'name', 'required');
          continue;
        }
        const card = cellOf(w, cells, 'card');
        if (card && !CARD.test(card)) {
          refuse(w, index, 'card', 'badCard', { value: card });
          continue;
        }
        const hiredText = cellOf(w, cells, 'hire_date');
        const hired = hiredText ? dayOf(hiredText.split(/[ T]/)[0]!) : '';
        if (hiredText && !hired) {
          refuse(w, index, 'hire_date', 'badDate', { value: hiredText });
          continue;
        }
        const genderText = cellOf(w, cells, 'gender');
        const gender = genderOf(genderText);
        if (gender === undefined) {
          refuse(w, index, 'gender', 'badGender', { value: genderText });
          continue;
        }
        const deptText = cellOf(w, cells, 'department');
        const dept = deptText ? splitPath(deptText) : null;
        wanted.push({
          index,
          number,
          name: name.slice(0, LIMITS.personNameMax),
          phone: cellOf(w, cells, 'phone').slice(0, 32),
          card,
          hired: hired || null,
          gender,
          dept,
        });
      }
      await writeOrCount(w, wanted, d);
      done += batch.length;
      await w.progress(done);
    }
    w.report.departments += d.wouldMake.size;
  }

  async function writeOrCount(w: Work, wanted: Wanted[], d: DepartmentIndex) {
    const { companyId } = w.tenant;
    // what one attempt counted and the departments it made: kept only once it commits (transaction() may run it again)
    const write = async (ex: Executor): Promise<{ tally: Tally; made: Map<string, number> }> => {
      const tally = emptyTally();
      const made = new Map<string, number>();
      const now = nowIso();
      const existing = await personsRepository.byNumbers(
        ex,
        companyId,
        wanted.map((x) => x.number),
      );
      const current = await personsRepository.departmentsOf(
        ex,
        companyId,
        [...existing.values()].map((p) => p.id),
      );
      const changed: number[] = [];
      for (const x of wanted) {
        const deptId = x.dept?.length ? await departmentOf(ex, w, d, x.dept, made, tally, now) : d.rootId;
        const p = existing.get(x.number);
        if (p && p.kind === VISITOR) {
          refuse(w, x.index, 'number', 'visitorNumber', { value: x.number }, tally);
          continue;
        }
        if (!p) {
          // no department in the file and none chosen: refused on a dry run as on the real one
          if (!deptId) {
            refuse(w, x.index, 'department', 'required', {}, tally);
            continue;
          }
          tally.created++;
          if (deptId === 'planned') continue;
          if (w.body.dry_run) continue;
          const id = await personsRepository.insert(
            ex,
            companyId,
            newPersonRow({ number: x.number, name: x.name, phone: x.phone, rfid: x.card, joined_on: x.hired, gender: x.gender, created_at: now }),
          );
          await personsRepository.setDepartments(ex, companyId, id, [deptId]);
          changed.push(id);
          continue;
        }
        // what the file says over what is kept, cell by cell: an empty cell changes nothing
        const patch: Partial<PersonInsert> = {};
        if (x.name !== p.name) patch.name = x.name;
        if (x.phone && x.phone !== p.phone) patch.phone = x.phone;
        if (x.card && x.card !== p.rfid) patch.rfid = x.card;
        if (x.hired && x.hired !== p.joined_on) patch.joined_on = x.hired;
        if (x.gender && x.gender !== p.gender) patch.gender = x.gender;
        const had = (current.get(p.id) ?? []).map((g) => g.id);
        const moved = x.dept !== null && deptId !== 0 && !(had.length === 1 && had[0] === deptId);
        if (!Object.keys(patch).length && !moved) {
          tally.unchanged++;
          continue;
        }
        tally.updated++;
        if (w.body.dry_run) continue;
        if (Object.keys(patch).length) {
          if (syncedChanged(p, patch)) Object.assign(patch, { revision: p.revision + 1, sync_status: 0 });
          await personsRepository.update(ex, companyId, p.id, { ...patch, updated_at: now }, p);
        }
        if (moved && typeof deptId === 'number') await personsRepository.setDepartments(ex, companyId, p.id, [deptId]);
        changed.push(p.id);
      }
      // the devices' ledgers, earlier punches under these numbers (claimStrangers) and attendance follow
      if (changed.length) await deps.peopleChanged.emit(ex, { companyId, personIds: changed, kind: 'saved' });
      return { tally, made };
    };
    const { tally, made } = w.body.dry_run ? await write(db) : await transaction(db, write);
    for (const [k, id] of made) d.byPath.set(k, id);
    merge(w.report, tally);
  }

  /**
   * A departments file (ZKBioTime's or ZKTime's export): each row a department, its parent named by code, by name (one
   * row of the file holds it), as a path, or a department already here by its name; empty, 0 (ZKTime's top) or its own
   * code is the top. A parent may come after its child in the file. Made under the run's root with their parents; one
   * already here is unchanged, so a second import makes nothing. Refused, naming the parent cell: parents in a circle,
   * a parent the file and the company do not know (when the file has codes), one whose name two rows share, one whose
   * own row is refused; a code an earlier row gave another department.
   */
  async function departments(w: Work) {
    const d = await departmentIndex(w);
    const before = new Set(d.byPath.keys());
    const hasCodes = w.mapping.code !== undefined && w.mapping.code !== null;
    interface Dept {
      index: number;
      code: string;
      name: string;
      parent: string;
    }
    const rows: Dept[] = [];
    const seen = new Set<string>();
    // the codes of rows refused, and the name each code was given first
    const refusedCodes = new Set<string>();
    const nameOfCode = new Map<string, string>();
    w.sheet.rows.forEach((cells, index) => {
      const name = cellOf(w, cells, 'department');
      const code = cellOf(w, cells, 'code');
      const parent = cellOf(w, cells, 'parent');
      if (!name) {
        if (code) refusedCodes.add(code);
        return refuse(w, index, 'department', 'required');
      }
      const first = code ? nameOfCode.get(code) : undefined;
      if (first !== undefined && pathKey(first) !== pathKey(name)) return refuse(w, index, 'code', 'repeatedCode', { value: code });
      if (code) nameOfCode.set(code, name);
      const k = code ? `#${code}` : `${pathKey(parent)}/${pathKey(name)}`;
      if (seen.has(k)) w.report.duplicates++;
      else {
        seen.add(k);
        rows.push({ index, code, name, parent });
      }
    });
    const byCode = new Map(rows.filter((r) => r.code).map((r) => [r.code, r]));
    const byName = new Map<string, Dept[]>();
    for (const r of rows) byName.set(pathKey(r.name), [...(byName.get(pathKey(r.name)) ?? []), r]);
    const rootKey = pathKey(d.rootPath);
    /** A department already under the run's root by this name, when only one is: its path below the root. */
    const hereByName = (name: string): string[] | undefined => {
      const found = [...d.byPath.keys()].filter((k) => (!rootKey || k.startsWith(`${rootKey}/`)) && k.split('/').pop() === pathKey(name));
      return found.length === 1 ? found[0]!.slice(rootKey ? rootKey.length + 1 : 0).split('/') : undefined;
    };
    type Why = 'cycle' | 'unknownParent' | 'ambiguousParent' | 'parentRefused';
    // each row's path from the top: its parent's path and its name, or why it has none
    const paths = new Map<Dept, string[] | Why>();
    const pathOf = (r: Dept, visiting: Set<Dept>): string[] | Why => {
      const known = paths.get(r);
      if (known !== undefined) return known;
      if (visiting.has(r)) return 'cycle';
      visiting.add(r);
      let up: string[] | Why = [];
      const top = !r.parent || r.parent === '0' || (r.code !== '' && r.parent === r.code);
      if (!top) {
        const named = byName.get(pathKey(r.parent));
        const p = byCode.get(r.parent) ?? (named?.length === 1 ? named[0] : undefined);
        if (p) {
          const above = pathOf(p, visiting);
          // a row under a refused one is refused for its parent, the circle's own rows for the circle
          up = typeof above === 'string' ? (above === 'cycle' ? 'cycle' : 'parentRefused') : above;
        } else if ((named?.length ?? 0) > 1) up = 'ambiguousParent';
        else if (refusedCodes.has(r.parent)) up = 'parentRefused';
        else if (splitPath(r.parent).length > 1) up = splitPath(r.parent);
        else up = hereByName(r.parent) ?? (hasCodes ? 'unknownParent' : [r.parent]);
      }
      const path = typeof up === 'string' ? up : [...up, r.name];
      paths.set(r, path);
      return path;
    };
    let done = 0;
    for (const batch of chunks(rows, PEOPLE_BATCH)) {
      const write = async (ex: Executor): Promise<{ tally: Tally; made: Map<string, number> }> => {
        const tally = emptyTally();
        const made = new Map<string, number>();
        const now = nowIso();
        for (const r of batch) {
          const parts = pathOf(r, new Set());
          if (typeof parts === 'string') {
            refuse(w, r.index, 'parent', parts, { value: r.parent }, tally);
            continue;
          }
          const whole = [d.rootPath, ...parts.map((p) => p.slice(0, DEPARTMENT_NAME_MAX))].filter(Boolean).join('/');
          if (before.has(pathKey(whole))) tally.unchanged++;
          await departmentOf(ex, w, d, parts, made, tally, now);
        }
        return { tally, made };
      };
      const { tally, made } = w.body.dry_run ? await write(db) : await transaction(db, write);
      for (const [k, id] of made) d.byPath.set(k, id);
      merge(w.report, tally);
      done += batch.length;
      await w.progress(done);
    }
    w.report.departments += d.wouldMake.size;
  }

  async function transactions(w: Work) {
    const { companyId } = w.tenant;
    const devices = await db.selectFrom('devices').selectAll().where('company_id', '=', companyId).execute();
    const bySerial = new Map(devices.map((d) => [d.serial.toLowerCase(), d]));
    const byName = new Map(devices.map((d) => [d.name.trim().toLowerCase(), d]));
    const fallback = w.body.device_id ? devices.find((d) => d.id === w.body.device_id) : undefined;
    const seen = new Set<string>();
    let done = 0;
    for (const batch of chunks(
      w.sheet.rows.map((cells, index) => ({ cells, index })),
      PUNCH_BATCH,
    )) {
      const byDevice = new Map<number, { device: DeviceRow; records: PunchRecord[] }>();
      for (const { cells, index } of batch) {
        const number = numberOf(w, cells, index);
        if (!number) continue;
        const timeCell = cellOf(w, cells, 'time');
        const moment = timeCell
          ? momentOf(timeCell) || momentOf(timeCell, cellOf(w, cells, 'clock'))
          : momentOf(cellOf(w, cells, 'date'), cellOf(w, cells, 'clock'));
        if (!moment) {
          const field: LegacyField = timeCell || w.mapping.time != null ? 'time' : 'date';
          refuse(w, index, field, 'badTime', { value: timeCell || [cellOf(w, cells, 'date'), cellOf(w, cells, 'clock')].filter(Boolean).join(' ') });
          continue;
        }
        const terminal = cellOf(w, cells, 'terminal');
        const device = (terminal && (bySerial.get(terminal.toLowerCase()) ?? byName.get(terminal.toLowerCase()))) || fallback;
        if (!device) {
          refuse(w, index, 'terminal', terminal ? 'unknownTerminal' : 'noTerminal', { value: terminal });
          continue;
        }
        const stateText = cellOf(w, cells, 'state');
        const status = stateOf(stateText);
        if (status === undefined) {
          refuse(w, index, 'state', 'badState', { value: stateText });
          continue;
        }
        // the same key as the terminal's own upload (device, local time, number): stored once, whoever brings it
        const k = `${device.id}/${moment}/${number}`;
        if (seen.has(k)) {
          w.report.duplicates++;
          continue;
        }
        seen.add(k);
        const g = byDevice.get(device.id) ?? byDevice.set(device.id, { device, records: [] }).get(device.id)!;
        g.records.push({ pin: number, time: moment, status, verify: 0, workcode: '0', mask: null, temperature: null, alcohol: null });
      }
      for (const { device, records } of byDevice.values()) {
        const stored = await storedKeys(device.id, records);
        const fresh = records.filter((r) => !stored.has(`${r.time}/${r.pin}`));
        w.report.already += records.length - fresh.length;
        const people = await personsRepository.byNumbers(db, companyId, [...new Set(fresh.map((r) => r.pin))]);
        w.report.strangers += fresh.filter((r) => !people.has(r.pin)).length;
        w.report.stored += fresh.length;
        if (!w.body.dry_run && fresh.length) await deps.punches.ingest(device, fresh, { history: true });
      }
      done += batch.length;
      await w.progress(done);
    }
  }

  /** Which of these records a device's punches hold already ("local time/number"). */
  async function storedKeys(deviceId: number, records: PunchRecord[]): Promise<Set<string>> {
    const out = new Set<string>();
    const times = records.map((r) => r.time).sort();
    const pins = [...new Set(records.map((r) => r.pin))];
    for (const part of chunks(pins))
      for (const p of await db
        .selectFrom('punches')
        .select(['pin', 'local_time'])
        .where('device_id', '=', deviceId)
        .where('pin', 'in', part)
        .where('local_time', '>=', times[0]!)
        .where('local_time', '<=', times[times.length - 1]!)
        .execute())
        out.add(`${p.local_time}/${p.pin}`);
    return out;
  }

  async function work(w: Work): Promise<void> {
    const id = w.row.id;
    try {
      if (w.row.kind === 'employees') await employees(w);
      else if (w.row.kind === 'departments') await departments(w);
      else await transactions(w);
      w.report.errors.sort((a, b) => a.row - b.row);
      await transaction(db, async (trx) => {
        await trx
          .updateTable('legacy_imports')
          // a real run's file is not kept (it holds people's phones and cards): importing again means uploading again
          .set({
            state: 'done',
            done: w.sheet.rows.length,
            report: JSON.stringify(w.report),
            updated_at: nowIso(),
            ...(w.body.dry_run ? {} : { file_key: '' }),
          })
          .where('id', '=', id)
          .execute();
        if (w.body.dry_run) return;
        const r = w.report;
        await audit(trx, w.tenant, 'person', 'person.legacyImport', {
          file: w.row.file_name,
          kind: t(w.lang, `legacy.kinds.${w.row.kind}`),
          written: w.row.kind === 'employees' ? r.created + r.updated : w.row.kind === 'departments' ? r.departments : r.stored,
        });
      });
      if (!w.body.dry_run) await deps.files.delete(w.row.file_key);
    } catch (e) {
      const interrupted = e instanceof Error && e.message === 'interrupted';
      if (!interrupted) deps.log.error({ err: e, import: id }, 'legacy import failed');
      await db
        .updateTable('legacy_imports')
        // a reason code the console translates; the detail is in the server's log
        .set({ state: 'failed', reason: interrupted ? 'interrupted' : 'error', report: JSON.stringify(w.report), updated_at: nowIso() })
        .where('id', '=', id)
        .execute()
        .catch(() => undefined);
    }
  }

  return {
    /** Reads an uploaded export and keeps it for the run: its columns, first rows and the mapping offered. */
    async preview(tenant: Tenant, upload: { data: Buffer; filename: string }, kind: LegacyKind, encoding?: LegacyEncoding): Promise<LegacyPreview> {
      const sheet = await readLegacyFile(upload.filename, upload.data, encoding);
      const now = nowIso();
      const fileKey = `legacy/${tenant.companyId}/${randomBytes(12).toString('hex')}`;
      await deps.files.put(fileKey, upload.data, { contentType: 'application/octet-stream' });
      // the mapping this company ran last for this kind, when the file has the same columns
      const last = await db
        .selectFrom('legacy_imports')
        .select(['headers', 'mapping'])
        .where('company_id', '=', tenant.companyId)
        .where('kind', '=', kind)
        .where('state', '=', 'done')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      const remembered = !!last && last.headers === JSON.stringify(sheet.headers);
      const mapping = remembered ? parseJson<LegacyMapping>(last.mapping, {}) : guessMapping(kind, sheet.headers);
      const row = await db
        .insertInto('legacy_imports')
        .values({
          company_id: tenant.companyId,
          admin_id: tenant.adminId,
          kind,
          file_name: upload.filename.slice(0, 200),
          file_key: fileKey,
          encoding: sheet.encoding,
          headers: JSON.stringify(sheet.headers),
          mapping: JSON.stringify(mapping),
          state: 'uploaded',
          total: sheet.rows.length,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return {
        id: row.id,
        kind,
        file_name: upload.filename,
        encoding: sheet.encoding,
        headers: sheet.headers,
        sample: sheet.rows.slice(0, SAMPLE_ROWS),
        rows: sheet.rows.length,
        mapping,
        remembered,
      };
    },

    /** Starts a run (dry or not) of an uploaded export with this mapping; its progress and report are read with info. */
    async run(tenant: Tenant, lang: Language, body: LegacyRunBody): Promise<LegacyImport> {
      const r = await loadRow(db, tenant.companyId, body.id);
      if (!r) throw notFound();
      // one run of a kind at a time in a company: two would make the same people and departments at once
      const busy = await db
        .selectFrom('legacy_imports')
        .select('id')
        .where('company_id', '=', tenant.companyId)
        .where('kind', '=', r.kind)
        .where('state', '=', 'running')
        .where('updated_at', '>', new Date(Date.now() - STALE_MS).toISOString())
        .executeTakeFirst();
      if (busy) throw conflict('legacy.running');
      const kind = r.kind as LegacyKind;
      const headers = parseJson<string[]>(r.headers, []);
      const fields: readonly string[] = LEGACY_FIELDS[kind];
      const mapping: LegacyMapping = {};
      for (const [f, col] of Object.entries(body.mapping)) {
        if (col === null) continue;
        if (!fields.includes(f)) throw badInput('legacy.unknownField', 'mapping', { field: f });
        if (col >= headers.length) throw badInput('legacy.noColumn', 'mapping', { field: label(lang, f as LegacyField), column: col + 1 });
        mapping[f as LegacyField] = col;
      }
      const missing = missingField(kind, mapping);
      if (missing) throw badInput('legacy.missing', 'mapping', { field: label(lang, missing) });
      if (body.device_id !== undefined && !(await devicesRepository.find(db, tenant.companyId, body.device_id))) throw notFound();
      if (body.department_id !== undefined && !(await departmentsRepository.all(db, tenant.companyId)).some((d) => d.id === body.department_id))
        throw notFound();
      if (kind === 'employees' && mapping.department === undefined && body.department_id === undefined)
        throw badInput('legacy.missing', 'department_id', { field: label(lang, 'department') });
      const encoding = body.encoding && body.encoding !== 'xlsx' ? body.encoding : r.encoding !== 'xlsx' ? (r.encoding as LegacyEncoding) : undefined;
      const sheet = await readLegacyFile(r.file_name, await fileOf(r), encoding);
      const now = nowIso();
      const claimed = await db
        .updateTable('legacy_imports')
        .set({
          state: 'running',
          dry_run: body.dry_run ? 1 : 0,
          mapping: JSON.stringify(mapping),
          encoding: sheet.encoding,
          total: sheet.rows.length,
          done: 0,
          report: '',
          reason: '',
          updated_at: now,
        })
        .where('id', '=', r.id)
        .where('updated_at', '=', r.updated_at)
        .returning('id')
        .executeTakeFirst();
      // another request started it meanwhile
      if (!claimed) throw conflict('legacy.running');
      const report: LegacyReport = {
        rows: sheet.rows.length,
        created: 0,
        updated: 0,
        unchanged: 0,
        departments: 0,
        stored: 0,
        already: 0,
        strangers: 0,
        duplicates: 0,
        failed: 0,
        errors: [],
      };
      const progress = async (done: number) => {
        // the server closing: the run stops between batches (each whole or not at all); run again, it adds nothing twice
        if (stopping) throw new Error('interrupted');
        await db.updateTable('legacy_imports').set({ done, updated_at: nowIso() }).where('id', '=', r.id).execute();
        // on SQLite every query completes at once: the terminals and the console are answered between batches
        await setImmediate();
      };
      const job = work({ tenant, lang, row: { ...r, kind }, sheet, mapping, body, report, progress });
      running.add(job);
      void job.finally(() => running.delete(job));
      return present((await loadRow(db, tenant.companyId, r.id))!);
    },

    async info(tenant: Tenant, id: number): Promise<LegacyImport> {
      const r = await loadRow(db, tenant.companyId, id);
      if (!r) throw notFound();
      // a run whose instance stopped: over, said so
      if (r.state === 'running' && Date.parse(r.updated_at) < Date.now() - STALE_MS) return { ...present(r), state: 'failed', reason: 'interrupted' };
      return present(r);
    },

    /** Uploads never imported for real are not kept past a week (they hold people's phones and cards). */
    async sweep(): Promise<number> {
      const old = await db
        .selectFrom('legacy_imports')
        .select(['id', 'file_key'])
        .where('file_key', '!=', '')
        .where('state', '!=', 'running')
        .where('updated_at', '<', new Date(Date.now() - SWEEP_AFTER_MS).toISOString())
        .limit(500)
        .execute();
      for (const r of old) {
        await deps.files.delete(r.file_key);
        await db.updateTable('legacy_imports').set({ file_key: '' }).where('id', '=', r.id).execute();
      }
      return old.length;
    },

    /** The server closing: the runs going on stop after their batch, and are waited for. */
    settle: () => {
      stopping = true;
      return Promise.allSettled([...running]);
    },
  };
}
export type LegacyService = ReturnType<typeof legacyService>;
