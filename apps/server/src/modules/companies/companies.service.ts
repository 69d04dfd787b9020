import { ALL_RIGHTS, type Company, type CompanyOptions } from '@faceadmin/shared';
import type { Static } from 'typebox';
import type { Database } from '../../db/database.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { nowIso } from '../../lib/time.ts';
import type { AuthContext, Tenant } from '../../plugins/auth.ts';
import { adminsRepository } from '../auth/admins.repository.ts';
import { audit } from '../logs/logs.service.ts';
import { membershipsRepository } from '../managers/memberships.repository.ts';
import { companiesRepository, type CompanyRow } from './companies.repository.ts';
import type { CompanyInput } from './companies.schemas.ts';

export const DEFAULT_OPTIONS: CompanyOptions = {
  iocount: 0,
  rfid: 0,
  idcard: 0,
  number: 1,
  alarmRing: 0,
  thirdParty: 0,
  parking: { enabled: 0, url: '', key: '' },
  dualAuth: 0,
  internalTesting: 0,
};
export const DEFAULT_FILTER_SECONDS = 60;

export function mergeOptions(base: CompanyOptions, patch: Static<typeof CompanyInput>['options']): CompanyOptions {
  return { ...base, ...(patch ?? {}), parking: { ...base.parking, ...(patch?.parking ?? {}) } };
}

export function optionsOf(row: CompanyRow): CompanyOptions {
  return mergeOptions(DEFAULT_OPTIONS, parseJson<Partial<CompanyOptions>>(row.options, {}));
}

export function presentCompany(row: CompanyRow): Company {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    phone: row.phone,
    location: row.location,
    filter_seconds: row.filter_seconds,
    options: optionsOf(row),
    created_at: row.created_at,
  };
}

type Input = Static<typeof CompanyInput>;

/** spec §5: name and phone are required; they are stored trimmed, so blank text counts as missing. */
function requireText(input: Input) {
  if (!input.name.trim()) throw invalid('name', 'reasons.required');
  if (!input.phone.trim()) throw invalid('phone', 'reasons.required');
}

export function companiesService(database: Database) {
  const { db } = database;
  return {
    /** Creates a company with the caller as its initial main administrator and switches to it. */
    async create(ctx: AuthContext, input: Input): Promise<Company> {
      requireText(input);
      return db.transaction().execute(async (trx) => {
        const now = nowIso();
        const id = await companiesRepository.insert(trx, {
          name: input.name.trim(),
          phone: input.phone.trim(),
          address: input.address?.trim() ?? '',
          location: input.location ?? '',
          filter_seconds: input.filter_seconds ?? DEFAULT_FILTER_SECONDS,
          options: JSON.stringify(mergeOptions(DEFAULT_OPTIONS, input.options)),
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
      return db.transaction().execute(async (trx) => {
        const row = await companiesRepository.find(trx, tenant.companyId);
        if (!row) throw notFound();
        await companiesRepository.update(trx, tenant.companyId, {
          name: input.name.trim(),
          phone: input.phone.trim(),
          address: input.address?.trim() ?? row.address,
          location: input.location ?? row.location,
          filter_seconds: input.filter_seconds ?? row.filter_seconds,
          options: JSON.stringify(mergeOptions(optionsOf(row), input.options)),
          updated_at: nowIso(),
        });
        await audit(trx, tenant, 'company', 'company.update', {
          id: tenant.companyId,
          name: input.name.trim(),
          ...(input.options ? { options: input.options } : {}),
        });
        return presentCompany((await companiesRepository.find(trx, tenant.companyId))!);
      });
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
