import type { Executor } from '../../db/database.ts';
import { transactionalHook } from '../../lib/hooks.ts';

/** People were written (created, edited, imported, moved, left) or are about to be deleted. */
export interface PeopleChange {
  companyId: number;
  personIds: number[];
  kind: 'saved' | 'deleted';
  /** only what terminals hold changed (the company's rfid option): the sync ledger re-sends, nothing else reacts */
  terminalsOnly?: boolean;
}

/**
 * The one call every writer of people makes inside its transaction (persons, imports, and later
 * visitors and approvals); devices (the sync ledger) and attendance listen. Writers never need to know
 * who cares.
 */
export const peopleChangedHook = () => transactionalHook<Executor, PeopleChange>();
export type PeopleChangedHook = ReturnType<typeof peopleChangedHook>;
