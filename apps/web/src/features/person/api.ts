import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TIMING, type ImportReport, type Page, type Person } from '@faceadmin/shared';
import { downloadFile, get, post, uploadForm } from '../../app/request.ts';
import { useUserInfo } from '../../app/session.ts';
import type { PersonBody } from './logic.ts';

export interface PersonFilters {
  keyword?: string | undefined;
  department_id?: number | undefined;
  include_sub?: 0 | 1 | undefined;
  workStatus?: number | undefined;
  sync_status?: number | undefined;
}

export interface PersonQuery extends PersonFilters {
  page: number;
  pageSize: number;
  sort?: 'number' | 'name' | 'created_at' | 'updated_at' | undefined;
  order?: 'asc' | 'desc' | undefined;
}

export interface OrgOption {
  value: number;
  label: string;
  children: OrgOption[];
}

export interface PhotoReport {
  total: number;
  matched: number;
  failed: number;
  errors: { file: string; reason: string }[];
}

export const personKeys = {
  all: ['person'] as const,
  list: (q: PersonQuery) => ['person', 'list', q] as const,
  info: (id: number) => ['person', 'info', id] as const,
  orgOptions: ['person', 'orgOptions'] as const,
};

export const usePersons = (q: PersonQuery) =>
  useQuery({ queryKey: personKeys.list(q), queryFn: () => get<Page<Person>>('/person/list', { ...q }), placeholderData: keepPreviousData });

export const usePerson = (id: number | undefined) =>
  useQuery({ queryKey: personKeys.info(id ?? 0), queryFn: () => get<Person>('/person/info', { id }), enabled: Boolean(id) });

/** Department tree for pickers (TreeSelect shape). */
export const useOrgOptions = () =>
  useQuery({ queryKey: personKeys.orgOptions, queryFn: () => post<OrgOption[]>('/person/personOrgOptions', {}), staleTime: 30_000 });

export const fetchNextNumber = () => get<{ number: string }>('/person/nextNumber', undefined, { silent: true });

/** Search for the department-heads picker. */
export const searchPersons = (keyword: string) => get<Page<Person>>('/person/list', { page: 1, pageSize: 20, keyword: keyword || undefined });

/** People changes move department counts too. */
function usePersonMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all([qc.invalidateQueries({ queryKey: personKeys.all }), qc.invalidateQueries({ queryKey: ['org'] })]);
    },
  });
}

export const useSavePerson = () =>
  usePersonMutation(({ id, body }: { id?: number | undefined; body: PersonBody }) =>
    // validation errors mark the form fields, so the drawer decides what to show
    id ? post<Person>('/person/update', { id, ...body }, { silent: true }) : post<Person>('/person/create', body, { silent: true }),
  );

export const useDeletePersons = () =>
  usePersonMutation((ids: number[]) =>
    ids.length === 1 ? post<{ count: number }>('/person/delete', { id: ids[0] }) : post<{ count: number }>('/person/deletes', { ids }),
  );

export const useTransferPersons = () =>
  usePersonMutation((body: { ids: number[]; department_id: number; mode: 'move' | 'add' }) => post<{ count: number }>('/person/transfer', body));

export const useImportPersons = () =>
  usePersonMutation(
    ({ file, strict, createDepartments, onProgress }: { file: File; strict: boolean; createDepartments: boolean; onProgress: (p: number) => void }) => {
      const form = new FormData();
      // fields before the file: the server reads the parts in order
      form.append('strict', strict ? '1' : '0');
      form.append('create_departments', createDepartments ? '1' : '0');
      form.append('file', file);
      return uploadForm<ImportReport>('/person/import', form, { onProgress, timeout: TIMING.exportTimeout });
    },
  );

export const useImportPhotos = () =>
  usePersonMutation(({ file, onProgress }: { file: File; onProgress: (p: number) => void }) => {
    const form = new FormData();
    form.append('file', file);
    return uploadForm<PhotoReport>('/person/xlsx2', form, { onProgress, timeout: TIMING.exportTimeout });
  });

export const uploadFace = (file: Blob, name: string) => {
  const form = new FormData();
  form.append('file', file, name);
  return uploadForm<{ pic: string; pic_url: string; size: number }>('/person/upload', form);
};

export const downloadTemplate = () => downloadFile('GET', '/person/template', 'people-template.xlsx');

/** spec §9: export has a 120 s timeout. */
export const exportPersons = (filters: PersonFilters) =>
  downloadFile('POST', '/person/exportPerson', 'people.xlsx', { body: filters, timeout: TIMING.exportTimeout });

/** spec §6 / docs/api-people.md: reading needs rights.person ≥ 1, writing ≥ 2. */
export function usePersonRights(): { canView: boolean; canEdit: boolean } {
  const user = useUserInfo().data;
  const level = user?.rights.is_admin ? user.rights.person : 0;
  return { canView: level >= 1, canEdit: level >= 2 };
}
