import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { apiContract, CODES, isBinary, requestSchema, RELOGIN_CODES, type Endpoint } from '@faceadmin/shared';
import fc from 'fast-check';
import type { TSchema } from 'typebox';
import { calendarFields, IMPOSSIBLE, invalidOf, nestedFields, validOf, type Schema, type Wrong } from './arbitrary.ts';
import { API, DIALECT, login, makeCompany, nextIp, register, type TestApp, makeApp } from './helpers.ts';
import { picture, upload } from './files.ts';
import { has, t as tr } from '../src/i18n/i18n.ts';

/**
 * The contract, tried from outside: requests generated from every route's own schemas (the ones the server
 * validates with and the OpenAPI document shows). A request its schema accepts is never refused for its shape,
 * one it refuses always is, no answer is ever a 5xx, and every success validates against its answer schema.
 * FUZZ_RUNS raises the number of requests per route and kind (default 10), FUZZ_SEED replays a run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

let t: TestApp;
let token = '';
/** A person session for the self-service routes (X-Person-Token), from a one-time link. */
let personToken = '';
let people = 0;
const username = 'fuzzmain';
/** A person of Fuzz Co signed in through a one-time link (a new one each time: generated calls may delete people). */
async function personSession(): Promise<string> {
  const post = async (url: string, payload: object) =>
    (await t.app.inject({ method: 'POST', url: `${API}${url}`, headers: { 'x-token': token }, payload })).json<{
      data: { id: number; pic: string; token: string };
    }>().data;
  const pic = (await upload(t, '/person/upload', token, { name: 'f.jpg', data: await picture() })).data.pic;
  const dept = (await post('/org/create', { name: `Fuzz dept ${++people}` })).id;
  const person = (await post('/person/create', { number: `FZ${people}`, name: 'Fuzz Person', phone: '13900009999', organizations: [dept], pic })).id;
  const link = await post('/workflow/link', { person_id: person });
  return (await post('/self/link', { token: link.token })).token;
}
const PUBLIC_SELF = ['/self/sendcode', '/self/login', '/self/link'];
before(async () => {
  // A valid request to the live stream opens it: it ends at once here so the next request can be drawn.
  t = await makeApp({}, { live: { stream: { maxMs: 50 } } });
  const c = await makeCompany(t, 'Fuzz Co', username);
  token = c.main;
  // A second company the generated ids may point into: its rows must stay "not found".
  await makeCompany(t, 'Other Co');
  await register(t, 'fuzzspare');
});
after(() => t.close());

const compile = AjvCompiler()({}, { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true } });
const answerValidator = (schema: TSchema) =>
  compile({
    schema: { type: 'object', required: ['code', 'message', 'data'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: schema } },
    method: 'POST',
    url: '/',
    httpPart: 'body',
  });

/** Routes that end the session or the company go last, so the rest run signed in. */
const LAST = ['/user/logout', '/self/logout', '/company/delete', '/admin/password', '/admin/update'];
const entries = Object.values(apiContract)
  .flatMap((group) => Object.values(group) as Endpoint[])
  .sort((a, b) => Number(LAST.includes(a.path)) - Number(LAST.includes(b.path)));

interface Sent {
  query?: unknown;
  body?: unknown;
  params?: Record<string, unknown>;
}

async function send(entry: Endpoint, input: Sent) {
  // The self-service routes run as a person: signed in again when an earlier call removed them.
  if (entry.path.startsWith('/self/') && !PUBLIC_SELF.includes(entry.path)) {
    const info = await t.app.inject({ method: 'GET', url: `${API}/self/info`, headers: { 'x-person-token': personToken } });
    if (info.json<{ code: number }>().code !== CODES.OK) personToken = await personSession();
  }
  let url = API + entry.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(input.params?.[name] ?? '')));
  if (input.query && typeof input.query === 'object') {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(input.query as Record<string, unknown>)) {
      for (const item of Array.isArray(v) ? v : [v]) qs.append(k, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
    url += `?${qs.toString()}`;
  }
  const res = await t.app
    .inject({
      method: entry.method,
      url,
      headers: {
        'x-token': token,
        'x-person-token': personToken,
        'x-lang': 'en-US',
        ...(input.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      remoteAddress: nextIp(),
      ...(input.body !== undefined ? { payload: JSON.stringify(input.body) } : {}),
    })
    .catch((err: Error) => ({ statusCode: 599, headers: {}, json: () => ({}), error: err.message }) as never);
  const json = String(res.headers['content-type'] ?? '').includes('json') ? res.json<{ code: number; message: string; data: unknown }>() : undefined;
  // A generated call that signed us out (logout, a password change) is answered; later calls sign in again.
  if (json && RELOGIN_CODES.includes(json.code) && !entry.path.startsWith('/self/')) token = await login(t.app, username, 'secret1').catch(() => token);
  return { status: res.statusCode, type: String(res.headers['content-type'] ?? ''), json, url };
}

const label = (entry: Endpoint) => `${entry.method} ${entry.path}`;
const parts = (entry: Endpoint) =>
  (['query', 'body', 'params'] as const).filter((p) => entry[p]).map((p) => [p, requestSchema(entry[p]!) as unknown as Schema] as const);

function validInput(entry: Endpoint): fc.Arbitrary<Sent> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [part, schema] of parts(entry)) model[part] = validOf(schema);
  return fc.record(model) as fc.Arbitrary<Sent>;
}

function invalidInput(entry: Endpoint): fc.Arbitrary<{ sent: Sent; why: string }> | undefined {
  const ps = parts(entry);
  if (!ps.length) return undefined;
  return fc.constantFrom(...ps).chain(([part, schema]) =>
    fc.tuple(validInput(entry), invalidOf(schema, part === 'body' ? 'json' : part === 'params' ? 'path' : 'text')).map(([good, wrong]: [Sent, Wrong]) => ({
      sent: { ...good, [part]: wrong.value },
      why: `${part}${wrong.why}`,
    })),
  );
}

test(`requests drawn from each route's schemas: valid ones pass the shape check, invalid ones never do, no 5xx, answers match their schemas (${DIALECT})`, async () => {
  const problems: string[] = [];
  let calls = 0;
  for (const entry of entries) {
    if (process.env.FUZZ_TRACE) console.error(`fuzz: ${label(entry)} ${new Date().toISOString()}`);
    const check = isBinary(entry.response) ? undefined : answerValidator(entry.response);
    const judge = (what: string, r: Awaited<ReturnType<typeof send>>, shouldRefuse: 'shape' | 'any' | false) => {
      calls++;
      const where = `${label(entry)} [${what}] → ${r.status} ${r.json?.code ?? r.type} ${r.json?.message ?? ''} (${r.url})`;
      if (r.status >= 500) return problems.push(`5xx: ${where}`);
      if (shouldRefuse === 'shape' && (r.status !== 400 || r.json?.code !== CODES.VALIDATION))
        return problems.push(`accepted a body its schema refuses: ${where}`);
      if (shouldRefuse === 'any' && (r.status < 400 || !r.json || r.json.code === CODES.OK)) return problems.push(`accepted a body it cannot take: ${where}`);
      if (!shouldRefuse && r.json?.code === CODES.VALIDATION) return problems.push(`refused a body its schema allows: ${where}`);
      if (r.status === 200 && r.json?.code === CODES.OK && check && !check(r.json)) {
        return problems.push(`answer does not match its schema: ${where}: ${JSON.stringify((check as { errors?: unknown }).errors).slice(0, 300)}`);
      }
      return undefined;
    };
    if (entry.multipart) {
      // Uploads take forms; JSON in their place is refused, never a crash.
      judge('json to an upload', await send(entry, { body: { file: 'x' } }), 'any');
      continue;
    }
    await fc.assert(
      fc.asyncProperty(validInput(entry), async (sent) => {
        judge(JSON.stringify(sent).slice(0, 200), await send(entry, sent), false);
        return true;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    const wrong = invalidInput(entry);
    if (!wrong) continue;
    await fc.assert(
      fc.asyncProperty(wrong, async ({ sent, why }) => {
        judge(why, await send(entry, sent), 'shape');
        return true;
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }
  assert.ok(calls > entries.length * RUNS, `${calls} requests sent`);
  // One line per kind of problem and route (with its first example), so a failure reads as a list of causes.
  const kinds = new Map<string, { n: number; example: string }>();
  for (const p of problems) {
    const key = `${p.split(':')[0]}: ${/^[^:]+: (\S+ \S+)/.exec(p)?.[1] ?? ''} → ${/→ (\d+ \S+ [^(]*)/.exec(p)?.[1]?.trim() ?? ''}`;
    const k = kinds.get(key) ?? { n: 0, example: p };
    k.n++;
    kinds.set(key, k);
  }
  assert.deepEqual(
    [...kinds].map(([key, k]) => `${k.n}× ${key}\n    e.g. ${k.example.slice(0, 400)}`),
    [],
    `${problems.length} problems in ${calls} requests`,
  );
});

test(`every date, date-time and HH:mm input of every route refuses days and times that do not exist, naming the field (${DIALECT})`, async () => {
  const problems: string[] = [];
  let tried = 0;
  for (const entry of entries) {
    if (entry.multipart || LAST.includes(entry.path)) continue;
    for (const [part, schema] of parts(entry)) {
      for (const { path, kind } of calendarFields(schema)) {
        for (const wrong of IMPOSSIBLE[kind]) {
          const [good] = fc.sample(validInput(entry), { numRuns: 1, seed: SEED });
          const sent: Sent = structuredClone(good!);
          let node = ((sent as Record<string, unknown>)[part] ??= {}) as Record<string, unknown>;
          for (const key of path.slice(0, -1)) node = (node[key] = node[key] && typeof node[key] === 'object' ? node[key] : {}) as Record<string, unknown>;
          node[path.at(-1)!] = wrong;
          const r = await send(entry, sent);
          tried++;
          const where = `${label(entry)} ${part}.${path.join('.')}=${wrong} → ${r.status} ${r.json?.code} ${r.json?.message ?? ''}`;
          if (r.status !== 400 || r.json?.code !== CODES.VALIDATION) problems.push(`accepted: ${where}`);
          else if ((r.json.data as { field?: string } | null)?.field !== path.join('.')) problems.push(`field not named: ${where}`);
        }
      }
    }
  }
  assert.ok(tried > 100, `${tried} requests sent`);
  assert.deepEqual(problems, []);
});

test(`every field inside a nested object of every route, sent with the wrong type, is named by its full path (#28, ${DIALECT})`, async () => {
  const problems: string[] = [];
  let tried = 0;
  for (const entry of entries) {
    if (entry.multipart || LAST.includes(entry.path)) continue;
    for (const [part, schema] of parts(entry)) {
      if (part !== 'body') continue; // query strings and paths are flat
      for (const { path, parents, wrong } of nestedFields(schema)) {
        const [good] = fc.sample(validInput(entry), { numRuns: 1, seed: SEED });
        const sent: Sent = structuredClone(good!);
        let node = (sent.body ??= {}) as Record<string, unknown>;
        path.slice(0, -1).forEach((key, i) => {
          // a parent the valid request left out is drawn whole, so the one wrong thing is this field
          if (!node[key] || typeof node[key] !== 'object') node[key] = fc.sample(validOf(parents[i]!), { numRuns: 1, seed: SEED })[0];
          node = node[key] as Record<string, unknown>;
        });
        node[path.at(-1)!] = wrong;
        const r = await send(entry, sent);
        tried++;
        const dotted = path.join('.');
        const where = `${label(entry)} ${dotted}=${JSON.stringify(wrong)} → ${r.status} ${r.json?.code} ${r.json?.message ?? ''}`;
        if (r.status !== 400 || r.json?.code !== CODES.VALIDATION) problems.push(`accepted: ${where}`);
        else if ((r.json.data as { field?: string } | null)?.field !== dotted)
          problems.push(`field not named: ${where} (data.field ${JSON.stringify(r.json.data)})`);
        // the path itself, or the label of that very path (a field with a name of its own: "Parking service URL")
        else if (!r.json.message.includes(dotted) && !(has('en-US', `fields.${dotted}`) && r.json.message.startsWith(tr('en-US', `fields.${dotted}`))))
          problems.push(`message does not name the path: ${where}`);
      }
    }
  }
  assert.ok(tried > 20, `${tried} requests sent`);
  assert.deepEqual(problems, []);
});
