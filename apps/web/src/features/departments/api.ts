import { useQuery } from '@tanstack/react-query';
import { departmentsApi, type DepartmentCreate, type DepartmentUpdate } from '@faceadmin/shared';
import { useInvalidatingMutation } from '../../lib/mutations.ts';
import { call } from '../../lib/request.ts';

export const orgKeys = { tree: ['org', 'tree'] as const };

export const useDepartmentTree = () => useQuery({ queryKey: orgKeys.tree, queryFn: () => call(departmentsApi.tree, undefined, { inline: true }) });

/** Any department change also changes the pickers (personOrgOptions) and the people's department names. */
const useOrgMutation = <V, R>(fn: (v: V) => Promise<R>) => useInvalidatingMutation(fn, [['org'], ['person']], { on: 'settled' });

export const useCreateDepartment = () => useOrgMutation((body: DepartmentCreate) => call(departmentsApi.create, body));
export const useUpdateDepartment = () => useOrgMutation((body: DepartmentUpdate) => call(departmentsApi.update, body));
export const useDeleteDepartment = () => useOrgMutation((id: number) => call(departmentsApi.delete, { id }));

/** One drop can reorder several siblings: the moved department first (the server may refuse it), then the others. */
export const useMoveDepartment = () =>
  useOrgMutation(async (updates: DepartmentUpdate[]) => {
    for (const u of updates) await call(departmentsApi.update, u);
  });
