import { Type, type Static } from 'typebox';
import { Id, Nullable, StringEnum } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Taking over a working site (issue #30), from the old software's files: ZKBioTime / ZKTime-style exports of
 * employees, departments and attendance transactions, read with a column mapping (docs/legacy-import.md).
 */
export const LEGACY_KINDS = ['employees', 'departments', 'transactions'] as const;
export type LegacyKind = (typeof LEGACY_KINDS)[number];
/** What a column may be read as; the first of a kind's `required` groups must all be mapped (legacyMissing). */
export const LEGACY_FIELDS = {
  employees: ['number', 'name', 'first_name', 'last_name', 'department', 'card', 'hire_date', 'gender', 'phone'],
  /** a department's name (`department`), its code in the old software and its parent's (code, name or path) */
  departments: ['code', 'department', 'parent'],
  transactions: ['number', 'time', 'date', 'clock', 'terminal', 'state'],
} as const satisfies Record<LegacyKind, readonly string[]>;
export type LegacyField = (typeof LEGACY_FIELDS)[LegacyKind][number];
/** A CSV's text encoding ('xlsx' for a workbook). */
export const LEGACY_FILE_ENCODINGS = ['utf-8', 'gbk', 'big5', 'shift_jis', 'xlsx'] as const;
export const LEGACY_STATES = ['uploaded', 'running', 'done', 'failed'] as const;

/** field → column index in the file (null or absent: not read) */
export const LegacyMapping = Type.Record(Type.String({ maxLength: 20 }), Nullable(Type.Integer({ minimum: 0, maximum: 200 })));
export type LegacyMapping = Partial<Record<LegacyField, number | null>>;

export const LegacyPreview = Type.Object({
  id: Type.Integer(),
  kind: StringEnum(LEGACY_KINDS),
  file_name: Type.String(),
  encoding: StringEnum(LEGACY_FILE_ENCODINGS),
  headers: Type.Array(Type.String()),
  /** the first rows, as read */
  sample: Type.Array(Type.Array(Type.String())),
  rows: Type.Integer(),
  mapping: LegacyMapping,
  /** the mapping is the one this company used last for this kind (else it is guessed from the headers) */
  remembered: Type.Boolean(),
});
export type LegacyPreview = Static<typeof LegacyPreview>;

export const LegacyRunBody = Type.Object({
  id: Id,
  mapping: LegacyMapping,
  /** read the CSV again in another encoding than the one detected */
  encoding: Type.Optional(StringEnum(LEGACY_FILE_ENCODINGS)),
  /** transactions: the terminal of rows whose terminal column is empty or unknown here */
  device_id: Type.Optional(Id),
  /** employees: where department paths are created (absent: at the top) */
  department_id: Type.Optional(Id),
  /** check and count only: nothing is written */
  dry_run: Type.Boolean(),
});
export type LegacyRunBody = Static<typeof LegacyRunBody>;

export const LegacyRowError = Type.Object({ row: Type.Integer(), field: Type.String(), reason: Type.String() });
export const LegacyReport = Type.Object({
  rows: Type.Integer(),
  /** employees: people created, changed, already as the file says; departments created (a departments file: its rows
   * already here are `unchanged`) */
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  departments: Type.Integer(),
  /** transactions: punches stored, already stored (a terminal upload or an earlier import), of numbers no one has here */
  stored: Type.Integer(),
  already: Type.Integer(),
  strangers: Type.Integer(),
  /** rows repeating an earlier row of the file (the same person and number, or the same punch) */
  duplicates: Type.Integer(),
  failed: Type.Integer(),
  /** the first rows refused, each with the field and why */
  errors: Type.Array(LegacyRowError),
});
export type LegacyReport = Static<typeof LegacyReport>;

export const LegacyImport = Type.Object({
  id: Type.Integer(),
  kind: StringEnum(LEGACY_KINDS),
  file_name: Type.String(),
  state: StringEnum(LEGACY_STATES),
  dry_run: Type.Boolean(),
  /** rows done of all (progress) */
  done: Type.Integer(),
  total: Type.Integer(),
  report: Nullable(LegacyReport),
  /** why it failed ('' otherwise) */
  reason: Type.String(),
});
export type LegacyImport = Static<typeof LegacyImport>;

export const legacyApi = {
  preview: endpoint({ method: 'POST', path: '/legacy/preview', multipart: true, response: LegacyPreview }),
  run: endpoint({ method: 'POST', path: '/legacy/run', body: LegacyRunBody, response: LegacyImport }),
  info: endpoint({ method: 'GET', path: '/legacy/info', query: Type.Object({ id: Id }), response: LegacyImport }),
};
