import { useMutation, useQuery } from '@tanstack/react-query';
import type { CaptchaImage } from '@faceadmin/shared';
import { get, post } from '../../app/request.ts';

export interface LoginBody {
  username: string;
  password: string;
  icode?: string;
  captcha_id?: string;
}

export interface RegisterBody {
  name: string;
  username: string;
  password: string;
  repassword: string;
  mobile: string;
  smscode: string;
  icode: string;
  captcha_id: string;
}

export interface ForgetBody {
  mobile: string;
  smscode: string;
  password: string;
  repassword: string;
}

export interface SmsBody {
  phone: string;
  purpose: 'register' | 'forget';
  icode: string;
  captcha_id: string;
}

/** GET /user/captcha, fetched only when `enabled`; refetch() gives a new image. */
export function useCaptcha(enabled: boolean) {
  return useQuery({
    queryKey: ['auth', 'captcha'],
    queryFn: () => get<CaptchaImage>('/user/captcha'),
    enabled,
    staleTime: Infinity,
    gcTime: 0,
  });
}

// Login is silent: the page turns 40002/40010 into its own messages (spec §8).
export const useLogin = () => useMutation({ mutationFn: (body: LoginBody) => post<{ token: string }>('/user/login', body, { silent: true }) });

export const useRegister = () => useMutation({ mutationFn: (body: RegisterBody) => post<{ token: string }>('/admin/register', body) });

export const useForget = () => useMutation({ mutationFn: (body: ForgetBody) => post<null>('/user/forget', body) });

export const useSendSms = () => useMutation({ mutationFn: (body: SmsBody) => post<{ cooldown: number }>('/user/sendsmscode', body) });
