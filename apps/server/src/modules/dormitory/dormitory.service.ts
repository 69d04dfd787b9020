import { DEFAULT_RETURN_BY, type DormitorySettings, type DormitorySettingsView, type DormitoryStatus } from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { invalid } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { clock, nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { departmentsRepository } from '../departments/departments.repository.ts';
import { audit } from '../logs/logs.service.ts';
import { dormitoryFigures, lastDeadline, windowStart } from './dormitory.logic.ts';
import { dormitoryRepository } from './dormitory.repository.ts';

async function settingsOf(db: Executor, companyId: number): Promise<DormitorySettings> {
  const row = await dormitoryRepository.settings(db, companyId);
  if (!row) return { return_by: DEFAULT_RETURN_BY, department_ids: [] };
  const ids = parseJson<unknown>(row.department_ids, []);
  return { return_by: row.return_by, department_ids: Array.isArray(ids) ? ids.filter((x): x is number => Number.isInteger(x)) : [] };
}

/** Dormitory in/out by building (issue #16): residents' last punch direction in the company's zone. */
export const dormitoryService = {
  /** The settings, with the departments to choose buildings from (sorted as the tree shows them). */
  async settings(db: Executor, companyId: number): Promise<DormitorySettingsView> {
    const [settings, departments] = await Promise.all([settingsOf(db, companyId), departmentsRepository.all(db, companyId)]);
    return { ...settings, departments: departments.map((d) => ({ id: d.id, parent_id: d.parent_id, name: d.name })) };
  },

  /** Saves the hour and the buildings; every id must be one of the company's departments. */
  async saveSettings(database: Database, tenant: Tenant, input: DormitorySettings): Promise<DormitorySettingsView> {
    await transaction(database.db, async (trx) => {
      const ids = [...new Set(input.department_ids)];
      if (ids.length) {
        const known = new Set((await departmentsRepository.all(trx, tenant.companyId)).map((d) => d.id));
        if (ids.some((id) => !known.has(id))) throw invalid('department_ids');
      }
      await dormitoryRepository.saveSettings(trx, tenant.companyId, { return_by: input.return_by, department_ids: JSON.stringify(ids), updated_at: nowIso() });
      await audit(trx, tenant, 'attendance', 'attendance.dormitory', { return_by: input.return_by, buildings: ids.length });
    });
    return this.settings(database.db, tenant.companyId);
  },

  /** The figures now, with the stored hour or the one asked for. */
  async status(db: Executor, companyId: number, zone: string, returnBy?: string): Promise<DormitoryStatus> {
    const settings = await settingsOf(db, companyId);
    const hour = returnBy ?? settings.return_by;
    const now = clock.now();
    const { deadline, passedToday } = lastDeadline(now, zone, hour);
    const [departments, residents, punches] = await Promise.all([
      departmentsRepository.all(db, companyId),
      dormitoryRepository.residents(db, companyId),
      dormitoryRepository.punches(db, companyId, new Date(windowStart(deadline)).toISOString(), new Date(now).toISOString()),
    ]);
    return dormitoryFigures({ now, returnBy: hour, deadline, passedToday, departments, chosen: settings.department_ids, residents, punches });
  },
};
