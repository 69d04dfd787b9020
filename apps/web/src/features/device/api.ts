import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { TIMING, type Page } from '@faceadmin/shared';
import { useInvalidatingMutation } from '../../app/mutations.ts';
import { get, post } from '../../app/request.ts';
import { useRightLevel } from '../../app/session.ts';
import type {
  CommandKind,
  CommandResult,
  Device,
  DeviceBody,
  DeviceOptions,
  DeviceOrgNode,
  DeviceSpecial,
  LedgerItem,
  LedgerState,
  PersonDevice,
  SyncAnswer,
  SyncSummary,
  UnknownTerminal,
} from './types.ts';
import { needsRefresh } from './logic.ts';

export interface DeviceQuery {
  page: number;
  pageSize: number;
  keyword?: string | undefined;
  online?: 0 | 1 | undefined;
}

export interface LedgerQuery {
  id: number;
  page: number;
  pageSize: number;
  keyword?: string | undefined;
  state?: LedgerState | undefined;
}

export const deviceKeys = {
  all: ['device'] as const,
  list: (q: DeviceQuery) => ['device', 'list', q] as const,
  options: ['device', 'list', 'options'] as const,
  info: (id: number) => ['device', 'info', id] as const,
  ledger: (q: LedgerQuery) => ['device', 'ledger', q] as const,
  unknown: ['device', 'unknown'] as const,
  orgPersons: ['device', 'orgPersons'] as const,
  personDevices: (id: number) => ['device', 'personDevices', id] as const,
};

/** The punch list's device filter: the first 100 devices (the server's page limit), silent and not polled. */
export const useDeviceOptions = () =>
  useQuery({
    queryKey: deviceKeys.options,
    queryFn: () => get<Page<Device>>('/device/list', { page: 1, pageSize: 100 }, { silent: true }),
    staleTime: 60_000,
  });

/** The list follows the devices' presence: refreshed every few seconds. */
export const useDevices = (q: DeviceQuery) =>
  useQuery({
    queryKey: deviceKeys.list(q),
    queryFn: () => get<Page<Device>>('/device/list', { ...q }),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });

export const useDevice = (id: number, refetchInterval?: number | false) =>
  useQuery({ queryKey: deviceKeys.info(id), queryFn: () => get<Device>('/device/info', { id }), enabled: id > 0, refetchInterval });

export const useUnknownTerminals = (enabled: boolean) =>
  useQuery({ queryKey: deviceKeys.unknown, queryFn: () => get<UnknownTerminal[]>('/device/unknown'), enabled, refetchInterval: enabled ? 5000 : false });

/** spec: the ledger refreshes every 5 s while anything is still on its way to the device (`summary`: the device's sync counts). */
export const useLedger = (q: LedgerQuery, summary: SyncSummary | undefined) =>
  useQuery({
    queryKey: deviceKeys.ledger(q),
    queryFn: () => get<Page<LedgerItem>>('/device/persons', { ...q }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (needsRefresh(query.state.data?.items ?? [], summary) ? 5000 : false),
    enabled: q.id > 0,
  });

export const useOrgPersons = (enabled: boolean) =>
  useQuery({ queryKey: deviceKeys.orgPersons, queryFn: () => post<DeviceOrgNode[]>('/person/device_org_persons', {}), enabled, staleTime: 10_000 });

export const usePersonDevices = (personId: number | undefined) =>
  useQuery({
    queryKey: deviceKeys.personDevices(personId ?? 0),
    queryFn: () => get<PersonDevice[]>('/person/personSelectedDevice', { id: personId }),
    enabled: Boolean(personId),
    refetchInterval: 5000,
  });

/** Device changes move the list, the ledger and the people's sync states. */
const useDeviceMutation = <V, R>(fn: (v: V) => Promise<R>) => useInvalidatingMutation(fn, [deviceKeys.all, ['person']], { on: 'settled' });

export const useSaveDevice = () =>
  useDeviceMutation(({ id, body }: { id?: number | undefined; body: DeviceBody }) =>
    // validation errors mark the dialog's fields, so the dialog decides what to show
    id ? post<Device>('/device/update', { id, ...body }, { silent: true }) : post<Device>('/device/create', body, { silent: true }),
  );

export const useDeleteDevice = () => useDeviceMutation((id: number) => post<null>('/device/delete', { id }));

export const useSaveOptions = () =>
  useDeviceMutation((body: { id: number; options?: DeviceOptions; special?: DeviceSpecial }) => post<{ queued: number }>('/device/options', body));

/** Remote door open: the server waits up to 15 s for the device's answer. */
export const useOpenDoor = () => useDeviceMutation((id: number) => post<CommandResult>('/device/open', { id }, { timeout: TIMING.requestTimeout }));

export const useDeviceCommand = () =>
  useDeviceMutation((body: { id: number; kind: CommandKind; from?: string; to?: string }) => post<CommandResult>('/device/command', body));

export const useAddDevicePersons = () =>
  useDeviceMutation((body: { id: number; person_ids?: number[]; department_ids?: number[] }) =>
    post<{ added: number; skippedLeft: number }>('/device/persons/add', body),
  );

export const useRemoveDevicePersons = () =>
  useDeviceMutation((body: { id: number; person_ids: number[] }) => post<{ count: number }>('/device/persons/remove', body));

export const useRetryDevicePersons = () =>
  useDeviceMutation((body: { id: number; person_ids?: number[] }) => post<{ count: number }>('/device/persons/retry', body));

/**
 * POST /person/sync. spec §7: a 20 s timeout and its message hidden (offline devices are asked about, not toasted).
 * A sync that went through moves the people's sync states and the devices' ledgers.
 */
export const useSyncPersons = () =>
  useInvalidatingMutation(
    ({ ids, skipOffline }: { ids: number[]; skipOffline: boolean }) =>
      post<SyncAnswer>('/person/sync', { ids, ...(skipOffline ? { skip_offline: 1 } : {}) }, { timeout: TIMING.syncTimeout, silent: true }),
    [['person'], deviceKeys.all],
    { on: 'success' },
  );

/** docs/api-devices.md: reading needs rights.face ≥ 1, writing ≥ 2. */
export const useDeviceRights = () => useRightLevel('face');
