import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import dayjs from 'dayjs';
import i18next from 'i18next';
import type { FormSchema } from '@faceadmin/shared';
import { LANGUAGES, LOCALE_FOLDER } from '../src/lib/languages.ts';
import { formatDateTime, isoToPicker, pickerToIso, zonedWallToIso } from '../src/ui/format.ts';
import { durationText, fromUiValues, toUiValues } from '../src/features/workflow/schema.ts';

/**
 * Issue #17 item 7: the self-service page takes and shows times in the company's zone, whatever the phone's. The
 * "phone" here is in Los Angeles; the company in Shanghai (8 hours... and then some: 15 or 16 hours away).
 */
process.env.TZ = 'America/Los_Angeles';
const COMPANY = 'Asia/Shanghai';

const LEAVE: FormSchema = {
  fields: [
    { key: 'period', type: 'daterange', label: { 'en-US': 'Period' }, required: true },
    { key: 'at', type: 'datetime', label: { 'en-US': 'At' } },
    { key: 'day', type: 'date', label: { 'en-US': 'Day' } },
  ],
} as FormSchema;

test('a wall time in the company zone is the right instant, across DST too', () => {
  assert.equal(zonedWallToIso('2026-03-02 09:00', COMPANY), '2026-03-02T01:00:00.000Z');
  assert.equal(zonedWallToIso('2026-03-02 09:00:00', 'UTC'), '2026-03-02T09:00:00.000Z');
  // New York: winter UTC−5, summer UTC−4 (the switch is on 8 March 2026)
  assert.equal(zonedWallToIso('2026-03-07 09:00', 'America/New_York'), '2026-03-07T14:00:00.000Z');
  assert.equal(zonedWallToIso('2026-03-09 09:00', 'America/New_York'), '2026-03-09T13:00:00.000Z');
});

test('a leave picked as 09:00–18:00 on a phone in another zone is 09:00–18:00 in the company, and shows so', () => {
  const from = dayjs('2026-03-02 09:00');
  const to = dayjs('2026-03-03 18:00');
  assert.equal(from.format('HH:mm'), '09:00', 'the picker shows the wall time picked');
  const values = fromUiValues(LEAVE, { period: [from, to], at: dayjs('2026-03-02 13:30'), day: dayjs('2026-03-02') }, COMPANY);
  assert.deepEqual(values.period, { from: '2026-03-02T01:00:00.000Z', to: '2026-03-03T10:00:00.000Z' });
  assert.equal(values.at, '2026-03-02T05:30:00.000Z');
  assert.equal(values.day, '2026-03-02');
  // as the console shows it (company zone), the same times
  const period = values.period;
  assert.equal(formatDateTime(period.from, COMPANY), '2026-03-02 09:00:00');
  assert.equal(formatDateTime(period.to, COMPANY), '2026-03-03 18:00:00');
  // what the phone's own zone would have sent: the bug this fixes
  assert.notEqual(fromUiValues(LEAVE, { period: [from, to] }).period, values.period);
  // and back into the pickers, showing the company's wall time
  const ui = toUiValues(LEAVE, values, COMPANY);
  const [a, b] = ui.period as [dayjs.Dayjs, dayjs.Dayjs];
  assert.equal(a.format('YYYY-MM-DD HH:mm'), '2026-03-02 09:00');
  assert.equal(b.format('YYYY-MM-DD HH:mm'), '2026-03-03 18:00');
  assert.equal(isoToPicker('2026-03-02T05:30:00.000Z', COMPANY).format('HH:mm'), '13:30');
  assert.equal(pickerToIso(isoToPicker('2026-07-01T00:15:00.000Z', COMPANY), COMPANY), '2026-07-01T00:15:00.000Z');
});

const LOCALES = path.resolve(import.meta.dirname, '..', 'src', 'locales');
function resources(folder: string) {
  const out: Record<string, unknown> = {};
  for (const file of readdirSync(path.join(LOCALES, folder)).filter((f) => f.endsWith('.json')))
    out[path.basename(file, '.json')] = JSON.parse(readFileSync(path.join(LOCALES, folder, file), 'utf8'));
  return out;
}
const i18n = i18next.createInstance();
await i18n.init({
  resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: resources(LOCALE_FOLDER[l]) }])),
  lng: 'en-US',
  fallbackLng: false,
  interpolation: { escapeValue: false },
});

test('durations carry their units, in four languages', () => {
  const text = (lang: (typeof LANGUAGES)[number], days: number, hours: number) => durationText(i18n.getFixedT(lang), { days, hours });
  assert.equal(text('en-US', 1, 10), '1 day · 10 h');
  assert.equal(text('en-US', 2, 16), '2 days · 16 h');
  assert.equal(text('zh-CN', 1, 10), '1 天 · 10 小时');
  assert.equal(text('zh_tw', 1, 10), '1 天 · 10 小時');
  assert.equal(text('ja', 1, 10), '1 日 · 10 時間');
});
