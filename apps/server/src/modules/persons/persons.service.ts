import {
  CODES,
  type CompanyOptions,
  pathOf,
  personsApi,
  type Person,
  type PersonCreate,
  type PersonListQuery,
  type PersonUpdate,
  WORK_STATUS,
} from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import { API_PREFIX } from '../../lib/api.ts';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { isCalendarDate, nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { loadOptions, requiredPersonFields } from '../companies/companies.options.ts';
import { departmentsRepository } from '../departments/departments.repository.ts';
import { buildTree, departmentFilter, type TreeNode } from '../departments/departments.service.ts';
import { audit } from '../logs/logs.service.ts';
import type { PeopleChangedHook } from './people-changed.ts';
import type { PhotoStore } from './photos.ts';
import type { StoredFile } from '../../lib/files/store.ts';
import type { FaceCheck } from './face-check.ts';
import { normalizePhoto } from './photos.ts';
import { personsRepository, VISITOR, type PersonInsert, type PersonRow } from './persons.repository.ts';
import { presentMany } from './persons.presenter.ts';
import { transaction } from '../../db/transaction.ts';

/** Fields a terminal holds: a change to any of them bumps the person's revision so devices re-learn it. */
export const SYNCED_FIELDS = [
  'number',
  'name',
  'photo',
  'rfid',
  'door_password',
  'is_admin',
  'admin_password',
  'access_from',
  'access_to',
  'access_periods',
  'work_status',
  'user_pri',
  // a Hikvision terminal holds it (isapi/codec.ts userBody)
  'gender',
] as const satisfies readonly (keyof PersonInsert)[];

type Input = PersonCreate;

/** Checks cross-field rules and references; returns the columns to write. */
export function personColumns(input: Input, existing: PersonRow | undefined): Partial<PersonInsert> {
  const access = input.access;
  const from = access?.from !== undefined ? access.from : (existing?.access_from ?? null);
  const to = access?.to !== undefined ? access.to : (existing?.access_to ?? null);
  if (from && to && from > to) throw invalid('access', 'reasons.dateOrder');
  const periods = access?.periods ?? parseJson<{ start: string; end: string }[]>(existing?.access_periods, []);
  if (periods.some((p) => p.start >= p.end)) throw invalid('access', 'reasons.periodOrder');
  const isAdmin = input.is_admin ?? existing?.is_admin ?? 0;
  const adminPassword = input.admin_password !== undefined ? input.admin_password : (existing?.admin_password ?? '');
  if (isAdmin && !adminPassword) throw invalid('admin_password', 'reasons.required');
  const joinedOn = input.joined_on !== undefined ? input.joined_on : (existing?.joined_on ?? null);
  if (joinedOn && !isCalendarDate(joinedOn)) throw invalid('joined_on', 'reasons.calendarDate');
  const name = input.name.trim();
  if (!name) throw invalid('name', 'reasons.required');
  return {
    name,
    phone: input.phone.trim(),
    description: input.description ?? existing?.description ?? '',
    photo: input.pic,
    rfid: input.rfid ?? existing?.rfid ?? '',
    idcard: input.idcard ?? existing?.idcard ?? '',
    address: input.address ?? existing?.address ?? '',
    work_status: input.workStatus ?? existing?.work_status ?? WORK_STATUS.working,
    notify: input.notify ?? existing?.notify ?? 0,
    joined_on: joinedOn,
    gender: input.gender !== undefined ? input.gender : (existing?.gender ?? null),
    access_from: from,
    access_to: to,
    access_periods: JSON.stringify(periods),
    door_password: input.door_password !== undefined ? input.door_password : (existing?.door_password ?? ''),
    remote_open: input.remote_open ?? existing?.remote_open ?? 0,
    is_admin: isAdmin,
    admin_password: isAdmin ? adminPassword : '',
    feature_rights: JSON.stringify(input.feature_rights ?? parseJson(existing?.feature_rights, [])),
    user_pri: input.user_pri ?? existing?.user_pri ?? 0,
    plates: input.plates !== undefined ? input.plates.map((p) => p.toUpperCase()).join(',') : (existing?.plates ?? ''),
  };
}

/** spec §3: the fields the company's options require (card, ID card), each named in the refusal (422). */
export function requireOptionFields(options: CompanyOptions, cols: Partial<PersonInsert>) {
  for (const field of requiredPersonFields(options)) if (!cols[field]?.trim()) throw invalid(field, 'reasons.required');
}

export function syncedChanged(before: PersonRow, after: Partial<PersonInsert>): boolean {
  // a gender no longer said is not sent (the terminal keeps its own: isapi userBody), so it changes nothing there
  return SYNCED_FIELDS.some((f) => after[f] !== undefined && after[f] !== before[f] && !(f === 'gender' && after[f] === null));
}

export function personsService(deps: {
  database: Database;
  photos: PhotoStore;
  peopleChanged: PeopleChangedHook;
  /** Deletes a punch's photo file (an erased person's faces on their punches); the punches module owns the files. */
  removePunchPhoto?: (companyId: number, deviceId: number, name: string) => Promise<void>;
  /** Refuses a photo a terminal would refuse (no face, several, too small, blurred); once per upload. */
  faceCheck?: FaceCheck;
}) {
  const { db } = deps.database;
  const { photos } = deps;

  async function checkDepartments(trx: Executor, companyId: number, field: string, ids: number[]) {
    if (!ids.length) return;
    const rows = await departmentsRepository.all(trx, companyId);
    const known = new Set(rows.map((r) => r.id));
    if (ids.some((id) => !known.has(id))) throw invalid(field);
  }

  async function loadOne(trx: Executor, companyId: number, id: number): Promise<Person> {
    const row = await personsRepository.find(trx, companyId, id);
    if (!row) throw notFound();
    return (await presentMany(trx, companyId, [row]))[0]!;
  }

  return {
    async list(tenant: Tenant, q: PersonListQuery, offset: number, limit: number) {
      const departments = await departmentFilter(db, tenant.companyId, q.department_id, q.include_sub !== 0);
      const r = await personsRepository.list(db, tenant.companyId, {
        keyword: q.keyword?.trim() || undefined,
        departments,
        workStatus: q.workStatus,
        syncStatus: q.sync_status,
        sort: q.sort ?? 'number',
        order: q.order ?? 'asc',
        offset,
        limit,
      });
      return { items: await presentMany(db, tenant.companyId, r.items), total: r.total };
    },

    async get(tenant: Tenant, id: number) {
      // a visitor (#19) is no person of the people pages
      if ((await personsRepository.find(db, tenant.companyId, id))?.kind === VISITOR) throw notFound();
      return loadOne(db, tenant.companyId, id);
    },

    async nextNumber(tenant: Tenant): Promise<string> {
      return String((await personsRepository.maxNumeric(db, tenant.companyId)) + 1);
    },

    async create(tenant: Tenant, input: Input): Promise<Person> {
      if (!(await photos.exists(tenant.companyId, input.pic))) throw invalid('pic');
      const cols = personColumns(input, undefined);
      return transaction(db, async (trx) => {
        requireOptionFields(await loadOptions(trx, tenant.companyId), cols);
        await checkDepartments(trx, tenant.companyId, 'organizations', input.organizations);
        await checkDepartments(trx, tenant.companyId, 'incharges', input.incharges ?? []);
        const number = input.number ?? String((await personsRepository.maxNumeric(trx, tenant.companyId)) + 1);
        if ((await personsRepository.byNumbers(trx, tenant.companyId, [number])).size) throw conflict('errors.numberTaken', { number });
        const now = nowIso();
        const id = await personsRepository.insert(trx, tenant.companyId, {
          ...(cols as PersonInsert),
          number,
          sync_status: 0,
          revision: 1,
          created_at: now,
          updated_at: now,
        });
        await personsRepository.setDepartments(trx, tenant.companyId, id, input.organizations);
        await personsRepository.setHeadOf(trx, tenant.companyId, id, input.incharges ?? []);
        await deps.peopleChanged.emit(trx, { companyId: tenant.companyId, personIds: [id], kind: 'saved' });
        await audit(trx, tenant, 'person', 'person.create', { id, number, name: cols.name! });
        return loadOne(trx, tenant.companyId, id);
      });
    },

    async update(tenant: Tenant, input: PersonUpdate): Promise<Person> {
      let oldPhoto = '';
      // asked before the transaction: the file store may be the database itself
      const picStored = await photos.exists(tenant.companyId, input.pic);
      const person = await transaction(db, async (trx) => {
        const row = await personsRepository.find(trx, tenant.companyId, input.id);
        // a visitor (#19) is no person of the people pages: its invitation owns it
        if (!row || row.kind === VISITOR) throw notFound();
        if (input.pic !== row.photo && !picStored) throw invalid('pic');
        const cols = personColumns(input, row);
        await checkDepartments(trx, tenant.companyId, 'organizations', input.organizations);
        if (input.incharges) await checkDepartments(trx, tenant.companyId, 'incharges', input.incharges);
        const number = input.number ?? row.number;
        requireOptionFields(await loadOptions(trx, tenant.companyId), cols);
        if (number !== row.number && (await personsRepository.byNumbers(trx, tenant.companyId, [number])).size)
          throw conflict('errors.numberTaken', { number });
        const patch: Partial<PersonInsert> = { ...cols, number, updated_at: nowIso() };
        if (syncedChanged(row, patch)) Object.assign(patch, { revision: row.revision + 1, sync_status: 0 });
        await personsRepository.update(trx, tenant.companyId, row.id, patch, row);
        await personsRepository.setDepartments(trx, tenant.companyId, row.id, input.organizations);
        if (input.incharges) await personsRepository.setHeadOf(trx, tenant.companyId, row.id, input.incharges);
        if (row.photo !== input.pic) oldPhoto = row.photo;
        await deps.peopleChanged.emit(trx, { companyId: tenant.companyId, personIds: [row.id], kind: 'saved' });
        if (row.work_status !== patch.work_status && patch.work_status === WORK_STATUS.left) {
          await audit(trx, tenant, 'person', 'person.leave', { id: row.id, number, name: cols.name! });
        } else {
          await audit(trx, tenant, 'person', 'person.update', { id: row.id, number, name: cols.name! });
        }
        return loadOne(trx, tenant.companyId, row.id);
      });
      if (oldPhoto) await photos.release(tenant.companyId, [oldPhoto]);
      return person;
    },

    /**
     * Deletes people without history. Someone with punches, results, absences or applications is refused (their
     * approved leave would vanish from months already paid): they are marked as left, or erased (`erase`).
     */
    async remove(tenant: Tenant, ids: number[]): Promise<number> {
      const rows = await transaction(db, async (trx) => {
        const found = (await personsRepository.findMany(trx, tenant.companyId, ids)).filter((r) => r.kind !== VISITOR);
        if (found.length !== ids.length) throw notFound();
        const kept = await personsRepository.withHistory(trx, tenant.companyId, ids);
        if (kept.size) {
          const names = found
            .filter((r) => kept.has(r.id))
            .slice(0, 10)
            .map((r) => `${r.number} ${r.name}`)
            .join(', ');
          throw new AppError(CODES.CONFLICT, 409, 'errors.personHasHistory', { names: kept.size > 10 ? `${names} …` : names }, { ids: [...kept] });
        }
        // Terminals are told to forget them before the rows go (the ledger keeps the PINs to delete).
        await deps.peopleChanged.emit(trx, { companyId: tenant.companyId, personIds: ids, kind: 'deleted' });
        await personsRepository.delete(trx, tenant.companyId, ids);
        await audit(trx, tenant, 'person', 'person.delete', {
          count: found.length,
          names: found
            .slice(0, 20)
            .map((r) => `${r.number} ${r.name}`)
            .join(', '),
        });
        return found;
      });
      await photos.release(
        tenant.companyId,
        rows.map((r) => r.photo),
      );
      return rows.length;
    },

    /**
     * A privacy request: the person's row becomes an anonymous placeholder — `name` (the erased name, e.g.
     * "Erased #12"), no phone, card, ids, address, passwords, face or punch photos, no access, no longer a head of
     * department, signed out of self-service, messages gone, left — while their punches, day results, absences and
     * applications stay linked to it, so months already computed and reports keep their totals. Terminals are told
     * to forget them (the sync ledger's delete path), before the number they were known by changes.
     */
    async erase(tenant: Tenant, id: number, name: string): Promise<Person> {
      let erased: Awaited<ReturnType<typeof personsRepository.erase>> | undefined;
      const person = await transaction(db, async (trx) => {
        const row = await personsRepository.find(trx, tenant.companyId, id);
        if (!row || row.kind === VISITOR) throw notFound();
        await deps.peopleChanged.emit(trx, { companyId: tenant.companyId, personIds: [id], kind: 'deleted' });
        erased = await personsRepository.erase(trx, tenant.companyId, row, name);
        await audit(trx, tenant, 'person', 'person.erase', { id, number: row.number, name });
        return loadOne(trx, tenant.companyId, id);
      });
      if (erased?.face) await photos.release(tenant.companyId, [erased.face]);
      for (const p of erased?.punchPhotos ?? []) await deps.removePunchPhoto?.(tenant.companyId, p.device_id, p.photo);
      return person;
    },

    /** Moves people into a department (replacing their departments) or adds it to theirs. */
    async transfer(tenant: Tenant, ids: number[], departmentId: number, mode: 'move' | 'add'): Promise<number> {
      return transaction(db, async (trx) => {
        const dept = await departmentsRepository.find(trx, tenant.companyId, departmentId);
        if (!dept) throw notFound();
        const found = (await personsRepository.findMany(trx, tenant.companyId, ids)).filter((r) => r.kind !== VISITOR);
        if (found.length !== ids.length) throw notFound();
        const current = await personsRepository.departmentsOf(trx, tenant.companyId, ids);
        for (const id of ids) {
          const next = mode === 'add' ? [...new Set([...(current.get(id) ?? []).map((d) => d.id), departmentId])] : [departmentId];
          await personsRepository.setDepartments(trx, tenant.companyId, id, next);
        }
        await audit(trx, tenant, 'person', 'person.transfer', { count: ids.length, name: dept.name });
        // A department change matters to listeners beyond the devices (attendance rules follow departments).
        await deps.peopleChanged.emit(trx, { companyId: tenant.companyId, personIds: ids, kind: 'saved' });
        return ids.length;
      });
    },

    async upload(tenant: Tenant, data: Buffer) {
      const jpeg = await normalizePhoto(data);
      await deps.faceCheck?.(jpeg);
      const pic = await photos.save(tenant.companyId, jpeg);
      return { pic, pic_url: API_PREFIX + pathOf(personsApi.uploadedPhoto, { name: pic }), size: jpeg.length };
    },

    async photoFile(tenant: Tenant, id: number): Promise<StoredFile> {
      const row = await personsRepository.find(db, tenant.companyId, id);
      const file = row?.photo ? await photos.open(tenant.companyId, row.photo) : undefined;
      if (!file) throw notFound();
      return file;
    },

    async uploadFile(tenant: Tenant, name: string): Promise<StoredFile> {
      const file = await photos.open(tenant.companyId, name);
      if (!file) throw notFound();
      return file;
    },

    /** Department options for selectors (cascader/tree-select shape). */
    async orgOptions(tenant: Tenant) {
      const rows = await departmentsRepository.all(db, tenant.companyId);
      const toOption = (n: TreeNode): { value: number; label: string; children: unknown[] } => ({
        value: n.id,
        label: n.name,
        children: n.children.map(toOption),
      });
      return buildTree(rows, new Map(), []).map(toOption);
    },

    /** The department tree with its working people, for choosing who goes onto a device. */
    async orgPersons(tenant: Tenant, keyword: string | undefined) {
      const rows = await departmentsRepository.all(db, tenant.companyId);
      const people = await db
        .selectFrom('persons as p')
        .innerJoin('person_departments as pd', 'pd.person_id', 'p.id')
        .select(['p.id', 'p.number', 'p.name', 'pd.department_id'])
        .where('p.company_id', '=', tenant.companyId)
        .where('p.work_status', '=', WORK_STATUS.working)
        .orderBy('p.number')
        .execute();
      const k = keyword?.trim().toLowerCase();
      const byDept = new Map<number, { id: number; number: string; name: string }[]>();
      for (const p of people) {
        if (k && !p.name.toLowerCase().includes(k) && !p.number.toLowerCase().includes(k)) continue;
        byDept.set(p.department_id, [...(byDept.get(p.department_id) ?? []), { id: p.id, number: p.number, name: p.name }]);
      }
      type Node = { id: number; name: string; persons: { id: number; number: string; name: string }[]; children: Node[] };
      const convert = (n: TreeNode): Node => ({ id: n.id, name: n.name, persons: byDept.get(n.id) ?? [], children: n.children.map(convert) });
      return buildTree(rows, new Map(), []).map(convert);
    },
  };
}
export type PersonsService = ReturnType<typeof personsService>;
