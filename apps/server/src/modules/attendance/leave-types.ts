import { LEAVE_OTHER, type FormSchema, type Language, type LeaveType } from '@faceadmin/shared';
import type { Executor } from '../../db/database.ts';
import { t } from '../../i18n/i18n.ts';
import { parseJson } from '../../lib/json.ts';
import { labelOf } from '../workflow/process.ts';

/**
 * The company's leave types in the reader's language (#17): the options of its leave apps' current forms (in app
 * order, each value once), then LEAVE_OTHER (leave recorded without a type). Day results key their leave minutes
 * by these values; the month report and its export give each one a column.
 */
export async function leaveTypes(db: Executor, companyId: number, lang: Language): Promise<LeaveType[]> {
  const forms = await db
    .selectFrom('workflow_apps as w')
    .innerJoin('workflow_forms as f', (j) => j.onRef('f.app_id', '=', 'w.id').onRef('f.version', '=', 'w.form_version'))
    .select(['f.body'])
    .where('w.company_id', '=', companyId)
    .where('w.kind', '=', 'leave')
    .orderBy('w.sort')
    .orderBy('w.id')
    .execute();
  const out: LeaveType[] = [];
  for (const f of forms) {
    const field = parseJson<FormSchema>(f.body, { fields: [] }).fields.find((x) => x.key === 'leave_type');
    for (const o of field?.options ?? [])
      if (o.value !== LEAVE_OTHER && !out.some((x) => x.value === o.value)) out.push({ value: o.value, label: labelOf(o.label, lang, o.value) });
  }
  out.push({ value: LEAVE_OTHER, label: t(lang, 'att.leaveOther') });
  return out;
}
