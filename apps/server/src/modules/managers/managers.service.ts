import {
  type AdminRole,
  ALL_RIGHTS,
  functionsFromRights,
  type Manager,
  type ManagerCreate,
  type ManagerStatus,
  type ManagerUpdate,
  RIGHT_KEYS,
  type RightKey,
  rightsFromFunctions,
  type RightValues,
} from '@faceadmin/shared';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { badInput, conflict, invalid, noAuthority, notFound } from '../../lib/errors.ts';
import { nowIso } from '../../lib/time.ts';
import { tenantFrom, type AuthContext, type Tenant } from '../../plugins/auth.ts';
import { adminsRepository } from '../auth/admins.repository.ts';
import type { SessionsService } from '../auth/sessions.service.ts';
import { companiesRepository } from '../companies/companies.repository.ts';
import { endStreams } from '../live/publish.ts';
import { audit } from '../logs/logs.service.ts';
import { notify } from '../messages/messages.service.ts';
import { managersRepository } from './managers.repository.ts';
import { membershipsRepository } from './memberships.repository.ts';
import { rightsOf, presentManager } from './managers.presenter.ts';
import { transaction } from '../../db/transaction.ts';

export function managersService(deps: { database: Database; config: Config; sessions: SessionsService }) {
  const { db } = deps.database;

  /** A sub-account may only hand out sub-accounts with rights it holds itself (no escalation). */
  function checkGrant(ctx: AuthContext, role: AdminRole, rights: RightValues) {
    if (ctx.role === 'main') return;
    if (role === 'main') throw noAuthority('errors.mainOnly');
    for (const k of Object.keys(rights) as RightKey[]) if (rights[k] > ctx.rights[k]) throw noAuthority();
  }

  return {
    async list(tenant: Tenant, f: { keyword?: string | undefined; status?: string | undefined; offset: number; limit: number }) {
      const r = await managersRepository.list(db, tenant.companyId, f);
      return { items: r.items.map(presentManager), total: r.total };
    },

    async create(ctx: AuthContext, input: ManagerCreate): Promise<Manager> {
      if (!input.name.trim()) throw invalid('name', 'reasons.required');
      if (input.password !== input.repassword) throw badInput('errors.passwordMismatch', 'repassword');
      const username = input.username.trim();
      const role: AdminRole = input.role ?? 'sub';
      const rights = role === 'main' ? ALL_RIGHTS : rightsFromFunctions(input.rights ?? []);
      checkGrant(ctx, role, rights);
      if (await adminsRepository.findByUsername(db, username)) throw conflict('errors.accountTaken', { username });
      const password_hash = await hashPassword(input.password, deps.config.scryptLog2N);
      const tenant = tenantFrom(ctx);
      return transaction(db, async (trx) => {
        const now = nowIso();
        const id = await adminsRepository.insert(trx, { username, name: input.name.trim(), mobile: input.mobile ?? '', password_hash, created_at: now });
        await adminsRepository.update(trx, id, { current_company_id: tenant.companyId });
        await membershipsRepository.insert(trx, tenant.companyId, {
          admin_id: id,
          role,
          is_init: 0,
          rights: JSON.stringify(rights),
          status: input.status ?? 'normal',
          created_at: now,
        });
        const company = await companiesRepository.find(trx, tenant.companyId);
        await notify(trx, tenant.companyId, id, 'welcome', { company: company?.name ?? '', admin: ctx.admin.name });
        await audit(trx, tenant, 'manager', 'manager.create', {
          id,
          name: input.name.trim(),
          username,
          role,
          status: input.status ?? 'normal',
          rights: input.rights ?? [],
        });
        return presentManager((await managersRepository.find(trx, tenant.companyId, id))!);
      });
    },

    async update(ctx: AuthContext, input: ManagerUpdate): Promise<Manager> {
      if (!input.name.trim()) throw invalid('name', 'reasons.required');
      const tenant = tenantFrom(ctx);
      const target = await managersRepository.find(db, tenant.companyId, input.id);
      if (!target) throw notFound();
      const self = target.id === ctx.admin.id;
      const role: AdminRole = input.role ?? (target.role as AdminRole);
      const status: ManagerStatus = input.status ?? (target.status as ManagerStatus);
      const before = rightsOf(target);
      const rights = role === 'main' ? ALL_RIGHTS : input.rights ? rightsFromFunctions(input.rights) : before;
      if (target.is_init && !self) throw noAuthority('errors.cannotChangeInit');
      if (self && (role !== target.role || status !== target.status || (input.rights && role === 'sub'))) throw badInput('errors.cannotChangeSelf', 'role');
      if (!self) checkGrant(ctx, role, rights);
      if (target.role === 'main' && ctx.role !== 'main') throw noAuthority('errors.mainOnly');
      const password = input.password ?? '';
      if (password && password !== input.repassword) throw badInput('errors.passwordMismatch', 'repassword');
      const password_hash = password ? await hashPassword(password, deps.config.scryptLog2N) : undefined;
      return transaction(db, async (trx) => {
        const now = nowIso();
        await adminsRepository.update(trx, target.id, {
          name: input.name.trim(),
          mobile: input.mobile ?? target.mobile,
          updated_at: now,
          ...(password_hash ? { password_hash } : {}),
        });
        await membershipsRepository.update(trx, tenant.companyId, target.id, { role, status, rights: JSON.stringify(rights) });
        // spec: sessions end when an administrator is disabled or their password is reset by someone else.
        if ((status === 'disabled' && target.status !== 'disabled') || (password_hash && !self)) await deps.sessions.endAllFor(trx, target.id);
        // issue #28: their open live streams in this company end with the change (reconnecting reads the new rights)
        else if (role !== target.role || status !== target.status || RIGHT_KEYS.some((k) => rights[k] !== before[k]))
          await endStreams(trx, { admin: target.id, company: tenant.companyId });
        await audit(trx, tenant, 'manager', 'manager.update', {
          id: target.id,
          name: input.name.trim(),
          username: target.username,
          role,
          status,
          rights: functionsFromRights(rights),
          passwordChanged: password_hash ? 1 : 0,
        });
        return presentManager((await managersRepository.find(trx, tenant.companyId, target.id))!);
      });
    },

    async remove(ctx: AuthContext, id: number) {
      const tenant = tenantFrom(ctx);
      const target = await managersRepository.find(db, tenant.companyId, id);
      if (!target) throw notFound();
      if (target.id === ctx.admin.id) throw badInput('errors.cannotDeleteSelf', 'id');
      if (target.is_init) throw noAuthority('errors.cannotChangeInit');
      if (target.role === 'main' && ctx.role !== 'main') throw noAuthority('errors.mainOnly');
      await transaction(db, async (trx) => {
        await membershipsRepository.delete(trx, tenant.companyId, target.id);
        // No longer of the company: no longer one of its people either (spec §7 bindAdmin).
        await trx.updateTable('persons').set({ admin_id: null }).where('company_id', '=', tenant.companyId).where('admin_id', '=', target.id).execute();
        // An account that belongs to no company any more is removed with its sessions (ended first: their streams too).
        await deps.sessions.endAllFor(trx, target.id);
        if ((await membershipsRepository.countForAdmin(trx, target.id)) === 0) await adminsRepository.delete(trx, target.id);
        await audit(trx, tenant, 'manager', 'manager.delete', { id: target.id, name: target.name, username: target.username });
      });
    },

    adminRight(ctx: AuthContext) {
      const { is_admin: _ignored, ...values } = ctx.rights;
      return { role: ctx.role ?? 'main', is_init: ctx.isInit ? 1 : 0, rights: ctx.rights, functions: functionsFromRights(values) };
    },

    async transferSearch(tenant: Tenant, keyword: string | undefined) {
      const r = await managersRepository.list(db, tenant.companyId, { keyword: keyword?.trim() || undefined, offset: 0, limit: 50 });
      const items = r.items.filter((m) => m.id !== tenant.adminId && m.status !== 'disabled').map((m) => ({ id: m.id, name: `${m.name} (${m.username})` }));
      return { items, total: items.length };
    },

    /** spec §2: hands the initial-administrator role to another administrator; cannot be undone. */
    async transfer(ctx: AuthContext, adminId: number) {
      const tenant = tenantFrom(ctx);
      if (adminId === ctx.admin.id) throw badInput('errors.transferTarget', 'admin_id');
      const target = await managersRepository.find(db, tenant.companyId, adminId);
      if (!target) throw notFound();
      if (target.status === 'disabled') throw badInput('errors.transferTarget', 'admin_id');
      await transaction(db, async (trx) => {
        await membershipsRepository.update(trx, tenant.companyId, ctx.admin.id, { is_init: 0 });
        await membershipsRepository.update(trx, tenant.companyId, target.id, { is_init: 1, role: 'main', rights: JSON.stringify(ALL_RIGHTS) });
        // the new main administrator's streams reconnect with their new rights (issue #28)
        await endStreams(trx, { admin: target.id, company: tenant.companyId });
        const company = await companiesRepository.find(trx, tenant.companyId);
        await notify(trx, tenant.companyId, null, 'transfer', { from: ctx.admin.name, to: target.name, company: company?.name ?? '' });
        await audit(trx, tenant, 'manager', 'manager.transfer', { id: target.id, name: target.name, username: target.username });
      });
    },
  };
}
export type ManagersService = ReturnType<typeof managersService>;
