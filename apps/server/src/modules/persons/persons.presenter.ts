import { API_PREFIX, GENDERS, pathOf, personsApi, WORK_STATUS, type Gender, type Person, type PersonTag } from '@faceadmin/shared';
import type { Executor } from '../../db/database.ts';
import { parseJson } from '../../lib/json.ts';
import { personsRepository, type PersonRow } from './persons.repository.ts';

export const picUrl = (row: Pick<PersonRow, 'id' | 'photo' | 'revision'>) =>
  row.photo ? `${API_PREFIX}${pathOf(personsApi.photo, { id: row.id })}?v=${row.revision}` : '';

const isGender = (v: string | null): v is Gender => (GENDERS as readonly (string | null)[]).includes(v);

/** Presenter (habit 6): passwords never leave the server; tags per spec §3. */
export function presentPerson(row: PersonRow, orgs: { id: number; name: string }[], heads: { id: number; name: string }[]): Person {
  const tags: PersonTag[] = [];
  if (row.is_admin) tags.push('admin');
  if (heads.length) tags.push('manager');
  tags.push(row.work_status === WORK_STATUS.working ? 'working' : 'left');
  return {
    id: row.id,
    number: row.number,
    name: row.name,
    phone: row.phone,
    description: row.description,
    organizations: orgs,
    pic: row.photo,
    pic_url: picUrl(row),
    rfid: row.rfid,
    plates: row.plates ? row.plates.split(',') : [],
    idcard: row.idcard,
    address: row.address,
    workStatus: row.work_status,
    notify: row.notify,
    joined_on: row.joined_on,
    gender: isGender(row.gender) ? row.gender : null,
    access: { from: row.access_from, to: row.access_to, periods: parseJson(row.access_periods, []) },
    has_door_password: row.door_password !== '',
    remote_open: row.remote_open,
    is_admin: row.is_admin,
    has_admin_password: row.admin_password !== '',
    incharges: heads,
    feature_rights: parseJson<string[]>(row.feature_rights, []),
    user_pri: row.user_pri,
    sync_status: row.sync_status,
    tags,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function presentMany(db: Executor, companyId: number, rows: PersonRow[]): Promise<Person[]> {
  const ids = rows.map((r) => r.id);
  const [orgs, heads] = await Promise.all([personsRepository.departmentsOf(db, companyId, ids), personsRepository.headsOf(db, companyId, ids)]);
  return rows.map((r) => presentPerson(r, orgs.get(r.id) ?? [], heads.get(r.id) ?? []));
}
