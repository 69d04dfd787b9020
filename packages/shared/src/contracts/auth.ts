import { Type, type Static } from 'typebox';
import { LIMITS, MOBILE_PATTERN, ACCOUNT_PATTERN, RUN_MODES } from '../limits.ts';
import { endpoint } from './endpoint.ts';
import { StringEnum } from './common.ts';

const Password = Type.String({ minLength: LIMITS.passwordMin, maxLength: LIMITS.passwordMax });
export const Account = Type.String({ minLength: 1, maxLength: LIMITS.accountMax, pattern: ACCOUNT_PATTERN });
export const Mobile = Type.String({ minLength: 1, maxLength: 16, pattern: MOBILE_PATTERN });
const Icode = Type.String({ maxLength: 10 });
const CaptchaId = Type.String({ maxLength: 64 });

export const LoginBody = Type.Object({
  // Login takes any stored account, so only lengths are checked here; the username is trimmed (spec §3).
  username: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
  icode: Type.Optional(Icode),
  captcha_id: Type.Optional(CaptchaId),
});
export type LoginBody = Static<typeof LoginBody>;
export const TokenData = Type.Object({ token: Type.String() });
export type TokenData = Static<typeof TokenData>;

export const RegisterBody = Type.Object({
  name: Type.String({ minLength: LIMITS.nameMin, maxLength: 40 }),
  username: Account,
  password: Password,
  repassword: Type.String({ maxLength: LIMITS.passwordMax }),
  mobile: Mobile,
  smscode: Type.String({ minLength: 1, maxLength: 10 }),
  icode: Type.String({ minLength: 1, maxLength: 10 }),
  captcha_id: CaptchaId,
});
export type RegisterBody = Static<typeof RegisterBody>;

export const SmsBody = Type.Object({
  phone: Mobile,
  purpose: Type.Enum(['register', 'forget']),
  icode: Type.String({ minLength: 1, maxLength: 10 }),
  captcha_id: CaptchaId,
});
export type SmsBody = Static<typeof SmsBody>;
export const SmsData = Type.Object({ cooldown: Type.Integer() });

export const ForgetBody = Type.Object({
  mobile: Mobile,
  smscode: Type.String({ minLength: 1, maxLength: 10 }),
  password: Password,
  repassword: Type.String({ maxLength: LIMITS.passwordMax }),
});
export type ForgetBody = Static<typeof ForgetBody>;

/** spec §5: current, new and repeated new password are required. */
export const ChangePwdBody = Type.Object({
  orig: Type.String({ minLength: 1, maxLength: 200 }),
  new: Password,
  renew: Type.String({ minLength: 1, maxLength: LIMITS.passwordMax }),
});
export type ChangePwdBody = Static<typeof ChangePwdBody>;

export const RightsSchema = Type.Object({
  is_admin: Type.Integer(),
  person: Type.Integer(),
  attendance: Type.Integer(),
  face: Type.Integer(),
  breaker: Type.Integer(),
  log: Type.Integer(),
  workflow: Type.Integer(),
  manager: Type.Integer(),
});

/** spec §3 session user. */
export const SessionUser = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Type.String(),
  mobile: Type.String(),
  avatar: Type.String(),
  introduction: Type.String(),
  roles: Type.Array(Type.String(), { minItems: 1 }),
  company: Type.Integer(),
  /** The current company's IANA time zone: the console shows every time in it. */
  time_zone: Type.String(),
  companys: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  alarm_ring: Type.Integer(),
  debug: Type.Integer(),
  /** the company's option thirdParty (integrations: API keys, webhooks) */
  third_party: Type.Integer(),
  is_init: Type.Integer(),
  rights: RightsSchema,
  /** The person this account is in the current company (spec §7 bindAdmin), 0 when none: opens self-service. */
  person_id: Type.Integer(),
});
export type SessionUser = Static<typeof SessionUser>;

/** What the login page needs before anyone signs in. */
export const PublicConfig = Type.Object({
  runMode: StringEnum(RUN_MODES),
  registration: Type.Boolean(),
  sms: Type.Boolean(),
  needsSetup: Type.Boolean(),
  title: Type.String(),
  version: Type.String(),
});
export type PublicConfig = Static<typeof PublicConfig>;
/** `image` is a data: URL of an SVG image. */
export const CaptchaImage = Type.Object({ captcha_id: Type.String(), image: Type.String() });
export type CaptchaImage = Static<typeof CaptchaImage>;

export const authApi = {
  config: endpoint({ method: 'GET', path: '/system/config', response: PublicConfig }),
  captcha: endpoint({ method: 'GET', path: '/user/captcha', response: CaptchaImage }),
  login: endpoint({ method: 'POST', path: '/user/login', body: LoginBody, response: TokenData }),
  sendSmsCode: endpoint({ method: 'POST', path: '/user/sendsmscode', body: SmsBody, response: SmsData }),
  forget: endpoint({ method: 'POST', path: '/user/forget', body: ForgetBody, response: Type.Null() }),
  register: endpoint({ method: 'POST', path: '/admin/register', body: RegisterBody, response: TokenData }),
  info: endpoint({ method: 'GET', path: '/user/info', response: SessionUser }),
  logout: endpoint({ method: 'POST', path: '/user/logout', response: Type.Null() }),
  changePassword: endpoint({ method: 'POST', path: '/user/changepwd', body: ChangePwdBody, response: TokenData }),
};
