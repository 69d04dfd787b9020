import { TIMER_ACTIONS, type Language, type LogItem } from '@faceadmin/shared';
import type { Selectable } from 'kysely';
import type { OperationLogTable } from '../../db/schema.ts';
import { t } from '../../i18n/i18n.ts';
import { parseJson } from '../../lib/json.ts';

export function presentLog(lang: Language, row: Selectable<OperationLogTable>): LogItem {
  const data = parseJson<Record<string, unknown>>(row.data, {});
  const params = Object.fromEntries(Object.entries(data).filter(([, v]) => typeof v === 'string' || typeof v === 'number')) as Record<string, string | number>;
  // a breaker timer's on/off is a word of the reader's language, not the stored code
  if (row.action.startsWith('breaker.timer') && (TIMER_ACTIONS as readonly unknown[]).includes(params['action'])) {
    params['action'] = t(lang, `log.timerActions.${String(params['action'])}`);
  }
  return {
    id: row.id,
    module: row.module,
    action: row.action,
    description: t(lang, `log.actions.${row.action}`, params),
    data,
    admin_id: row.admin_id,
    admin_name: row.admin_name,
    ip: row.ip,
    created_at: row.created_at,
  };
}
