/** The clock, replaceable in tests. Times are ISO-8601 UTC strings in the database. */
export const clock = { now: () => Date.now() };
export const nowIso = () => new Date(clock.now()).toISOString();
export const isoIn = (ms: number) => new Date(clock.now() + ms).toISOString();
