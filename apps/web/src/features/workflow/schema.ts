import dayjs, { type Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import {
  FIELD_KEY_PATTERN,
  WORKFLOW_LIMITS,
  type FieldType,
  type FieldValue,
  type FormField,
  type FormSchema,
  type FormValues,
  type Language,
  type LocalText,
} from '@faceadmin/shared';
import { isoToPicker, pickerToIso } from '../../ui/format.ts';

/**
 * The form schema of an approval app (issue #11) as the designer and the applicant's form use it: pure, so the
 * schema ↔ antd form conversion and the designer's checks are tested without a browser.
 */

/** A per-language text in the reader's language, else the first one set, else `fallback` (as the server picks it). */
export function textOf(text: LocalText | undefined, lang: Language, fallback = ''): string {
  const own = text?.[lang]?.trim();
  if (own) return own;
  for (const v of Object.values(text ?? {})) if (typeof v === 'string' && v.trim()) return v.trim();
  return fallback;
}

/** Sets the reader's language of a text (an emptied one is removed). */
export function withText(text: LocalText | undefined, lang: Language, value: string): LocalText {
  const out: LocalText = { ...(text ?? {}) };
  if (value.trim()) out[lang] = value;
  else delete out[lang];
  return out;
}

export const CHOICE_TYPES: readonly FieldType[] = ['select', 'multiselect'];
/** Fields a condition can compare with a number (a range by its duration). */
export const MEASURED_TYPES: readonly FieldType[] = ['number', 'money', 'daterange'];
const KEY_RE = new RegExp(FIELD_KEY_PATTERN);

/** A key not yet used in `taken`: `<type>_<n>` (letters, digits and _, as the schema requires). */
export function freshKey(type: FieldType, taken: Iterable<string>): string {
  const used = new Set(taken);
  for (let n = 1; ; n++) {
    const key = `${type}_${n}`;
    if (!used.has(key)) return key;
  }
}

/** A new field of `type` dropped from the palette, labelled in the designer's language. */
export function newField(type: FieldType, taken: Iterable<string>, lang: Language, label: string): FormField {
  const field: FormField = { key: freshKey(type, taken), type, label: { [lang]: label }, required: false };
  if (type === 'select' || type === 'multiselect') {
    field.options = [
      { value: 'option_1', label: { [lang]: `${label} 1` } },
      { value: 'option_2', label: { [lang]: `${label} 2` } },
    ];
  }
  if (type === 'daterange') field.unit = 'day';
  if (type === 'description') field.text = { [lang]: label };
  return field;
}

/** A fresh option value for a choice field. */
export function freshOption(field: FormField): string {
  const used = new Set((field.options ?? []).map((o) => o.value));
  for (let n = (field.options?.length ?? 0) + 1; ; n++) if (!used.has(`option_${n}`)) return `option_${n}`;
}

/** Changes a field's type (not for locked fields): options and units follow the new type. */
export function retype(field: FormField, type: FieldType, lang: Language): FormField {
  if (field.locked) return field;
  const out: FormField = { ...field, type };
  if (CHOICE_TYPES.includes(type))
    out.options = field.options?.length ? field.options : newField(type, [], lang, textOf(field.label, lang, field.key)).options!;
  else delete out.options;
  if (type === 'daterange') out.unit = field.unit ?? 'day';
  else delete out.unit;
  if (type !== 'description') delete out.text;
  return out;
}

/** A locked engine field of a built-in app stays: it is neither removed nor retyped. */
export const canRemove = (field: FormField) => !field.locked;

export type SchemaProblem = { key: string; reason: 'noFields' | 'badKey' | 'duplicateKey' | 'noLabel' | 'noOptions' | 'duplicateOption' | 'tooMany' };

/** What the server would refuse in a form, found before saving (each with the field it concerns). */
export function schemaProblems(schema: FormSchema): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  if (!schema.fields.length) out.push({ key: '', reason: 'noFields' });
  if (schema.fields.length > WORKFLOW_LIMITS.fieldsMax) out.push({ key: '', reason: 'tooMany' });
  const seen = new Set<string>();
  for (const f of schema.fields) {
    if (!KEY_RE.test(f.key)) out.push({ key: f.key, reason: 'badKey' });
    else if (seen.has(f.key)) out.push({ key: f.key, reason: 'duplicateKey' });
    seen.add(f.key);
    if (!textOf(f.label, 'en-US')) out.push({ key: f.key, reason: 'noLabel' });
    if (CHOICE_TYPES.includes(f.type)) {
      if (!f.options?.length) out.push({ key: f.key, reason: 'noOptions' });
      const values = new Set<string>();
      for (const o of f.options ?? []) {
        if (values.has(o.value) || !KEY_RE.test(o.value)) out.push({ key: f.key, reason: 'duplicateOption' });
        if (!textOf(o.label, 'en-US')) out.push({ key: f.key, reason: 'noLabel' });
        values.add(o.value);
      }
    }
  }
  return out;
}

/** What an antd Form holds for a field: dates as dayjs, ranges as a pair. */
export type UiValue = string | number | string[] | number[] | Dayjs | [Dayjs, Dayjs] | null | undefined;

/**
 * The application's stored values → the antd Form's initial values. With `zone` the pickers show the instants'
 * wall time in that zone (the self-service page: the company's), else in the browser's.
 */
export function toUiValues(schema: FormSchema, values: FormValues, zone?: string): Record<string, UiValue> {
  const out: Record<string, UiValue> = {};
  const pick = (iso: string) => (zone ? isoToPicker(iso, zone) : dayjs(iso));
  for (const f of schema.fields) {
    const v = values[f.key];
    if (v === undefined || v === null) continue;
    if ((f.type === 'date' || f.type === 'datetime') && typeof v === 'string') out[f.key] = f.type === 'date' ? dayjs(v) : pick(v);
    else if (f.type === 'daterange' && typeof v === 'object' && !Array.isArray(v)) out[f.key] = [pick(v.from), pick(v.to)];
    else out[f.key] = v as UiValue;
  }
  return out;
}

/**
 * The antd Form's values → what the API takes: empty fields left out, dates as the contract spells them. With
 * `zone` a picked date and time is that wall time in that zone, else in the browser's.
 */
export function fromUiValues(schema: FormSchema, ui: Record<string, unknown>, zone?: string): FormValues {
  const out: FormValues = {};
  const iso = (d: Dayjs) => (zone ? pickerToIso(d, zone) : d.toISOString());
  for (const f of schema.fields) {
    if (f.type === 'description') continue;
    const v = ui[f.key];
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    let value: FieldValue | undefined;
    switch (f.type) {
      case 'date':
        value = dayjs.isDayjs(v) ? v.format('YYYY-MM-DD') : String(v);
        break;
      case 'datetime':
        value = dayjs.isDayjs(v) ? iso(v) : String(v);
        break;
      case 'daterange': {
        const [a, b] = v as [Dayjs | null, Dayjs | null];
        if (a && b) value = { from: iso(a), to: iso(b) };
        break;
      }
      case 'number':
      case 'money':
        value = typeof v === 'number' ? v : Number(v);
        break;
      case 'text':
      case 'textarea':
        value = String(v).trim() || undefined;
        break;
      default:
        value = v as FieldValue;
    }
    if (value !== undefined) out[f.key] = value;
  }
  return out;
}

/** A stored value as text for the detail view and the list (options by their label, ranges as two times). */
export function valueText(
  field: FormField,
  v: FieldValue | undefined,
  lang: Language,
  fmt: { dateTime: (iso: string) => string; refs?: Map<number, string> },
): string {
  if (v === undefined || v === null) return '';
  const option = (x: string) => textOf(field.options?.find((o) => o.value === x)?.label, lang, x);
  switch (field.type) {
    case 'select':
      return typeof v === 'string' ? option(v) : '';
    case 'multiselect':
      return Array.isArray(v) ? (v as string[]).map(option).join(', ') : '';
    case 'datetime':
      return typeof v === 'string' ? fmt.dateTime(v) : '';
    case 'daterange':
      return typeof v === 'object' && !Array.isArray(v) ? `${fmt.dateTime(v.from)} – ${fmt.dateTime(v.to)}` : '';
    case 'person':
    case 'department':
      return Array.isArray(v) ? (v as number[]).map((id) => fmt.refs?.get(id) ?? `#${id}`).join(', ') : '';
    default:
      return Array.isArray(v) ? v.join(', ') : String(v);
  }
}

/** A duration with its units, as lists show it: "1 day · 10 h" (days and working hours of the same period). */
export function durationText(t: TFunction, d: { days: number; hours: number }): string {
  return t('workflow.form.durationShort', { count: d.days, hours: d.hours });
}
