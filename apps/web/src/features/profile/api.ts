import { useMutation, useQuery } from '@tanstack/react-query';
import { authApi, managersApi, type ChangePwdBody } from '@faceadmin/shared';
import { call } from '../../lib/request.ts';
import { setToken } from '../../lib/token.ts';

/** POST /user/changepwd ends the other sessions; the envelope's refreshToken (and data.token) is the new one. */
export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: ChangePwdBody) => call(authApi.changePassword, body),
    onSuccess: (data) => {
      if (data.token) setToken(data.token);
    },
  });

export const useTransferSearch = (keyword: string, enabled: boolean) =>
  useQuery({
    queryKey: ['admin', 'transfer', keyword],
    queryFn: () => call(managersApi.transferSearch, { keyword }),
    enabled,
  });

/** Silent: the dialog shows the failure message itself (spec §2 admin-transfer dialog). */
export const useTransfer = () => useMutation({ mutationFn: (adminId: number) => call(managersApi.transfer, { admin_id: adminId }, { silent: true }) });
