import type { PassThrough } from 'node:stream';
import type { Language } from '@faceadmin/shared';
import type { Database } from '../../db/database.ts';
import { t } from '../../i18n/i18n.ts';
import { xlsxStream } from '../../lib/xlsx.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { departmentsRepository } from '../departments/departments.repository.ts';
import { departmentPaths, descendantsOf } from '../departments/departments.service.ts';
import { personsRepository } from './persons.repository.ts';
import { columnsFor } from './persons.import.ts';
import { loadOptions } from '../companies/companies.options.ts';
import { picUrl } from './persons.presenter.ts';

export interface ExportFilter {
  keyword?: string | undefined;
  department_id?: number | undefined;
  include_sub?: number | undefined;
  workStatus?: number | undefined;
  sync_status?: number | undefined;
  ids?: number[] | undefined;
}

/**
 * Streams the filtered people as xlsx, a thousand rows at a time (lib/xlsx.ts), so 50k people never sit
 * in memory as one workbook.
 */
export async function exportPeople(database: Database, tenant: Tenant, lang: Language, f: ExportFilter, baseUrl: string): Promise<PassThrough> {
  const { db } = database;
  // The import's columns for this company's options (so an export re-imports), less the write-only door
  // password, plus read-only facts.
  const cols = [...columnsFor(await loadOptions(db, tenant.companyId)).filter((c) => c !== 'door_password'), 'sync_status', 'pic', 'created_at'];
  const columns = cols.map((c) => ({ header: t(lang, `fields.${c}`), key: c, width: c === 'pic' ? 60 : 18 }));
  async function* rows() {
    let departments: number[] | undefined;
    const deptRows = await departmentsRepository.all(db, tenant.companyId);
    if (f.department_id) departments = f.include_sub === 0 ? [f.department_id] : [...descendantsOf(deptRows, f.department_id)];
    const paths = departmentPaths(deptRows);
    const work = [t(lang, 'values.left'), t(lang, 'values.working')];
    const sync = [t(lang, 'values.notSynced'), t(lang, 'values.synced'), t(lang, 'values.syncFailed')];
    for await (const batch of personsRepository.iterate(db, tenant.companyId, {
      keyword: f.keyword?.trim() || undefined,
      departments,
      workStatus: f.workStatus,
      syncStatus: f.sync_status,
      ids: f.ids,
    })) {
      const orgs = await personsRepository.departmentsOf(
        db,
        tenant.companyId,
        batch.map((r) => r.id),
      );
      yield batch.map((r) => {
        const url = picUrl(r);
        return {
          number: r.number,
          name: r.name,
          phone: r.phone,
          organizations: (orgs.get(r.id) ?? []).map((d) => paths.get(d.id) ?? d.name).join('; '),
          rfid: r.rfid,
          idcard: r.idcard,
          address: r.address,
          description: r.description,
          workStatus: work[r.work_status] ?? '',
          user_pri: r.user_pri,
          joined_on: r.joined_on ?? '',
          gender: r.gender === 'male' || r.gender === 'female' ? t(lang, `values.${r.gender}`) : '',
          sync_status: sync[r.sync_status] ?? '',
          pic: url ? { text: `${baseUrl}${url}`, hyperlink: `${baseUrl}${url}` } : '',
          created_at: r.created_at.slice(0, 19).replace('T', ' '),
        };
      });
    }
  }
  return xlsxStream(t(lang, 'import.sheetPeople'), columns, rows());
}
