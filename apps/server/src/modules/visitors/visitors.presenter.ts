import { API_PREFIX, pathOf, visitorsApi, type Visitor, type VisitorState, type VisitRecord } from '@faceadmin/shared';
import { parseJson } from '../../lib/json.ts';
import type { VisitorListRow, VisitRow } from './visitors.repository.ts';

/** An invitation as the console and the inviter see it (the link's hash and the hidden person's PIN stay inside). */
export const presentVisitor = (r: VisitorListRow, doorNames: Map<number, string>): Visitor => ({
  id: r.id,
  name: r.name,
  phone: r.phone,
  company: r.visitor_company,
  reason: r.reason,
  starts_at: r.starts_at,
  ends_at: r.ends_at,
  doors: parseJson<number[]>(r.device_ids, [])
    .filter((id) => doorNames.has(id))
    .map((id) => ({ id, name: doorNames.get(id)! })),
  state: r.state as VisitorState,
  has_face: r.photo !== '',
  inviter: r.inviter_name,
  arrived_at: r.arrived_at,
  created_at: r.created_at,
});

/** spec §3 "Visitor log": an accepted punch opened the door (success); a refusal of the visitor's PIN did not. */
export const presentVisit = (r: VisitRow): VisitRecord => ({
  id: r.id,
  visitor_id: r.visitor_id,
  visitor: r.name,
  phone: r.phone,
  inviter: r.inviter_name,
  device_id: r.device_id,
  door: r.device_name,
  time: r.local_time,
  utc: r.time,
  status: r.stranger === 0 ? 'success' : 'failure',
  pic_url: r.photo ? API_PREFIX + pathOf(visitorsApi.logPhoto, { id: r.id }) : '',
});
