import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { LIMITS } from '@faceadmin/shared';
import { LANGUAGES, LOCALE_FOLDER } from '../src/lib/languages.ts';

/**
 * Counted strings in English take i18next plural forms (`key_one`, `key_other`); Chinese and Japanese have one
 * form. Each pluralised key is rendered here with 1 and 2 as the console renders it (issue #9: "1 people queued
 * for 2 devices").
 */
const LOCALES = path.resolve(import.meta.dirname, '..', 'src', 'locales');
type Tree = { [k: string]: string | Tree };

/** The resources as lib/i18n.ts builds them: every namespace file becomes a top-level key. */
function resources(folder: string): Tree {
  const out: Tree = {};
  for (const file of readdirSync(path.join(LOCALES, folder)).filter((f) => f.endsWith('.json'))) {
    out[path.basename(file, '.json')] = JSON.parse(readFileSync(path.join(LOCALES, folder, file), 'utf8')) as Tree;
  }
  return out;
}

function flatten(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : flatten(v, `${prefix}${k}.`)));
}

const i18n = i18next.createInstance();
await i18n.init({
  resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: resources(LOCALE_FOLDER[l]) }])),
  lng: 'en-US',
  fallbackLng: false,
  interpolation: { escapeValue: false },
});
const en = i18n.getFixedT('en-US');
const EN = flatten(resources('en-US'));

/** Every pluralised English key with what it must read for 1 and for 2 (other placeholders as given). */
const EXPECTED: Record<string, { params?: Record<string, string>; one: string; two: string }> = {
  'common.count.people': { one: '1 person', two: '2 people' },
  'common.count.devices': { one: '1 device', two: '2 devices' },
  'common.count.departments': { one: '1 department', two: '2 departments' },
  'device.unknown.seen': { params: { time: '09:00' }, one: 'Last call 09:00, 1 request', two: 'Last call 09:00, 2 requests' },
  'device.settings.queued': { one: 'Saved: 1 setting command queued for the device', two: 'Saved: 2 setting commands queued for the device' },
  'device.persons.removeConfirm': { one: 'Remove 1 person from this device?', two: 'Remove 2 people from this device?' },
  'device.persons.removed': { one: '1 person is being removed', two: '2 people are being removed' },
  'device.persons.retried': { one: '1 person queued again', two: '2 people queued again' },
  'device.takeover.count.numbers': { one: '1 number', two: '2 numbers' },
  'device.takeover.count.terminals': { one: '1 terminal', two: '2 terminals' },
  'device.scan.summary': {
    params: { scanned: '11', seconds: '0.1' },
    one: '11 addresses scanned in 0.1 s: 1 terminal found',
    two: '11 addresses scanned in 0.1 s: 2 terminals found',
  },
  'person.batchDeleteConfirm': { one: 'Delete the 1 selected person? This cannot be undone.', two: 'Delete the 2 selected people? This cannot be undone.' },
  'person.deletedCount': { one: '1 person deleted', two: '2 people deleted' },
  'person.import.doneWithErrors': { one: 'Import finished; 1 row was skipped', two: 'Import finished; 2 rows were skipped' },
  'person.transfer.title': { one: 'Transfer 1 person', two: 'Transfer 2 people' },
  'person.transfer.done': { one: '1 person transferred', two: '2 people transferred' },
  'person.access.periodsHint': { one: 'Up to 1 period; none means all day.', two: 'Up to 2 periods; none means all day.' },
  'person.validation.max': { one: 'At most 1 character', two: 'At most 2 characters' },
  'att.update.pending': { one: '1 person-day left', two: '2 person-days left' },
  'legacy.summary': { params: { file: 'a.csv' }, one: 'a.csv: 1 row', two: 'a.csv: 2 rows' },
  'legacy.sample': { one: '1 row from the start of the file', two: '2 rows from the start of the file' },
  'legacy.report.checked': { one: 'Checked 1 row: nothing was written', two: 'Checked 2 rows: nothing was written' },
  'legacy.report.imported': { one: 'Imported 1 row', two: 'Imported 2 rows' },
  'visitor.maxDays': { one: 'A visit lasts at most 1 day', two: 'A visit lasts at most 2 days' },
  'workflow.flow.problems': { one: 'The process has 1 problem: see the marked node', two: 'The process has 2 problems: see the marked nodes' },
  'workflow.form.durationDays': {
    params: { hours: '8' },
    one: 'Duration: 1 day (8 h of working time)',
    two: 'Duration: 2 days (8 h of working time)',
  },
  'workflow.form.durationShort': { params: { hours: '10' }, one: '1 day · 10 h', two: '2 days · 10 h' },
  'breaker.selfCheck.confirm': {
    one: 'The line loses power for 1 second, then the breaker switches it on again. Anything on it turns off meanwhile.',
    two: 'The line loses power for 2 seconds, then the breaker switches it on again. Anything on it turns off meanwhile.',
  },
  'workflow.records.inAttendance': { one: 'Written into attendance (1 absence)', two: 'Written into attendance (2 absences)' },
};

test('every pluralised English key reads right for 1 and for 2', () => {
  const plural = [...new Set(EN.filter(([k]) => k.endsWith('_one')).map(([k]) => k.slice(0, -'_one'.length)))].sort();
  assert.deepEqual(plural, Object.keys(EXPECTED).sort(), 'a new plural key needs its expected texts here');
  for (const [key, e] of Object.entries(EXPECTED)) {
    assert.equal(en(key, { ...e.params, count: 1 }), e.one, key);
    assert.equal(en(key, { ...e.params, count: 2 }), e.two, key);
  }
});

test('messages with two counts compose the counted nouns', () => {
  const people = (n: number) => en('common.count.people', { count: n });
  const devices = (n: number) => en('common.count.devices', { count: n });
  const departments = (n: number) => en('common.count.departments', { count: n });
  // persons/components/PersonTable.tsx, devices/components/AddPersonsDialog.tsx, devices/components/DeviceSettingsDrawer.tsx
  assert.equal(en('person.syncDone', { people: people(1), devices: devices(2) }), '1 person queued for 2 devices');
  assert.equal(en('person.syncDone', { people: people(2), devices: devices(1) }), '2 people queued for 1 device');
  assert.equal(en('device.persons.picked', { departments: departments(1), people: people(1) }), '1 department, 1 person chosen');
  assert.equal(en('device.persons.picked', { departments: departments(2), people: people(3) }), '2 departments, 3 people chosen');
  // devices/pages/DeviceTakeoverPage.tsx
  const numbers = (n: number) => en('device.takeover.count.numbers', { count: n });
  const terminals = (n: number) => en('device.takeover.count.terminals', { count: n });
  assert.equal(
    en('device.takeover.progress', { answered: 1, terminals: terminals(2), numbers: numbers(1) }),
    '1 of 2 terminals answered; 1 number read so far',
  );
  assert.equal(
    en('device.takeover.summary', { numbers: numbers(300), terminals: terminals(1), across: 0, conflict: 2, split: 1, twin: 0 }),
    '300 numbers on 1 terminal: 0 on several, 2 with the number taken by another name here, 1 under names the terminals disagree on, 0 sharing a name with another number.',
  );
  assert.equal(en('device.syncSummary', { synced: 1, people: people(1), pending: 0, failed: 0 }), 'Synced 1 of 1 person; 0 pending, 0 failed.');
});

test('Chinese and Japanese render every pluralised key for 1 and 2 (their one "other" form)', () => {
  for (const lang of LANGUAGES) {
    const t = i18n.getFixedT(lang);
    for (const [key, e] of Object.entries(EXPECTED)) {
      for (const count of [1, 2]) {
        const text = t(key, { ...e.params, count });
        assert.notEqual(text, key, `${lang}: ${key} is missing`);
        assert.ok(text.includes(String(count)), `${lang}: ${key} for ${count}: ${text}`);
        assert.doesNotMatch(text, /\{\{/, `${lang}: ${key} left a placeholder: ${text}`);
      }
    }
  }
});

// Strings that put a number before a countable noun. A placeholder there must be a plural form's {{count}};
// the only exceptions are limits from packages/shared that are never 1 (asserted below).
const COUNTED_NOUN = /\{\{(\w+)\}\} (people|persons?|devices?|departments?|rows?|requests?|commands?|records?|items?|characters?|periods?|days?)\b/;
const CONSTANT_LIMITS: Record<string, number> = {
  'common.validation.nameMin': LIMITS.nameMin,
  'common.validation.accountMax': LIMITS.accountMax,
  'common.validation.passwordMin': LIMITS.passwordMin,
  'common.validation.passwordMax': LIMITS.passwordMax,
  'att.rule.validation.cycleName': LIMITS.cycleNameMax,
};

test('no English string puts a non-plural number before a countable noun', () => {
  const offenders = EN.filter(([key, value]) => {
    const m = COUNTED_NOUN.exec(value);
    if (!m) return false;
    if (m[1] === 'count' && /_(one|other)$/.test(key)) return false;
    return !(key in CONSTANT_LIMITS);
  }).map(([key, value]) => `${key}: ${value}`);
  assert.deepEqual(offenders, []);
  for (const [key, limit] of Object.entries(CONSTANT_LIMITS)) assert.ok(limit > 1, `${key}: the limit ${limit} would need a plural form`);
});
