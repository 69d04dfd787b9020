import { Type, type Static } from 'typebox';
import { Id, Page, PageQuery, StringEnum } from './common.ts';
import { endpoint } from './endpoint.ts';
import { LongText } from './request.ts';

/** Errors the console reports (issue #21, spec §8: logged to an internal list in production); docs/api-system.md. */
export const CLIENT_ERROR_LIMITS = {
  messageMax: 2000,
  stackMax: 16_000,
  urlMax: 2000,
  releaseMax: 64,
  /** the whole request body, in bytes (the server refuses a larger one with 413) */
  bodyMax: 48 * 1024,
  /** reports one address (signed out) or one session may send per window; more are dropped */
  perWindow: 30,
  windowMs: 5 * 60_000,
  /** entries not seen again for this long are removed */
  keepDays: 30,
  /** entries removed at once */
  deleteMax: 100,
} as const;

/** error: an uncaught error; rejection: an unhandled promise rejection; render: a failed render (the error boundary). */
export const CLIENT_ERROR_KINDS = ['error', 'rejection', 'render'] as const;
export type ClientErrorKind = (typeof CLIENT_ERROR_KINDS)[number];

export const ClientErrorReport = Type.Object({
  kind: Type.Union([Type.Literal('error'), Type.Literal('rejection'), Type.Literal('render')]),
  message: LongText({ minLength: 1, maxLength: CLIENT_ERROR_LIMITS.messageMax }),
  stack: Type.Optional(LongText({ maxLength: CLIENT_ERROR_LIMITS.stackMax })),
  component_stack: Type.Optional(LongText({ maxLength: CLIENT_ERROR_LIMITS.stackMax })),
  /** the page's address (the console strips its query string and fragment before sending) */
  url: Type.String({ maxLength: CLIENT_ERROR_LIMITS.urlMax }),
  /** the console build that reported it */
  release: Type.Optional(Type.String({ maxLength: CLIENT_ERROR_LIMITS.releaseMax, pattern: '^[A-Za-z0-9._+-]*$' })),
});
export type ClientErrorReport = Static<typeof ClientErrorReport>;

/** stored: false when the sender's quota for the window was spent (the report is dropped, not an error). */
export const ClientErrorAccepted = Type.Object({ stored: Type.Boolean() });

export const ClientErrorItem = Type.Object({
  id: Type.Integer(),
  kind: StringEnum(CLIENT_ERROR_KINDS),
  message: Type.String(),
  stack: Type.String(),
  component_stack: Type.String(),
  url: Type.String(),
  release: Type.String(),
  user_agent: Type.String(),
  count: Type.Integer(),
  first_seen: Type.String(),
  last_seen: Type.String(),
});
export type ClientErrorItem = Static<typeof ClientErrorItem>;
export const ClientErrorPage = Page(ClientErrorItem);

export const ClientErrorDelete = Type.Object({ ids: Type.Array(Id, { minItems: 1, maxItems: CLIENT_ERROR_LIMITS.deleteMax }) });
export type ClientErrorDelete = Static<typeof ClientErrorDelete>;

export const systemApi = {
  /** Any console, signed in or not (X-Token optional). */
  reportClientError: endpoint({ method: 'POST', path: '/system/clientError', body: ClientErrorReport, response: ClientErrorAccepted }),
  clientErrors: endpoint({ method: 'GET', path: '/system/clientError/list', query: Type.Object({ ...PageQuery }), response: ClientErrorPage }),
  deleteClientErrors: endpoint({
    method: 'POST',
    path: '/system/clientError/delete',
    body: ClientErrorDelete,
    response: Type.Object({ deleted: Type.Integer() }),
  }),
};
