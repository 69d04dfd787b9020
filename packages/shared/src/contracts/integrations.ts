import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.ts';
import { Id, IdBody, Nullable, Page, PageQuery, StringEnum } from './common.ts';
import { DayRow } from './attendance.ts';
import { endpoint } from './endpoint.ts';
import { LivePunch } from './live.ts';

/**
 * Integrations (issue #19, company option thirdParty): API keys that act on the management API for one company,
 * and signed webhooks. docs/api-integrations.md.
 */

/** What a key may do; each scoped route of the management API names the one it needs (`config.apiScope`). */
export const API_SCOPES = ['people:read', 'people:write', 'punches:read', 'attendance:read', 'approvals:read'] as const;
export type ApiScope = (typeof API_SCOPES)[number];
/** The header a key travels in (never a cookie, never a query string). */
export const API_KEY_HEADER = 'x-api-key';

/** What a webhook endpoint may subscribe to. `test` is only ever sent by "send a test event". */
export const WEBHOOK_EVENTS = ['punch', 'stranger', 'person.changed', 'day.changed', 'approval.decided', 'alarm', 'device.offline'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_STATUSES = ['active', 'paused'] as const;
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const INTEGRATION_LIMITS = {
  /** requests a key may make per minute (across every instance) */
  keyPerMinute: 120,
  keysPerCompany: 50,
  endpointsPerCompany: 20,
  urlMax: 500,
} as const;

export const ApiKeyItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  scopes: Type.Array(StringEnum(API_SCOPES)),
  /** the key's first characters, to tell keys apart (the rest is never shown again) */
  prefix: Type.String(),
  created_at: Type.String(),
  /** the last day the key works, as chosen in the company's zone of that day; null: no expiry */
  expires_on: Nullable(Type.String()),
  /** the instant it stops working (the end of `expires_on` in that zone, fixed at creation: #28); null: no expiry */
  expires_at: Nullable(Type.String({ format: 'date-time' })),
  last_used_at: Nullable(Type.String()),
  revoked_at: Nullable(Type.String()),
  created_by: Type.String(),
});
export type ApiKeyItem = Static<typeof ApiKeyItem>;
export const ApiKeyList = Type.Object({ items: Type.Array(ApiKeyItem), total: Type.Integer() });

export const ApiKeyInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: LIMITS.textMax }),
  scopes: Type.Array(StringEnum(API_SCOPES), { minItems: 1, maxItems: API_SCOPES.length, uniqueItems: true }),
  expires_on: Type.Optional(Nullable(Type.String({ format: 'date' }))),
});
export type ApiKeyInput = Static<typeof ApiKeyInput>;
/** The only answer that ever holds the key itself. */
export const ApiKeyCreated = Type.Object({ ...ApiKeyItem.properties, key: Type.String() });
export type ApiKeyCreated = Static<typeof ApiKeyCreated>;

export const WebhookItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  events: Type.Array(StringEnum(WEBHOOK_EVENTS)),
  status: StringEnum(WEBHOOK_STATUSES),
  /** since when every attempt failed (null: the last one succeeded); 24 hours of it pauses the endpoint */
  failing_since: Nullable(Type.String()),
  paused_at: Nullable(Type.String()),
  created_at: Type.String(),
});
export type WebhookItem = Static<typeof WebhookItem>;
export const WebhookList = Type.Object({ items: Type.Array(WebhookItem), total: Type.Integer() });

export const WebhookInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: LIMITS.textMax }),
  url: Type.String({ minLength: 1, maxLength: INTEGRATION_LIMITS.urlMax }),
  events: Type.Array(StringEnum(WEBHOOK_EVENTS), { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true }),
});
export type WebhookInput = Static<typeof WebhookInput>;
export const WebhookUpdate = Type.Object({ id: Id, ...WebhookInput.properties });
export type WebhookUpdate = Static<typeof WebhookUpdate>;
/** The only answers that ever hold the signing secret: creation and "new secret". */
export const WebhookSecret = Type.Object({ ...WebhookItem.properties, secret: Type.String() });
export type WebhookSecret = Static<typeof WebhookSecret>;

export const DeliveryItem = Type.Object({
  id: Type.Integer(),
  endpoint_id: Type.Integer(),
  event_id: Type.String(),
  type: Type.String(),
  status: StringEnum(DELIVERY_STATUSES),
  attempts: Type.Integer(),
  /** the last attempt's HTTP status, null when it got none (timeout, refused connection) */
  response_code: Nullable(Type.Integer()),
  /** the last attempt's answer, at most 200 characters, or why there was none (an internal address refused: "refused: …") */
  response_body: Type.String(),
  duration_ms: Nullable(Type.Integer()),
  created_at: Type.String(),
  last_attempt_at: Nullable(Type.String()),
  next_attempt_at: Nullable(Type.String()),
  /** what was sent (the signed body) */
  payload: Type.String(),
});
export type DeliveryItem = Static<typeof DeliveryItem>;
export const DeliveryQuery = Type.Object({ ...PageQuery, endpoint_id: Id, status: Type.Optional(StringEnum(DELIVERY_STATUSES)) });
export type DeliveryQuery = Static<typeof DeliveryQuery>;
export const DeliveryPage = Page(DeliveryItem);

/** What the changes feed lists (docs/api-integrations.md §changes). */
export const CHANGE_KINDS = ['punch', 'day', 'person'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
/** A change's cursor: its number in the company's sequence, as decimal text. */
export const CURSOR_PATTERN = '^[0-9]{1,15}$';
export const CHANGES_PAGE_MAX = 1000;
export const ChangesQuery = Type.Object({
  /** the `cursor` of the previous answer; none: from the first change kept */
  cursor: Type.Optional(Type.String({ pattern: CURSOR_PATTERN, maxLength: 15 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: CHANGES_PAGE_MAX })),
});
export type ChangesQuery = Static<typeof ChangesQuery>;
/** A punch as its webhook carries it (the face link stays inside). */
export const ChangePunch = Type.Omit(LivePunch, ['face_url']);
/** A day result as the day list shows it, its figures only. */
export const ChangeDay = Type.Pick(DayRow, ['person_id', 'date', 'status', 'late_min', 'early_min', 'worked_min', 'overtime_min', 'leave_min', 'absent_min']);
export const ChangePerson = Type.Object({ id: Type.Integer(), number: Type.String(), name: Type.String(), department_ids: Type.Array(Type.Integer()) });
export const ChangeItem = Type.Object({
  /** this change's cursor */
  seq: Type.String(),
  kind: StringEnum(CHANGE_KINDS),
  /** when it was recorded */
  at: Type.String(),
  /** the punch or person id (a day: its person) */
  id: Type.Integer(),
  /** a day's date, '' otherwise */
  date: Type.String(),
  /** no longer there: an erased punch, a deleted person, a day without a result now */
  deleted: Type.Boolean(),
  /** as it is now (absent when deleted) */
  punch: Type.Optional(ChangePunch),
  day: Type.Optional(ChangeDay),
  person: Type.Optional(ChangePerson),
});
export type ChangeItem = Static<typeof ChangeItem>;
export const ChangesPage = Type.Object({
  items: Type.Array(ChangeItem),
  /** where the next call starts (the last change listed; the one given when none was) */
  cursor: Type.String(),
  /** more changes follow now */
  more: Type.Boolean(),
});
export type ChangesPage = Static<typeof ChangesPage>;

export const integrationsApi = {
  keys: endpoint({ method: 'GET', path: '/integration/key/list', response: ApiKeyList }),
  createKey: endpoint({ method: 'POST', path: '/integration/key/create', body: ApiKeyInput, response: ApiKeyCreated }),
  revokeKey: endpoint({ method: 'POST', path: '/integration/key/revoke', body: IdBody, response: ApiKeyItem }),
  webhooks: endpoint({ method: 'GET', path: '/integration/webhook/list', response: WebhookList }),
  createWebhook: endpoint({ method: 'POST', path: '/integration/webhook/create', body: WebhookInput, response: WebhookSecret }),
  updateWebhook: endpoint({ method: 'POST', path: '/integration/webhook/update', body: WebhookUpdate, response: WebhookItem }),
  deleteWebhook: endpoint({ method: 'POST', path: '/integration/webhook/delete', body: IdBody, response: Type.Null() }),
  rotateSecret: endpoint({ method: 'POST', path: '/integration/webhook/secret', body: IdBody, response: WebhookSecret }),
  resumeWebhook: endpoint({ method: 'POST', path: '/integration/webhook/resume', body: IdBody, response: WebhookItem }),
  testWebhook: endpoint({ method: 'POST', path: '/integration/webhook/test', body: IdBody, response: DeliveryItem }),
  deliveries: endpoint({ method: 'GET', path: '/integration/webhook/deliveries', query: DeliveryQuery, response: DeliveryPage }),
  redeliver: endpoint({ method: 'POST', path: '/integration/webhook/redeliver', body: IdBody, response: DeliveryItem }),
  changes: endpoint({ method: 'GET', path: '/integration/changes', query: ChangesQuery, response: ChangesPage }),
};
