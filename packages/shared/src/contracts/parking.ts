import { Type, type Static } from 'typebox';
import { RegisterBody } from './auth.ts';
import { IdBody } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Parking-lot binding (spec §2 /dzg, §7 /dzg/check, /dzg/bind, /dzg/register; docs/api-parking.md). A parking
 * operator holding the company's shared secret sends the user to /dzg?code=…; the code is
 * base64url(JSON {v, company_id, dzg_id, lot_name?, nonce, exp}) "." base64url(HMAC-SHA256(secret, first part)).
 */
export const ParkingCode = Type.String({ minLength: 10, maxLength: 2048, pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$' });
export const DzgCheckBody = Type.Object({ code: ParkingCode });
export type DzgCheckBody = Static<typeof DzgCheckBody>;

/** What a valid code binds: the operator's account and the company it would be bound to. */
export const DzgCheck = Type.Object({
  dzg_id: Type.String(),
  lot_name: Type.String(),
  company: Type.Object({ id: Type.Integer(), name: Type.String() }),
  expires_at: Type.String(),
  /** already bound to this company (binding again changes nothing) */
  bound: Type.Boolean(),
});
export type DzgCheck = Static<typeof DzgCheck>;

/** spec §7: the binding body carries the dzg_id being confirmed; it must be the code's. */
export const DzgBindBody = Type.Object({ code: ParkingCode, dzg_id: Type.String({ minLength: 1, maxLength: 64 }) });
export type DzgBindBody = Static<typeof DzgBindBody>;

/** Registration from the binding page: /admin/register's fields and the code (checked first). */
export const DzgRegisterBody = Type.Object({ ...RegisterBody.properties, code: ParkingCode });
export type DzgRegisterBody = Static<typeof DzgRegisterBody>;

export const ParkingBinding = Type.Object({
  id: Type.Integer(),
  dzg_id: Type.String(),
  lot_name: Type.String(),
  bound_by: Type.String(),
  created_at: Type.String(),
});
export type ParkingBinding = Static<typeof ParkingBinding>;
export const ParkingBindings = Type.Object({
  items: Type.Array(ParkingBinding),
  total: Type.Integer(),
  /** the people push to the operator URL: changes waiting, the last success and the last failure */
  push: Type.Object({
    pending: Type.Integer(),
    attempts: Type.Integer(),
    last_pushed_at: Type.Union([Type.String(), Type.Null()]),
    last_error: Type.String(),
  }),
});
export type ParkingBindings = Static<typeof ParkingBindings>;

export const parkingApi = {
  check: endpoint({ method: 'POST', path: '/dzg/check', body: DzgCheckBody, response: DzgCheck }),
  bind: endpoint({ method: 'POST', path: '/dzg/bind', body: DzgBindBody, response: ParkingBinding }),
  register: endpoint({ method: 'POST', path: '/dzg/register', body: DzgRegisterBody, response: Type.Object({ token: Type.String() }) }),
  bindings: endpoint({ method: 'GET', path: '/dzg/bindings', response: ParkingBindings }),
  unbind: endpoint({ method: 'POST', path: '/dzg/unbind', body: IdBody, response: Type.Null() }),
};
