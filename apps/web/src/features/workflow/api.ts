import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  API_PREFIX,
  TIMING,
  workflowApi,
  type AppInput,
  type ApplicationExport,
  type ApplicationQuery,
  type ApplyForBody,
  type DecideBody,
  type FormSchema,
  type ProcessTree,
  type WithdrawBody,
} from '@faceadmin/shared';
import { useExportWithProgress, useInvalidatingMutation } from '../../lib/mutations.ts';
import { call, download, upload } from '../../lib/request.ts';
import type { PickSource } from './components/Pickers.tsx';

/** The console's approvals (issue #11): query hooks over the `workflowApi` entries. */
export const workflowKeys = {
  all: ['workflow'] as const,
  apps: ['workflow', 'apps'] as const,
  app: (id: number) => ['workflow', 'app', id] as const,
  form: (id: number) => ['workflow', 'form', id] as const,
  process: (id: number) => ['workflow', 'process', id] as const,
  records: ['workflow', 'records'] as const,
  list: (q: ApplicationQuery) => ['workflow', 'records', 'list', q] as const,
  detail: (id: number) => ['workflow', 'records', 'detail', id] as const,
};

export const useApps = () => useQuery({ queryKey: workflowKeys.apps, queryFn: () => call(workflowApi.apps, undefined, { inline: true }) });
export const useApp = (id: number) =>
  useQuery({ queryKey: workflowKeys.app(id), queryFn: () => call(workflowApi.app, { id }, { inline: true }), enabled: id > 0 });
export const useForm = (id: number) =>
  useQuery({ queryKey: workflowKeys.form(id), queryFn: () => call(workflowApi.form, { id }, { inline: true }), enabled: id > 0 });
export const useProcess = (id: number) =>
  useQuery({ queryKey: workflowKeys.process(id), queryFn: () => call(workflowApi.process, { id }, { inline: true }), enabled: id > 0 });

/** The workflow's own people and departments (an administrator with only the workflow right has no people right). */
export const consoleSource: PickSource = {
  scope: 'workflow',
  people: (q) => call(workflowApi.people, q, { silent: true }),
  departments: () => call(workflowApi.departments, undefined, { silent: true }),
};

/** Working people's names by id (the process designer names the approvers a saved process lists by id). */
export const usePeopleNames = () =>
  useQuery({
    queryKey: ['workflow', 'peopleNames'] as const,
    queryFn: async () => {
      const names = new Map<number, string>();
      // pages of 100, at most 5,000 people: past that a saved approver shows by number until searched
      for (let page = 1; page <= 50; page++) {
        const r = await consoleSource.people({ page, pageSize: 100 });
        for (const p of r.items) names.set(p.id, p.name);
        if (page * 100 >= r.total) break;
      }
      return names;
    },
    staleTime: 60_000,
  });

const useWorkflowMutation = <V, R>(fn: (v: V) => Promise<R>) => useInvalidatingMutation(fn, [workflowKeys.all], { on: 'success' });

export const useSaveApp = () =>
  // validation errors mark the drawer's fields: the drawer shows them
  useWorkflowMutation(({ id, body }: { id?: number | undefined; body: AppInput }) =>
    id ? call(workflowApi.updateApp, { id, ...body }, { silent: true }) : call(workflowApi.createApp, body, { silent: true }),
  );
export const useEnableApp = () => useWorkflowMutation((v: { id: number; enabled: boolean }) => call(workflowApi.enableApp, v));
export const useCopyApp = () => useWorkflowMutation((v: { id: number; name?: string }) => call(workflowApi.copyApp, v));
export const useDeleteApp = () => useWorkflowMutation((id: number) => call(workflowApi.deleteApp, { id }));
/** The designers show the server's reasons where they concern: no toast. */
export const useSaveForm = () => useWorkflowMutation((v: { app_id: number; schema: FormSchema }) => call(workflowApi.saveForm, v, { silent: true }));
export const useSaveProcess = () => useWorkflowMutation((v: { app_id: number; process: ProcessTree }) => call(workflowApi.saveProcess, v, { silent: true }));

export const useApplications = (q: ApplicationQuery) =>
  useQuery({
    queryKey: workflowKeys.list(q),
    queryFn: () => call(workflowApi.applications, q, { inline: true }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
export const useApplication = (id: number | undefined) =>
  useQuery({ queryKey: workflowKeys.detail(id ?? 0), queryFn: () => call(workflowApi.application, { id: id! }, { inline: true }), enabled: !!id });

export const useApplyFor = () => useWorkflowMutation((body: ApplyForBody) => call(workflowApi.applyFor, body, { silent: true }));
export const useDecide = () => useWorkflowMutation((body: DecideBody) => call(workflowApi.decide, body));
export const useWithdraw = () => useWorkflowMutation((body: WithdrawBody) => call(workflowApi.withdraw, body));
export const useSignInLink = () => useMutation({ mutationFn: (person_id: number) => call(workflowApi.link, { person_id }) });

/** The duration of a period in the applicant's working time (the form shows it as the range is picked). */
export const fetchDuration = (from: string, to: string, personId?: number) =>
  call(workflowApi.duration, { from, to, ...(personId ? { person_id: personId } : {}) }, { silent: true });

/** A picture or attachment for a form the administrator fills (applying on someone's behalf). */
export const uploadWorkflowFile = (kind: 'picture' | 'attachment', file: File) => {
  const form = new FormData();
  // the kind before the file: the server reads the parts in order
  form.append('kind', kind);
  form.append('file', file);
  return upload(workflowApi.upload, form, { timeout: TIMING.exportTimeout });
};
/** Where the console opens an application's picture or attachment (its session cookie lets the browser in). */
export const workflowFileUrl = (name: string) => `${API_PREFIX}${workflowApi.file.path.replace(':name', encodeURIComponent(name))}`;

/** The export streams: the bytes received so far (spec §9: the export timeout). */
export const useExportApplications = () =>
  useExportWithProgress((f: ApplicationExport, onProgress) =>
    download(workflowApi.export, 'approvals.xlsx', { body: f, timeout: TIMING.exportTimeout, onProgress }),
  );
export const useApprovalTemplate = () => useMutation({ mutationFn: () => download(workflowApi.template, 'approvals-template.xlsx') });
export const useImportApprovals = () =>
  useWorkflowMutation(({ file, onProgress }: { file: File; onProgress: (p: number) => void }) => {
    const form = new FormData();
    form.append('file', file);
    return upload(workflowApi.import, form, { onProgress, timeout: TIMING.exportTimeout });
  });
