import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { DAY_STATUSES, type Rule } from '@faceadmin/shared';
import { LANGUAGES, LOCALE_FOLDER } from '../src/lib/languages.ts';
import { formatDateTime } from '../src/ui/format.ts';
import {
  calendarWeeks,
  clockOf,
  crossesMidnight,
  emptyRule,
  formToInput,
  hm,
  LEGEND,
  legendOf,
  openingDay,
  progressOf,
  ruleToForm,
  usesAutoShift,
  statusText,
  whyText,
  zonedIso,
  zonedToday,
} from '../src/features/attendance/logic.ts';

const LOCALES = path.resolve(import.meta.dirname, '..', 'src', 'locales');
const WHY_TS = path.resolve(import.meta.dirname, '..', '..', 'server', 'src', 'modules', 'attendance', 'engine', 'why.ts');
type Tree = { [k: string]: string | Tree };

function resources(folder: string): Tree {
  const out: Tree = {};
  for (const file of readdirSync(path.join(LOCALES, folder)).filter((f) => f.endsWith('.json'))) {
    out[path.basename(file, '.json')] = JSON.parse(readFileSync(path.join(LOCALES, folder, file), 'utf8')) as Tree;
  }
  return out;
}

const i18n = i18next.createInstance();
await i18n.init({
  resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: resources(LOCALE_FOLDER[l]) }])),
  lng: 'en-US',
  fallbackLng: false,
  interpolation: { escapeValue: false },
});
const tOf = (lang: (typeof LANGUAGES)[number]) => i18n.getFixedT(lang);
const en = tOf('en-US');
const hasIn = (lang: (typeof LANGUAGES)[number]) => (key: string) => i18n.exists(key, { lng: lang });

// ---------- legend (spec §4) ----------

test('every day status falls into one of the five legend groups (pending into none)', () => {
  for (const s of DAY_STATUSES) {
    const l = legendOf(s);
    assert.ok(s === 'pending' ? l === 'pending' : (LEGEND as readonly string[]).includes(l), `${s} → ${l}`);
  }
  assert.equal(legendOf('normal'), 'normal');
  for (const s of ['late', 'early', 'lateEarly', 'missingIn', 'missingOut', 'absent', 'halfDay'] as const) assert.equal(legendOf(s), 'abnormal', s);
  assert.equal(legendOf('out'), 'out');
  assert.equal(legendOf('leave'), 'leave');
  assert.equal(legendOf('holiday'), 'holiday');
  assert.equal(legendOf('rest'), 'holiday');
});

test('the status cell says how late or early, and names the other statuses', () => {
  assert.equal(statusText({ status: 'late', late_min: 7, early_min: 0 }, en), 'Late 7 min');
  assert.equal(statusText({ status: 'early', late_min: 0, early_min: 12 }, en), 'Left early 12 min');
  assert.equal(statusText({ status: 'lateEarly', late_min: 3, early_min: 4 }, en), 'Late 3 min, left early 4 min');
  assert.equal(statusText({ status: 'missingIn', late_min: 0, early_min: 0 }, en), 'Missing check-in');
  assert.equal(statusText({ status: 'late', late_min: 7, early_min: 0 }, tOf('zh-CN')), '迟到 7 分钟');
  for (const lang of LANGUAGES) for (const s of DAY_STATUSES) assert.ok(hasIn(lang)(`att.status.${s}`), `${lang}: att.status.${s}`);
});

// ---------- explanations ----------

test('a why line is rendered with its values', () => {
  const has = hasIn('en-US');
  assert.equal(
    whyText({ key: 'att.why.late', params: { checkIn: '09:07', start: '09:00', grace: 5, late: 7 } }, en, has),
    'Checked in 09:07, shift 09:00, grace 5 min → late 7 min',
  );
  assert.equal(whyText({ key: 'att.why.rest' }, en, has), 'Rest day');
  assert.equal(
    whyText({ key: 'att.why.late', params: { checkIn: '09:05:01', start: '09:00', grace: 5, late: 5 } }, tOf('ja'), hasIn('ja')),
    '09:05:01 に出勤、始業 09:00、猶予 5 分 → 遅刻 5 分',
  );
});

test('coded values (mode, kind, direction, colour) are translated, not shown as codes', () => {
  assert.equal(whyText({ key: 'att.why.rule', params: { rule: 'Office', mode: 'fixed' } }, en, hasIn('en-US')), 'Rule "Office" (fixed mode)');
  assert.equal(whyText({ key: 'att.why.rule', params: { rule: 'Office', mode: 'shift' } }, tOf('zh-CN'), hasIn('zh-CN')), '规则“Office”（排班制）');
  assert.equal(
    whyText({ key: 'att.why.startMoved', params: { kind: 'out', from: '09:00', to: '11:00', start: '11:00' } }, en, hasIn('en-US')),
    'Approved out-of-office 09:00–11:00: expected from 11:00',
  );
  assert.equal(
    whyText({ key: 'att.why.ignored.health', params: { time: '08:55', color: 'red' } }, tOf('zh_tw'), hasIn('zh_tw')),
    '08:55 的打卡：健康碼為紅碼 → 無效',
  );
  // a value that is not a known code stays as sent
  assert.equal(whyText({ key: 'att.why.rule', params: { rule: 'X', mode: 'weird' } }, en, hasIn('en-US')), 'Rule "X" (weird mode)');
});

test("an absence's label follows its line; an unknown key is shown as sent", () => {
  assert.equal(
    whyText({ key: 'att.why.leaveShift', params: { from: '09:00', to: '18:00', label: 'Dentist' } }, en, hasIn('en-US')),
    'Approved leave 09:00–18:00 covers the shift · Dentist',
  );
  assert.equal(whyText({ key: 'att.why.future', params: { a: 1 } }, en, hasIn('en-US')), 'att.why.future {"a":1}');
});

test("the console's English is the engine's, and every engine key is in all four languages", () => {
  const source = readFileSync(WHY_TS, 'utf8');
  const pairs = [...source.matchAll(/^\s+'(att\.(?:why|value)\.[\w.]+)': '((?:[^'\\]|\\.)*)',$/gm)].map((m) => [m[1]!, m[2]!.replace(/\\'/g, "'")] as const);
  assert.ok(pairs.length > 50, `found only ${pairs.length} keys in why.ts`);
  for (const [key, english] of pairs) {
    assert.equal(en(key), english, key);
    for (const lang of LANGUAGES) assert.ok(hasIn(lang)(key), `${lang}: ${key}`);
  }
});

// ---------- the rule form ----------

const RULE: Rule = {
  id: 4,
  name: 'Office',
  mode: 'fixed',
  model: 'default',
  use_direction: false,
  overtime_min_min: 30,
  late_absent_after_min: null,
  half_day_below_min: 240,
  absent_below_min: 60,
  alarm_temp: 37.5,
  worked_by: 'firstLast',
  count_off_day_punches: true,
  overtime_needs_approval: false,
  shifts: [
    {
      id: 11,
      key: '11',
      name: 'Morning',
      start: '09:00',
      end: '12:00',
      breaks: [],
      late_grace_min: 5,
      early_grace_min: 0,
      check_in_before_min: 120,
      check_in_after_min: 120,
      check_out_before_min: 60,
      check_out_after_min: 60,
    },
    {
      id: 12,
      key: '12',
      name: 'Afternoon',
      start: '13:00',
      end: '18:00',
      breaks: [{ start: '15:00', end: '15:15', deducted: false }],
      late_grace_min: 5,
      early_grace_min: 0,
      check_in_before_min: 60,
      check_in_after_min: 120,
      check_out_before_min: 120,
      check_out_after_min: 240,
    },
  ],
  weekdays: { '0': [], '1': ['11', '12'], '2': ['11', '12'], '3': ['11'], '4': ['11', '12'], '5': ['11', '12'], '6': [] },
  auto_shifts: [],
  day_boundary: '05:00',
  required_min: 480,
  cycles: [{ id: 3, key: '3', name: 'old', days: ['11', ''] }],
  cycle_key: '3',
  start_date: '2026-01-01',
  start_index: 1,
  persons: [{ id: 7, name: 'Ann' }],
  departments: [{ id: 2, name: 'Office' }],
  member_count: 9,
  updated_at: '2026-11-01T00:00:00.000Z',
  versions: [],
};

test('editing a rule and saving it unchanged sends what it was', () => {
  const body = formToInput(ruleToForm(RULE));
  assert.equal(body.name, 'Office');
  assert.deepEqual(
    body.shifts.map((s) => [s.key, s.start, s.end, s.late_grace_min, s.breaks]),
    [
      ['11', '09:00', '12:00', 5, []],
      ['12', '13:00', '18:00', 5, [{ start: '15:00', end: '15:15', deducted: false }]],
    ],
  );
  assert.deepEqual(body.weekdays, { 0: [], 1: ['11', '12'], 2: ['11', '12'], 3: ['11'], 4: ['11', '12'], 5: ['11', '12'], 6: [] });
  assert.deepEqual([body.person_ids, body.department_ids], [[7], [2]]);
  assert.deepEqual([body.half_day_below_min, body.absent_below_min, body.late_absent_after_min], [240, 60, null]);
  // a fixed rule sends no cycles and no free-mode settings
  assert.equal(body.cycles, undefined);
  assert.equal(body.day_boundary, undefined);
});

test('automatic shift matching (#17): a day marked Auto is sent alone, with the candidates that still exist', () => {
  const f = ruleToForm({ ...RULE, auto_shifts: ['11', '12'], weekdays: { ...RULE.weekdays, '2': ['*'], '3': ['*', '11'] } });
  assert.equal(usesAutoShift(f), true);
  f.shifts.push({ ...f.shifts[0]!, key: 'snew1', name: 'Night', start: '22:00', end: '06:00' });
  f.auto_shifts.push('snew1', 'gone');
  const body = formToInput(f);
  assert.deepEqual([body.weekdays?.[2], body.weekdays?.[3]], [['*'], ['*']]);
  assert.deepEqual(body.auto_shifts, ['11', '12', 'snew1']);
  // a shift rule keeps Auto cycle days; a free rule sends no candidates
  const shift = formToInput({ ...f, mode: 'shift', cycles: [{ key: '3', name: 'c', days: ['*', '', 'gone'] }] });
  assert.deepEqual(shift.cycles?.[0]?.days, ['*', '', '']);
  assert.equal(usesAutoShift({ ...f, mode: 'shift', cycles: [{ key: '3', name: 'c', days: ['11', ''] }] }), false);
  assert.equal(formToInput({ ...f, mode: 'free' }).auto_shifts, undefined);
});

test('a fixed rule drops weekday ticks of a removed shift', () => {
  const f = ruleToForm(RULE);
  f.shifts = f.shifts.filter((s) => s.key !== '12');
  assert.deepEqual(formToInput(f).weekdays?.[1], ['11']);
});

test('a shift rule sends its cycles (days of removed shifts become rest) and the running cycle', () => {
  const f = { ...ruleToForm(RULE), mode: 'shift' as const };
  f.cycles = [{ key: 'cnew1', name: 'D2N2R2', days: ['11', '11', '12', '12', '', '', '99'] }];
  f.cycle_key = 'cnew1';
  f.start_index = 2;
  const body = formToInput(f);
  assert.deepEqual(body.cycles, [{ key: 'cnew1', name: 'D2N2R2', days: ['11', '11', '12', '12', '', '', ''] }]);
  assert.deepEqual([body.cycle_key, body.start_date, body.start_index], ['cnew1', '2026-01-01', 2]);
  assert.equal(body.weekdays, undefined);
  // a running cycle that was removed is not sent
  f.cycle_key = '3';
  assert.deepEqual([formToInput(f).cycle_key, formToInput(f).start_date], [null, null]);
});

test('a free rule sends no shifts, its day boundary and required time', () => {
  const f = { ...ruleToForm(RULE), mode: 'free' as const, day_boundary: '04:00', required_min: 450 };
  const body = formToInput(f);
  assert.deepEqual(body.shifts, []);
  assert.deepEqual([body.day_boundary, body.required_min], ['04:00', 450]);
});

test('a new rule works Monday to Friday on its first shift', () => {
  const f = emptyRule('Shift 1');
  const key = f.shifts[0]!.key;
  assert.match(key, /^[A-Za-z0-9_-]{1,20}$/);
  assert.deepEqual(formToInput({ ...f, name: ' Day ' }).weekdays, { 0: [], 1: [key], 2: [key], 3: [key], 4: [key], 5: [key], 6: [] });
  assert.equal(formToInput({ ...f, name: ' Day ' }).name, 'Day');
});

// ---------- times ----------

test('a shift ending at or before its start ends the next day', () => {
  assert.equal(crossesMidnight('22:00', '06:00'), true);
  assert.equal(crossesMidnight('09:00', '09:00'), true);
  assert.equal(crossesMidnight('09:00', '18:00'), false);
  assert.equal(crossesMidnight('', ''), false);
});

test("a wall-clock time means that time in the company's zone, DST included", () => {
  assert.equal(zonedIso('2026-03-02', '09:00', 'Asia/Shanghai'), '2026-03-02T01:00:00.000Z');
  assert.equal(zonedIso('2026-03-02', '06:00', 'Asia/Shanghai', 1), '2026-03-02T22:00:00.000Z');
  // Berlin: UTC+1 before 29 March 2026 02:00, UTC+2 after
  assert.equal(zonedIso('2026-03-28', '09:00', 'Europe/Berlin'), '2026-03-28T08:00:00.000Z');
  assert.equal(zonedIso('2026-03-29', '09:00', 'Europe/Berlin'), '2026-03-29T07:00:00.000Z');
  assert.equal(zonedIso('2026-11-01', '08:30', 'America/New_York'), '2026-11-01T13:30:00.000Z');
  assert.equal(zonedToday('Asia/Shanghai', 0, Date.parse('2026-03-01T17:00:00Z')), '2026-03-02');
  assert.equal(zonedToday('America/New_York', -1, Date.parse('2026-03-01T17:00:00Z')), '2026-02-28');
});

test('worked minutes read as h:mm; update progress runs 0 to 100', () => {
  assert.equal(hm(480), '8:00');
  assert.equal(hm(7), '0:07');
  assert.equal(hm(0, true), '');
  assert.equal(hm(0), '0:00');
  assert.equal(progressOf(200, 200), 0);
  assert.equal(progressOf(200, 50), 75);
  assert.equal(progressOf(200, 0), 100);
  assert.equal(progressOf(0, 0), 100);
  assert.equal(progressOf(10, 30), 0);
});

test('the month calendar starts its weeks on Monday and pads the month to whole weeks', () => {
  const nov = calendarWeeks('2026-11'); // 1 November 2026 is a Sunday
  assert.equal(nov.length, 6);
  assert.deepEqual(nov[0], [null, null, null, null, null, null, '2026-11-01']);
  assert.deepEqual(nov[5], ['2026-11-30', null, null, null, null, null, null]);
  const feb = calendarWeeks('2027-02'); // Monday 1st, 28 days: exactly four weeks
  assert.deepEqual([feb.length, feb[0]![0], feb[3]![6]], [4, '2027-02-01', '2027-02-28']);
  assert.equal(calendarWeeks('2028-02').flat().filter(Boolean).length, 29, 'a leap February');
});

test("a calendar day's punches read in the company's zone, a night shift's check-out marked as the next day", () => {
  const inShanghai = (iso: string) => formatDateTime(iso, 'Asia/Shanghai');
  assert.equal(clockOf('2026-10-05T01:07:00.000Z', '2026-10-05', inShanghai), '09:07');
  assert.equal(clockOf('2026-10-05T22:05:00.000Z', '2026-10-05', inShanghai), '06:05 (+1)');
  assert.equal(clockOf(null, '2026-10-05', inShanghai), '--');
});

test('the day view opens on the latest day that has results, today when none (or the answer failed), nothing while asking', () => {
  assert.equal(openingDay({ date: '2026-11-20' }, '2026-11-26'), '2026-11-20');
  assert.equal(openingDay({ date: null }, '2026-11-26'), '2026-11-26');
  assert.equal(openingDay({ date: '2026-12-01' }, '2026-11-26'), '2026-11-26', 'never a day after today');
  assert.equal(openingDay(undefined, '2026-11-26'), undefined);
  assert.equal(openingDay(undefined, '2026-11-26', true), '2026-11-26');
});

test('times in the rule form are 24-hour in every language (no AM/PM field)', () => {
  const src = readFileSync(path.resolve(import.meta.dirname, '..', 'src', 'features', 'attendance', 'components', 'TimeInputs.tsx'), 'utf8');
  assert.ok(!/type="time"/.test(src), "the browser's time field follows the language's 12-hour clock");
  assert.match(src, /placeholder="HH:mm"/);
});

test("the rule form carries the temperature model's alarm; a new rule starts at the device default 37.3", () => {
  assert.equal(emptyRule('Day').alarm_temp, 37.3);
  assert.equal(formToInput(ruleToForm({ ...RULE, model: 'temperature' })).alarm_temp, 37.5);
});

test('the rule form carries how a rule counts (#17): new rules keep first → last, days off counted, overtime without approval', () => {
  const fresh = formToInput(emptyRule('Day'));
  assert.deepEqual([fresh.worked_by, fresh.count_off_day_punches, fresh.overtime_needs_approval], ['firstLast', true, false]);
  const back = formToInput(ruleToForm({ ...RULE, worked_by: 'pairs', count_off_day_punches: false, overtime_needs_approval: true }));
  assert.deepEqual([back.worked_by, back.count_off_day_punches, back.overtime_needs_approval], ['pairs', false, true]);
});
