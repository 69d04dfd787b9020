import { CODES, LIMITS } from '@faceadmin/shared';

/** Pure helpers of the sign-in form (no React, no antd), unit-tested under node --test. */

export type LoginProblem = 'required' | 'accountMax' | 'passwordMin';

/** spec §5: the account is required and at most 20 characters, counted as the server counts it (trimmed). */
export function accountProblem(value: string | undefined): LoginProblem | null {
  const v = (value ?? '').trim();
  if (!v) return 'required';
  return v.length > LIMITS.accountMax ? 'accountMax' : null;
}

/** spec §5: the password is at least 6 characters. Not trimmed: spaces are part of a password. */
export function passwordProblem(value: string | undefined): LoginProblem | null {
  const v = value ?? '';
  if (!v) return 'required';
  return v.length < LIMITS.passwordMin ? 'passwordMin' : null;
}

/** The message key and its values for a problem (keys shared with the other forms' rules). */
export function problemMessage(p: LoginProblem): [string, Record<string, number>] {
  if (p === 'accountMax') return ['common.validation.accountMax', { max: LIMITS.accountMax }];
  if (p === 'passwordMin') return ['common.validation.passwordMin', { min: LIMITS.passwordMin }];
  return ['common.validation.required', {}];
}

/**
 * Whether the sign-in form must show the captcha after a refused attempt: asked for (40002), or announced for the
 * next attempt (`data.captcha` on a wrong password or a wait, docs/sign-in-protection.md).
 */
export function captchaNeeded(code: number, data: unknown): boolean {
  if (code === CODES.CAPTCHA_REQUIRED) return true;
  return typeof data === 'object' && data !== null && (data as { captcha?: unknown }).captcha === true;
}
