import SerializerSelector from '@fastify/fast-json-stringify-compiler';

/**
 * Route schemas compiled on a route's first request instead of at start-up. The server registers some 400 routes, and
 * compiling every request validator (ajv) and answer serializer (fast-json-stringify) up front took about 1.6 s of CPU
 * at each start: every test app paid it, for the handful of routes a test file calls. A route now pays a few
 * milliseconds once, on its first call. test/contract.test.ts calls every route of the contract with answers it must
 * accept and refuse, so a schema that does not compile still fails the suite, not a user's request.
 */

/** A compiled function made on its first call: `compile` runs then, once. */
export function compiledOnFirstCall<F extends (...args: any[]) => any>(compile: () => F): F {
  let compiled: F | undefined;
  const run = (...args: Parameters<F>): ReturnType<F> => (compiled ??= compile())(...args);
  // Fastify reads a failed validation's reasons from the validator's `errors` (ajv sets them after each call).
  Object.defineProperty(run, 'errors', { get: () => (compiled as { errors?: unknown } | undefined)?.errors });
  return run as F;
}

/**
 * What this process compiled, by kind and schema: every app built in it (an instance test's several, each test file of a
 * shard) gets its routes' schemas as fresh copies of the same contract, so identity cannot tell them apart, their text
 * can. Compiling was about 8% of the server suite's CPU.
 */
const compiled = new Map<string, unknown>();
export function compiledOnce<F>(kind: string, schema: unknown, compile: () => F): F {
  const key = `${kind}\u0000${JSON.stringify(schema)}`;
  let f = compiled.get(key) as F | undefined;
  if (!f) {
    f = compile();
    compiled.set(key, f);
  }
  return f;
}

/** Fastify's `schemaController.compilersFactory.buildSerializer`: the default serializers, each compiled on first use. */
export function lazySerializers(...args: Parameters<ReturnType<typeof SerializerSelector>>) {
  const build = SerializerSelector()(...args);
  // the factory's shared schemas and options are part of what a serializer is compiled from
  const kind = `serializer ${JSON.stringify(args)}`;
  return (route: Parameters<typeof build>[0]) => compiledOnFirstCall(() => compiledOnce(kind, route.schema, () => build(route)));
}
