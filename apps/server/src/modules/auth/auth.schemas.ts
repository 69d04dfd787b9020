import { ACCOUNT_PATTERN, LIMITS, MOBILE_PATTERN } from '@faceadmin/shared';
import { Type } from 'typebox';

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
export const TokenData = Type.Object({ token: Type.String() });

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

export const SmsBody = Type.Object({
  phone: Mobile,
  purpose: Type.Enum(['register', 'forget']),
  icode: Type.String({ minLength: 1, maxLength: 10 }),
  captcha_id: CaptchaId,
});
export const SmsData = Type.Object({ cooldown: Type.Integer() });

export const ForgetBody = Type.Object({
  mobile: Mobile,
  smscode: Type.String({ minLength: 1, maxLength: 10 }),
  password: Password,
  repassword: Type.String({ maxLength: LIMITS.passwordMax }),
});

/** spec §5: current, new and repeated new password are required. */
export const ChangePwdBody = Type.Object({
  orig: Type.String({ minLength: 1, maxLength: 200 }),
  new: Password,
  renew: Type.String({ minLength: 1, maxLength: LIMITS.passwordMax }),
});

const RightsSchema = Type.Object({
  is_admin: Type.Integer(),
  person: Type.Integer(),
  attendance: Type.Integer(),
  face: Type.Integer(),
  breaker: Type.Integer(),
  log: Type.Integer(),
  workflow: Type.Integer(),
  manager: Type.Integer(),
});
export { RightsSchema };

export const SessionUserSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Type.String(),
  mobile: Type.String(),
  avatar: Type.String(),
  introduction: Type.String(),
  roles: Type.Array(Type.String(), { minItems: 1 }),
  company: Type.Integer(),
  companys: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  alarm_ring: Type.Integer(),
  debug: Type.Integer(),
  is_init: Type.Integer(),
  rights: RightsSchema,
});

export const PublicConfigSchema = Type.Object({
  runMode: Type.String(),
  registration: Type.Boolean(),
  sms: Type.Boolean(),
  needsSetup: Type.Boolean(),
  title: Type.String(),
  version: Type.String(),
});
export const CaptchaSchema = Type.Object({ captcha_id: Type.String(), image: Type.String() });
