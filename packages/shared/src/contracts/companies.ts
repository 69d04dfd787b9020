import { Type, type Static } from 'typebox';
import { LIMITS, TIME_ZONE_PATTERN } from '../limits.ts';
import { ADMIN_ROLES } from '../rights.ts';
import { Flag, Id, StringEnum } from './common.ts';
import { endpoint } from './endpoint.ts';

export const CompanyOptions = Type.Object({
  iocount: Flag,
  rfid: Flag,
  idcard: Flag,
  number: Flag,
  alarmRing: Flag,
  thirdParty: Flag,
  parking: Type.Object({ enabled: Flag, url: Type.String({ maxLength: 300 }), key: Type.String({ maxLength: 200 }) }),
  dualAuth: Flag,
  internalTesting: Flag,
});
export type CompanyOptions = Static<typeof CompanyOptions>;
/**
 * The options as the API shows them: the parking operator's shared secret never leaves the server, only
 * whether one is set. On input a blank (or absent) key keeps the stored one.
 */
export const CompanyOptionsView = Type.Object({
  ...CompanyOptions.properties,
  parking: Type.Object({ enabled: Flag, url: Type.String({ maxLength: 300 }), key_set: Type.Boolean() }),
});
export type CompanyOptionsView = Static<typeof CompanyOptionsView>;
export const CompanyOptionsInput = Type.Partial(
  Type.Object({
    ...CompanyOptions.properties,
    parking: Type.Partial(CompanyOptions.properties.parking),
  }),
);

export const Company = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  address: Type.String(),
  phone: Type.String(),
  /** "lng,lat" or empty */
  location: Type.String(),
  /** Punches by the same person within this many seconds count once. */
  filter_seconds: Type.Integer(),
  options: CompanyOptionsView,
  /** IANA zone name: every time the console shows and every day a report means is in it. */
  time_zone: Type.String(),
  created_at: Type.String(),
});
export type Company = Static<typeof Company>;

/** spec §5: company name and contact phone are required. */
export const CompanyInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: LIMITS.textMax }),
  phone: Type.String({ minLength: 1, maxLength: 30, pattern: '^[0-9+()\\- ]+$' }),
  address: Type.Optional(Type.String({ maxLength: 200 })),
  location: Type.Optional(Type.String({ maxLength: 60, pattern: '^$|^-?\\d{1,3}(\\.\\d+)?,-?\\d{1,2}(\\.\\d+)?$' })),
  filter_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600 })),
  options: Type.Optional(CompanyOptionsInput),
  /** IANA zone name; on create the console sends the browser's zone. Default Asia/Shanghai. */
  time_zone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: TIME_ZONE_PATTERN })),
});
export type CompanyInput = Static<typeof CompanyInput>;

export const CompanyListItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  address: Type.String(),
  phone: Type.String(),
  role: StringEnum(ADMIN_ROLES),
  is_init: Type.Integer(),
  current: Type.Boolean(),
});
export type CompanyListItem = Static<typeof CompanyListItem>;
export const CompanyList = Type.Object({ items: Type.Array(CompanyListItem), total: Type.Integer() });
export const SetDefaultCompanyBody = Type.Object({ company_id: Id });

/**
 * Diagnostic details for pre-release testing (spec §6: the internal-testing option enables extra features): the
 * server's scheduled jobs as this instance runs them. Refused while the company's option is off.
 */
export const Diagnostics = Type.Object({
  version: Type.String(),
  database: Type.String(),
  jobs: Type.Array(
    Type.Object({
      name: Type.String(),
      runs: Type.Integer(),
      failures: Type.Integer(),
      running: Type.Boolean(),
      last_started_at: Type.Union([Type.String(), Type.Null()]),
      last_duration_ms: Type.Union([Type.Number(), Type.Null()]),
      last_error: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});
export type Diagnostics = Static<typeof Diagnostics>;

export const companiesApi = {
  list: endpoint({ method: 'GET', path: '/company/list', response: CompanyList }),
  create: endpoint({ method: 'POST', path: '/company/create', body: CompanyInput, response: Company }),
  info: endpoint({ method: 'GET', path: '/company/info', response: Company }),
  update: endpoint({ method: 'POST', path: '/company/update', body: CompanyInput, response: Company }),
  setDefault: endpoint({ method: 'POST', path: '/admin/setDefaultCompany', body: SetDefaultCompanyBody, response: Type.Null() }),
  diagnostics: endpoint({ method: 'GET', path: '/company/diagnostics', response: Diagnostics }),
};
