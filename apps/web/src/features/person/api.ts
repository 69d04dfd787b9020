import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { TIMING, type ImportReport, type Page, type Person } from '@faceadmin/shared';
import { useInvalidatingMutation } from '../../app/mutations.ts';
import { downloadFile, get, post, uploadForm } from '../../app/request.ts';
import { useRightLevel } from '../../app/session.ts';
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
  search: (keyword: string) => ['person', 'search', keyword] as const,
  orgOptions: ['person', 'orgOptions'] as const,
};

export const usePersons = (q: PersonQuery) =>
  useQuery({ queryKey: personKeys.list(q), queryFn: () => get<Page<Person>>('/person/list', { ...q }), placeholderData: keepPreviousData });

/** Department tree for pickers (TreeSelect shape). */
export const useOrgOptions = () =>
  useQuery({ queryKey: personKeys.orgOptions, queryFn: () => post<OrgOption[]>('/person/personOrgOptions', {}), staleTime: 30_000 });

export const fetchNextNumber = () => get<{ number: string }>('/person/nextNumber', undefined, { silent: true });

/** Search for the department-heads picker; `keyword` undefined = not searched yet. The last answer stays while the next loads. */
export const usePersonSearch = (keyword: string | undefined) =>
  useQuery({
    queryKey: personKeys.search(keyword ?? ''),
    queryFn: () => get<Page<Person>>('/person/list', { page: 1, pageSize: 20, keyword: keyword || undefined }),
    enabled: keyword !== undefined,
    placeholderData: keepPreviousData,
  });

/** People changes move department counts too. */
const usePersonMutation = <V, R>(fn: (v: V) => Promise<R>) => useInvalidatingMutation(fn, [personKeys.all, ['org']], { on: 'success' });

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

/** Downloads run as mutations for their busy flag; failures are shown by the API client. */
export const useDownloadTemplate = () => useMutation({ mutationFn: () => downloadFile('GET', '/person/template', 'people-template.xlsx') });

/** spec §9: export has a 120 s timeout. */
export const useExportPersons = () =>
  useMutation({
    mutationFn: (filters: PersonFilters) => downloadFile('POST', '/person/exportPerson', 'people.xlsx', { body: filters, timeout: TIMING.exportTimeout }),
  });

/** spec §6 / docs/api-people.md: reading needs rights.person ≥ 1, writing ≥ 2. */
export const usePersonRights = () => useRightLevel('person');
