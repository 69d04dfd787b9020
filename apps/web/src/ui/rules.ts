import type { FormRule as Rule } from 'antd';
import type { TFunction } from 'i18next';
import { ACCOUNT_PATTERN, IP_PATTERN, LIMITS, MOBILE_PATTERN } from '@faceadmin/shared';

type T = TFunction;

const IP = new RegExp(IP_PATTERN, 'u');
/** IPv4 as the server accepts it (dotted quad, each part 0-255, no leading zeros), or an IPv6 literal. */
export function isValidIp(value: string): boolean {
  return IP.test(value.trim());
}

/** Field rules from spec §5, with limits taken from packages/shared. */
export const ruleSet = (t: T) => ({
  required: { required: true, message: t('common.validation.required') } satisfies Rule,
  name: [
    { required: true, message: t('common.validation.required') },
    { min: LIMITS.nameMin, message: t('common.validation.nameMin', { min: LIMITS.nameMin }) },
  ] satisfies Rule[],
  account: [
    { required: true, message: t('common.validation.required') },
    { max: LIMITS.accountMax, message: t('common.validation.accountMax', { max: LIMITS.accountMax }) },
    { pattern: new RegExp(ACCOUNT_PATTERN), message: t('common.validation.accountPattern') },
  ] satisfies Rule[],
  password: [
    { required: true, message: t('common.validation.required') },
    { min: LIMITS.passwordMin, message: t('common.validation.passwordMin', { min: LIMITS.passwordMin }) },
    { max: LIMITS.passwordMax, message: t('common.validation.passwordMax', { max: LIMITS.passwordMax }) },
  ] satisfies Rule[],
  mobile: [
    { required: true, message: t('common.validation.required') },
    { pattern: new RegExp(MOBILE_PATTERN), message: t('common.validation.mobile') },
  ] satisfies Rule[],
  /** An IPv4 / IPv6 address; blank passes (add `required` where it is needed). */
  ip: {
    validator: (_, v?: string) => (!v || isValidIp(v) ? Promise.resolve() : Promise.reject(new Error(t('device.validation.ip')))),
  } satisfies Rule,
  /** The repeated password must equal the field `other`. */
  repeat: (other: string): Rule[] => [
    { required: true, message: t('common.validation.required') },
    ({ getFieldValue }) => ({
      validator: (_, v) => (!v || v === getFieldValue(other) ? Promise.resolve() : Promise.reject(new Error(t('common.validation.passwordMismatch')))),
    }),
  ],
});
