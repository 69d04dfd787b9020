import { CODES, WORKFLOW_LIMITS, type Language, type SelfMessage, type SelfPerson, type SelfSession } from '@faceadmin/shared';
import type { Database } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { t } from '../../i18n/i18n.ts';
import { newToken, sha256 } from '../../lib/crypto.ts';
import { AppError, badInput, invalid, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { clock, isoIn, nowIso } from '../../lib/time.ts';
import type { PersonContext, PersonSessionLookup, Tenant } from '../../plugins/auth.ts';
import type { CaptchaService } from '../auth/captcha.service.ts';
import { SMS_COOLDOWN_S, smsCodes, type SmsSender } from '../auth/sms.service.ts';
import { audit } from '../logs/logs.service.ts';
import { selfRepository as repo } from './self.repository.ts';
import { workflowRepository } from './workflow.repository.ts';

/** A person session lasts a week from its last use (sliding); links are one-time and expire. */
const SESSION_TTL_MS = 7 * 86_400_000;
/** The purpose SMS codes of the self-service sign-in are kept under (apart from the administrators' codes). */
const SMS_PURPOSE = 'self';

/**
 * The self-service page's people (issue #11): sign-in with the phone on their record and an SMS code through the
 * server's SMS sender, or a one-time link an administrator made; their own session (X-Person-Token), apart from
 * the administrators'; and their inbox.
 */
export function selfService(deps: { database: Database; sms: SmsSender | null; captcha: CaptchaService }) {
  const { db } = deps.database;

  async function open(companyId: number, personId: number): Promise<string> {
    const token = newToken();
    const at = nowIso();
    await repo.openSession(db, { company_id: companyId, person_id: personId, token_hash: sha256(token), created_at: at, expires_at: isoIn(SESSION_TTL_MS) });
    return token;
  }

  async function profile(companyId: number, personId: number, phone?: string): Promise<SelfPerson> {
    const person = await workflowRepository.person(db, companyId, personId);
    if (!person) throw notFound();
    const company = await workflowRepository.companyZone(db, companyId);
    const names = new Map((await workflowRepository.departments(db, companyId)).map((d) => [d.id, d.name]));
    const departments = (await workflowRepository.personDepartments(db, companyId, [personId]))
      .filter((d) => names.has(d.department_id))
      .map((d) => ({ id: d.department_id, name: names.get(d.department_id)! }));
    const others = person.phone || phone ? (await repo.byPhone(db, phone ?? person.phone)).filter((p) => p.company_id !== companyId) : [];
    return {
      id: person.id,
      name: person.name,
      number: person.number,
      company: { id: companyId, name: company.name },
      time_zone: company.time_zone,
      departments,
      companies: [...new Map(others.map((o) => [o.company_id, { id: o.company_id, name: o.company_name }])).values()],
      pending_tasks: 0,
      unread: await repo.unread(db, companyId, personId),
    };
  }

  const lookup: PersonSessionLookup = {
    async check(token) {
      const row = await repo.session(db, sha256(token));
      if (!row) return { kind: 'missing' };
      const now = clock.now();
      if (Date.parse(row.expires_at) <= now || row.work_status !== 1) {
        await repo.endSession(db, row.id);
        return { kind: 'expired' };
      }
      if (now - Date.parse(row.last_seen_at) > 60_000) await repo.touch(db, row.id, nowIso());
      return {
        kind: 'ok',
        context: { sessionId: row.id, personId: row.person_id, companyId: row.company_id, name: row.name, timeZone: row.time_zone, ip: '' },
      };
    },
  };

  return {
    lookup,
    profile: (p: PersonContext) => profile(p.companyId, p.personId),

    /** A code to the phone, after the captcha; numbers on nobody's record get the same answer but no SMS. */
    async sendCode(input: { phone: string; icode: string; captcha_id: string }): Promise<{ cooldown: number }> {
      if (!deps.sms) throw new AppError(CODES.UNAVAILABLE, 400, 'errors.smsUnavailable');
      if (!(await deps.captcha.verify(db, input.captcha_id, input.icode)))
        throw new AppError(CODES.CAPTCHA_REQUIRED, 400, 'errors.captchaIncorrect', {}, { captcha: true, field: 'icode' });
      const wait = await smsCodes.cooldown(db, input.phone, SMS_PURPOSE);
      if (wait > 0) throw new AppError(CODES.TOO_MANY, 429, 'errors.smsCooldown', { seconds: wait });
      const code = await smsCodes.issue(db, input.phone, SMS_PURPOSE);
      if ((await repo.byPhone(db, input.phone)).length) {
        try {
          await deps.sms.send(input.phone, SMS_PURPOSE, code);
        } catch {
          throw new AppError(CODES.UNAVAILABLE, 502, 'errors.smsFailed');
        }
      }
      return { cooldown: SMS_COOLDOWN_S };
    },
    async login(input: { phone: string; code: string; company_id?: number | undefined }): Promise<SelfSession> {
      if (!deps.sms) throw new AppError(CODES.UNAVAILABLE, 400, 'errors.smsUnavailable');
      // One answer for a wrong code and a phone on nobody's record (no enumeration of employees' numbers).
      const people = await repo.byPhone(db, input.phone);
      if (!(await smsCodes.verify(db, input.phone, SMS_PURPOSE, input.code)) || !people.length) throw badInput('errors.smsIncorrect', 'code');
      const chosen = input.company_id ? people.find((p) => p.company_id === input.company_id) : people[0];
      if (!chosen) throw badInput('errors.smsIncorrect', 'code');
      const token = await open(chosen.company_id, chosen.id);
      return { token, person: await profile(chosen.company_id, chosen.id, input.phone) };
    },
    async linkLogin(secret: string): Promise<SelfSession> {
      const at = nowIso();
      const link = await transaction(db, (trx) => repo.useLink(trx, sha256(secret), at));
      if (!link) throw badInput('errors.wfLinkInvalid', 'token');
      const person = await workflowRepository.person(db, link.company_id, link.person_id);
      if (!person || person.work_status !== 1) throw badInput('errors.wfLinkInvalid', 'token');
      const token = await open(link.company_id, link.person_id);
      return { token, person: await profile(link.company_id, link.person_id) };
    },
    /** An administrator linked to a person of the current company opens self-service as them (no SMS: one identity). */
    async fromAdmin(tenant: Tenant): Promise<SelfSession> {
      const person = await repo.personOfAdmin(db, tenant.companyId, tenant.adminId);
      if (!person) throw new AppError(CODES.NOT_FOUND, 404, 'errors.noLinkedPerson');
      const token = await open(tenant.companyId, person.id);
      return { token, person: await profile(tenant.companyId, person.id) };
    },
    async logout(p: PersonContext) {
      await repo.endSession(db, p.sessionId);
    },
    /** A one-time sign-in link for a person, made by an administrator (the secret is shown once, stored hashed). */
    async createLink(tenant: Tenant, personId: number) {
      return transaction(db, async (trx) => {
        const person = await workflowRepository.person(trx, tenant.companyId, personId);
        if (!person) throw notFound();
        if (person.work_status !== 1) throw invalid('person_id', 'reasons.wfPersonLeft');
        const token = newToken();
        const expires = isoIn(WORKFLOW_LIMITS.linkHours * 3600_000);
        await repo.insertLink(trx, {
          company_id: tenant.companyId,
          person_id: personId,
          token_hash: sha256(token),
          created_by: tenant.adminId,
          created_at: nowIso(),
          expires_at: expires,
        });
        await audit(trx, tenant, 'workflow', 'workflow.link', { id: personId, name: person.name });
        return { token, path: `/self?link=${token}`, expires_at: expires };
      });
    },
    purge: () => repo.purge(db, nowIso()),

    async inbox(p: PersonContext, lang: Language, f: { unreadOnly: boolean; offset: number; limit: number }) {
      const r = await repo.messages(db, p.companyId, p.personId, f);
      const items: SelfMessage[] = r.items.map((m) => {
        const params = parseJson<Record<string, string | number>>(m.params, {});
        if (!params.app) params.app = t(lang, `workflow.kinds.${String(params.kind ?? 'custom')}`);
        return {
          id: m.id,
          type: m.type,
          title: t(lang, `workflow.inbox.${m.type}.title`, params),
          content: t(lang, `workflow.inbox.${m.type}.content`, params),
          application_id: m.application_id,
          read: m.read_at !== null,
          created_at: m.created_at,
        };
      });
      return { items, total: r.total };
    },
    async read(p: PersonContext, ids: number[] | 'all') {
      await repo.markRead(db, p.companyId, p.personId, ids, nowIso());
      return repo.unread(db, p.companyId, p.personId);
    },
  };
}
export type SelfService = ReturnType<typeof selfService>;
