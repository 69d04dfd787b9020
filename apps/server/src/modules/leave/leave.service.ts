import {
  DEFAULT_TIME_ZONE,
  LEAVE_LIMITS,
  LANGUAGES,
  LEAVE_QUOTA_MODES,
  type Language,
  type LeaveBalance,
  type LeaveBalanceExport,
  type LeaveBalanceQuery,
  type ImportReport,
  type LeavePolicies,
  type LeavePolicy,
  type SetLeaveBalance,
} from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { t } from '../../i18n/i18n.ts';
import { badInput, invalid, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { clock, nowIso } from '../../lib/time.ts';
import { likeKeyword } from '../../lib/schemas.ts';
import { cellText, excel, pages, xlsxStream } from '../../lib/xlsx.ts';
import { checkXlsx } from '../../lib/zip.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { workingDuration } from '../attendance/approval-absences.ts';
import { localDate } from '../attendance/recompute.service.ts';
import { departmentsOf } from '../attendance/results.repository.ts';
import { audit } from '../logs/logs.service.ts';
import { labelOf } from '../workflow/process.ts';
import { formOf } from '../workflow/workflow.presenter.ts';
import { balanceOf, carryExpiry, ruleQuota } from './leave.logic.ts';

/** A leave type without a saved rule: not tracked (no balance, no refusal) unless someone has a quota for it. */
const DEFAULT_POLICY: Omit<LeavePolicy, 'leave_type'> = {
  tracked: false,
  allow_negative: false,
  mode: 'manual',
  days: 0,
  tiers: [],
  accrual: 'year',
  carry_max: 0,
  carry_months: 0,
};

async function zoneOf(ex: Executor, companyId: number) {
  return (await ex.selectFrom('companies').select('time_zone').where('id', '=', companyId).executeTakeFirst())?.time_zone ?? DEFAULT_TIME_ZONE;
}
const todayIn = (zone: string) => localDate(clock.now(), zone);

/** The leave types of the company's leave form (value and label in the reader's language). */
async function leaveTypes(ex: Executor, companyId: number, lang: Language): Promise<{ value: string; label: string }[]> {
  const app = await ex
    .selectFrom('workflow_apps')
    .select(['id', 'form_version'])
    .where('company_id', '=', companyId)
    .where('kind', '=', 'leave')
    .where('builtin', '=', 1)
    .executeTakeFirst();
  if (!app) return [];
  const row = await ex
    .selectFrom('workflow_forms')
    .select('body')
    .where('company_id', '=', companyId)
    .where('app_id', '=', app.id)
    .where('version', '=', app.form_version)
    .executeTakeFirst();
  const field = formOf(row?.body).fields.find((f) => f.key === 'leave_type');
  return (field?.options ?? []).map((o) => ({ value: o.value, label: labelOf(o.label, lang, o.value) }));
}

async function policiesOf(ex: Executor, companyId: number): Promise<Map<string, LeavePolicy>> {
  const rows = await ex.selectFrom('leave_policies').selectAll().where('company_id', '=', companyId).execute();
  return new Map(
    rows.map((r) => [
      r.leave_type,
      {
        leave_type: r.leave_type,
        tracked: r.tracked === 1,
        allow_negative: r.allow_negative === 1,
        mode: (LEAVE_QUOTA_MODES as readonly string[]).includes(r.mode) ? (r.mode as LeavePolicy['mode']) : 'manual',
        days: Number(r.days),
        tiers: parseJson<LeavePolicy['tiers']>(r.tiers, []),
        accrual: r.accrual === 'month' ? 'month' : 'year',
        carry_max: Number(r.carry_max),
        carry_months: r.carry_months,
      },
    ]),
  );
}
const policyFor = (policies: Map<string, LeavePolicy>, type: string): LeavePolicy => policies.get(type) ?? { leave_type: type, ...DEFAULT_POLICY };

interface Who {
  id: number;
  number: string;
  name: string;
  joined_on: string | null;
  /** the person's departments by name, joined with ', ' */
  department: string;
}

/** The people with their departments by name (the report's department column). */
async function withDepartments<P extends Omit<Who, 'department'>>(ex: Executor, people: P[]): Promise<(P & { department: string })[]> {
  const names = await departmentsOf(
    ex,
    people.map((p) => p.id),
  );
  return people.map((p) => ({ ...p, department: names.get(p.id) ?? '' }));
}

/**
 * The balances of people for leave types in a year, read in a few queries: null for a type that is not tracked
 * for the person (no rule and no quota set).
 */
async function balances(
  ex: Executor,
  companyId: number,
  lang: Language,
  people: Who[],
  types: string[],
  year: number,
  opts: { except?: number } = {},
): Promise<Map<string, LeaveBalance | null>> {
  const out = new Map<string, LeaveBalance | null>();
  if (!people.length || !types.length) return out;
  const ids = people.map((p) => p.id);
  const zone = await zoneOf(ex, companyId);
  const today = todayIn(zone);
  const policies = await policiesOf(ex, companyId);
  const labels = new Map((await leaveTypes(ex, companyId, lang)).map((x) => [x.value, x.label]));
  const quotas = await ex
    .selectFrom('leave_quotas')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('person_id', 'in', ids)
    .where('leave_type', 'in', types)
    .where('year', 'in', [year - 1, year])
    .execute();
  const quotaOf = new Map(quotas.map((q) => [`${q.person_id}:${q.leave_type}:${q.year}`, q]));
  let ledgerQuery = ex
    .selectFrom('leave_ledger')
    .select(['person_id', 'leave_type', 'year', 'date', 'days'])
    .where('company_id', '=', companyId)
    .where('person_id', 'in', ids)
    .where('leave_type', 'in', types)
    .where('year', 'in', [year - 1, year])
    .where('returned_at', 'is', null);
  if (opts.except) ledgerQuery = ledgerQuery.where('application_id', '!=', opts.except);
  const ledger = await ledgerQuery.execute();
  const usedOf = new Map<string, { days: number; date: string }[]>();
  for (const l of ledger) {
    const key = `${l.person_id}:${l.leave_type}:${l.year}`;
    (usedOf.get(key) ?? usedOf.set(key, []).get(key)!).push({ days: Number(l.days), date: l.date });
  }
  const pendingRows = await ex
    .selectFrom('workflow_applications')
    .select(['id', 'person_id', 'leave_type', 'period_from', 'duration_days'])
    .where('company_id', '=', companyId)
    .where('status', '=', 0)
    .where('person_id', 'in', ids)
    .where('leave_type', 'in', types)
    .execute();
  const pendingOf = new Map<string, number>();
  for (const p of pendingRows) {
    if (!p.period_from || p.id === opts.except || Number(localDate(Date.parse(p.period_from), zone).slice(0, 4)) !== year) continue;
    const key = `${p.person_id}:${p.leave_type}`;
    pendingOf.set(key, (pendingOf.get(key) ?? 0) + Number(p.duration_days ?? 0));
  }
  for (const person of people)
    for (const type of types) {
      const policy = policyFor(policies, type);
      const row = quotaOf.get(`${person.id}:${type}:${year}`);
      if (!policy.tracked && !row) {
        out.set(`${person.id}:${type}`, null);
        continue;
      }
      const annual = row ? Number(row.quota) : ruleQuota(policy, person.joined_on, year);
      let carried = 0;
      if (row && row.carried !== null) carried = Number(row.carried);
      else if (policy.carry_max > 0) {
        // What was left of the year before (its own quota less its approved leave), up to the cap.
        const prev = quotaOf.get(`${person.id}:${type}:${year - 1}`);
        const prevQuota = prev ? Number(prev.quota) : ruleQuota(policy, person.joined_on, year - 1);
        const prevUsed = (usedOf.get(`${person.id}:${type}:${year - 1}`) ?? []).reduce((s, u) => s + u.days, 0);
        carried = Math.max(0, Math.min(policy.carry_max, prevQuota - prevUsed));
      }
      const carryExpires = carried > 0 ? carryExpiry(year, policy.carry_months) : null;
      const b = balanceOf({
        annual,
        accrual: policy.accrual,
        year,
        today,
        carried,
        carryExpires,
        used: usedOf.get(`${person.id}:${type}:${year}`) ?? [],
        pending: pendingOf.get(`${person.id}:${type}`) ?? 0,
      });
      out.set(`${person.id}:${type}`, {
        person_id: person.id,
        number: person.number,
        name: person.name,
        department: person.department,
        leave_type: type,
        label: labels.get(type) ?? type,
        year,
        ...b,
        source: row ? (row.source === 'import' ? 'import' : 'manual') : 'rule',
        carry_expires: carryExpires,
        allow_negative: policy.allow_negative,
      });
    }
  return out;
}

async function whoOf(ex: Executor, companyId: number, personId: number): Promise<Who | undefined> {
  const who = await ex
    .selectFrom('persons')
    .select(['id', 'number', 'name', 'joined_on'])
    .where('company_id', '=', companyId)
    .where('id', '=', personId)
    .executeTakeFirst();
  return who && (await withDepartments(ex, [who]))[0];
}

/** The application's leave: type, year, first day, in the company's zone. */
async function leaveOf(ex: Executor, companyId: number, a: { leave_type: string | null; period_from: string | null }) {
  if (!a.leave_type || !a.period_from) return null;
  const date = localDate(Date.parse(a.period_from), await zoneOf(ex, companyId));
  return { type: a.leave_type, date, year: Number(date.slice(0, 4)) };
}

const fmt = (d: number) => String(Math.round(d * 100) / 100);
const short = (b: LeaveBalance, available: number, days: number) =>
  badInput('errors.leaveBalanceShort', 'leave_type', { type: b.label, balance: fmt(available), days: fmt(days) });

type LedgerApplication = {
  id: number;
  person_id: number;
  leave_type: string | null;
  period_from: string | null;
  period_to: string | null;
  duration_days: number | null;
};

/**
 * At application: refused when the balance less what is already pending (this application included) would go
 * below zero, unless the leave type allows it.
 */
export async function leaveOnApply(trx: Executor, lang: Language, companyId: number, a: LedgerApplication) {
  const leave = await leaveOf(trx, companyId, a);
  const who = leave && (await whoOf(trx, companyId, a.person_id));
  if (!leave || !who) return;
  const b = (await balances(trx, companyId, lang, [who], [leave.type], leave.year)).get(`${who.id}:${leave.type}`);
  if (!b || b.allow_negative) return;
  const days = Number(a.duration_days ?? 0);
  if (b.remaining - b.pending < 0) throw short(b, b.remaining - (b.pending - days), days);
}

/**
 * On final approval, in the approver's transaction: the leave's working time (the person's rule, shifts and
 * holidays) is deducted once — the ledger row is keyed by the application — or refused below zero.
 */
export async function leaveOnApproved(trx: Executor, lang: Language, companyId: number, a: LedgerApplication) {
  const leave = await leaveOf(trx, companyId, a);
  const who = leave && (await whoOf(trx, companyId, a.person_id));
  if (!leave || !who || !a.period_to) return;
  if (await trx.selectFrom('leave_ledger').select('id').where('application_id', '=', a.id).executeTakeFirst()) return;
  const b = (await balances(trx, companyId, lang, [who], [leave.type], leave.year, { except: a.id })).get(`${who.id}:${leave.type}`);
  if (!b) return;
  const d = await workingDuration(trx, companyId, a.person_id, Date.parse(a.period_from!), Date.parse(a.period_to));
  if (!b.allow_negative && b.remaining - d.days < 0) throw short(b, b.remaining, d.days);
  await trx
    .insertInto('leave_ledger')
    .values({
      company_id: companyId,
      person_id: a.person_id,
      application_id: a.id,
      leave_type: leave.type,
      year: leave.year,
      date: leave.date,
      days: d.days,
      minutes: Math.round(d.hours * 60),
      created_at: nowIso(),
      returned_at: null,
    })
    .onConflict((oc) => oc.column('application_id').doNothing())
    .execute();
}

/** Withdrawn or cancelled: the deducted days come back (the ledger row stays, marked returned). */
export async function leaveOnWithdrawn(trx: Executor, companyId: number, applicationId: number) {
  await trx
    .updateTable('leave_ledger')
    .set({ returned_at: nowIso() })
    .where('company_id', '=', companyId)
    .where('application_id', '=', applicationId)
    .where('returned_at', 'is', null)
    .execute();
}

/** The applicant's balance of the application's leave type and year (for the approver), null when not tracked. */
export async function leaveBalanceOfApplication(
  ex: Executor,
  companyId: number,
  lang: Language,
  a: { person_id: number; leave_type: string | null; period_from: string | null },
): Promise<LeaveBalance | null> {
  const leave = await leaveOf(ex, companyId, a);
  const who = leave && (await whoOf(ex, companyId, a.person_id));
  if (!leave || !who) return null;
  return (await balances(ex, companyId, lang, [who], [leave.type], leave.year)).get(`${who.id}:${leave.type}`) ?? null;
}

const COLUMNS = ['number', 'name', 'department', 'leave_type', 'year', 'quota', 'carried', 'used', 'pending', 'remaining'] as const;
const IMPORT_COLUMNS = ['number', 'leave_type', 'year', 'quota', 'carried'] as const;
const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, '');

/** Days go by halves: anything else is refused naming the field. */
function halfDays(fields: Record<string, number | null | undefined>) {
  for (const [field, v] of Object.entries(fields)) if (typeof v === 'number' && !Number.isInteger(v * 2)) throw invalid(field, 'reasons.leaveDays');
}

/** Leave balances for the console: the report, quotas by hand and import, the export, the rule per leave type. */
export function leaveService(database: Database) {
  const { db } = database;

  /** People on the job, by keyword and department (with the ones below it), ordered by number. */
  async function peoplePage(companyId: number, q: { keyword?: string | undefined; department_id?: number | undefined }, offset: number, limit: number) {
    let base = db.selectFrom('persons').where('company_id', '=', companyId).where('work_status', '=', 1).where('kind', '=', 'employee');
    const keyword = q.keyword?.trim();
    // the people list's search text (name, number, phone; lower-cased), wildcards taken literally
    if (keyword) base = base.where('search', 'like', likeKeyword(keyword));
    if (q.department_id) {
      const deps = await db.selectFrom('departments').select(['id', 'parent_id']).where('company_id', '=', companyId).execute();
      if (!deps.some((d) => d.id === q.department_id)) throw notFound();
      const within = new Set([q.department_id]);
      for (let grew = true; grew;) {
        grew = false;
        for (const d of deps) if (!within.has(d.id) && within.has(d.parent_id)) grew = within.add(d.id).size > 0;
      }
      const ids = [...within];
      base = base.where('id', 'in', (eb) => eb.selectFrom('person_departments').select('person_id').where('department_id', 'in', ids));
    }
    const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    const items = await base.select(['id', 'number', 'name', 'joined_on']).orderBy('number').orderBy('id').offset(offset).limit(limit).execute();
    return { items: await withDepartments(db, items), total };
  }

  /** The tracked types: a rule says so, or someone has a quota for the year. */
  async function trackedTypes(companyId: number, lang: Language, year: number) {
    const policies = await policiesOf(db, companyId);
    const withQuota = new Set(
      (await db.selectFrom('leave_quotas').select('leave_type').distinct().where('company_id', '=', companyId).where('year', '=', year).execute()).map(
        (r) => r.leave_type,
      ),
    );
    return (await leaveTypes(db, companyId, lang)).filter((x) => policies.get(x.value)?.tracked || withQuota.has(x.value));
  }

  async function policies(companyId: number, lang: Language): Promise<LeavePolicies> {
    const saved = await policiesOf(db, companyId);
    return { items: (await leaveTypes(db, companyId, lang)).map((x) => ({ ...policyFor(saved, x.value), label: x.label })) };
  }

  async function checkType(ex: Executor, companyId: number, lang: Language, type: string) {
    if (!(await leaveTypes(ex, companyId, lang)).some((x) => x.value === type)) throw badInput('errors.leaveTypeUnknown', 'leave_type', { type });
  }

  async function upsertQuota(
    ex: Executor,
    companyId: number,
    personId: number,
    type: string,
    year: number,
    quota: number,
    carried: number | null,
    source: string,
  ) {
    const at = nowIso();
    await ex
      .insertInto('leave_quotas')
      .values({ company_id: companyId, person_id: personId, leave_type: type, year, quota, carried, source, updated_at: at })
      .onConflict((oc) => oc.columns(['company_id', 'person_id', 'leave_type', 'year']).doUpdateSet({ quota, carried, source, updated_at: at }))
      .execute();
  }

  return {
    policies,

    async savePolicy(tenant: Tenant, lang: Language, body: LeavePolicy): Promise<LeavePolicies> {
      halfDays({ days: body.days, carry_max: body.carry_max });
      for (const tier of body.tiers) halfDays({ tiers: tier.days });
      const years = body.tiers.map((x) => x.years);
      if (new Set(years).size !== years.length) throw badInput('errors.leaveTiersTwice', 'tiers');
      await transaction(db, async (trx) => {
        await checkType(trx, tenant.companyId, lang, body.leave_type);
        const row = {
          tracked: body.tracked ? 1 : 0,
          allow_negative: body.allow_negative ? 1 : 0,
          mode: body.mode,
          days: body.days,
          tiers: JSON.stringify([...body.tiers].sort((a, b) => a.years - b.years)),
          accrual: body.accrual,
          carry_max: body.carry_max,
          carry_months: body.carry_months,
          updated_at: nowIso(),
        };
        await trx
          .insertInto('leave_policies')
          .values({ company_id: tenant.companyId, leave_type: body.leave_type, ...row })
          .onConflict((oc) => oc.columns(['company_id', 'leave_type']).doUpdateSet(row))
          .execute();
        const label = (await leaveTypes(trx, tenant.companyId, lang)).find((x) => x.value === body.leave_type)?.label ?? body.leave_type;
        await audit(trx, tenant, 'attendance', 'attendance.balance.policy', { type: label });
      });
      return policies(tenant.companyId, lang);
    },

    async list(tenant: Tenant, lang: Language, q: LeaveBalanceQuery) {
      const page = q.page ?? 1;
      const pageSize = q.pageSize ?? 20;
      await checkType(db, tenant.companyId, lang, q.leave_type);
      const people = await peoplePage(tenant.companyId, q, (page - 1) * pageSize, pageSize);
      const map = await balances(db, tenant.companyId, lang, people.items, [q.leave_type], q.year);
      const label = (await leaveTypes(db, tenant.companyId, lang)).find((x) => x.value === q.leave_type)?.label ?? q.leave_type;
      // An untracked type still lists everyone (a quota may be set for them): zeros, from the rule.
      const items = people.items.map(
        (p): LeaveBalance =>
          map.get(`${p.id}:${q.leave_type}`) ?? {
            person_id: p.id,
            number: p.number,
            name: p.name,
            department: p.department,
            leave_type: q.leave_type,
            label,
            year: q.year,
            quota: 0,
            annual: 0,
            source: 'rule',
            carried: 0,
            carry_expires: null,
            used: 0,
            pending: 0,
            remaining: 0,
            allow_negative: true,
          },
      );
      return { items, total: people.total, page, pageSize };
    },

    async set(tenant: Tenant, lang: Language, body: SetLeaveBalance): Promise<LeaveBalance> {
      const companyId = tenant.companyId;
      halfDays({ quota: body.quota, carried: body.carried });
      await transaction(db, async (trx) => {
        const who = await whoOf(trx, companyId, body.person_id);
        if (!who) throw notFound();
        await checkType(trx, companyId, lang, body.leave_type);
        if (body.quota === null)
          await trx
            .deleteFrom('leave_quotas')
            .where('company_id', '=', companyId)
            .where('person_id', '=', who.id)
            .where('leave_type', '=', body.leave_type)
            .where('year', '=', body.year)
            .execute();
        else await upsertQuota(trx, companyId, who.id, body.leave_type, body.year, body.quota, body.carried ?? null, 'manual');
        await audit(trx, tenant, 'attendance', 'attendance.balance.set', {
          name: who.name,
          type: body.leave_type,
          year: body.year,
          quota: body.quota === null ? '—' : fmt(body.quota),
        });
      });
      const who = (await whoOf(db, companyId, body.person_id))!;
      const b = (await balances(db, companyId, lang, [who], [body.leave_type], body.year)).get(`${who.id}:${body.leave_type}`);
      return (
        b ?? {
          person_id: who.id,
          number: who.number,
          name: who.name,
          department: who.department,
          leave_type: body.leave_type,
          label: body.leave_type,
          year: body.year,
          quota: 0,
          annual: 0,
          source: 'rule',
          carried: 0,
          carry_expires: null,
          used: 0,
          pending: 0,
          remaining: 0,
          allow_negative: true,
        }
      );
    },

    /**
     * Quotas from a sheet: columns number, leave type (value or label), year, quota, carried (optional), headers in
     * any of the four languages. Every row is checked first; nothing is saved when a row is wrong.
     */
    async importXlsx(tenant: Tenant, lang: Language, data: Buffer): Promise<ImportReport> {
      const companyId = tenant.companyId;
      await checkXlsx(data, 'file');
      const wb = new (await excel()).Workbook();
      try {
        await wb.xlsx.load(data as unknown as ArrayBuffer);
      } catch {
        throw badInput('errors.xlsxCorrupt', 'file');
      }
      const ws = wb.worksheets[0];
      if (!ws || ws.rowCount < 2) throw badInput('errors.xlsxEmpty', 'file');
      const names = new Map<string, (typeof IMPORT_COLUMNS)[number]>();
      for (const l of LANGUAGES)
        for (const c of IMPORT_COLUMNS) {
          names.set(norm(t(l, `leave.columns.${c}`)), c);
          names.set(norm(c), c);
        }
      const at = new Map<(typeof IMPORT_COLUMNS)[number], number>();
      ws.getRow(1).eachCell((cell, col) => {
        const c = names.get(norm(cellText(cell.value)));
        if (c && !at.has(c)) at.set(c, col);
      });
      const missing = (['number', 'leave_type', 'year', 'quota'] as const).filter((c) => !at.has(c));
      if (missing.length) throw badInput('errors.xlsxColumns', 'file', { columns: missing.map((c) => t(lang, `leave.columns.${c}`)).join(', ') });
      const types = await leaveTypes(db, companyId, lang);
      const typeOf = new Map<string, string>();
      for (const l of LANGUAGES) for (const x of await leaveTypes(db, companyId, l)) typeOf.set(norm(x.label), x.value);
      for (const x of types) typeOf.set(norm(x.value), x.value);
      const people = new Map(
        (await db.selectFrom('persons').select(['id', 'number']).where('company_id', '=', companyId).execute()).map((p) => [p.number, p.id]),
      );
      const errors: ImportReport['errors'] = [];
      const rows: { personId: number; type: string; year: number; quota: number; carried: number | null }[] = [];
      let total = 0;
      const days = (s: string) => {
        const n = Number(s);
        return s !== '' && Number.isFinite(n) && n >= 0 && n <= LEAVE_LIMITS.daysMax && Number.isInteger(n * 2) ? n : null;
      };
      ws.eachRow((row, r) => {
        if (r === 1) return;
        const v = (c: (typeof IMPORT_COLUMNS)[number]) => (at.has(c) ? cellText(row.getCell(at.get(c)!).value) : '');
        if (IMPORT_COLUMNS.every((c) => !v(c))) return;
        total++;
        const bad = (c: (typeof IMPORT_COLUMNS)[number], reason: string) =>
          errors.push({ row: r, field: t(lang, `leave.columns.${c}`), reason: t(lang, reason) });
        const personId = people.get(v('number'));
        const type = typeOf.get(norm(v('leave_type')));
        const year = Number(v('year'));
        const quota = days(v('quota'));
        const carried = v('carried') === '' ? null : days(v('carried'));
        if (!personId) return bad('number', 'reasons.leaveUnknownPerson');
        if (!type) return bad('leave_type', 'reasons.leaveUnknownType');
        if (!Number.isInteger(year) || year < LEAVE_LIMITS.yearMin || year > LEAVE_LIMITS.yearMax) return bad('year', 'reasons.invalid');
        if (quota === null) return bad('quota', 'reasons.leaveDays');
        if (v('carried') !== '' && carried === null) return bad('carried', 'reasons.leaveDays');
        rows.push({ personId, type, year, quota, carried });
      });
      const failed = new Set(errors.map((e) => e.row)).size;
      if (errors.length) return { total, created: 0, updated: 0, failed, written: false, errors };
      let created = 0;
      await transaction(db, async (trx) => {
        const existing = new Set(
          (await trx.selectFrom('leave_quotas').select(['person_id', 'leave_type', 'year']).where('company_id', '=', companyId).execute()).map(
            (q) => `${q.person_id}:${q.leave_type}:${q.year}`,
          ),
        );
        for (const r of rows) {
          const key = `${r.personId}:${r.type}:${r.year}`;
          if (!existing.has(key)) created++;
          existing.add(key);
          await upsertQuota(trx, companyId, r.personId, r.type, r.year, r.quota, r.carried, 'import');
        }
        await audit(trx, tenant, 'attendance', 'attendance.balance.import', { count: rows.length });
      });
      return { total, created, updated: rows.length - created, failed: 0, written: true, errors };
    },

    /** The report as a sheet, streamed: per person × tracked leave type (or the one chosen). */
    async exportXlsx(tenant: Tenant, lang: Language, q: LeaveBalanceExport) {
      const companyId = tenant.companyId;
      if (q.leave_type) await checkType(db, companyId, lang, q.leave_type);
      const tracked = await trackedTypes(companyId, lang, q.year);
      const types = q.leave_type ? [q.leave_type] : tracked.map((x) => x.value);
      const columns = COLUMNS.map((c) => ({
        key: c,
        header: t(lang, `leave.columns.${c}`),
        width: c === 'name' || c === 'leave_type' || c === 'department' ? 20 : 12,
      }));
      const batches = pages(async (offset, limit) => {
        const people = await peoplePage(companyId, q, offset, limit);
        const map = await balances(db, companyId, lang, people.items, types, q.year);
        return people.items.map((p) => types.map((type) => map.get(`${p.id}:${type}`)).filter((b): b is LeaveBalance => Boolean(b)));
      }, 500);
      async function* rows() {
        for await (const batch of batches) yield batch.flat().map((b) => ({ ...b, leave_type: b.label }));
      }
      return xlsxStream(t(lang, 'leave.sheet'), columns, rows());
    },

    /** A person's own balances (self-service): the tracked types of the year, default this year in the company's zone. */
    async mine(companyId: number, personId: number, lang: Language, year?: number) {
      const zone = await zoneOf(db, companyId);
      const y = year ?? Number(todayIn(zone).slice(0, 4));
      const who = await whoOf(db, companyId, personId);
      if (!who) throw notFound();
      const types = (await leaveTypes(db, companyId, lang)).map((x) => x.value);
      const map = await balances(db, companyId, lang, [who], types, y);
      return { year: y, items: types.map((x) => map.get(`${who.id}:${x}`)).filter((b): b is LeaveBalance => Boolean(b)) };
    },
  };
}
export type LeaveService = ReturnType<typeof leaveService>;
