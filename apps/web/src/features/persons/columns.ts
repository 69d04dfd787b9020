/** Column settings of the people table: which columns the user hid, persisted per browser. */

export const PERSON_COLUMNS = ['photo', 'number', 'name', 'organizations', 'phone', 'rfid', 'tags', 'sync_status', 'updated_at'] as const;
export type PersonColumn = (typeof PERSON_COLUMNS)[number];

/** Number and name identify a person: they cannot be hidden. */
export const FIXED_COLUMNS: readonly PersonColumn[] = ['number', 'name'];

export const COLUMNS_STORAGE_KEY = 'faceadmin.person.hiddenColumns';

/**
 * Where the table is shown. The organization page puts it beside the department tree, in about two thirds of
 * the width: there phone, card number and update time start hidden so the rest fits a 1440 px screen (issue #9).
 * Each place keeps its own choice.
 */
export type ColumnsPlace = 'list' | 'organization';
const PLACE_KEY: Record<ColumnsPlace, string> = { list: COLUMNS_STORAGE_KEY, organization: `${COLUMNS_STORAGE_KEY}.organization` };
const DEFAULT_HIDDEN: Record<ColumnsPlace, readonly PersonColumn[]> = { list: [], organization: ['phone', 'rfid', 'updated_at'] };

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Hidden columns saved earlier (the place's defaults when none were); unknown or fixed keys (from an older version) are dropped. */
export function loadHiddenColumns(storage: KeyValueStorage | undefined, place: ColumnsPlace = 'list'): PersonColumn[] {
  const defaults = [...DEFAULT_HIDDEN[place]];
  try {
    const raw = storage?.getItem(PLACE_KEY[place]);
    const parsed: unknown = raw ? JSON.parse(raw) : defaults;
    if (!Array.isArray(parsed)) return defaults;
    return PERSON_COLUMNS.filter((c) => parsed.includes(c) && !FIXED_COLUMNS.includes(c));
  } catch {
    return defaults;
  }
}

export function saveHiddenColumns(storage: KeyValueStorage | undefined, hidden: readonly PersonColumn[], place: ColumnsPlace = 'list'): void {
  try {
    storage?.setItem(PLACE_KEY[place], JSON.stringify(PERSON_COLUMNS.filter((c) => hidden.includes(c) && !FIXED_COLUMNS.includes(c))));
  } catch {
    // storage disabled: the choice lasts for this page only
  }
}

/** Toggles one column; fixed columns never hide. */
export function toggleColumn(hidden: readonly PersonColumn[], column: PersonColumn, visible: boolean): PersonColumn[] {
  if (FIXED_COLUMNS.includes(column)) return [...hidden];
  const next = visible ? hidden.filter((c) => c !== column) : [...new Set([...hidden, column])];
  return PERSON_COLUMNS.filter((c) => next.includes(c));
}
