import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ScheduleCell, ScheduleGrid } from '@faceadmin/shared';
import {
  applyCycle,
  cellKey,
  draftBody,
  draftSize,
  emptyDraft,
  isAdditive,
  rectangle,
  selectionHintKey,
  setCells,
  shownCell,
} from '../src/features/attendance/schedule/logic.ts';

/** The schedule editor's draft (issue #10 freeSchedule): what the grid previews is what the server will write. */
const grid: Pick<ScheduleGrid, 'cycles' | 'running'> = {
  cycles: [
    { id: 1, key: '1', name: '2D2N2R', days: ['10', '10', '11', '11', '', ''] },
    { id: 2, key: '2', name: 'Nights', days: ['11', '11', ''] },
  ],
  running: { cycle_key: '1', start_date: '2026-11-01', start_index: 0 },
};
const fromCycle = (shift_key: string): ScheduleCell => ({ shift_key, source: 'cycle', cycle_key: null });

test('a hand-set cell shows as set; cleared, it shows what the running cycle gives', () => {
  let d = setCells(emptyDraft(), [cellKey(7, '2026-11-03')], '10');
  assert.deepEqual(shownCell(grid, d, 7, '2026-11-03', fromCycle('11')), { shift_key: '10', source: 'grid', cycle_key: null, edited: true });
  assert.deepEqual(shownCell(grid, d, 7, '2026-11-04', fromCycle('11')), { ...fromCycle('11'), edited: false });
  d = setCells(d, [cellKey(7, '2026-11-09')], null);
  // 9 November is day 8 of the cycle: 8 % 6 = 2, a night
  assert.deepEqual(shownCell(grid, d, 7, '2026-11-09', { shift_key: '', source: 'grid', cycle_key: null }), {
    shift_key: '11',
    source: 'cycle',
    cycle_key: null,
    edited: true,
  });
  // before the running cycle starts, nothing applies
  assert.equal(shownCell({ ...grid, running: { ...grid.running!, start_date: '2026-12-01' } }, d, 7, '2026-11-09', fromCycle('')).source, 'none');
});

test('an application previews its cycle from the chosen day and replaces the hand-set cells it covers (the server writes cells last)', () => {
  let d = setCells(emptyDraft(), [cellKey(7, '2026-11-11'), cellKey(8, '2026-11-11'), cellKey(7, '2026-11-20')], '10');
  d = applyCycle(d, { person_ids: [7], cycle_key: '2', from_date: '2026-11-10', to_date: '2026-11-15', start_index: 1 });
  const week = ['10', '11', '12', '13', '14', '15'].map((n) => shownCell(grid, d, 7, `2026-11-${n}`, fromCycle('')));
  assert.deepEqual(
    week.map((c) => c.shift_key),
    ['11', '', '11', '11', '', '11'],
  );
  assert.ok(week.every((c) => c.cycle_key === '2' && c.source === 'grid'));
  const body = draftBody(d);
  assert.deepEqual(
    body.cells.map((c) => [c.person_id, c.date]),
    [
      [8, '2026-11-11'],
      [7, '2026-11-20'],
    ],
    "person 7's 11 November went to the application",
  );
  assert.equal(body.apply.length, 1);
  // A cell set after the application wins over it, in the preview and in the body.
  d = setCells(d, [cellKey(7, '2026-11-12')], '');
  assert.equal(shownCell(grid, d, 7, '2026-11-12', fromCycle('')).shift_key, '');
  assert.equal(draftSize(d, ['2026-11-10', '2026-11-11', '2026-11-12', '2026-11-20']), 5);
});

test('dragging selects the rectangle between two corners, in either direction', () => {
  const people = [1, 2, 3];
  const days = ['2026-11-01', '2026-11-02', '2026-11-03'];
  assert.deepEqual(rectangle(people, days, { person: 2, day: 2 }, { person: 1, day: 1 }), [
    cellKey(2, '2026-11-02'),
    cellKey(2, '2026-11-03'),
    cellKey(3, '2026-11-02'),
    cellKey(3, '2026-11-03'),
  ]);
});

test('on a touch screen a tap adds to the selection (no Ctrl there) and the hint says so; with a mouse Ctrl/Cmd adds', () => {
  const plain = { ctrlKey: false, metaKey: false };
  assert.equal(isAdditive(plain, false), false);
  assert.equal(isAdditive({ ...plain, ctrlKey: true }, false), true);
  assert.equal(isAdditive({ ...plain, metaKey: true }, false), true);
  assert.equal(isAdditive(plain, true), true);
  assert.equal(selectionHintKey(false), 'schedule.hint');
  assert.equal(selectionHintKey(true), 'schedule.hintTouch');
});

test('the legend names rest days with the word the cells show, in every language; the touch hint mentions no Ctrl', () => {
  const page = readFileSync(path.resolve(import.meta.dirname, '..', 'src', 'features', 'attendance', 'schedule', 'pages', 'FreeSchedulePage.tsx'), 'utf8');
  const legend = /data-testid="schedule-legend-rest">\s*\{t\('([\w.]+)'\)\}/.exec(page);
  const cell = /cell\.source === 'none' \? '' : t\('([\w.]+)'\)/.exec(page);
  assert.ok(legend && cell);
  assert.equal(legend[1], cell[1]);
  for (const lang of ['en-US', 'zh-CN', 'zh-TW', 'ja']) {
    const strings = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', 'src', 'locales', lang, 'schedule.json'), 'utf8'));
    assert.doesNotMatch(strings.hintTouch, /ctrl/i, lang);
  }
  const en = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', 'src', 'locales', 'en-US', 'schedule.json'), 'utf8'));
  assert.equal(en.restShort, en.rest, 'English says "Rest" in the cells and the assign button alike');
});
