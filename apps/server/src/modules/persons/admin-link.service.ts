import { WORK_STATUS, type AdminBinding, type AdminBindings } from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { invalid, noAuthority, notFound } from '../../lib/errors.ts';
import type { AuthContext, Tenant } from '../../plugins/auth.ts';
import { audit } from '../logs/logs.service.ts';
import { membershipsRepository } from '../managers/memberships.repository.ts';
import { EMPLOYEE } from './persons.repository.ts';

/** The company's person ↔ administrator links, with names (one query). */
function links(db: Executor, companyId: number) {
  return db
    .selectFrom('persons as p')
    .innerJoin('admins as a', 'a.id', 'p.admin_id')
    .innerJoin('memberships as m', (j) => j.onRef('m.admin_id', '=', 'a.id').onRef('m.company_id', '=', 'p.company_id'))
    .select(['p.id as person_id', 'p.name as person_name', 'p.number as person_number', 'a.id as admin_id', 'a.name as admin_name', 'a.username'])
    .where('p.company_id', '=', companyId)
    .orderBy('p.id');
}

/**
 * One identity for a manager who is also an employee (spec §7 /person/bindAdmin, /person/fetchAdmin,
 * /person/unbind): a person of the company linked to one administrator account of the same company. The account
 * then opens the self-service page as that person without an SMS code (`/self/fromAdmin`). Linking someone else
 * is the main administrators' (a link lets an account read that person's inbox and approve their tasks);
 * anyone may unlink their own account.
 */
export function adminLinkService(deps: { database: Database }) {
  const { db } = deps.database;
  return {
    async bind(tenant: Tenant, personId: number, adminId: number): Promise<AdminBinding> {
      return transaction(db, async (trx) => {
        const person = await trx
          .selectFrom('persons')
          .select(['id', 'name', 'number', 'work_status', 'admin_id'])
          .where('company_id', '=', tenant.companyId)
          .where('id', '=', personId)
          // a visitor's hidden person is nobody's identity
          .where('kind', '=', EMPLOYEE)
          .executeTakeFirst();
        if (!person) throw notFound();
        const member = await membershipsRepository.find(trx, tenant.companyId, adminId);
        if (!member) throw notFound();
        if (person.work_status !== WORK_STATUS.working) throw invalid('person_id', 'reasons.wfPersonLeft');
        if (person.admin_id !== null && person.admin_id !== adminId) throw invalid('person_id', 'reasons.personLinked');
        const other = await trx
          .selectFrom('persons')
          .select(['id', 'name'])
          .where('company_id', '=', tenant.companyId)
          .where('admin_id', '=', adminId)
          .executeTakeFirst();
        if (other && other.id !== personId) throw invalid('admin_id', 'reasons.adminLinked', { name: other.name });
        await trx.updateTable('persons').set({ admin_id: adminId }).where('company_id', '=', tenant.companyId).where('id', '=', personId).execute();
        const row = (await links(trx, tenant.companyId).where('p.id', '=', personId).executeTakeFirst())!;
        if (person.admin_id !== adminId)
          await audit(trx, tenant, 'person', 'person.bindAdmin', { id: personId, number: row.person_number, name: row.person_name, username: row.username });
        return row;
      });
    },

    async fetch(tenant: Tenant, personId?: number): Promise<AdminBindings> {
      let q = links(db, tenant.companyId);
      if (personId) q = q.where('p.id', '=', personId);
      const items = await q.execute();
      const linked = new Set((await links(db, tenant.companyId).execute()).map((r) => r.admin_id));
      const members = await db
        .selectFrom('memberships as m')
        .innerJoin('admins as a', 'a.id', 'm.admin_id')
        .select(['a.id', 'a.name', 'a.username'])
        .where('m.company_id', '=', tenant.companyId)
        .where('m.status', '!=', 'disabled')
        .orderBy('a.id')
        .execute();
      return { items, candidates: members.filter((m) => !linked.has(m.id)) };
    },

    /** Without a person: the caller's own link in the company; with one: a main administrator unlinks that person. */
    async unbind(ctx: AuthContext, tenant: Tenant, companyId: number, personId?: number): Promise<number> {
      if (companyId !== tenant.companyId) throw notFound();
      if (personId !== undefined && ctx.role !== 'main') throw noAuthority('errors.mainOnly');
      return transaction(db, async (trx) => {
        let q = links(trx, tenant.companyId);
        q = personId !== undefined ? q.where('p.id', '=', personId) : q.where('p.admin_id', '=', ctx.admin.id);
        const row = await q.executeTakeFirst();
        if (!row) {
          if (personId !== undefined) throw notFound();
          return 0;
        }
        await trx.updateTable('persons').set({ admin_id: null }).where('company_id', '=', tenant.companyId).where('id', '=', row.person_id).execute();
        await audit(trx, tenant, 'person', 'person.unbindAdmin', {
          id: row.person_id,
          number: row.person_number,
          name: row.person_name,
          username: row.username,
        });
        return 1;
      });
    },
  };
}
export type AdminLinkService = ReturnType<typeof adminLinkService>;
