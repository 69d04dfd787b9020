import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { managersApi, type ManagerListQuery } from '@faceadmin/shared';
import { useInvalidatingMutation } from '../../lib/mutations.ts';
import { call } from '../../lib/request.ts';
import type { ManagerFormValues } from './logic.ts';

const keys = { all: ['manager'] as const, list: (q: ManagerListQuery) => ['manager', 'list', q] as const };

export const useManagers = (q: ManagerListQuery) =>
  useQuery({
    queryKey: keys.list(q),
    queryFn: () => call(managersApi.list, q, { inline: true }),
    placeholderData: keepPreviousData,
  });

const useManagerMutation = <V>(fn: (v: V) => Promise<unknown>) => useInvalidatingMutation(fn, [keys.all], { on: 'success' });

export const useCreateManager = () => useManagerMutation((body: ManagerFormValues) => call(managersApi.create, body));

/** Blank password keeps the current one (docs/api-foundation.md), so empty fields are not sent. */
export const useUpdateManager = () =>
  useManagerMutation(({ id, body }: { id: number; body: ManagerFormValues }) => {
    const { username: _username, password, repassword, ...rest } = body;
    return call(managersApi.update, { id, ...rest, ...(password ? { password, repassword } : {}) });
  });

export const useDeleteManager = () => useManagerMutation((id: number) => call(managersApi.delete, { id }));
