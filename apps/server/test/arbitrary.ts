import fc from 'fast-check';
import { MULTI_LINE_PATTERN, NON_BLANK_PATTERN, SINGLE_LINE_PATTERN, TIME_PATTERN } from '@faceadmin/shared';

/**
 * fast-check arbitraries from the JSON schemas the server validates requests with (the contracts after
 * `requestSchema`): `validOf` draws values the schema accepts, `invalidOf` values it refuses (one thing wrong,
 * and nothing a wire format would hide: a query string cannot carry a mistyped string).
 */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  patternProperties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  default?: unknown;
}

const TEXT = new Set([SINGLE_LINE_PATTERN, MULTI_LINE_PATTERN, NON_BLANK_PATTERN]);
const length = (s: string) => [...s].length;
/** Characters a person types, from every script the console serves, plus spaces and marks. */
const char = fc.oneof(
  fc.constantFrom(...'abcXYZ019 _-.@'.split('')),
  fc.constantFrom('张', '偉', 'の', 'ア', '한', 'é', 'ß', 'Ω', '\u200f', '😀', '  '),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

function textOf(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, min + 40);
  const re = s.pattern ? new RegExp(s.pattern, 'u') : undefined;
  if (s.format === 'date')
    return fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  if (s.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
  if (!re || TEXT.has(s.pattern!)) {
    return fc
      .array(char, { minLength: Math.max(min, 1), maxLength: Math.max(max, 1) })
      .map((cs) => cs.join(''))
      .map((x) => [...x].slice(0, max).join(''))
      .filter((x) => length(x) >= min && length(x) <= (s.maxLength ?? Infinity) && (!re || re.test(x)));
  }
  return fc.stringMatching(re).filter((x) => length(x) >= min && length(x) <= (s.maxLength ?? Infinity));
}

function integerOf(s: Schema): fc.Arbitrary<number> {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : Number.MIN_SAFE_INTEGER);
  const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : Number.MAX_SAFE_INTEGER);
  // Small values find rows; the extremes find overflows.
  return fc.oneof(
    { arbitrary: fc.integer({ min: Math.max(min, Math.min(max, 0)), max: Math.min(max, Math.max(min, 0) + 50) }), weight: 3 },
    fc.constantFrom(min, max),
    fc.integer({ min, max }),
  );
}

export function validOf(s: Schema): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const union = s.anyOf ?? s.oneOf;
  if (union) return fc.oneof(...union.map(validOf));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerOf(s);
    case 'number':
      return fc.double({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'string':
      return textOf(s);
    case 'array': {
      const items = validOf(s.items ?? {});
      const opts = { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 4, (s.minItems ?? 0) + 4) };
      return s.uniqueItems ? fc.uniqueArray(items, { ...opts, selector: (v) => JSON.stringify(v) }) : fc.array(items, opts);
    }
    case 'object': {
      const props = s.properties ?? {};
      const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, validOf(v)]));
      return fc.record(model, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
    }
    default:
      return fc.jsonValue();
  }
}

export interface Wrong {
  value: unknown;
  /** What was made wrong, for the failure message. */
  why: string;
}

const FORBIDDEN = ['\u0000', '\u001b', '\u202e', '\u2066', '\u0085'];

/** A value the schema refuses: one field (at any depth) made wrong in a value it accepts. `text` for query strings. */
export function invalidOf(s: Schema, wire: 'json' | 'text' | 'path'): fc.Arbitrary<Wrong> {
  return validOf(s).chain((good) => {
    const options = breakages(s, good, wire, '');
    return options.length ? fc.oneof(...options) : fc.constant({ value: { zzz_unknown: 1 }, why: 'no breakable field' });
  });
}

function breakages(s: Schema, value: unknown, wire: 'json' | 'text' | 'path', at: string): fc.Arbitrary<Wrong>[] {
  const out: fc.Arbitrary<Wrong>[] = [];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (s.anyOf || s.oneOf || s.const !== undefined) return out;
  if (s.enum) {
    out.push(fc.constant({ value: 'zz-not-listed', why: `${at} outside its enum` }));
    return out;
  }
  if (type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const put = (key: string, v: Wrong) => ({ value: { ...obj, [key]: v.value }, why: v.why });
    // Path parameters are positional: a missing or an extra one is another URL, not a wrong request.
    if (wire === 'path' && at === '') {
      for (const [key, sub] of Object.entries(s.properties ?? {}))
        for (const b of breakages(sub, obj[key], 'text', `.${key}`)) out.push(b.map((w) => put(key, w)));
      return out;
    }
    if (s.additionalProperties === false) out.push(fc.constant({ value: { ...obj, zzz_unknown: 1 }, why: `${at}.zzz_unknown is not in the schema` }));
    for (const key of s.required ?? []) {
      if (s.properties?.[key]?.default !== undefined) continue;
      const rest = { ...obj };
      delete rest[key];
      out.push(fc.constant({ value: rest, why: `${at}.${key} missing` }));
    }
    for (const [key, sub] of Object.entries(s.properties ?? {})) {
      if (!(key in obj)) continue;
      for (const b of breakages(sub, obj[key], wire, `${at}.${key}`)) out.push(b.map((w) => put(key, w)));
    }
    return out;
  }
  if (type === 'array' && Array.isArray(value)) {
    if (wire === 'json') out.push(fc.constant({ value: 'not-an-array', why: `${at} not an array` }));
    if (s.maxItems !== undefined && s.items)
      out.push(fc.array(validOf(s.items), { minLength: s.maxItems + 1, maxLength: s.maxItems + 2 }).map((v) => ({ value: v, why: `${at} too many items` })));
    if (s.minItems && s.minItems > 0) out.push(fc.constant({ value: [], why: `${at} too few items` }));
    if (value.length && s.items)
      for (const b of breakages(s.items, value[0], wire, `${at}[0]`)) out.push(b.map((w) => ({ value: [w.value, ...value.slice(1)], why: w.why })));
    return out;
  }
  if (type === 'integer' || type === 'number') {
    out.push(fc.constant({ value: wire === 'json' ? 'abc' : 'abc', why: `${at} not a number` }));
    if (type === 'integer') out.push(fc.constant({ value: 1.5, why: `${at} not an integer` }));
    if (s.minimum !== undefined) out.push(fc.constant({ value: s.minimum - 1, why: `${at} below its minimum` }));
    if (s.maximum !== undefined) out.push(fc.constant({ value: s.maximum + 1, why: `${at} above its maximum` }));
    return out;
  }
  if (type === 'boolean' && wire === 'json') out.push(fc.constant({ value: 'yes', why: `${at} not a boolean` }));
  if (type === 'string') {
    if (wire === 'json') out.push(fc.constant({ value: 12, why: `${at} a number, not a string` }));
    if (s.maxLength !== undefined) out.push(fc.constant({ value: '1'.repeat(s.maxLength + 1), why: `${at} longer than ${s.maxLength}` }));
    if (s.minLength && s.minLength > 1) out.push(fc.constant({ value: '1', why: `${at} shorter than ${s.minLength}` }));
    if (s.pattern || s.format) {
      const base = typeof value === 'string' ? value : 'a';
      out.push(
        fc.constantFrom(...FORBIDDEN).map((c) => ({
          value: `${base.slice(0, Math.max(0, (s.maxLength ?? 9) - 1))}${c}`,
          why: `${at} with U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
        })),
      );
    }
  }
  return out;
}

/** Days and times that do not exist: Feb 29 of a common year, Feb 30, Apr 31, 24:00, 23:60 (and a leap second). */
export const IMPOSSIBLE = {
  date: ['2026-02-29', '2100-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-00-10'],
  'date-time': [
    '2026-02-29T10:00:00Z',
    '2026-02-30T08:00:00.000Z',
    '2026-04-31T08:00:00+08:00',
    '2026-03-01T24:00:00Z',
    '2026-03-01T23:60:00Z',
    '2026-03-01T23:59:60Z',
  ],
  time: ['24:00', '23:60', '25:30'],
} as const;

/** Where a schema takes a date, an instant or an HH:mm time (through objects and unions), with the kind. */
export function calendarFields(s: Schema, at: string[] = []): { path: string[]; kind: keyof typeof IMPOSSIBLE }[] {
  const out: { path: string[]; kind: keyof typeof IMPOSSIBLE }[] = [];
  for (const member of s.anyOf ?? s.oneOf ?? [])
    for (const f of calendarFields(member, at)) if (!out.some((o) => o.path.join('.') === f.path.join('.'))) out.push(f);
  if (s.format === 'date' || s.format === 'date-time') out.push({ path: at, kind: s.format });
  else if (s.pattern === TIME_PATTERN) out.push({ path: at, kind: 'time' });
  for (const [key, sub] of Object.entries(s.properties ?? {})) out.push(...calendarFields(sub, [...at, key]));
  return out;
}

/**
 * Every field inside a nested object (two keys deep or more, through nullable and union members), with the schemas of
 * the objects on its path (to fill a parent a valid request left out) and a value of the wrong type for it (#28).
 */
export function nestedFields(s: Schema, at: string[] = [], parents: Schema[] = []): { path: string[]; parents: Schema[]; wrong: unknown }[] {
  const out: { path: string[]; parents: Schema[]; wrong: unknown }[] = [];
  const objects = [s, ...(s.anyOf ?? s.oneOf ?? [])].filter((m) => m.properties);
  for (const o of objects.slice(0, 1)) {
    for (const [key, sub] of Object.entries(o.properties!)) {
      const path = [...at, key];
      const inner = [sub, ...(sub.anyOf ?? sub.oneOf ?? [])].find((m) => m.properties);
      if (inner) out.push(...nestedFields(inner, path, [...parents, inner]));
      else if (path.length >= 2) {
        const types = [sub, ...(sub.anyOf ?? sub.oneOf ?? [])].flatMap((m) => (m.type === undefined ? [] : [m.type].flat()));
        // a value of a type none of the field's members takes
        const wrong = !types.includes('string')
          ? 'x'
          : !types.includes('integer') && !types.includes('number')
            ? 5
            : !types.includes('boolean')
              ? true
              : undefined;
        if (wrong !== undefined && types.length) out.push({ path, parents, wrong });
      }
    }
  }
  return out;
}
