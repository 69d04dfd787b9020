import { type ChangePwdBody, CODES, type ForgetBody, LIMITS, type LoginBody, type RegisterBody, type SessionUser, type SmsBody } from '@faceadmin/shared';
import type { Config } from '../../config.ts';
import type { Database, Executor } from '../../db/database.ts';
import { dummyHash, hashPassword, verifyPassword } from '../../lib/crypto.ts';
import { AppError, badInput, conflict, invalid } from '../../lib/errors.ts';
import { addressKey, delayAfter, SIGN_IN } from '../../lib/throttle.ts';
import { nowIso } from '../../lib/time.ts';
import { tenantFrom, type AuthContext } from '../../plugins/auth.ts';
import { companiesRepository } from '../companies/companies.repository.ts';
import { optionsOf } from '../companies/companies.options.ts';
import { audit } from '../logs/logs.service.ts';
import { membershipsRepository } from '../managers/memberships.repository.ts';
import { notify } from '../messages/messages.service.ts';
import { adminsRepository, type AdminRow } from './admins.repository.ts';
import type { CaptchaService } from './captcha.service.ts';
import type { SessionsService } from './sessions.service.ts';
import { refusal, signInGuard } from './sign-in-guard.ts';
import { SMS_COOLDOWN_S, smsCodes, type SmsSender } from './sms.service.ts';
import { transaction } from '../../db/transaction.ts';

interface Meta {
  ip: string;
  userAgent: string;
}
/** A sign-in's request: its address and agent, and the browser's device cookie when it sent one. */
interface LoginMeta extends Meta {
  device?: string | undefined;
}

export function authService(deps: { database: Database; config: Config; sessions: SessionsService; captcha: CaptchaService; sms: SmsSender | null }) {
  const { db } = deps.database;
  const guard = signInGuard(db);
  const hash = (pw: string) => hashPassword(pw, deps.config.scryptLog2N);

  async function requireCaptcha(id: string | undefined, answer: string | undefined) {
    if (!id || !answer) throw new AppError(CODES.CAPTCHA_REQUIRED, 400, 'errors.captchaRequired', {}, { captcha: true, field: 'icode' });
    if (!(await deps.captcha.verify(db, id, answer)))
      throw new AppError(CODES.CAPTCHA_REQUIRED, 400, 'errors.captchaIncorrect', {}, { captcha: true, field: 'icode' });
  }

  /** Picks an enabled company for the administrator when the current one is gone or disabled. */
  async function settleCompany(trx: Executor, admin: AdminRow): Promise<number> {
    const list = await membershipsRepository.listForAdmin(trx, admin.id);
    const enabled = list.filter((m) => m.status !== 'disabled');
    if (list.length > 0 && enabled.length === 0) throw new AppError(CODES.DISABLED, 403, 'errors.disabled');
    if (enabled.some((m) => m.id === admin.current_company_id)) return admin.current_company_id;
    return enabled[0]?.id ?? 0;
  }

  return {
    /** Hourly housekeeping of the sign-in rules' records. */
    purgeSignIns: () => guard.purge(),

    /**
     * Signs in (docs/sign-in-protection.md). A browser known for this account is never refused by the throttle;
     * an unknown one faces the account's delays, hourly cap and captcha, and its address's cap on distinct accounts.
     * `device` in the answer is the browser's new device token, for the cookie only (never sent in the body).
     */
    async login(input: LoginBody, meta: LoginMeta): Promise<{ token: string; device: string }> {
      const username = input.username.trim();
      const admin = await adminsRepository.findByUsername(db, username);
      const deviceId = await guard.knownDevice(meta.device, admin?.id);
      // The account key is the typed name, existing or not, so the answers never tell which accounts exist.
      const attempt = await guard.admit({ account: username.toLowerCase(), address: addressKey(meta.ip), deviceId });
      const verdict = attempt.verdict;
      if (verdict?.refused) throw refusal({ ...verdict, refused: verdict.refused });
      if (verdict?.captcha) {
        try {
          await requireCaptcha(input.captcha_id, input.icode);
        } catch (e) {
          await guard.drop(attempt.id);
          throw e;
        }
      }
      const ok = admin
        ? await verifyPassword(input.password, admin.password_hash)
        : (await verifyPassword(input.password, await dummyHash(deps.config.scryptLog2N)), false);
      if (!admin || !ok) {
        // What the next attempt from this browser will face: a captcha, and a wait (seconds).
        const streak = verdict ? verdict.streak + 1 : 0;
        throw new AppError(
          CODES.BAD_CREDENTIALS,
          400,
          'errors.badCredentials',
          {},
          { captcha: streak >= SIGN_IN.captchaAfter, retry_after: Math.ceil(delayAfter(streak) / 1000) },
        );
      }
      // Counted as a sign-in even if the account turns out disabled below: the password was right.
      await guard.succeeded(attempt.id);
      return transaction(db, async (trx) => {
        const companyId = await settleCompany(trx, admin);
        const now = nowIso();
        await adminsRepository.update(trx, admin.id, { current_company_id: companyId, last_login_at: now });
        const s = await deps.sessions.open(trx, admin.id, meta);
        if (companyId) await audit(trx, { companyId, adminId: admin.id, adminName: admin.name, ip: meta.ip }, 'auth', 'auth.login');
        const device = await guard.remember(trx, admin.id, meta.device);
        return { token: s.token, device };
      });
    },

    async logout(ctx: AuthContext) {
      await transaction(db, async (trx) => {
        await deps.sessions.end(trx, ctx.admin.id, ctx.sessionId);
        if (ctx.companyId) await audit(trx, tenantFrom(ctx), 'auth', 'auth.logout');
      });
    },

    async info(ctx: AuthContext): Promise<SessionUser> {
      const companies = (await membershipsRepository.listForAdmin(db, ctx.admin.id)).filter((m) => m.status !== 'disabled');
      const company = ctx.companyId ? await companiesRepository.find(db, ctx.companyId) : undefined;
      const options = company ? optionsOf(company) : undefined;
      const a = ctx.admin;
      return {
        id: a.id,
        name: a.name,
        username: a.username,
        mobile: a.mobile,
        avatar: a.avatar,
        introduction: a.introduction,
        roles: [ctx.role ?? 'main'],
        company: ctx.companyId,
        time_zone: ctx.timeZone,
        companys: companies.map((c) => ({ id: c.id, name: c.name })),
        alarm_ring: options?.alarmRing ?? 0,
        debug: options?.internalTesting ?? 0,
        third_party: options?.thirdParty ?? 0,
        is_init: ctx.isInit ? 1 : 0,
        rights: ctx.rights,
        person_id: ctx.companyId
          ? ((await db.selectFrom('persons').select('id').where('company_id', '=', ctx.companyId).where('admin_id', '=', a.id).executeTakeFirst())?.id ?? 0)
          : 0,
      };
    },

    /** Changes the password, ends every other session and issues a fresh token for this one. */
    async changePassword(ctx: AuthContext, input: ChangePwdBody, meta: Meta): Promise<{ token: string }> {
      if (input.new !== input.renew) throw badInput('errors.passwordMismatch', 'renew');
      if (!(await verifyPassword(input.orig, ctx.admin.password_hash))) throw badInput('errors.origPasswordWrong', 'orig');
      if (input.orig === input.new) throw badInput('errors.samePassword', 'new');
      const password_hash = await hash(input.new);
      return transaction(db, async (trx) => {
        const now = nowIso();
        await adminsRepository.update(trx, ctx.admin.id, { password_hash, updated_at: now });
        await deps.sessions.endAllFor(trx, ctx.admin.id);
        await guard.forgetDevices(trx, ctx.admin.id);
        const s = await deps.sessions.open(trx, ctx.admin.id, meta);
        if (ctx.companyId) {
          await audit(trx, tenantFrom(ctx), 'auth', 'auth.changepwd');
          await notify(trx, ctx.companyId, ctx.admin.id, 'passwordChanged', { time: now.replace('T', ' ').slice(0, 19) + ' UTC' });
        }
        return { token: s.token };
      });
    },

    async sendSmsCode(input: SmsBody): Promise<{ cooldown: number }> {
      if (!deps.sms) throw new AppError(CODES.UNAVAILABLE, 400, 'errors.smsUnavailable');
      await requireCaptcha(input.captcha_id, input.icode);
      const wait = await smsCodes.cooldown(db, input.phone, input.purpose);
      if (wait > 0) throw new AppError(CODES.TOO_MANY, 429, 'errors.smsCooldown', { seconds: wait });
      const code = await smsCodes.issue(db, input.phone, input.purpose);
      // For "forget", unknown numbers get the same answer (no account enumeration) but no SMS.
      const known = input.purpose === 'register' || (await adminsRepository.findByMobile(db, input.phone)).length > 0;
      if (known) {
        try {
          await deps.sms.send(input.phone, input.purpose, code);
        } catch {
          throw new AppError(CODES.UNAVAILABLE, 502, 'errors.smsFailed');
        }
      }
      return { cooldown: SMS_COOLDOWN_S };
    },

    async register(input: RegisterBody, meta: Meta): Promise<{ token: string }> {
      if (!deps.sms) throw new AppError(CODES.UNAVAILABLE, 400, 'errors.registrationClosed');
      // The name is stored trimmed, so the length rule (spec §5) applies to the trimmed text.
      const name = input.name.trim();
      if (name.length < LIMITS.nameMin) throw invalid('name', 'reasons.minLength', { limit: LIMITS.nameMin });
      if (input.password !== input.repassword) throw badInput('errors.passwordMismatch', 'repassword');
      await requireCaptcha(input.captcha_id, input.icode);
      if (!(await smsCodes.verify(db, input.mobile, 'register', input.smscode))) throw badInput('errors.smsIncorrect', 'smscode');
      const username = input.username.trim();
      if (await adminsRepository.findByUsername(db, username)) throw conflict('errors.accountTaken', { username });
      const password_hash = await hash(input.password);
      return transaction(db, async (trx) => {
        const id = await adminsRepository.insert(trx, { username, name, mobile: input.mobile, password_hash, created_at: nowIso() });
        const s = await deps.sessions.open(trx, id, meta);
        return { token: s.token };
      });
    },

    async forget(input: ForgetBody) {
      if (!deps.sms) throw new AppError(CODES.UNAVAILABLE, 400, 'errors.smsUnavailable');
      if (input.password !== input.repassword) throw badInput('errors.passwordMismatch', 'repassword');
      if (!(await smsCodes.verify(db, input.mobile, 'forget', input.smscode))) throw badInput('errors.smsIncorrect', 'smscode');
      const admins = await adminsRepository.findByMobile(db, input.mobile);
      const password_hash = await hash(input.password);
      await transaction(db, async (trx) => {
        for (const a of admins) {
          await adminsRepository.update(trx, a.id, { password_hash, updated_at: nowIso() });
          await deps.sessions.endAllFor(trx, a.id);
          await guard.forgetDevices(trx, a.id);
          // The reset proved the phone: guesses at the old password no longer hold the owner back in a new browser.
          await guard.clearAccount(trx, a.username.toLowerCase());
        }
      });
    },

    /** On an empty database, ADMIN_USERNAME/ADMIN_PASSWORD become the initial administrator (no company yet). */
    async bootstrapAdmin(): Promise<boolean> {
      const { adminUsername, adminPassword } = deps.config;
      if (!adminUsername || !adminPassword) return false;
      if ((await adminsRepository.count(db)) > 0) return false;
      await adminsRepository.insert(db, {
        username: adminUsername,
        name: adminUsername,
        mobile: '',
        password_hash: await hash(adminPassword),
        created_at: nowIso(),
      });
      return true;
    },
  };
}
export type AuthService = ReturnType<typeof authService>;
