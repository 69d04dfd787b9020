/**
 * A value derived from an object (from a device row's JSON columns, say), computed once per object: the
 * device cache hands out a new row object whenever the row changes, so a derived value never goes stale.
 */
export function perObject<K extends object, T>(derive: (k: K) => T): (k: K) => T {
  const memo = new WeakMap<K, T>();
  return (k) => {
    if (!memo.has(k)) memo.set(k, derive(k));
    return memo.get(k) as T;
  };
}
