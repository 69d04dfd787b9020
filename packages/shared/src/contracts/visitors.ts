import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.ts';
import { Id, IdBody, Nullable, Page, PageQuery, Ref, StringEnum, XLSX_TYPE } from './common.ts';
import { binary, endpoint } from './endpoint.ts';

/**
 * Visitors (#19, spec §2 /system/visitorlog, §3 device option allowvisit, "Visitor log"): an administrator or an
 * employee invites a visitor to some doors for a time window; the visitor uploads a face through a one-time link and
 * is synced to those doors as a user the terminal accepts only inside the window.
 */
export const VISITOR_STATES = ['invited', 'active', 'ended', 'cancelled'] as const;
export type VisitorState = (typeof VISITOR_STATES)[number];
/** spec §4 open states of a visit: the door let the visitor in, or refused them (outside the window). */
export const VISIT_OPEN_STATES = ['success', 'failure'] as const;
export type VisitOpenState = (typeof VISIT_OPEN_STATES)[number];
/** The longest window an invitation may give (a visit, not a contract). */
export const VISIT_MAX_DAYS = 7;

export const VisitorInvite = Type.Object({
  name: Type.String({ minLength: 1, maxLength: LIMITS.personNameMax }),
  phone: Type.String({ minLength: 1, maxLength: 20, pattern: '^[0-9+()\\- ]+$' }),
  /** the visitor's company */
  company: Type.String({ maxLength: LIMITS.textMax }),
  reason: Type.String({ minLength: 1, maxLength: LIMITS.textMax }),
  /** the window, instants with their zone; forward, ending in the future, at most VISIT_MAX_DAYS long */
  starts_at: Type.String({ format: 'date-time' }),
  ends_at: Type.String({ format: 'date-time' }),
  /** doors: the company's devices with allowvisit on */
  device_ids: Type.Array(Id, { minItems: 1, maxItems: 50, uniqueItems: true }),
});
export type VisitorInvite = Static<typeof VisitorInvite>;

export const Visitor = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  phone: Type.String(),
  company: Type.String(),
  reason: Type.String(),
  starts_at: Type.String(),
  ends_at: Type.String(),
  doors: Type.Array(Ref),
  state: StringEnum(VISITOR_STATES),
  /** whether the visitor has uploaded a face */
  has_face: Type.Boolean(),
  inviter: Type.String(),
  /** the first time a door let the visitor in */
  arrived_at: Nullable(Type.String()),
  created_at: Type.String(),
});
export type Visitor = Static<typeof Visitor>;
export const VisitorPage = Page(Visitor);

/** The answer to an invitation: the one-time link is shown here only (the server keeps its hash). */
export const VisitorInvited = Type.Object({
  visitor: Visitor,
  /** the visitor's page, a path under the console (/visit/<token>) */
  link: Type.String(),
  /** whether the link went out by SMS (otherwise the inviter passes it on) */
  sms_sent: Type.Boolean(),
});
export type VisitorInvited = Static<typeof VisitorInvited>;

export const VisitorListQuery = Type.Object({
  ...PageQuery,
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  state: Type.Optional(StringEnum(VISITOR_STATES)),
});
export type VisitorListQuery = Static<typeof VisitorListQuery>;

export const VisitorDoors = Type.Object({ items: Type.Array(Ref) });
export type VisitorDoors = Static<typeof VisitorDoors>;

const logFilters = {
  /** the company's calendar days (its time zone), from ≤ to */
  from: Type.Optional(Type.String({ format: 'date' })),
  to: Type.Optional(Type.String({ format: 'date' })),
  /** the visitor's or the inviter's name, or the visitor's phone */
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  device_id: Type.Optional(Id),
  status: Type.Optional(StringEnum(VISIT_OPEN_STATES)),
};
export const VisitLogQuery = Type.Object({ ...PageQuery, ...logFilters });
export type VisitLogQuery = Static<typeof VisitLogQuery>;
export const VisitLogExportBody = Type.Object(logFilters);
export type VisitLogExportBody = Static<typeof VisitLogExportBody>;

/** spec §3 "Visitor log": inviter, open time, open status; with the visitor, the door and the capture photo. */
export const VisitRecord = Type.Object({
  id: Type.Integer(),
  visitor_id: Type.Integer(),
  visitor: Type.String(),
  phone: Type.String(),
  inviter: Type.String(),
  device_id: Type.Integer(),
  door: Type.String(),
  /** open time as the terminal saw it, and the instant */
  time: Type.String(),
  utc: Type.String(),
  status: StringEnum(VISIT_OPEN_STATES),
  /** the capture photo ('' when none came) */
  pic_url: Type.String(),
});
export type VisitRecord = Static<typeof VisitRecord>;
export const VisitRecordPage = Page(VisitRecord);

/** What the visitor's phone page shows (public, by the link's token). */
export const VisitPublic = Type.Object({
  name: Type.String(),
  /** the host company */
  host: Type.String(),
  inviter: Type.String(),
  reason: Type.String(),
  starts_at: Type.String(),
  ends_at: Type.String(),
  /** the host company's IANA zone: the page shows the window in it */
  time_zone: Type.String(),
  doors: Type.Array(Type.String()),
  state: StringEnum(VISITOR_STATES),
  has_face: Type.Boolean(),
});
export type VisitPublic = Static<typeof VisitPublic>;
/** The link's token (32 characters of base64url); the pattern carries the length too, so generators draw real ones. */
const TokenParams = Type.Object({ token: Type.String({ minLength: 16, maxLength: 64, pattern: '^[A-Za-z0-9_-]{16,64}$' }) });

/** The console's visitors (System → Visitors) and the visit log (System → Visitor log). */
export const visitorsApi = {
  list: endpoint({ method: 'GET', path: '/visitor/list', query: VisitorListQuery, response: VisitorPage }),
  doors: endpoint({ method: 'GET', path: '/visitor/doors', response: VisitorDoors }),
  invite: endpoint({ method: 'POST', path: '/visitor/invite', body: VisitorInvite, response: VisitorInvited }),
  cancel: endpoint({ method: 'POST', path: '/visitor/cancel', body: IdBody, response: Visitor }),
  log: endpoint({ method: 'GET', path: '/visitor/log', query: VisitLogQuery, response: VisitRecordPage }),
  logPhoto: endpoint({ method: 'GET', path: '/visitor/log/photo/:id', params: Type.Object({ id: Id }), response: binary('image/jpeg') }),
  logExport: endpoint({ method: 'POST', path: '/visitor/log/export', body: VisitLogExportBody, response: binary(XLSX_TYPE) }),
};

/** An employee's invitations on the self-service page (X-Person-Token). */
export const selfVisitorsApi = {
  list: endpoint({ method: 'GET', path: '/self/visitor/list', query: VisitorListQuery, response: VisitorPage }),
  doors: endpoint({ method: 'GET', path: '/self/visitor/doors', response: VisitorDoors }),
  invite: endpoint({ method: 'POST', path: '/self/visitor/invite', body: VisitorInvite, response: VisitorInvited }),
  cancel: endpoint({ method: 'POST', path: '/self/visitor/cancel', body: IdBody, response: Visitor }),
};

/** The visitor's phone page (public: the link's token is the key). */
export const visitApi = {
  show: endpoint({ method: 'GET', path: '/visit/:token', params: TokenParams, response: VisitPublic }),
  face: endpoint({ method: 'POST', path: '/visit/:token/face', params: TokenParams, multipart: true, response: VisitPublic }),
};
