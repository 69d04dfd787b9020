import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as shared from '@faceadmin/shared';

/** Every endpoint the shared contracts export, by export and key: its method, path, upload mark and kind of answer. */
function endpoints(mod: Record<string, unknown>, binary: (r: shared.Endpoint['response']) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(mod))
    if (value && typeof value === 'object')
      for (const [key, e] of Object.entries(value as Record<string, unknown>)) {
        const x = e as { method?: unknown; path?: unknown; multipart?: unknown; response?: unknown } | null;
        if (x && typeof x === 'object' && (x.method === 'GET' || x.method === 'POST') && typeof x.path === 'string')
          out[`${name}.${key}`] =
            `${x.method} ${x.path}${x.multipart ? ' multipart' : ''}${binary(x.response as shared.Endpoint['response']) ? ' binary' : ''}`;
      }
  return out;
}

// The console's build puts scripts/schema-shapes.ts in place of TypeBox (vite.config.ts). Here the contracts are
// loaded that way in a process of their own (a resolve hook sends `typebox` there): they must build, and every endpoint
// must come out with the method, path and kind of answer it has with TypeBox, as the console's calls read them.
test('the API contracts built on the console build’s schema shapes keep every endpoint as TypeBox builds it', () => {
  const shapes = new URL('../scripts/schema-shapes.ts', import.meta.url).href;
  const script = `
    import { registerHooks } from 'node:module';
    registerHooks({ resolve: (spec, ctx, next) => (spec === 'typebox' ? { url: ${JSON.stringify(shapes)}, shortCircuit: true } : next(spec, ctx)) });
    const shared = await import('@faceadmin/shared');
    const out = {};
    for (const [name, value] of Object.entries(shared))
      if (value && typeof value === 'object')
        for (const [key, e] of Object.entries(value))
          if (e && typeof e === 'object' && (e.method === 'GET' || e.method === 'POST') && typeof e.path === 'string')
            out[name + '.' + key] = e.method + ' ' + e.path + (e.multipart ? ' multipart' : '') + (shared.isBinary(e.response) ? ' binary' : '');
    console.log(JSON.stringify(out));`;
  const withShapes = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: import.meta.dirname, encoding: 'utf8' }),
  ) as Record<string, string>;
  const withTypeBox = endpoints(shared, shared.isBinary);
  assert.ok(Object.keys(withTypeBox).length > 200, `only ${Object.keys(withTypeBox).length} endpoints found`);
  assert.ok(Object.values(withTypeBox).some((e) => e.endsWith(' binary')) && Object.values(withTypeBox).some((e) => e.includes(' multipart')));
  assert.deepEqual(withShapes, withTypeBox);
});
