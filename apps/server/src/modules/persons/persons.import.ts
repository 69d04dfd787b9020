import {
  CARD_PATTERN,
  DOOR_PASSWORD_PATTERN,
  LIMITS,
  PERSON_NUMBER_PATTERN,
  WORK_STATUS,
  type ImportReport,
  type CompanyOptions,
  type ImportRowError,
  type Language,
} from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import { CATALOGS, t } from '../../i18n/i18n.ts';
import { badInput } from '../../lib/errors.ts';
import { checkXlsx, readZip } from '../../lib/zip.ts';
import { isCalendarDate, nowIso } from '../../lib/time.ts';
import { cellText, excel } from '../../lib/xlsx.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { departmentsRepository, type DepartmentRow } from '../departments/departments.repository.ts';
import { departmentPaths } from '../departments/departments.service.ts';
import { loadOptions, requiredPersonFields } from '../companies/companies.options.ts';
import { audit } from '../logs/logs.service.ts';
import type { FaceCheck } from './face-check.ts';
import { normalizePhoto, PHOTO_MAX_BYTES, type PhotoStore } from './photos.ts';
import { newPersonRow, personsRepository, type PersonInsert, type PersonRow } from './persons.repository.ts';
import { syncedChanged } from './persons.service.ts';
import { genderOf } from './gender.ts';
import type { PeopleChangedHook } from './people-changed.ts';
import { transaction } from '../../db/transaction.ts';

/** Spreadsheet columns, in template order; headers are the translated field names (any language is read back). */
export const COLUMNS = [
  'number',
  'name',
  'phone',
  'organizations',
  'rfid',
  'idcard',
  'address',
  'description',
  'workStatus',
  'user_pri',
  'door_password',
  'joined_on',
  'gender',
] as const;
type Column = (typeof COLUMNS)[number];
const REQUIRED: Column[] = ['name', 'phone', 'organizations'];

/**
 * spec §3 Company options: the template and the export carry the card and ID-card columns only when the option
 * is on; the import then requires them (the person number is always a column: it is how a row finds its person).
 */
export function columnsFor(options: CompanyOptions): Column[] {
  return COLUMNS.filter((c) => (c === 'rfid' || c === 'idcard' ? options[c] === 1 : true));
}
const requiredFor = (options: CompanyOptions): Column[] => [...REQUIRED, ...requiredPersonFields(options)];
/** Department cells: "HQ/R&D" paths or plain names, several separated by ; , or 、 */
const SEPARATORS = /[;,；，、\n]+/;

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, '');

/** Headers people really write, beyond our own translated field names. */
const ALIASES: Partial<Record<Column, string[]>> = {
  number: ['编号', '工号', '人员编号', '編號', '員工編號', '番号', '社員番号', 'no', 'no.', 'id', 'employee id', 'pin'],
  name: ['姓名', '名前', '氏名', 'full name'],
  phone: ['电话', '手机', '手机号', '联系电话', '電話', '手機', '聯絡電話', '電話番号', '携帯番号', 'mobile', 'telephone'],
  organizations: ['部门', '所属部门', '部門', '所屬部門', '部署', '所属', 'department', 'dept'],
  rfid: ['卡号', '卡號', 'カード番号', 'card', 'card no', 'rfid'],
  idcard: ['身份证', '身份证号', '身分證', '身分證號', 'id card'],
  joined_on: ['入职时间', '入职日期', '入職日期', '到職日', '入社日', 'hire date', 'date of joining', 'joined', 'entry date'],
  gender: ['性别', '性別', 'sex'],
  workStatus: ['状态', '在职状态', '狀態', '在職狀態', '在職状態', 'status'],
};

function headerIndex(): Map<string, Column> {
  const m = new Map<string, Column>();
  for (const c of COLUMNS) {
    m.set(norm(c), c);
    for (const lang of Object.keys(CATALOGS) as Language[]) m.set(norm(t(lang, `fields.${c}`)), c);
    for (const a of ALIASES[c] ?? []) m.set(norm(a), c);
  }
  return m;
}

function workStatusOf(v: string): number | undefined {
  const x = norm(v);
  if (x === '' || x === '1') return WORK_STATUS.working;
  if (x === '0') return WORK_STATUS.left;
  for (const lang of Object.keys(CATALOGS) as Language[]) {
    if (x === norm(t(lang, 'values.working'))) return WORK_STATUS.working;
    if (x === norm(t(lang, 'values.left'))) return WORK_STATUS.left;
  }
  return undefined;
}

/** Resolves "A/B/C" paths and unique plain names to department ids. */
function departmentResolver(rows: DepartmentRow[]) {
  const pathOf = departmentPaths(rows);
  const paths = new Map<string, number>();
  const names = new Map<string, number[]>();
  for (const r of rows) {
    paths.set(norm(pathOf.get(r.id)!), r.id);
    names.set(norm(r.name), [...(names.get(norm(r.name)) ?? []), r.id]);
  }
  return (text: string): number | 'ambiguous' | undefined => {
    const k = norm(text);
    if (k.includes('/')) return paths.get(k.replace(/^\/+|\/+$/g, ''));
    const ids = names.get(k);
    if (!ids) return undefined;
    return ids.length === 1 ? ids[0] : 'ambiguous';
  };
}

export function importService(deps: { database: Database; photos: PhotoStore; peopleChanged: PeopleChangedHook; faceCheck?: FaceCheck }) {
  const { db } = deps.database;

  return {
    /** The template: translated headers, one example row, and a sheet listing the department paths. */
    async template(tenant: Tenant, lang: Language): Promise<Buffer> {
      const wb = new (await excel()).Workbook();
      const ws = wb.addWorksheet(t(lang, 'import.sheetPeople'));
      const columns = columnsFor(await loadOptions(db, tenant.companyId));
      ws.addRow(columns.map((c) => t(lang, `fields.${c}`)));
      ws.getRow(1).font = { bold: true };
      const depts = await departmentsRepository.all(db, tenant.companyId);
      const paths = departmentPaths(depts);
      const example: Record<Column, string | number> = {
        number: '1001',
        name: t(lang, 'import.exampleName'),
        phone: '13800138000',
        organizations: depts[0] ? paths.get(depts[0].id)! : '',
        rfid: '12345678',
        idcard: '110101199001011234',
        address: '',
        description: '',
        workStatus: t(lang, 'values.working'),
        user_pri: 0,
        door_password: '',
        joined_on: '',
        gender: t(lang, 'values.female'),
      };
      ws.addRow(columns.map((c) => example[c]));
      ws.columns.forEach((c) => (c.width = 18));
      const help = wb.addWorksheet(t(lang, 'import.sheetDepartments'));
      help.addRow([t(lang, 'fields.organizations')]);
      for (const d of depts) help.addRow([paths.get(d.id)!]);
      return Buffer.from(await wb.xlsx.writeBuffer());
    },

    /**
     * Validates every row, then writes all good rows in one transaction; in strict mode any bad row
     * means nothing is written. Existing numbers are updated, new ones created.
     */
    async importXlsx(tenant: Tenant, lang: Language, buf: Buffer, opts: { strict: boolean; createDepartments: boolean }): Promise<ImportReport> {
      if (buf.length > LIMITS.importMaxBytes) throw badInput('errors.fileTooLarge', 'file', { mb: LIMITS.importMaxBytes / 1024 / 1024 });
      await checkXlsx(buf, 'file');
      const wb = new (await excel()).Workbook();
      try {
        await wb.xlsx.load(buf as unknown as ArrayBuffer);
      } catch {
        throw badInput('errors.xlsxCorrupt', 'file');
      }
      const ws = wb.worksheets[0];
      if (!ws) throw badInput('errors.xlsxEmpty', 'file');
      const headers = headerIndex();
      const colOf = new Map<Column, number>();
      /** the header as the file writes it, so the report speaks of the user's own columns */
      const label = new Map<Column, string>();
      ws.getRow(1).eachCell((cell, col) => {
        const text = cellText(cell.value);
        const c = headers.get(norm(text));
        if (c && !colOf.has(c)) {
          colOf.set(c, col);
          label.set(c, text);
        }
      });
      const options = await loadOptions(db, tenant.companyId);
      const required = requiredFor(options);
      const missing = required.filter((c) => !colOf.has(c));
      if (missing.length) throw badInput('errors.xlsxColumns', 'file', { columns: missing.map((c) => t(lang, `fields.${c}`)).join(', ') });
      if (ws.rowCount - 1 > LIMITS.importMaxRows) throw badInput('errors.xlsxRows', 'file', { max: LIMITS.importMaxRows });

      const errors: ImportRowError[] = [];
      const err = (row: number, field: Column, reasonKey: string, params: Record<string, string | number> = {}) =>
        errors.push({ row, field: label.get(field) ?? t(lang, `fields.${field}`), reason: t(lang, reasonKey, params) });

      const deptRows = await departmentsRepository.all(db, tenant.companyId);
      let resolve = departmentResolver(deptRows);
      const newPaths = new Set<string>();
      type Good = { row: number; number: string; cols: Partial<PersonInsert>; departments: string[] };
      const good: Good[] = [];
      const seen = new Map<string, number>();

      for (let r = 2; r <= ws.rowCount; r++) {
        const row = ws.getRow(r);
        const get = (c: Column) => (colOf.has(c) ? cellText(row.getCell(colOf.get(c)!).value) : '');
        const values = Object.fromEntries(COLUMNS.map((c) => [c, get(c)])) as Record<Column, string>;
        if (COLUMNS.every((c) => !values[c])) continue;
        const before = errors.length;
        for (const c of required) if (!values[c]) err(r, c, 'reasons.required');
        const number = values.number;
        if (number && (number.length > LIMITS.personNumberMax || !new RegExp(PERSON_NUMBER_PATTERN).test(number))) err(r, 'number', 'reasons.pattern');
        if (number && seen.has(number)) err(r, 'number', 'reasons.duplicateRow', { row: seen.get(number)! });
        if (values.name.length > LIMITS.personNameMax) err(r, 'name', 'reasons.maxLength', { limit: LIMITS.personNameMax });
        if (values.phone && !/^[0-9+()\- ]{1,20}$/.test(values.phone)) err(r, 'phone', 'reasons.pattern');
        if (values.rfid && !new RegExp(CARD_PATTERN).test(values.rfid)) err(r, 'rfid', 'reasons.pattern');
        if (values.idcard && !/^[0-9A-Za-z]{6,20}$/.test(values.idcard)) err(r, 'idcard', 'reasons.pattern');
        if (values.door_password && !new RegExp(DOOR_PASSWORD_PATTERN).test(values.door_password)) err(r, 'door_password', 'reasons.pattern');
        if (values.address.length > 200) err(r, 'address', 'reasons.maxLength', { limit: 200 });
        if (values.description.length > LIMITS.longTextMax) err(r, 'description', 'reasons.maxLength', { limit: LIMITS.longTextMax });
        if (values.joined_on && !isCalendarDate(values.joined_on)) err(r, 'joined_on', 'reasons.calendarDate');
        const gender = genderOf(values.gender);
        if (gender === undefined) err(r, 'gender', 'reasons.enum');
        const work = workStatusOf(values.workStatus);
        if (work === undefined) err(r, 'workStatus', 'reasons.enum');
        const pri = values.user_pri === '' ? 0 : Number(values.user_pri);
        if (![0, 1, 2].includes(pri)) err(r, 'user_pri', 'reasons.enum');
        const depts = values.organizations
          .split(SEPARATORS)
          .map((s) => s.trim())
          .filter(Boolean);
        for (const d of depts) {
          const id = resolve(d);
          if (id === 'ambiguous') err(r, 'organizations', 'reasons.deptAmbiguous', { name: d });
          else if (id === undefined) {
            if (opts.createDepartments) newPaths.add(d.replace(/^\/+|\/+$/g, ''));
            else err(r, 'organizations', 'reasons.deptUnknown', { name: d });
          }
        }
        if (number) seen.set(number, r);
        if (errors.length > before) continue;
        good.push({
          row: r,
          number,
          departments: depts,
          cols: {
            name: values.name,
            phone: values.phone,
            // a file without the column (the option off: the export leaves it out) keeps the stored numbers
            ...(colOf.has('rfid') ? { rfid: values.rfid } : {}),
            ...(colOf.has('idcard') ? { idcard: values.idcard } : {}),
            address: values.address,
            description: values.description,
            work_status: work!,
            user_pri: pri,
            ...(values.door_password ? { door_password: values.door_password } : {}),
            // a file without the column keeps the hire dates; an empty cell clears one
            ...(colOf.has('joined_on') ? { joined_on: values.joined_on || null } : {}),
            // likewise the genders
            ...(colOf.has('gender') ? { gender: gender ?? null } : {}),
          },
        });
      }

      const failedRows = new Set(errors.map((e) => e.row)).size;
      const report: ImportReport = { total: good.length + failedRows, created: 0, updated: 0, failed: failedRows, written: false, errors };
      if (errors.length && opts.strict) return report;
      if (!good.length) return report;

      await transaction(db, async (trx) => {
        if (newPaths.size) {
          await createPaths(trx, tenant.companyId, [...newPaths]);
          resolve = departmentResolver(await departmentsRepository.all(trx, tenant.companyId));
        }
        const existing = await personsRepository.byNumbers(
          trx,
          tenant.companyId,
          good.filter((g) => g.number).map((g) => g.number),
        );
        let next = (await personsRepository.maxNumeric(trx, tenant.companyId)) + 1;
        const now = nowIso();
        const written: number[] = [];
        for (const g of good) {
          const deptIds = [...new Set(g.departments.map((d) => resolve(d) as number))];
          const old: PersonRow | undefined = g.number ? existing.get(g.number) : undefined;
          if (old) {
            const patch: Partial<PersonInsert> = { ...g.cols, updated_at: now };
            if (syncedChanged(old, patch)) Object.assign(patch, { revision: old.revision + 1, sync_status: 0 });
            await personsRepository.update(trx, tenant.companyId, old.id, patch, old);
            await personsRepository.setDepartments(trx, tenant.companyId, old.id, deptIds);
            written.push(old.id);
            report.updated++;
          } else {
            let number = g.number;
            if (!number) while (existing.has((number = String(next++))));
            const id = await personsRepository.insert(
              trx,
              tenant.companyId,
              newPersonRow({
                number,
                name: g.cols.name!,
                phone: g.cols.phone!,
                description: g.cols.description ?? '',
                rfid: g.cols.rfid ?? '',
                idcard: g.cols.idcard ?? '',
                address: g.cols.address ?? '',
                work_status: g.cols.work_status ?? WORK_STATUS.working,
                door_password: g.cols.door_password ?? '',
                user_pri: g.cols.user_pri ?? 0,
                joined_on: g.cols.joined_on ?? null,
                gender: g.cols.gender ?? null,
                created_at: now,
              }),
            );
            await personsRepository.setDepartments(trx, tenant.companyId, id, deptIds);
            written.push(id);
            report.created++;
          }
        }
        await deps.peopleChanged.emit(trx, { companyId: tenant.companyId, personIds: written, kind: 'saved' });
        await audit(trx, tenant, 'person', 'person.import', { created: report.created, updated: report.updated, failed: report.failed });
      });
      report.written = true;
      return report;
    },

    /** Face pictures from a zip, each named by person number (1001.jpg); one report line per rejected file. */
    async importPhotos(tenant: Tenant, lang: Language, buf: Buffer) {
      const files = await readZip(buf, 'file', { maxEntries: 20_000, maxTotalBytes: 1024 * 1024 * 1024, maxEntryBytes: PHOTO_MAX_BYTES });
      const errors: { file: string; reason: string }[] = [];
      const wanted = new Map<string, Buffer>();
      for (const f of files) {
        const base = f.name.split('/').pop()!;
        const m = /^(.+)\.(jpe?g|png)$/i.exec(base);
        if (!m) errors.push({ file: f.name, reason: t(lang, 'reasons.photoName') });
        else if (!f.data.length) errors.push({ file: f.name, reason: t(lang, 'errors.photoTooLarge', { mb: PHOTO_MAX_BYTES / 1024 / 1024 }) });
        else wanted.set(m[1]!, f.data);
      }
      const people = await personsRepository.byNumbers(db, tenant.companyId, [...wanted.keys()]);
      const saved: { person: PersonRow; pic: string }[] = [];
      for (const [number, data] of wanted) {
        const person = people.get(number);
        if (!person) {
          errors.push({ file: number, reason: t(lang, 'reasons.noSuchNumber', { number }) });
          continue;
        }
        try {
          const jpeg = await normalizePhoto(data);
          await deps.faceCheck?.(jpeg);
          saved.push({ person, pic: await deps.photos.save(tenant.companyId, jpeg) });
        } catch (e) {
          const key = (e as { key?: string }).key ?? 'errors.photoCorrupt';
          errors.push({ file: number, reason: t(lang, key, (e as { params?: Record<string, string | number> }).params ?? {}) });
        }
      }
      try {
        await transaction(db, async (trx) => {
          const now = nowIso();
          for (const s of saved) {
            await personsRepository.update(trx, tenant.companyId, s.person.id, {
              photo: s.pic,
              revision: s.person.revision + 1,
              sync_status: 0,
              updated_at: now,
            });
          }
          await deps.peopleChanged.emit(trx, { companyId: tenant.companyId, personIds: saved.map((x) => x.person.id), kind: 'saved' });
          await audit(trx, tenant, 'person', 'person.photos', { matched: saved.length, failed: errors.length });
        });
      } catch (e) {
        await deps.photos.release(
          tenant.companyId,
          saved.map((s) => s.pic),
        );
        throw e;
      }
      await deps.photos.release(
        tenant.companyId,
        saved.map((s) => s.person.photo),
      );
      return { total: wanted.size + errors.filter((e) => !wanted.has(e.file)).length, matched: saved.length, failed: errors.length, errors };
    },
  };
}

/** Creates the departments of "A/B/C" paths that do not exist yet (parents first). */
async function createPaths(trx: Executor, companyId: number, paths: string[]) {
  const rows = await departmentsRepository.all(trx, companyId);
  const key = (parent: number, name: string) => `${parent}\u0000${name}`;
  const index = new Map(rows.map((r) => [key(r.parent_id, r.name), r.id]));
  const now = nowIso();
  for (const p of paths) {
    let parent = 0;
    for (const name of p
      .split('/')
      .map((s) => s.trim())
      .filter(Boolean)) {
      let id = index.get(key(parent, name));
      if (id === undefined) {
        id = await departmentsRepository.insert(trx, companyId, { parent_id: parent, name, sort: 0, created_at: now });
        index.set(key(parent, name), id);
      }
      parent = id;
    }
  }
}
export type ImportService = ReturnType<typeof importService>;
