import type { DepartmentCreate, DepartmentNode, DepartmentUpdate } from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import { badInput, conflict, invalid, notFound } from '../../lib/errors.ts';
import { nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { audit } from '../logs/logs.service.ts';
import { departmentsRepository, type DepartmentRow } from './departments.repository.ts';
import { transaction } from '../../db/transaction.ts';

export type TreeNode = DepartmentNode;

/** Ids of a department and everything below it. */
export function descendantsOf(rows: Pick<DepartmentRow, 'id' | 'parent_id'>[], id: number): Set<number> {
  const children = new Map<number, number[]>();
  for (const r of rows) children.set(r.parent_id, [...(children.get(r.parent_id) ?? []), r.id]);
  const out = new Set<number>([id]);
  const stack = [id];
  while (stack.length) {
    for (const c of children.get(stack.pop()!) ?? []) {
      if (out.has(c)) continue;
      out.add(c);
      stack.push(c);
    }
  }
  return out;
}

/**
 * A list's department filter: the department and every department below it (as the people list, the day results and
 * the month report filter), the department alone when `below` is false, undefined without one.
 */
export async function departmentFilter(db: Executor, companyId: number, id: number | undefined, below = true): Promise<number[] | undefined> {
  if (!id) return undefined;
  return below ? [...descendantsOf(await departmentsRepository.all(db, companyId), id)] : [id];
}

/** "HQ/R&D/Web" for every department (imports read these paths, exports write them). */
export function departmentPaths(rows: Pick<DepartmentRow, 'id' | 'parent_id' | 'name'>[]): Map<number, string> {
  const byId = new Map(rows.map((d) => [d.id, d]));
  const out = new Map<number, string>();
  for (const r of rows) {
    const parts: string[] = [];
    // The guard stops at 100 levels: a damaged parent chain can never loop forever.
    for (let d: typeof r | undefined = r, g = 0; d && g < 100; d = byId.get(d.parent_id), g++) parts.unshift(d.name);
    out.set(r.id, parts.join('/'));
  }
  return out;
}

export function buildTree(rows: DepartmentRow[], counts: Map<number, number>, heads: { department_id: number; id: number; name: string }[]): TreeNode[] {
  const nodes = new Map<number, TreeNode>(
    rows.map((r) => [
      r.id,
      { id: r.id, name: r.name, parent_id: r.parent_id, sort: r.sort, persons: counts.get(r.id) ?? 0, total: 0, incharges: [], children: [] },
    ]),
  );
  for (const h of heads) nodes.get(h.department_id)?.incharges.push({ id: h.id, name: h.name });
  const roots: TreeNode[] = [];
  for (const r of rows) {
    const n = nodes.get(r.id)!;
    const parent = nodes.get(r.parent_id);
    (parent ? parent.children : roots).push(n);
  }
  const sum = (n: TreeNode): number => (n.total = n.persons + n.children.reduce((s, c) => s + sum(c), 0));
  roots.forEach(sum);
  return roots;
}

export function departmentsService(database: Database) {
  const { db } = database;

  async function checkHeads(trx: Executor, companyId: number, ids: number[]) {
    if (!ids.length) return;
    const found = await trx.selectFrom('persons').select('id').where('company_id', '=', companyId).where('id', 'in', ids).execute();
    if (found.length !== ids.length) throw invalid('incharges');
  }

  async function checkSiblingName(trx: Executor, companyId: number, parentId: number, name: string, selfId?: number) {
    const rows = await departmentsRepository.all(trx, companyId);
    if (rows.some((r) => r.parent_id === parentId && r.name === name && r.id !== selfId)) throw conflict('errors.deptNameTaken', { name });
    return rows;
  }

  return {
    async tree(tenant: Tenant): Promise<TreeNode[]> {
      const [rows, counts, heads] = await Promise.all([
        departmentsRepository.all(db, tenant.companyId),
        departmentsRepository.memberCounts(db, tenant.companyId),
        departmentsRepository.heads(db, tenant.companyId),
      ]);
      return buildTree(rows, counts, heads);
    },

    async create(tenant: Tenant, input: DepartmentCreate): Promise<{ id: number }> {
      const name = input.name.trim();
      if (!name) throw invalid('name', 'reasons.required');
      const parentId = input.parent_id ?? 0;
      return transaction(db, async (trx) => {
        if (parentId && !(await departmentsRepository.find(trx, tenant.companyId, parentId))) throw notFound();
        await checkSiblingName(trx, tenant.companyId, parentId, name);
        await checkHeads(trx, tenant.companyId, input.incharges ?? []);
        const id = await departmentsRepository.insert(trx, tenant.companyId, { parent_id: parentId, name, sort: input.sort ?? 0, created_at: nowIso() });
        await departmentsRepository.setHeads(trx, tenant.companyId, id, input.incharges ?? []);
        await audit(trx, tenant, 'department', 'department.create', { id, name, parent_id: parentId });
        return { id };
      });
    },

    /** Renames, moves (never under itself or its own descendants) and sets heads, in one transaction. */
    async update(tenant: Tenant, input: DepartmentUpdate) {
      const name = input.name.trim();
      if (!name) throw invalid('name', 'reasons.required');
      await transaction(db, async (trx) => {
        const row = await departmentsRepository.find(trx, tenant.companyId, input.id);
        if (!row) throw notFound();
        const parentId = input.parent_id ?? row.parent_id;
        if (parentId && !(await departmentsRepository.find(trx, tenant.companyId, parentId))) throw notFound();
        const rows = await checkSiblingName(trx, tenant.companyId, parentId, name, row.id);
        if (parentId !== row.parent_id && descendantsOf(rows, row.id).has(parentId)) throw badInput('errors.deptCycle', 'parent_id');
        if (input.incharges) await checkHeads(trx, tenant.companyId, input.incharges);
        await departmentsRepository.update(trx, tenant.companyId, row.id, { name, parent_id: parentId, sort: input.sort ?? row.sort, updated_at: nowIso() });
        if (input.incharges) await departmentsRepository.setHeads(trx, tenant.companyId, row.id, input.incharges);
        const data = { id: row.id, name, parent_id: parentId };
        if (parentId !== row.parent_id) await audit(trx, tenant, 'department', 'department.move', data);
        else await audit(trx, tenant, 'department', 'department.update', data);
      });
    },

    /** spec: refused while the department has sub-departments or people. */
    async remove(tenant: Tenant, id: number) {
      await transaction(db, async (trx) => {
        const row = await departmentsRepository.find(trx, tenant.companyId, id);
        if (!row) throw notFound();
        const rows = await departmentsRepository.all(trx, tenant.companyId);
        if (rows.some((r) => r.parent_id === id)) throw badInput('errors.deptHasChildren', 'id', { name: row.name });
        const members = (await departmentsRepository.memberCounts(trx, tenant.companyId)).get(id) ?? 0;
        if (members > 0) throw badInput('errors.deptHasPeople', 'id', { name: row.name, count: members });
        await departmentsRepository.delete(trx, tenant.companyId, id);
        await audit(trx, tenant, 'department', 'department.delete', { id, name: row.name });
      });
    },
  };
}
export type DepartmentsService = ReturnType<typeof departmentsService>;
