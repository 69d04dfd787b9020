import { useMutation, useQuery } from '@tanstack/react-query';
import { authApi, type ForgetBody, type LoginBody, type RegisterBody, type SmsBody } from '@faceadmin/shared';
import { call } from '../../lib/request.ts';

/** GET /user/captcha, fetched only when `enabled`; refetch() gives a new image. */
export function useCaptcha(enabled: boolean) {
  return useQuery({
    queryKey: ['auth', 'captcha'],
    queryFn: () => call(authApi.captcha),
    enabled,
    staleTime: Infinity,
    gcTime: 0,
  });
}

// Login is silent: the page turns 40002/40010 into its own messages (spec §8).
export const useLogin = () => useMutation({ mutationFn: (body: LoginBody) => call(authApi.login, body, { silent: true }) });

export const useRegister = () => useMutation({ mutationFn: (body: RegisterBody) => call(authApi.register, body) });

export const useForget = () => useMutation({ mutationFn: (body: ForgetBody) => call(authApi.forget, body) });

export const useSendSms = () => useMutation({ mutationFn: (body: SmsBody) => call(authApi.sendSmsCode, body) });
