import { ALL_RIGHTS, DEFAULT_TIME_ZONE, type Company, type CompanyInput } from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import { transactionalHook } from '../../lib/hooks.ts';
import { badInput, invalid, notFound } from '../../lib/errors.ts';
import type { OutboundGuard } from '../../lib/outbound.ts';
import { isTimeZone, nowIso } from '../../lib/time.ts';
import type { AuthContext, Tenant } from '../../plugins/auth.ts';
import { adminsRepository } from '../auth/admins.repository.ts';
import { audit } from '../logs/logs.service.ts';
import type { PeopleChangedHook } from '../persons/people-changed.ts';
import { personsRepository } from '../persons/persons.repository.ts';
import { membershipsRepository } from '../managers/memberships.repository.ts';
import { companiesRepository } from './companies.repository.ts';
import { auditedOptions, DEFAULT_FILTER_SECONDS, DEFAULT_OPTIONS, mergeOptions, optionsOf } from './companies.options.ts';
import { presentCompany } from './companies.presenter.ts';
import { transaction } from '../../db/transaction.ts';

type Input = CompanyInput;

/** spec §5: name and phone are required; they are stored trimmed, so blank text counts as missing. */
function requireText(input: Input) {
  if (!input.name.trim()) throw invalid('name', 'reasons.required');
  if (!input.phone.trim()) throw invalid('phone', 'reasons.required');
  if (input.time_zone !== undefined && !isTimeZone(input.time_zone)) throw invalid('time_zone', 'reasons.timeZone');
}

/** A company was created (in its transaction): features that give every company something to start with listen (approvals' built-in apps). */
export const companyCreatedHook = () => transactionalHook<Executor, { companyId: number }>();
export type CompanyCreatedHook = ReturnType<typeof companyCreatedHook>;

/**
 * The parking operator URL, when the input sets one other than the stored one: the outbound guard's check (issue #28),
 * as webhooks have it. A stored one is checked again at every push.
 */
async function checkParkingUrl(outbound: OutboundGuard, input: Input, before: string) {
  const url = input.options?.parking?.url;
  if (url === undefined || !url.trim() || url === before) return;
  await outbound.checkUrl(url, 'options.parking.url');
}

export function companiesService(
  database: Database,
  deps: { created?: CompanyCreatedHook; peopleChanged?: PeopleChangedHook | undefined; outbound: OutboundGuard },
) {
  const { db } = database;
  const { created = companyCreatedHook(), peopleChanged, outbound } = deps;
  return {
    /** Creates a company with the caller as its initial main administrator and switches to it. */
    async create(ctx: AuthContext, input: Input): Promise<Company> {
      requireText(input);
      await checkParkingUrl(outbound, input, '');
      return transaction(db, async (trx) => {
        const now = nowIso();
        const id = await companiesRepository.insert(trx, {
          name: input.name.trim(),
          phone: input.phone.trim(),
          address: input.address?.trim() ?? '',
          location: input.location ?? '',
          filter_seconds: input.filter_seconds ?? DEFAULT_FILTER_SECONDS,
          options: JSON.stringify(mergeOptions(DEFAULT_OPTIONS, input.options)),
          time_zone: input.time_zone ?? DEFAULT_TIME_ZONE,
          created_at: now,
        });
        await membershipsRepository.insert(trx, id, {
          admin_id: ctx.admin.id,
          role: 'main',
          is_init: 1,
          rights: JSON.stringify(ALL_RIGHTS),
          status: 'normal',
          created_at: now,
        });
        await adminsRepository.update(trx, ctx.admin.id, { current_company_id: id, updated_at: now });
        const tenant: Tenant = { companyId: id, adminId: ctx.admin.id, adminName: ctx.admin.name, ip: ctx.ip };
        await audit(trx, tenant, 'company', 'company.create', { id, name: input.name.trim() });
        await created.emit(trx, { companyId: id });
        return presentCompany((await companiesRepository.find(trx, id))!);
      });
    },
    async info(tenant: Tenant): Promise<Company> {
      const row = await companiesRepository.find(db, tenant.companyId);
      if (!row) throw notFound();
      return presentCompany(row);
    },
    async update(tenant: Tenant, input: Input): Promise<Company> {
      requireText(input);
      const stored = await companiesRepository.find(db, tenant.companyId);
      if (!stored) throw notFound();
      // before the transaction: the check may wait for a name to resolve
      await checkParkingUrl(outbound, input, optionsOf(stored).parking.url);
      return transaction(db, async (trx) => {
        const row = await companiesRepository.find(trx, tenant.companyId);
        if (!row) throw notFound();
        const before = optionsOf(row);
        const options = mergeOptions(before, input.options);
        await companiesRepository.update(trx, tenant.companyId, {
          name: input.name.trim(),
          phone: input.phone.trim(),
          address: input.address?.trim() ?? row.address,
          location: input.location ?? row.location,
          filter_seconds: input.filter_seconds ?? row.filter_seconds,
          options: JSON.stringify(options),
          time_zone: input.time_zone ?? row.time_zone,
          updated_at: nowIso(),
        });
        // spec §3 rfid: cards reach terminals only with the option on, so a switch re-plans every card holder.
        if (before.rfid !== options.rfid && peopleChanged) {
          const ids = await personsRepository.bumpCardHolders(trx, tenant.companyId);
          if (ids.length) await peopleChanged.emit(trx, { companyId: tenant.companyId, personIds: ids, kind: 'saved', terminalsOnly: true });
        }
        await audit(trx, tenant, 'company', 'company.update', {
          id: tenant.companyId,
          name: input.name.trim(),
          ...(input.options ? { options: auditedOptions(input.options) } : {}),
        });
        return presentCompany((await companiesRepository.find(trx, tenant.companyId))!);
      });
    },
    /** spec §6: pre-release features answer only while the company's internal-testing option is on. */
    async requireInternalTesting(tenant: Tenant) {
      const row = await companiesRepository.find(db, tenant.companyId);
      if (!row || optionsOf(row).internalTesting !== 1) throw badInput('errors.internalTestingOff');
    },
    async list(ctx: AuthContext) {
      const rows = await membershipsRepository.listForAdmin(db, ctx.admin.id);
      const items = rows
        .filter((r) => r.status !== 'disabled')
        .map((r) => ({ id: r.id, name: r.name, address: r.address, phone: r.phone, role: r.role, is_init: r.is_init, current: r.id === ctx.companyId }));
      return { items, total: items.length };
    },
    /** spec §2: switching company; only companies the administrator belongs to (others: not found). */
    async setDefault(ctx: AuthContext, companyId: number) {
      const m = await membershipsRepository.find(db, companyId, ctx.admin.id);
      if (!m || m.status === 'disabled') throw notFound();
      await adminsRepository.update(db, ctx.admin.id, { current_company_id: companyId, updated_at: nowIso() });
    },
  };
}
export type CompaniesService = ReturnType<typeof companiesService>;
