/**
 * IN lists are cut into parts of this many values: a statement may bind at most 32,766 variables on
 * SQLite and 65,535 on PostgreSQL, and the API takes up to 50,000 ids at once.
 */
export const IN_CHUNK = 500;

export const chunks = <T>(xs: readonly T[], size = IN_CHUNK): T[][] =>
  Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, (i + 1) * size));

/** Runs `query` once per part of `xs` and joins the rows. */
export async function inChunks<T, R>(xs: readonly T[], query: (part: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const part of chunks(xs)) out.push(...(await query(part)));
  return out;
}
