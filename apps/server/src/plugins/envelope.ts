import {
  CODES,
  isBinary,
  MULTI_LINE_PATTERN,
  NON_BLANK_PATTERN,
  requestSchema,
  SINGLE_LINE_PATTERN,
  type Binary,
  type Endpoint,
  type Envelope,
  type Language,
} from '@faceadmin/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Type, type TSchema } from 'typebox';
import { languageOf, t } from '../i18n/i18n.ts';
import { AppError } from '../lib/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
    /** Set when the session token was renewed; sent back as the envelope's refreshToken. */
    refreshToken?: string;
  }
  interface FastifyReply {
    ok<T>(data: T): Envelope<T>;
  }
}

/** Response schema of a successful envelope around `data`. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({
    code: Type.Integer(),
    message: Type.String(),
    data,
    refreshToken: Type.Optional(Type.String()),
  });
}
const ErrorEnvelope = Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Any() });

/** The `response` part of a route schema: the success shape plus the error envelope. */
export function responses<T extends TSchema>(data: T) {
  return { 200: Envelope(data), '4xx': ErrorEnvelope, '5xx': ErrorEnvelope };
}

/** The `response` part of a download route: a file on success, the error envelope otherwise. */
export function fileResponses(mime: string) {
  return {
    200: { description: 'file', content: { [mime]: { schema: Type.String({ format: 'binary' }) } } },
    '4xx': ErrorEnvelope,
    '5xx': ErrorEnvelope,
  };
}

type Part<E, K extends 'query' | 'body' | 'params'> = E extends { readonly [P in K]: infer S extends TSchema } ? S : undefined;
type ResponsesOf<R> = R extends Binary ? ReturnType<typeof fileResponses> : R extends TSchema ? ReturnType<typeof responses<R>> : never;

/**
 * The route schema of a contract entry: its query, body and params validated, its answer documented (`extra` adds
 * tags). Typed so that the TypeBox provider still infers `req.query`, `req.body` and `req.params` from the entry.
 */
export function routeSchema<const E extends Endpoint, X extends { tags: string[] }>(entry: E, extra: X) {
  const schema: Record<string, unknown> = { ...extra };
  if (entry.multipart) schema.consumes = ['multipart/form-data'];
  if (entry.query) schema.querystring = requestSchema(entry.query);
  if (entry.params) schema.params = requestSchema(entry.params);
  if (entry.body) schema.body = requestSchema(entry.body);
  schema.response = isBinary(entry.response) ? fileResponses(entry.response.binary) : responses(entry.response);
  return schema as X & { querystring: Part<E, 'query'>; body: Part<E, 'body'>; params: Part<E, 'params'>; response: ResponsesOf<E['response']> };
}

function fieldName(lang: Language, field: string): string {
  const key = `fields.${field}`;
  const out = t(lang, key);
  if (out !== key) return out;
  // A nested field (`options.parking.url`, #28) is named by its full path, after the label of its deepest known key.
  const keys = field.split('.');
  if (keys.length < 2) return field;
  for (let i = keys.length - 1; i >= 0; i--) {
    if (/^\d+$/.test(keys[i]!)) continue;
    const label = t(lang, `fields.${keys[i]}`);
    if (label !== `fields.${keys[i]}`) return `${label} (${field})`;
  }
  return field;
}

function translateValidation(lang: Language, err: FastifyError, req: FastifyRequest): { message: string; field: string; key?: string; node?: string } {
  const v = err.validation?.[0];
  if (!v) return { message: t(lang, 'errors.badRequest'), field: '' };
  const params = v.params ?? {};
  const path = v.instancePath.split('/').filter(Boolean);
  const named = v.keyword === 'required' ? params.missingProperty : v.keyword === 'additionalProperties' ? params.additionalProperty : undefined;
  // The full path, dotted (`options.parking.url`, `access.periods.1.start`; #28): the key that failed, however deep.
  // An item of a list of values is named by its list (`rights`, not `rights.0`), as the forms mark the list.
  const keys = named !== undefined ? [...path, String(named)] : [...path];
  // (A numeric key of an object, such as a rule's weekdays 0–6, stays: only an array's index goes.)
  while (keys.length > 1 && /^\d+$/.test(keys.at(-1)!) && Array.isArray(valueAt(req, err.validationContext, keys.slice(0, -1)))) keys.pop();
  const field = keys.join('.');
  // The body or query as a whole is wrong (not an object, e.g. text/plain, null or an array): no field to name.
  if (!field) return { message: t(lang, 'errors.badRequest'), field: '' };
  const known = [
    'required',
    'minLength',
    'maxLength',
    'pattern',
    'format',
    'type',
    'enum',
    'minimum',
    'maximum',
    'minItems',
    'maxItems',
    'additionalProperties',
  ];
  let keyword = known.includes(v.keyword) ? v.keyword : 'invalid';
  if (v.keyword === 'anyOf' || v.keyword === 'const') keyword = 'enum';
  // 2026-02-31, 24:00: a date or an instant that is not a real one.
  if (v.keyword === 'format' && (params.format === 'date' || params.format === 'date-time')) keyword = 'calendarDate';
  if (v.keyword === 'pattern' && TEXT_PATTERNS.has(String(params.pattern))) {
    // The shared text rule (request.ts): say which half of it failed.
    const value = valueAt(req, err.validationContext, path);
    keyword = typeof value === 'string' && !value.trim() && !FORBIDDEN_CHAR.test(value) ? 'required' : 'textChars';
  }
  const reason = t(lang, `reasons.${keyword}`, { limit: Number(params.limit ?? 0) });
  // Inside a list of named things (a form's fields, a process's nodes): say which one, and which of its keys.
  const within = itemOn(req, err.validationContext, path);
  if (within) {
    const prop = path.slice(within.depth + 1).find((p) => !/^\d+$/.test(p)) ?? (named !== undefined ? String(named) : '');
    const top = path.find((p) => !/^\d+$/.test(p)) ?? field;
    const message = t(lang, 'errors.validationIn', { field: fieldName(lang, top), item: within.title(lang), prop: fieldName(lang, prop), reason });
    return { message, field: top, ...within.data };
  }
  return { message: t(lang, 'errors.validation', { field: fieldName(lang, field), reason }), field };
}

/** A label in the reader's language, else the first one set. */
function localText(text: unknown, lang: Language): string {
  if (!text || typeof text !== 'object') return '';
  const own = (text as Record<string, unknown>)[lang];
  if (typeof own === 'string' && own.trim()) return own.trim();
  for (const v of Object.values(text)) if (typeof v === 'string' && v.trim()) return v.trim();
  return '';
}

/**
 * The deepest list item on the path that names itself — a form field (`key`, `label`) or a process node or branch
 * (`id`, `name`) — with its title for the message and what the client marks (`data.key` or `data.node`).
 */
function itemOn(req: FastifyRequest, part: string | undefined, path: string[]) {
  let node: unknown = part === 'body' ? req.body : part === 'querystring' ? req.query : undefined;
  let found: { depth: number; title: (lang: Language) => string; data: { key: string } | { node: string } } | undefined;
  path.forEach((seg, i) => {
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[seg] : undefined;
    if (!/^\d+$/.test(seg) || !node || typeof node !== 'object' || Array.isArray(node)) return;
    const o = node as Record<string, unknown>;
    // A form field has a key and a type; a process node an id and a type, a branch an id and nodes.
    if (typeof o.key === 'string' && o.key && typeof o.type === 'string') {
      const key = o.key;
      found = {
        depth: i,
        title: (lang) => {
          const label = localText(o.label, lang);
          return t(lang, 'reasons.inField', { key: label && label !== key ? `“${label}” (${key})` : `“${key}”` });
        },
        data: { key },
      };
    } else if (typeof o.id === 'string' && o.id && (typeof o.type === 'string' || Array.isArray(o.nodes))) {
      const id = o.id;
      const name = typeof o.name === 'string' && o.name.trim() ? o.name.trim() : id;
      found = { depth: i, title: (lang) => t(lang, 'reasons.inNode', { node: `“${name}”` }), data: { node: id } };
    }
  });
  return found;
}

const TEXT_PATTERNS = new Set([SINGLE_LINE_PATTERN, MULTI_LINE_PATTERN, NON_BLANK_PATTERN]);
const FORBIDDEN_CHAR = new RegExp(SINGLE_LINE_PATTERN.replace('^[^', '[').replace(']*$', ']'), 'u');

function valueAt(req: FastifyRequest, part: string | undefined, path: string[]): unknown {
  let node: unknown = part === 'body' ? req.body : part === 'querystring' ? req.query : part === 'params' ? req.params : undefined;
  for (const key of path) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

function send(reply: FastifyReply, status: number, code: number, message: string, data: unknown = null) {
  return reply.status(status).send({ code, message, data });
}

export function renderAppError(lang: Language, err: AppError): string {
  const params = { ...err.params };
  if (err.key === 'errors.validation') {
    params.field = fieldName(lang, String(params.field ?? ''));
    params.reason = t(lang, String(params.reason ?? 'reasons.invalid'), params);
  }
  return t(lang, err.key, params);
}

/** Envelope, language and error handling for every API answer (spec §7-8). */
export default fp(async function envelope(app: FastifyInstance) {
  app.decorateRequest('lang', 'zh-CN' as Language);
  app.decorateReply('ok', function <T>(this: FastifyReply, data: T): Envelope<T> {
    const env: Envelope<T> = { code: CODES.OK, message: t(this.request.lang, 'common.success'), data };
    if (this.request.refreshToken) env.refreshToken = this.request.refreshToken;
    return env;
  });
  app.addHook('onRequest', async (req: FastifyRequest) => {
    req.lang = languageOf(req.headers['x-lang']);
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const lang = req.lang ?? 'zh-CN';
    if (err instanceof AppError) return send(reply, err.status, err.code, renderAppError(lang, err), err.data);
    if (err.validation) {
      const { message, ...data } = translateValidation(lang, err, req);
      return send(reply, 400, CODES.VALIDATION, message, data);
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(reply, 413, CODES.VALIDATION, t(lang, 'errors.bodyTooLarge'));
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      if (err.statusCode === 429) return send(reply, 429, CODES.TOO_MANY, t(lang, 'errors.tooMany', { minutes: 1 }));
      return send(reply, err.statusCode, CODES.VALIDATION, t(lang, 'errors.badRequest'));
    }
    req.log.error({ err }, 'unhandled error');
    return send(reply, 500, CODES.INTERNAL, t(lang, 'errors.internal'));
  });
});
