import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminRole, Company } from '@faceadmin/shared';
import { get, post } from '../../app/request.ts';
import { sessionKeys } from '../../app/session.ts';

export type CompanyInput = Omit<Company, 'id' | 'created_at'>;

export interface CompanyListItem {
  id: number;
  name: string;
  address: string;
  phone: string;
  role: AdminRole;
  is_init: number;
  current: boolean;
}

export const companyKeys = {
  info: ['company', 'info'] as const,
  list: ['company', 'list'] as const,
};

export const useCompanyInfo = (enabled: boolean) => useQuery({ queryKey: companyKeys.info, queryFn: () => get<Company>('/company/info'), enabled });

export const useCompanyList = () =>
  useQuery({
    queryKey: companyKeys.list,
    queryFn: () => get<{ items: CompanyListItem[]; total: number }>('/company/list'),
  });

/** Creating a company makes it the current one, so the session profile is refetched before moving on. */
export function useCreateCompany() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<CompanyInput>) => post<Company>('/company/create', body),
    onSuccess: async () => {
      await qc.refetchQueries({ queryKey: sessionKeys.info });
      await qc.invalidateQueries({ queryKey: ['company'] });
    },
  });
}

export function useUpdateCompany() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanyInput) => post<Company>('/company/update', body),
    onSuccess: async (company) => {
      qc.setQueryData(companyKeys.info, company);
      await qc.invalidateQueries({ queryKey: sessionKeys.info });
      await qc.invalidateQueries({ queryKey: companyKeys.list });
    },
  });
}

/** POST /admin/setDefaultCompany; the caller reloads the app at / (spec §2 company switcher). */
export const useSwitchCompany = () => useMutation({ mutationFn: (companyId: number) => post<null>('/admin/setDefaultCompany', { company_id: companyId }) });
