/** Base path of the management API (spec §7), for the server, the console and their tests. */
export const API_PREFIX = '/api/management';

/** Envelope codes (spec §7-8). 20000 is success; 500xx are session problems that ask the user to sign in again. */
export const CODES = {
  OK: 20000,
  /** The request's shape is wrong: its schema (in the OpenAPI document) refuses it. */
  VALIDATION: 40001,
  CAPTCHA_REQUIRED: 40002,
  NO_AUTHORITY: 40003,
  NOT_FOUND: 40004,
  CONFLICT: 40009,
  /** The shape is right but a rule refuses it (passwords differ, an unknown department, yourself as the target). */
  RULE: 40022,
  BAD_CREDENTIALS: 40010,
  DISABLED: 40011,
  TOO_MANY: 40029,
  UNAVAILABLE: 40050,
  INTERNAL: 50000,
  ILLEGAL_TOKEN: 50008,
  OTHER_CLIENT: 50012,
  TOKEN_EXPIRED: 50014,
} as const;
export type Code = (typeof CODES)[keyof typeof CODES];

/** Codes that make the console offer a re-login (spec §8). */
export const RELOGIN_CODES: readonly number[] = [CODES.ILLEGAL_TOKEN, CODES.OTHER_CLIENT, CODES.TOKEN_EXPIRED];

export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
  /** A renewed session token; when present it replaces the stored one (spec §8). */
  refreshToken?: string;
}
