import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { LANGUAGES, LOCALE_FOLDER } from '../src/lib/languages.ts';
import { ALL_RIGHTS, NO_RIGHTS, type Timer } from '@faceadmin/shared';
import { parseEventStream } from '../src/lib/eventStream.ts';
import { decideAccess } from '../src/app/routes/access.ts';
import { filterRoutes, findRoute, flattenRoutes, ROUTE_TABLE } from '../src/app/routes/routeTable.ts';
import {
  alarmRingOn,
  ampsToMxgl,
  connectionFacts,
  emptyTimer,
  energyMonths,
  energySeries,
  formatPower,
  lineEnergyOfMonth,
  mxglToAmps,
  newBreakerAlarms,
  powerOffText,
  powerSeries,
  timerBody,
  timerCutsPower,
  timerToValues,
  UUID_RE,
  weekdaysText,
  type TimerValues,
} from '../src/features/breakers/logic.ts';

const BREAKER_PATHS = ['/circuitBreaker', '/circuitBreaker/index', '/circuitBreaker/:id', '/circuitBreakerLine/:id'];

test("issue #18: the breaker menu follows the server's rule (the breaker right or face-device view); its detail pages are hidden and /circuitBreaker/index is not taken for an id", () => {
  for (const rights of [
    { ...NO_RIGHTS, breaker: 1, is_admin: 1 },
    { ...NO_RIGHTS, face: 1, is_admin: 1 },
    { ...NO_RIGHTS, face: 2, is_admin: 1 },
    { ...ALL_RIGHTS, is_admin: 1 },
  ]) {
    const routes = filterRoutes(ROUTE_TABLE, rights, 'normal');
    const paths = flattenRoutes(routes).map((r) => r.path);
    for (const p of [...BREAKER_PATHS, '/map']) assert.ok(paths.includes(p), `${p} with ${JSON.stringify(rights)}`);
    assert.equal(routes.find((r) => r.path === '/circuitBreaker')?.redirect, '/circuitBreaker/index');
  }
  assert.equal(findRoute(ROUTE_TABLE, '/circuitBreaker/index')?.page, 'breakerList');
  assert.equal(findRoute(ROUTE_TABLE, '/circuitBreaker/12')?.page, 'breakerDetail');
  assert.equal(findRoute(ROUTE_TABLE, '/circuitBreaker/12')?.hidden, true);
  assert.equal(findRoute(ROUTE_TABLE, '/circuitBreakerLine/7')?.page, 'breakerLine');
  assert.equal(findRoute(ROUTE_TABLE, '/circuitBreakerLine/7')?.hidden, true);
});

test('issue #18: without the breaker right and face-device view no breaker menu, no map, and their paths lead to /404, not "No authority"', () => {
  for (const rights of [
    { ...ALL_RIGHTS, breaker: 0, face: 0, is_admin: 1 },
    { ...NO_RIGHTS, attendance: 1, is_admin: 1 },
    { ...NO_RIGHTS, is_admin: 1 },
    { ...ALL_RIGHTS, is_admin: 0 },
  ]) {
    const routes = filterRoutes(ROUTE_TABLE, rights, 'normal');
    const paths = flattenRoutes(routes).map((r) => r.path);
    for (const p of [...BREAKER_PATHS, '/map']) assert.ok(!paths.includes(p), `${p} with ${JSON.stringify(rights)}`);
    for (const path of ['/circuitBreaker/index', '/circuitBreaker/3', '/circuitBreakerLine/4', '/map', '/circuitBreaker'])
      assert.deepEqual(decideAccess({ search: '', token: 't', company: 5, routes, path }), { kind: 'redirect', to: '/404' }, path);
  }
});

test('the overcurrent limit: mxgl is in units of 10 mA, the form takes amperes', () => {
  assert.equal(mxglToAmps(3200), 32);
  assert.equal(mxglToAmps(1), 0.01);
  assert.equal(ampsToMxgl(32), 3200);
  assert.equal(ampsToMxgl(0.1 + 0.2), 30, 'floating-point sums round to whole units');
  assert.equal(ampsToMxgl(mxglToAmps(1234)), 1234);
});

test('a uuid is an MQTT user name and a topic level: no / + # or spaces', () => {
  for (const ok of ['BRK-0001', 'abcd', 'A_b-9'.padEnd(10, 'x')]) assert.ok(UUID_RE.test(ok), ok);
  for (const bad of ['abc', 'BRK/1', 'BRK+1', 'BRK#1', 'BRK 1', 'x'.repeat(41), '']) assert.ok(!UUID_RE.test(bad), bad);
  assert.deepEqual(connectionFacts('BRK-0001', 'pw-secret-1', { host: null, port: 1884, tls: false }, 'console.example'), {
    host: 'console.example',
    port: 1884,
    tls: false,
    username: 'BRK-0001',
    password: 'pw-secret-1',
    prefix: 'fa/BRK-0001',
  });
  assert.equal(connectionFacts('B-1', 'p', { host: 'mq.example', port: 8883, tls: true }, 'console.example').host, 'mq.example');
});

test('power reads as W below 1 kW and kW above', () => {
  assert.equal(formatPower(0), '0 W');
  assert.equal(formatPower(812.4), '812 W');
  assert.equal(formatPower(1520), '1.52 kW');
  assert.equal(formatPower(Number.NaN), '—');
});

const base: TimerValues = { ...emptyTimer([{ id: 3 }, { id: 4 }]), time: '07:30' };

test('spec §5 timers: lines and time required; a cyclic timer needs weekdays, a single one its day', () => {
  assert.deepEqual(timerBody({ ...base, line_ids: [] }), { ok: false, field: 'line_ids' });
  assert.deepEqual(timerBody({ ...base, time: '' }), { ok: false, field: 'time' });
  assert.deepEqual(timerBody({ ...base, time: '24:00' }), { ok: false, field: 'time' });
  assert.deepEqual(timerBody({ ...base, weekdays: [] }), { ok: false, field: 'weekdays' });
  assert.deepEqual(timerBody({ ...base, type: 'single', day: undefined }), { ok: false, field: 'day' });
  assert.deepEqual(timerBody({ ...base, weekdays: [5, 1, 1, 0] }), {
    ok: true,
    body: { type: 'cyclic', line_ids: [3, 4], time: '07:30', action: 'on', enabled: 1, weekdays: [0, 1, 5] },
  });
  // A single timer sends its day and no weekdays (the ones the form still holds from "weekly" are dropped).
  assert.deepEqual(timerBody({ ...base, type: 'single', day: '2026-12-24', action: 'off', enabled: false, line_ids: [4, 4] }), {
    ok: true,
    body: { type: 'single', line_ids: [4], time: '07:30', action: 'off', enabled: 0, day: '2026-12-24' },
  });
});

test('a timer edits as it was saved', () => {
  const timer: Timer = {
    id: 9,
    breaker_id: 1,
    type: 'cyclic',
    line_ids: [4],
    line_titles: ['Sockets'],
    day: null,
    time: '22:15',
    weekdays: [6, 0],
    action: 'off',
    enabled: true,
    updated_at: '2026-11-23T10:00:00.000Z',
    sync: 'synced',
    sync_error: '',
  };
  const v = timerToValues(timer);
  assert.deepEqual(v, { type: 'cyclic', line_ids: [4], time: '22:15', weekdays: [6, 0], day: undefined, action: 'off', enabled: true });
  const r = timerBody(v);
  assert.ok(r.ok);
  assert.deepEqual(r.body.weekdays, [0, 6]);
});

test('weekdays read Monday first', () => {
  const names = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  assert.equal(weekdaysText([0, 1, 3, 6], names), 'Mon, Wed, Sat, Sun');
  assert.equal(weekdaysText([], names), '');
});

test('alarm ring: the company option switches the sound (guard desk and breaker alarms)', () => {
  assert.equal(alarmRingOn({ company: 3, alarm_ring: 1 }), true);
  assert.equal(alarmRingOn({ company: 3, alarm_ring: 0 }), false, 'option off');
  assert.equal(alarmRingOn({ company: 0, alarm_ring: 1 }), false, 'no company');
  assert.equal(alarmRingOn(undefined), false, 'no session');
});

test('alarm ring: the first look rings for nothing; afterwards only a newer breaker alarm rings', () => {
  const old = [
    { id: 5, type: 'breakerAlarm' },
    { id: 3, type: 'deviceOffline' },
  ];
  assert.deepEqual(newBreakerAlarms(old, null), { ring: false, seen: 5 });
  assert.deepEqual(newBreakerAlarms(old, 5), { ring: false, seen: 5 });
  assert.deepEqual(newBreakerAlarms([{ id: 6, type: 'breakerOffline' }, ...old], 5), { ring: false, seen: 6 }, 'an offline breaker is not an alarm ring');
  assert.deepEqual(newBreakerAlarms([{ id: 7, type: 'breakerAlarm' }, ...old], 6), { ring: true, seen: 7 });
  assert.deepEqual(newBreakerAlarms([], 7), { ring: false, seen: 7 }, 'read messages leave the list; what was seen stays seen');
});

test('chart series: labels through the given formatter, figures rounded', () => {
  const s = powerSeries(
    {
      range: 'day',
      step_s: 300,
      points: [
        { t: '2026-11-23T10:00:00.000Z', avg: 812.345, max: 901.06 },
        { t: '2026-11-23T10:05:00.000Z', avg: 0, max: 0 },
      ],
    },
    (iso) => iso.slice(11, 16),
  );
  assert.deepEqual(s, { labels: ['10:00', '10:05'], avg: [812.3, 0], max: [901.1, 0] });
  assert.deepEqual(powerSeries(undefined, String), { labels: [], avg: [], max: [] });
  assert.deepEqual(
    energySeries([
      { period: '2026-11-22', kwh: 1.23456 },
      { period: '2026-11-23', kwh: 0.5 },
    ]),
    { labels: ['2026-11-22', '2026-11-23'], kwh: [1.235, 0.5], total: 1.73 },
  );
});

test("chart series keep time even: a bucket without readings is a gap, not the next point moved up; month labels are the server's own dates", () => {
  const day = powerSeries(
    {
      range: 'day',
      step_s: 300,
      points: [
        { t: '2026-11-23T10:00:00.000Z', avg: 100, max: 120 },
        { t: '2026-11-23T10:15:00.000Z', avg: 200, max: 250 },
      ],
    },
    (iso) => iso.slice(11, 16),
  );
  assert.deepEqual(day, { labels: ['10:00', '10:05', '10:10', '10:15'], avg: [100, null, null, 200], max: [120, null, null, 250] });
  // 'YYYY-MM-DD' is the company's day already: never shifted through the browser's zone
  const month = powerSeries(
    {
      range: 'month',
      step_s: 86400,
      points: [
        { t: '2026-10-31', avg: 1, max: 2 },
        { t: '2026-11-02', avg: 3, max: 4 },
      ],
    },
    () => 'unused',
  );
  assert.deepEqual(month, { labels: ['10-31', '11-01', '11-02'], avg: [1, null, 3], max: [2, null, 4] });
});

test("a month of energy by line: each line's kWh in the month picked, none where a line has no readings; months newest first", () => {
  const lists = [
    [
      { period: '2026-10', kwh: 12.3456 },
      { period: '2026-11', kwh: 4 },
    ],
    [{ period: '2026-11', kwh: 1.5 }],
    undefined,
  ];
  assert.deepEqual(energyMonths(lists), ['2026-11', '2026-10']);
  assert.deepEqual(lineEnergyOfMonth(lists, '2026-11'), [4, 1.5, null]);
  assert.deepEqual(lineEnergyOfMonth(lists, '2026-10'), [12.346, null, null]);
});

test('server-sent events: complete events out, the unfinished tail kept; comments and retry carry none', () => {
  const a = parseEventStream('retry: 3000\n\nevent: detail\ndata: {"id":1}\n\n: ping\n\nevent: detail\ndata: {"id"');
  assert.deepEqual(a.events, [{ event: 'detail', data: '{"id":1}' }]);
  const b = parseEventStream(`${a.rest}:2}\n\nevent: gone\ndata: {}\n\n`);
  assert.deepEqual(b.events, [
    { event: 'detail', data: '{"id":2}' },
    { event: 'gone', data: '{}' },
  ]);
  assert.equal(b.rest, '');
  assert.deepEqual(parseEventStream('data: a\r\ndata: b\r\n\r\n').events, [{ event: 'message', data: 'a\nb' }], 'CRLF and multi-line data');
});

const LOCALES = path.resolve(import.meta.dirname, '..', 'src', 'locales');
type Tree = { [k: string]: string | Tree };
const resources = (folder: string): Tree =>
  Object.fromEntries(
    readdirSync(path.join(LOCALES, folder))
      .filter((f) => f.endsWith('.json'))
      .map((f) => [path.basename(f, '.json'), JSON.parse(readFileSync(path.join(LOCALES, folder, f), 'utf8')) as Tree]),
  );
const i18n = i18next.createInstance();
await i18n.init({
  resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: resources(LOCALE_FOLDER[l]) }])),
  lng: 'en-US',
  fallbackLng: false,
  interpolation: { escapeValue: false },
});

test('issue #18: switching power off asks first, naming the line(s) and the breaker, in every language', () => {
  const en = i18n.getFixedT('en-US');
  assert.deepEqual(powerOffText(en, 'en-US', { kind: 'now', breaker: 'Dormitory B', lines: ['L1'] }), {
    title: 'Switch off line "L1" of "Dormitory B"?',
    content: 'Everything on this line loses power until it is switched on again.',
    ok: 'Switch off',
  });
  assert.equal(
    powerOffText(en, 'en-US', { kind: 'now', breaker: 'Dorm', lines: ['L1', 'L2', 'Heater'] }).title,
    'Switch off lines "L1", "L2", and "Heater" of "Dorm"?',
  );
  const timer = powerOffText(en, 'en-US', { kind: 'timer', breaker: 'Dorm', lines: ['L2'] });
  assert.equal(timer.title, 'Save a timer that switches off line "L2" of "Dorm"?');
  assert.equal(timer.ok, 'Save timer');
  for (const lang of LANGUAGES) {
    const t = i18n.getFixedT(lang);
    for (const kind of ['now', 'timer'] as const)
      for (const lines of [['照明 L1'], ['L1', 'L2']]) {
        const x = powerOffText(t, LOCALE_FOLDER[lang], { kind, breaker: 'BRK-9', lines });
        for (const name of [...lines, 'BRK-9']) assert.ok(x.title.includes(name), `${lang} ${kind}: ${x.title} names ${name}`);
        for (const text of Object.values(x)) assert.doesNotMatch(text, /\{\{|breaker\.powerOff/, `${lang}: ${text}`);
      }
  }
});

test('issue #18: the self-check confirmation names the configured length', () => {
  assert.match(i18n.getFixedT('en-US')('breaker.selfCheck.confirm', { count: 3 }), /for 3 seconds/);
  assert.match(i18n.getFixedT('en-US')('breaker.selfCheck.confirm', { count: 1 }), /for 1 second,/);
  for (const lang of LANGUAGES) assert.ok(i18n.getFixedT(lang)('breaker.selfCheck.confirm', { count: 25 }).includes('25'), lang);
});

test('issue #18: a timer asks before it cuts power: new or newly enabled off timers, or more lines; not on-timers or unchanged ones', () => {
  const was = { action: 'off' as const, enabled: true, line_ids: [1, 2] };
  assert.equal(timerCutsPower(undefined, { action: 'off', enabled: 1, line_ids: [1] }), true, 'a new off timer');
  assert.equal(timerCutsPower(undefined, { action: 'off', line_ids: [1] }), true, 'enabled by default');
  assert.equal(timerCutsPower(undefined, { action: 'on', enabled: 1, line_ids: [1] }), false);
  assert.equal(timerCutsPower(undefined, { action: 'off', enabled: 0, line_ids: [1] }), false, 'a disabled one cuts nothing yet');
  assert.equal(timerCutsPower({ ...was, enabled: false }, { action: 'off', enabled: 1, line_ids: [1, 2] }), true, 'enabled now');
  assert.equal(timerCutsPower({ ...was, action: 'on' }, { action: 'off', enabled: 1, line_ids: [1, 2] }), true, 'turned into an off timer');
  assert.equal(timerCutsPower(was, { action: 'off', enabled: 1, line_ids: [2, 1] }), false, 'already confirmed');
  assert.equal(timerCutsPower(was, { action: 'off', enabled: 1, line_ids: [1] }), false, 'fewer lines');
  assert.equal(timerCutsPower(was, { action: 'off', enabled: 1, line_ids: [1, 3] }), true, 'a line more');
});
