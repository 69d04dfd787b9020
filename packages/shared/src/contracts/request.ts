import { Type, type TSchema } from 'typebox';

/**
 * What a text field may hold. Control characters (C0 and C1: NUL, escape, …) and the bidirectional embedding,
 * override and isolate characters (U+202A–U+202E, U+2066–U+2069: the "right-to-left override" that makes
 * `gnp.exe` read `exe.png`) are refused; a single-line text refuses tab and line breaks too. Right-to-left and
 * left-to-right marks stay allowed: Arabic and Hebrew names need them.
 */
const FORBIDDEN = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069';
export const SINGLE_LINE_PATTERN = `^[^${FORBIDDEN}\\u0009\\u000A\\u000D]*$`;
export const MULTI_LINE_PATTERN = `^[^${FORBIDDEN}]*$`;
/** A required single-line text: at least one character that is not a space. */
export const NON_BLANK_PATTERN = `^(?=[\\s\\S]*\\S)[^${FORBIDDEN}\\u0009\\u000A\\u000D]*$`;

/** A multi-line text (remarks, descriptions): line breaks and tabs allowed, other control characters not. */
export const LongText = (opts: { maxLength: number; minLength?: number }) => Type.String({ ...opts, pattern: MULTI_LINE_PATTERN });

type Json = Record<string | symbol, unknown>;
const INT32_MAX = 2_147_483_647;

function isPlainText(s: Json): boolean {
  return s.type === 'string' && s.pattern === undefined && s.format === undefined && s.enum === undefined && s.const === undefined;
}

/**
 * The request side of a contract schema as the server validates and documents it (one policy for every route):
 * - every object is closed: a key its schema does not name is refused (a typo, or a server-owned field such as
 *   `id`, `company_id`, a counter or a timestamp, is an error, never silently stored or ignored);
 * - every integer without bounds of its own is bounded to 32 bits;
 * - every text without a pattern of its own is single-line and free of control and bidi-override characters,
 *   and a required one (minLength ≥ 1) needs a visible character.
 * Returns a copy (answers share some of these schemas, and answers stay as they are); symbol keys (TypeBox's
 * kind markers) are kept.
 */
export function requestSchema<T extends TSchema>(schema: T): T {
  return close(schema as unknown as Json) as unknown as T;
}

function close(node: Json): Json {
  const out: Json = {};
  for (const key of Reflect.ownKeys(node)) {
    const descriptor = Object.getOwnPropertyDescriptor(node, key)!;
    const value = descriptor.value as unknown;
    let copy = value;
    if (key === 'properties' && value && typeof value === 'object') {
      copy = Object.fromEntries(Object.entries(value as Record<string, Json>).map(([k, v]) => [k, close(v)]));
    } else if ((key === 'items' || key === 'not') && value && typeof value === 'object' && !Array.isArray(value)) {
      copy = close(value as Json);
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === 'prefixItems') && Array.isArray(value)) {
      copy = value.map((v) => close(v as Json));
    }
    // TypeBox keeps its markers ('~kind', …) non-enumerable, out of the validator's sight: so does the copy.
    Object.defineProperty(out, key, { ...descriptor, value: copy, writable: true });
  }
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined && out.patternProperties === undefined) {
    out.additionalProperties = false;
  }
  // Integers a client sends fit a 32-bit column on both databases (a larger id or count is refused, never a 500).
  if (out.type === 'integer') {
    if (out.maximum === undefined) out.maximum = INT32_MAX;
    if (out.minimum === undefined) out.minimum = -INT32_MAX - 1;
  }
  if (isPlainText(out)) out.pattern = Number(out.minLength ?? 0) >= 1 ? NON_BLANK_PATTERN : SINGLE_LINE_PATTERN;
  return out;
}
