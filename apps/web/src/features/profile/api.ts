import { useMutation, useQuery } from '@tanstack/react-query';
import { get, post } from '../../app/request.ts';
import { setToken } from '../../app/token.ts';

export interface ChangePasswordBody {
  orig: string;
  new: string;
  renew: string;
}

/** POST /user/changepwd ends the other sessions; the envelope's refreshToken (and data.token) is the new one. */
export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: ChangePasswordBody) => post<{ token?: string } | null>('/user/changepwd', body),
    onSuccess: (data) => {
      if (data?.token) setToken(data.token);
    },
  });

export interface TransferCandidate {
  id: number;
  name: string;
}

export const useTransferSearch = (keyword: string, enabled: boolean) =>
  useQuery({
    queryKey: ['admin', 'transfer', keyword],
    queryFn: () => get<{ items: TransferCandidate[]; total: number }>('/admin/transfer/search', { keyword }),
    enabled,
  });

/** Silent: the dialog shows the failure message itself (spec §2 admin-transfer dialog). */
export const useTransfer = () => useMutation({ mutationFn: (adminId: number) => post<null>('/admin/transfer', { admin_id: adminId }, { silent: true }) });
