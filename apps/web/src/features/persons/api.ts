import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  personsApi,
  TIMING,
  WORK_STATUS,
  type OrgPersonsNode,
  type Person,
  type PersonCreate,
  type PersonExportBody,
  type PersonListQuery,
  type PersonTransferBody,
} from '@faceadmin/shared';
import { useInvalidatingMutation } from '../../lib/mutations.ts';
import { useLiveInvalidate, useLiveOpen } from '../../lib/live.ts';
import { call, download, upload } from '../../lib/request.ts';
import { useRightLevel } from '../../lib/session.ts';
import { personToValues, syncFollowInterval, valuesToBody } from './logic.ts';

export const personKeys = {
  all: ['person'] as const,
  list: (q: PersonListQuery) => ['person', 'list', q] as const,
  search: (keyword: string) => ['person', 'search', keyword] as const,
  picker: (keyword: string) => ['person', 'picker', keyword] as const,
  orgOptions: ['person', 'orgOptions'] as const,
};

/** When people last changed in this tab; the list follows their sync state for a while after (logic.ts syncFollowInterval). */
let peopleChangedAt = 0;
export const markPeopleChanged = (): void => {
  peopleChangedAt = Date.now();
};

/** The list follows its people's sync states from the live stream (`sync` events); while the stream is down, by polling for a while after a change. */
export function usePersons(q: PersonListQuery) {
  const open = useLiveOpen();
  useLiveInvalidate(['sync'], personKeys.list(q), 1000);
  return useQuery({
    queryKey: personKeys.list(q),
    queryFn: () => call(personsApi.list, q, { inline: true }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (open ? false : syncFollowInterval(query.state.data?.items ?? [], peopleChangedAt, Date.now())),
  });
}

/** Department tree for pickers (TreeSelect shape). */
export const useOrgOptions = () => useQuery({ queryKey: personKeys.orgOptions, queryFn: () => call(personsApi.departmentOptions), staleTime: 30_000 });

export const fetchNextNumber = () => call(personsApi.nextNumber, undefined, { silent: true });

/** Search for the department-heads picker; `keyword` undefined = not searched yet. The last answer stays while the next loads. */
export const usePersonSearch = (keyword: string | undefined) =>
  useQuery({
    queryKey: personKeys.search(keyword ?? ''),
    queryFn: () => call(personsApi.list, { page: 1, pageSize: 20, keyword: keyword || undefined }),
    enabled: keyword !== undefined,
    placeholderData: keepPreviousData,
  });

/**
 * Working people for a picker by name or number (the attendance rule's people): over /person/device_org_persons, which
 * an attendance administrator may read too (ids, numbers and names only); the first 20, each once.
 */
export const usePersonPicker = (keyword: string | undefined) =>
  useQuery({
    queryKey: personKeys.picker(keyword ?? ''),
    queryFn: async () => {
      const seen = new Map<number, { id: number; number: string; name: string }>();
      const walk = (nodes: OrgPersonsNode[]) => {
        for (const n of nodes) {
          for (const p of n.persons) seen.set(p.id, p);
          walk(n.children);
        }
      };
      walk(await call(personsApi.orgPersons, { keyword: keyword || undefined }));
      return [...seen.values()].slice(0, 20);
    },
    enabled: keyword !== undefined,
    placeholderData: keepPreviousData,
  });

/** People changes move department counts too. */
const usePersonMutation = <V, R>(fn: (v: V) => Promise<R>) =>
  useInvalidatingMutation(fn, [personKeys.all, ['org']], { on: 'success', before: markPeopleChanged });

export const useSavePerson = () =>
  usePersonMutation(({ id, body }: { id?: number | undefined; body: PersonCreate }) =>
    // validation errors mark the form fields, so the drawer decides what to show
    id ? call(personsApi.update, { id, ...body }, { silent: true }) : call(personsApi.create, body, { silent: true }),
  );

/** Silent: a refusal because of history (409) opens the table's "mark as left" dialog instead of a toast. */
export const useDeletePersons = () =>
  usePersonMutation((ids: number[]) =>
    ids.length === 1 ? call(personsApi.delete, { id: ids[0]! }, { silent: true }) : call(personsApi.deleteMany, { ids }, { silent: true }),
  );

/** Marks someone as left (the alternative to deleting a person with history): the row saved as it is, left. */
export const useMarkLeft = () =>
  usePersonMutation((p: Person) => call(personsApi.update, { id: p.id, ...valuesToBody({ ...personToValues(p), workStatus: WORK_STATUS.left }, p) }));

/** A privacy request: the person becomes an anonymous placeholder, their records stay (docs/attendance.md). */
/** spec §7 bindAdmin: the company's person ↔ administrator account links (main administrators only). */
export function useAdminLinks(enabled: boolean) {
  return useQuery({ queryKey: ['person', 'adminLinks'], queryFn: () => call(personsApi.fetchAdmin, {}), enabled });
}
export const useLinkAdmin = () => usePersonMutation((body: { person_id: number; admin_id: number }) => call(personsApi.bindAdmin, body));
export const useUnlinkAdmin = () => usePersonMutation((body: { company_id: number; person_id: number }) => call(personsApi.unbindAdmin, body));

export const useErasePerson = () => usePersonMutation((id: number) => call(personsApi.erase, { id }));

export const useTransferPersons = () => usePersonMutation((body: PersonTransferBody) => call(personsApi.transfer, body));

export const useImportPersons = () =>
  usePersonMutation(
    ({ file, strict, createDepartments, onProgress }: { file: File; strict: boolean; createDepartments: boolean; onProgress: (p: number) => void }) => {
      const form = new FormData();
      // fields before the file: the server reads the parts in order
      form.append('strict', strict ? '1' : '0');
      form.append('create_departments', createDepartments ? '1' : '0');
      form.append('file', file);
      return upload(personsApi.import, form, { onProgress, timeout: TIMING.exportTimeout });
    },
  );

export const useImportPhotos = () =>
  usePersonMutation(({ file, onProgress }: { file: File; onProgress: (p: number) => void }) => {
    const form = new FormData();
    form.append('file', file);
    return upload(personsApi.importPhotos, form, { onProgress, timeout: TIMING.exportTimeout });
  });

export const uploadFace = (file: Blob, name: string) => {
  const form = new FormData();
  form.append('file', file, name);
  return upload(personsApi.upload, form);
};

/** Downloads run as mutations for their busy flag; failures are shown by the API client. */
export const useDownloadTemplate = () => useMutation({ mutationFn: () => download(personsApi.template, 'people-template.xlsx') });

/** spec §9: export has a 120 s timeout. */
export const useExportPersons = () =>
  useMutation({
    mutationFn: (filters: PersonExportBody) => download(personsApi.export, 'people.xlsx', { body: filters, timeout: TIMING.exportTimeout }),
  });

/** spec §6 / docs/api-people.md: reading needs rights.person ≥ 1, writing ≥ 2. */
export const usePersonRights = () => useRightLevel('person');
