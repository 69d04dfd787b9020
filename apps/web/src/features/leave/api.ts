import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { leaveApi, TIMING, type LeaveBalanceExport, type LeaveBalanceQuery, type LeavePolicy, type SetLeaveBalance } from '@faceadmin/shared';
import { call, download, upload } from '../../lib/request.ts';
import { useExportWithProgress, useInvalidatingMutation } from '../../lib/mutations.ts';

/** Leave balances (#17 item 15): the report, quotas, the rule per leave type. */
export const leaveKeys = { all: ['leave'] as const, policies: ['leave', 'policies'] as const };

export const useLeavePolicies = () => useQuery({ queryKey: leaveKeys.policies, queryFn: () => call(leaveApi.policies, undefined, { inline: true }) });
export const useSaveLeavePolicy = () => useInvalidatingMutation((body: LeavePolicy) => call(leaveApi.savePolicy, body), [leaveKeys.all], { on: 'success' });

export const useLeaveBalances = (q: LeaveBalanceQuery, enabled: boolean) =>
  useQuery({
    queryKey: ['leave', 'list', q],
    queryFn: () => call(leaveApi.list, q, { inline: true }),
    enabled,
    placeholderData: keepPreviousData,
  });
export const useSetLeaveBalance = () => useInvalidatingMutation((body: SetLeaveBalance) => call(leaveApi.set, body), [leaveKeys.all], { on: 'success' });

export const useExportLeaveBalances = () =>
  useExportWithProgress((body: LeaveBalanceExport, onProgress) =>
    download(leaveApi.export, `leave-balances-${body.year}.xlsx`, { body, timeout: TIMING.exportTimeout, onProgress }),
  );
export const useImportLeaveBalances = () =>
  useInvalidatingMutation(
    ({ file, onProgress }: { file: File; onProgress: (p: number) => void }) => {
      const form = new FormData();
      form.append('file', file);
      return upload(leaveApi.import, form, { onProgress, timeout: TIMING.exportTimeout });
    },
    [leaveKeys.all],
    { on: 'success' },
  );
