/**
 * What the console's build puts in place of TypeBox (vite.config.ts: `typebox` resolves here). The console imports the
 * API contracts of @faceadmin/shared for their methods, paths and types; it never validates against their schemas,
 * which the server does. TypeBox itself and the contracts' schemas built with it were 16 KB (compressed) of the
 * sign-in page's first load (#31), executed on every start. Here each `Type.X(...)` makes a small plain object with
 * what the contracts read back while they are built (an object's `properties`, for spreads, Partial, Pick and Omit);
 * a builder not listed still works (it answers the options it was given). Types still come from TypeBox.
 */
type Shape = Record<string, unknown> & { properties?: Record<string, unknown> };

const withProps = (source: unknown, keep: (key: string) => boolean): Shape => {
  const props = (source as Shape).properties ?? {};
  return { type: 'object', properties: Object.fromEntries(Object.entries(props).filter(([k]) => keep(k))) };
};
const keys = (list: unknown) => new Set(Array.isArray(list) ? (list as string[]) : []);

const builders: Record<string, (...args: unknown[]) => unknown> = {
  Object: (properties, options) => ({ ...(options as object), type: 'object', properties }),
  Optional: (schema) => schema,
  Partial: (schema) => withProps(schema, () => true),
  Pick: (schema, list) => withProps(schema, (k) => keys(list).has(k)),
  Omit: (schema, list) => withProps(schema, (k) => !keys(list).has(k)),
};

export const Type = new Proxy(builders, {
  get: (target, name: string) =>
    target[name] ?? ((...args: unknown[]) => ({ kind: name, ...(args.find((a) => a !== null && typeof a === 'object' && !Array.isArray(a)) as object) })),
}) as unknown as typeof import('typebox').Type;
