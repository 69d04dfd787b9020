import { CODES } from '@faceadmin/shared';
import type { Params } from '../i18n/i18n.ts';

/** A failure the user caused or may fix; rendered as a translated envelope, never a 500. */
export class AppError extends Error {
  readonly code: number;
  readonly status: number;
  readonly key: string;
  readonly params: Params;
  readonly data: unknown;
  constructor(code: number, status: number, key: string, params: Params = {}, data: unknown = null) {
    super(key);
    this.code = code;
    this.status = status;
    this.key = key;
    this.params = params;
    this.data = data;
  }
}

export const notFound = () => new AppError(CODES.NOT_FOUND, 404, 'errors.notFound');
export const noAuthority = (key = 'errors.noAuthority') => new AppError(CODES.NO_AUTHORITY, 403, key);
export const conflict = (key: string, params: Params = {}) => new AppError(CODES.CONFLICT, 409, key, params);
/**
 * A request its schema accepts but a rule refuses (CODES.RULE, 422): what the shape cannot say (the two
 * passwords differ, an id that is not this company's, an upload that is not there). Shape errors come from the
 * schemas alone (CODES.VALIDATION, 400), so the OpenAPI document tells a client everything that is a 400.
 * `invalid` is phrased like the schema validator's messages, on one field.
 */
export const invalid = (field: string, reasonKey = 'reasons.invalid', params: Params = {}) =>
  new AppError(CODES.RULE, 422, 'errors.validation', { ...params, field, reason: reasonKey }, { field });
export const badInput = (key: string, field?: string, params: Params = {}) => new AppError(CODES.RULE, 422, key, params, field ? { field } : null);
