/**
 * A point other modules join without the caller knowing them: listeners run one after another, inside
 * the caller's transaction (the first argument), so what they write commits or rolls back with it.
 */
export function transactionalHook<Trx, Event>() {
  const listeners: ((trx: Trx, event: Event) => Promise<unknown>)[] = [];
  return {
    on(listener: (trx: Trx, event: Event) => Promise<unknown>) {
      listeners.push(listener);
    },
    async emit(trx: Trx, event: Event) {
      for (const l of listeners) await l(trx, event);
    },
  };
}
