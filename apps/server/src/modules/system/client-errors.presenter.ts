import type { ClientErrorItem, ClientErrorKind } from '@faceadmin/shared';
import type { Selectable } from 'kysely';
import type { ClientErrorTable } from '../../db/schema.ts';

/** Row → API shape (the company and the fingerprint stay inside). */
export const presentClientError = (r: Selectable<ClientErrorTable>): ClientErrorItem => ({
  id: r.id,
  kind: r.kind as ClientErrorKind,
  message: r.message,
  stack: r.stack,
  component_stack: r.component_stack,
  url: r.url,
  release: r.release,
  user_agent: r.user_agent,
  count: Number(r.count),
  first_seen: r.first_seen,
  last_seen: r.last_seen,
});
