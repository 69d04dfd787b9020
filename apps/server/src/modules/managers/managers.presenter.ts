import { type AdminRole, functionsFromRights, type Manager, type ManagerStatus, NO_RIGHTS, type RightValues } from '@faceadmin/shared';
import { grantedRights } from '../auth/session-lookup.ts';
import type { managersRepository } from './managers.repository.ts';

type Row = NonNullable<Awaited<ReturnType<typeof managersRepository.find>>>;

export function rightsOf(row: { role: string; rights: string }): RightValues {
  return { ...NO_RIGHTS, ...grantedRights(row) };
}

/** Presenter: never exposes the password hash or raw rights JSON (habit 6). */
export function presentManager(row: Row): Manager {
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    mobile: row.mobile,
    status: row.status as ManagerStatus,
    role: row.role as AdminRole,
    is_init: row.is_init,
    rights: functionsFromRights(rightsOf(row)),
    created_at: row.created_at,
    last_login_at: row.last_login_at,
  };
}
