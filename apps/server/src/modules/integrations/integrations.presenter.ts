import type { ApiKeyItem, ApiScope, DeliveryItem, DeliveryStatus, WebhookEvent, WebhookItem } from '@faceadmin/shared';
import type { Selectable } from 'kysely';
import type { ApiKeyTable, WebhookDeliveryTable, WebhookEndpointTable } from '../../db/schema.ts';
import { parseJson } from '../../lib/json.ts';

/** A key as listed: never its hash (the key itself is not stored at all). */
export function presentKey(r: Selectable<ApiKeyTable>): ApiKeyItem {
  return {
    id: r.id,
    name: r.name,
    scopes: parseJson<ApiScope[]>(r.scopes, []),
    prefix: r.prefix,
    created_at: r.created_at,
    expires_on: r.expires_on,
    expires_at: r.expires_at,
    last_used_at: r.last_used_at,
    revoked_at: r.revoked_at,
    created_by: r.created_by,
  };
}

/** An endpoint as listed: never its signing secret. */
export function presentEndpoint(r: Selectable<WebhookEndpointTable>): WebhookItem {
  return {
    id: r.id,
    name: r.name,
    url: r.url,
    events: parseJson<WebhookEvent[]>(r.events, []),
    status: r.status === 'paused' ? 'paused' : 'active',
    failing_since: r.failing_since,
    paused_at: r.paused_at,
    created_at: r.created_at,
  };
}

export function presentDelivery(r: Selectable<WebhookDeliveryTable>): DeliveryItem {
  return {
    id: r.id,
    endpoint_id: r.endpoint_id,
    event_id: r.event_id,
    type: r.type,
    status: r.status as DeliveryStatus,
    attempts: r.attempts,
    response_code: r.response_code,
    response_body: r.response_body,
    duration_ms: r.duration_ms,
    created_at: r.created_at,
    last_attempt_at: r.last_attempt_at,
    next_attempt_at: r.status === 'pending' ? r.next_attempt_at : null,
    payload: r.payload,
  };
}
