/** Column settings of the people table: which columns the user hid, persisted per browser. */

export const PERSON_COLUMNS = ['photo', 'number', 'name', 'organizations', 'phone', 'rfid', 'tags', 'sync_status', 'updated_at'] as const;
export type PersonColumn = (typeof PERSON_COLUMNS)[number];

/** Number and name identify a person: they cannot be hidden. */
export const FIXED_COLUMNS: readonly PersonColumn[] = ['number', 'name'];

export const COLUMNS_STORAGE_KEY = 'faceadmin.person.hiddenColumns';

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Hidden columns saved earlier; unknown or fixed keys (from an older version) are dropped. */
export function loadHiddenColumns(storage: KeyValueStorage | undefined): PersonColumn[] {
  try {
    const raw = storage?.getItem(COLUMNS_STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (!Array.isArray(parsed)) return [];
    return PERSON_COLUMNS.filter((c) => parsed.includes(c) && !FIXED_COLUMNS.includes(c));
  } catch {
    return [];
  }
}

export function saveHiddenColumns(storage: KeyValueStorage | undefined, hidden: readonly PersonColumn[]): void {
  try {
    storage?.setItem(COLUMNS_STORAGE_KEY, JSON.stringify(PERSON_COLUMNS.filter((c) => hidden.includes(c) && !FIXED_COLUMNS.includes(c))));
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
