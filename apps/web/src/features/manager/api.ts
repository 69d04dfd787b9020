import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminRole, FunctionRight, Manager, ManagerStatus, Page } from '@faceadmin/shared';
import { useInvalidatingMutation } from '../../app/mutations.ts';
import { get, post } from '../../app/request.ts';

export interface ManagerQuery {
  page: number;
  pageSize: number;
  keyword?: string;
  status?: ManagerStatus;
}

export interface ManagerInput {
  name: string;
  username: string;
  mobile: string;
  status: ManagerStatus;
  role: AdminRole;
  rights: FunctionRight[];
  password?: string;
  repassword?: string;
}

const keys = { all: ['manager'] as const, list: (q: ManagerQuery) => ['manager', 'list', q] as const };

export const useManagers = (q: ManagerQuery) =>
  useQuery({
    queryKey: keys.list(q),
    queryFn: () => get<Page<Manager>>('/manager/list', { ...q }),
    placeholderData: keepPreviousData,
  });

const useManagerMutation = <V>(fn: (v: V) => Promise<unknown>) => useInvalidatingMutation(fn, [keys.all], { on: 'success' });

export const useCreateManager = () => useManagerMutation((body: ManagerInput) => post<Manager>('/manager/create', body));

/** Blank password keeps the current one (docs/api-foundation.md), so empty fields are not sent. */
export const useUpdateManager = () =>
  useManagerMutation(({ id, body }: { id: number; body: ManagerInput }) => {
    const { username: _username, password, repassword, ...rest } = body;
    return post<Manager>('/manager/update', { id, ...rest, ...(password ? { password, repassword } : {}) });
  });

export const useDeleteManager = () => useManagerMutation((id: number) => post<null>('/manager/delete', { id }));
