import { useQuery } from '@tanstack/react-query';
import type { DepartmentNode } from '@faceadmin/shared';
import { useInvalidatingMutation } from '../../app/mutations.ts';
import { get, post } from '../../app/request.ts';

export const orgKeys = { tree: ['org', 'tree'] as const };

export interface DepartmentInput {
  name: string;
  parent_id?: number;
  sort?: number;
  incharges?: number[];
}

export const useDepartmentTree = () => useQuery({ queryKey: orgKeys.tree, queryFn: () => get<DepartmentNode[]>('/org/tree') });

/** Any department change also changes the pickers (personOrgOptions) and the people's department names. */
const useOrgMutation = <V, R>(fn: (v: V) => Promise<R>) => useInvalidatingMutation(fn, [['org'], ['person']], { on: 'settled' });

export const useCreateDepartment = () => useOrgMutation((body: DepartmentInput) => post<{ id: number }>('/org/create', body));
export const useUpdateDepartment = () => useOrgMutation((body: DepartmentInput & { id: number }) => post<null>('/org/update', body));
export const useDeleteDepartment = () => useOrgMutation((id: number) => post<null>('/org/delete', { id }));

/** One drop can reorder several siblings: the moved department first (the server may refuse it), then the others. */
export const useMoveDepartment = () =>
  useOrgMutation(async (updates: (DepartmentInput & { id: number })[]) => {
    for (const u of updates) await post<null>('/org/update', u);
  });
