import type { Language, LogModule } from '@faceadmin/shared';
import type { Executor } from '../../db/database.ts';
import { nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { logsRepository, type LogFilter } from './logs.repository.ts';
import { presentLog } from './logs.presenter.ts';

const SECRET_KEY = /pass|token|secret|smscode|icode|captcha/i;

/** Drops secrets at any depth before data reaches the log (standards: secrets never logged). */
export function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !SECRET_KEY.test(k))
        .map(([k, v]) => [k, scrub(v)]),
    );
  }
  return value;
}

/** Writes one operation-log entry; call it inside the transaction of the change it records. */
export async function audit(db: Executor, tenant: Tenant, module: LogModule, action: string, data: Record<string, unknown> = {}) {
  await logsRepository.insert(db, tenant.companyId, {
    admin_id: tenant.adminId,
    admin_name: tenant.adminName,
    module,
    action,
    data: JSON.stringify(scrub(data)),
    ip: tenant.ip,
    created_at: nowIso(),
  });
}

export const logsService = {
  async list(db: Executor, lang: Language, companyId: number, f: LogFilter) {
    const { items, total } = await logsRepository.list(db, companyId, f);
    return { items: items.map((r) => presentLog(lang, r)), total };
  },
  modules: (db: Executor, companyId: number) => logsRepository.modules(db, companyId),
};
