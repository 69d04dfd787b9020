import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { companiesApi, parkingApi, type DzgBindBody, type DzgRegisterBody } from '@faceadmin/shared';
import { call } from '../../lib/request.ts';
import { sessionKeys } from '../../lib/session.ts';

export const parkingKeys = {
  check: (code: string) => ['parking', 'check', code] as const,
  bindings: ['parking', 'bindings'] as const,
};

/** POST /dzg/check: what the code binds; its refusal is shown on the page (inline). */
export const useDzgCheck = (code: string) =>
  useQuery({
    queryKey: parkingKeys.check(code),
    queryFn: () => call(parkingApi.check, { code }, { inline: true }),
    enabled: code !== '',
    retry: false,
    staleTime: Infinity,
  });

export function useDzgBind() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DzgBindBody) => call(parkingApi.bind, body, { inline: true }),
    // not the check: the code is used up now, and the page shows the binding instead
    onSuccess: () => qc.invalidateQueries({ queryKey: parkingKeys.bindings }),
  });
}

export const dzgRegister = (body: DzgRegisterBody) => call(parkingApi.register, body);

/** The binding page switches to the code's company without reloading (it is outside the console's shell). */
export function useDzgSwitchCompany() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (companyId: number) => call(companiesApi.setDefault, { company_id: companyId }),
    onSuccess: () => qc.invalidateQueries({ queryKey: sessionKeys.info }),
  });
}

export const useParkingBindings = (enabled: boolean) =>
  useQuery({ queryKey: parkingKeys.bindings, queryFn: () => call(parkingApi.bindings, undefined, { inline: true }), enabled });

export function useUnbindParking() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(parkingApi.unbind, { id }),
    onSuccess: () => qc.invalidateQueries({ queryKey: parkingKeys.bindings }),
  });
}
