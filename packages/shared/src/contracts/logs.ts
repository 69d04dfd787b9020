import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.ts';
import { Nullable, Page, PageQuery } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * The modules that write the operation log (the server's `audit` accepts only these). The console labels each
 * in the user's language (log.modules.<id>); a test checks every one has a label in all four languages.
 */
export const LOG_MODULES = [
  'auth',
  'company',
  'manager',
  'department',
  'person',
  'device',
  'attendance',
  'breaker',
  'workflow',
  'integration',
  'system',
] as const;
export type LogModule = (typeof LOG_MODULES)[number];

export const LogItem = Type.Object({
  id: Type.Integer(),
  module: Type.String(),
  action: Type.String(),
  description: Type.String(),
  data: Type.Any(),
  admin_id: Nullable(Type.Integer()),
  admin_name: Type.String(),
  ip: Type.String(),
  created_at: Type.String(),
});
export type LogItem = Static<typeof LogItem>;

/** A calendar date (the console's date picker sends YYYY-MM-DD) or an instant with its zone; impossible dates are refused. */
const DateOrInstant = Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })]);

export const LogListQuery = Type.Object({
  ...PageQuery,
  module: Type.Optional(Type.String({ maxLength: 40 })),
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  // An ISO date (the console's date picker sends YYYY-MM-DD) or an ISO date-time with a zone.
  from: Type.Optional(DateOrInstant),
  to: Type.Optional(DateOrInstant),
});
export type LogListQuery = Static<typeof LogListQuery>;
export const LogPage = Page(LogItem);

export const logsApi = {
  list: endpoint({ method: 'GET', path: '/log/list', query: LogListQuery, response: LogPage }),
  modules: endpoint({ method: 'GET', path: '/log/modules', response: Type.Array(Type.String()) }),
};
