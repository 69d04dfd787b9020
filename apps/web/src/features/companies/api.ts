import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { companiesApi, type CompanyInput } from '@faceadmin/shared';
import { flashAfterReload } from '../../lib/flash.ts';
import { call } from '../../lib/request.ts';
import { sessionKeys } from '../../lib/session.ts';

export const companyKeys = {
  info: ['company', 'info'] as const,
  list: ['company', 'list'] as const,
};

export const useCompanyInfo = (enabled: boolean) =>
  useQuery({ queryKey: companyKeys.info, queryFn: () => call(companiesApi.info, undefined, { inline: true }), enabled });

export const useCompanyList = () => useQuery({ queryKey: companyKeys.list, queryFn: () => call(companiesApi.list, undefined, { inline: true }) });

/** Creating a company makes it the current one, so the session profile is refetched before moving on. */
export function useCreateCompany() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanyInput) => call(companiesApi.create, body),
    onSuccess: async () => {
      await qc.refetchQueries({ queryKey: sessionKeys.info });
      await qc.invalidateQueries({ queryKey: ['company'] });
    },
  });
}

export function useUpdateCompany() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanyInput) => call(companiesApi.update, body),
    onSuccess: async (company) => {
      qc.setQueryData(companyKeys.info, company);
      await qc.invalidateQueries({ queryKey: sessionKeys.info });
      await qc.invalidateQueries({ queryKey: companyKeys.list });
    },
  });
}

/**
 * spec §2 company switcher: POST /admin/setDefaultCompany, then the app reloads at / and says
 * 'Company switching success' once it has (a toast shown before the reload would go with the old page).
 */
export const useSwitchCompany = () =>
  useMutation({
    mutationFn: (companyId: number) => call(companiesApi.setDefault, { company_id: companyId }),
    onSuccess: () => {
      flashAfterReload('layout.company.switchSuccess');
      window.location.assign('/');
    },
  });

/** GET /company/diagnostics: only asked for while the company's internal-testing option is on (user.debug). */
export const useDiagnostics = (enabled: boolean) =>
  useQuery({
    queryKey: ['company', 'diagnostics'],
    queryFn: () => call(companiesApi.diagnostics, undefined, { inline: true }),
    enabled,
    refetchInterval: 10_000,
  });
