import { useEffect, useState } from 'react';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  devicesApi,
  firmwareApi,
  type FirmwareUpgrade,
  type LogCapture,
  personsApi,
  TIMING,
  type DeviceCommandBody,
  type DeviceScanBody,
  type DeviceListQuery,
  type DeviceOptionsBody,
  type DeviceAddPersonsBody,
  type DevicePersonsBody,
  type DeviceUpdate,
  type LedgerQuery,
  type RosterApplyBody,
  type RosterApplyJob,
  type RosterRemoveBody,
  type RosterQuery,
  type RosterSiteApplyBody,
  type RosterSiteQuery,
  type CommandResult,
  type Ref,
  type SyncSummary,
} from '@faceadmin/shared';
import { useInvalidatingMutation } from '../../lib/mutations.ts';
import { useLiveInvalidate, useLiveOpen } from '../../lib/live.ts';
import { call, download, upload } from '../../lib/request.ts';
import { useRightLevel } from '../../lib/session.ts';
import { markPeopleChanged } from '../persons/api.ts';
import { needsRefresh } from './logic.ts';

export const deviceKeys = {
  all: ['device'] as const,
  list: (q: DeviceListQuery) => ['device', 'list', q] as const,
  options: ['device', 'list', 'options'] as const,
  info: (id: number) => ['device', 'info', id] as const,
  rosterApply: (id: number) => ['device', 'rosterApply', id] as const,
  rosterApplyCurrent: ['device', 'rosterApply', 'current'] as const,
  ledger: (q: LedgerQuery) => ['device', 'ledger', q] as const,
  unknown: ['device', 'unknown'] as const,
  orgPersons: ['device', 'orgPersons'] as const,
  names: ['device', 'names'] as const,
  personDevices: (id: number) => ['device', 'personDevices', id] as const,
  firmware: ['device', 'firmware'] as const,
  upgrades: ['device', 'firmware', 'upgrades'] as const,
  logs: (id: number) => ['device', 'logs', id] as const,
  roster: (q: RosterQuery) => ['device', 'roster', q] as const,
  rosterSite: (q: RosterSiteQuery) => ['device', 'rosterSite', q] as const,
  commandResult: (id: number) => ['device', 'commandResult', id] as const,
};

/**
 * A list's device filter (punches, health, alcohol, strangers): every device's id and name, which an attendance
 * administrator may read too (GET /device/names); not polled.
 */
export const useDeviceNames = () => useQuery({ queryKey: deviceKeys.names, queryFn: () => call(devicesApi.names), staleTime: 60_000 });

/**
 * The first 100 devices in full (the server's page limit; face-device view, so asked only with it: `enabled`), silent and
 * not polled: firmware, the guard desk.
 */
export const useDeviceOptions = (enabled = true) =>
  useQuery({
    queryKey: deviceKeys.options,
    queryFn: () => call(devicesApi.list, { page: 1, pageSize: 100 }, { silent: true }),
    staleTime: 60_000,
    enabled,
  });

/**
 * The list follows the devices' presence, reports and sync from the live stream; polled every 5 s while the stream
 * is down (and every 30 s regardless: the clock drift and a few counts change without an event).
 */
export function useDevices(q: DeviceListQuery) {
  const open = useLiveOpen();
  useLiveInvalidate(['device', 'sync', 'command'], deviceKeys.all, 1000);
  return useQuery({
    queryKey: deviceKeys.list(q),
    queryFn: () => call(devicesApi.list, q, { inline: true }),
    placeholderData: keepPreviousData,
    refetchInterval: open ? 30_000 : 5000,
  });
}

/** One device, refreshed every `refetchInterval` ms until a load fails (an unknown id is not asked for again and again). */
export const useDevice = (id: number, refetchInterval?: number) =>
  useQuery({
    queryKey: deviceKeys.info(id),
    queryFn: () => call(devicesApi.info, { id }, { inline: true }),
    enabled: id > 0,
    refetchInterval: (query) => (query.state.status === 'error' ? false : (refetchInterval ?? false)),
  });

/** Scanning an address range for ISAPI terminals (at most 256 addresses, a few seconds each at worst: a minute's patience). */
export const useScanNetwork = () => useMutation({ mutationFn: (body: DeviceScanBody) => call(devicesApi.scan, body, { silent: true, timeout: 90_000 }) });

export const useUnknownTerminals = (enabled: boolean) =>
  useQuery({ queryKey: deviceKeys.unknown, queryFn: () => call(devicesApi.unknown), enabled, refetchInterval: enabled ? 5000 : false });

/** spec: the ledger refreshes every 5 s while anything is still on its way to the device (`summary`: the device's sync counts). */
export const useLedger = (q: LedgerQuery, summary: SyncSummary | undefined) =>
  useQuery({
    queryKey: deviceKeys.ledger(q),
    queryFn: () => call(devicesApi.ledger, q, { inline: true }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (needsRefresh(query.state.data?.items ?? [], summary) ? 5000 : false),
    enabled: (q.id ?? 0) > 0,
  });

export const useOrgPersons = (enabled: boolean) =>
  useQuery({ queryKey: deviceKeys.orgPersons, queryFn: () => call(personsApi.orgPersons, {}), enabled, staleTime: 10_000 });

export const usePersonDevices = (personId: number | undefined) =>
  useQuery({
    queryKey: deviceKeys.personDevices(personId ?? 0),
    queryFn: () => call(devicesApi.personDevices, { id: personId ?? 0 }, { inline: true }),
    enabled: Boolean(personId),
    refetchInterval: 5000,
  });

/** Device changes move the list, the ledger and the people's sync states. */
const useDeviceMutation = <V, R>(fn: (v: V) => Promise<R>) =>
  useInvalidatingMutation(fn, [deviceKeys.all, ['person']], { on: 'settled', before: markPeopleChanged });

export const useSaveDevice = () =>
  useDeviceMutation(({ id, body }: { id?: number | undefined; body: Omit<DeviceUpdate, 'id'> }) =>
    // validation errors mark the dialog's fields, so the dialog decides what to show
    id
      ? call(devicesApi.update, { id, ...body }, { silent: true })
      : // a new device's body always carries the password (valuesToDeviceBody)
        call(devicesApi.create, { ...body, password: body.password ?? '' }, { silent: true }),
  );

export const useDeleteDevice = () => useDeviceMutation((id: number) => call(devicesApi.delete, { id }));

export const useSaveOptions = () => useDeviceMutation((body: DeviceOptionsBody) => call(devicesApi.options, body));

/** Remote door open: queued at once (the console says so); the answer comes at the terminal's next poll. */
export const useOpenDoor = () => useDeviceMutation((id: number) => call(devicesApi.open, { id, wait: 0 }));

/** A queued command's outcome: the server holds the call up to 10 s while the terminal has not answered. */
export const awaitCommand = (commandId: number) => call(devicesApi.commandResult, { id: commandId, wait: 10 }, { timeout: TIMING.requestTimeout });

/**
 * What a terminal holds as its last roster read brought it (issue #30), a page at a time; refreshed every
 * `refetchInterval` ms while a read runs.
 */
/**
 * What a terminal holds, as read (issue #30): asked again every 2 s while a read runs, and while a removal shown is on
 * its way (the user leaves the list once the terminal confirms).
 */
export const useRoster = (q: RosterQuery, reading: boolean) =>
  useQuery({
    queryKey: deviceKeys.roster(q),
    queryFn: () => call(devicesApi.roster, q, { inline: true }),
    placeholderData: keepPreviousData,
    enabled: q.id > 0,
    // also while a removal is on its way, or faces are still being checked (their verdicts come after the read)
    refetchInterval: (query) =>
      reading || query.state.data?.items.some((r) => r.removing) || (query.state.data?.counts.faceUnchecked ?? 0) > 0 ? 2000 : false,
  });

/** A queued command's outcome, asked every 2 s until the terminal has answered (`id` 0: no command to follow). */
const commandResultQuery = (id: number) => ({
  queryKey: deviceKeys.commandResult(id),
  queryFn: () => call(devicesApi.commandResult, { id, wait: 0 }, { inline: true }),
  enabled: id > 0,
  refetchInterval: (query: { state: { data?: CommandResult | undefined } }) => (query.state.data && query.state.data.state !== 'pending' ? false : 2000),
});
export const useCommandResult = (id: number) => useQuery(commandResultQuery(id));

/** Several queued commands' outcomes at once (one terminal's read each), each asked every 2 s until it has answered. */
export const useCommandResults = (ids: readonly number[]) => useQueries({ queries: ids.map(commandResultQuery) });

/**
 * The whole site's take-over review (issue #30, "several terminals, one person"): every number the company's terminals
 * hold, once; asked again every 2 s while a read of the terminals runs.
 */
export const useRosterSite = (q: RosterSiteQuery, reading: boolean) =>
  useQuery({
    queryKey: deviceKeys.rosterSite(q),
    queryFn: () => call(devicesApi.rosterSite, q, { inline: true }),
    placeholderData: keepPreviousData,
    // also while faces are still being checked (their verdicts come after the read)
    refetchInterval: (query) => (reading || (query.state.data?.counts.faceUnchecked ?? 0) > 0 ? 2000 : false),
  });

/** One terminal's part of reading the whole site: its queued read, or why it was not queued. */
export interface SiteRead {
  device: Ref;
  command: CommandResult | undefined;
  error: string;
}

/**
 * Reading every terminal of the company (issue #30): a `readRoster` queued for each device (GET /device/names lists
 * them all, unpaged); a device the server refuses is reported in the answer, not toasted, so the others still go.
 */
export const useReadSite = () =>
  useDeviceMutation(async (): Promise<SiteRead[]> => {
    const devices = await call(devicesApi.names, undefined, { inline: true });
    return Promise.all(
      devices.map((device) =>
        call(devicesApi.command, { id: device.id, kind: 'readRoster' }, { inline: true }).then(
          (command): SiteRead => ({ device, command, error: '' }),
          (e: unknown): SiteRead => ({ device, command: undefined, error: e instanceof Error ? e.message : String(e) }),
        ),
      ),
    );
  });

/**
 * Applying a review (issue #30), a terminal's or the whole site's: the request starts the apply on the server and
 * answers at once (a site of thousands of numbers takes minutes, longer than a request may wait behind a proxy); the
 * apply is then asked after every second until it is over, when the rosters, the devices and People are read again.
 * `job` is the apply started here (undefined before one, or once `clear`ed); `busy` while it starts or runs.
 */
function useRosterApplying<B>(start: (body: B) => Promise<RosterApplyJob>, mine: (job: RosterApplyJob) => boolean) {
  const qc = useQueryClient();
  const [id, setId] = useState(0);
  const [dismissed, setDismissed] = useState(0);
  // an apply still going on when the page opens (started here before leaving it, or by another administrator), of this
  // page's kind: followed as if started here
  const current = useQuery({
    queryKey: deviceKeys.rosterApplyCurrent,
    queryFn: () => call(devicesApi.rosterApplyCurrent, undefined, { inline: true }),
    staleTime: 0,
  });
  const going = current.data && current.data.state === 'running' && mine(current.data) ? current.data : undefined;
  // taken up while rendering (React's pattern for state that follows other data), once: its result stays once it ends
  if (going && id === 0 && going.id !== dismissed) setId(going.id);
  const begin = useMutation({
    mutationFn: start,
    onSuccess: (job) => {
      qc.setQueryData(deviceKeys.rosterApply(job.id), job);
      setId(job.id);
    },
  });
  const job = useQuery({
    queryKey: deviceKeys.rosterApply(id),
    queryFn: () => call(devicesApi.rosterApplyInfo, { id }, { inline: true }),
    enabled: id > 0,
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 1000 : false),
  });
  const state = id > 0 ? job.data?.state : undefined;
  const over = state === 'done' || state === 'failed';
  useEffect(() => {
    if (!over) return;
    markPeopleChanged();
    for (const queryKey of [deviceKeys.all, ['person']]) void qc.invalidateQueries({ queryKey });
  }, [over, id, qc]);
  return {
    begin,
    job: id > 0 ? job.data : undefined,
    busy: begin.isPending || state === 'running',
    clear: () => {
      setDismissed(id);
      setId(0);
    },
  };
}

/** Applying the site's review: a number made one person from the terminal with the best face, linked on every other terminal holding it. */
export const useRosterSiteApply = () =>
  useRosterApplying(
    (body: RosterSiteApplyBody) => call(devicesApi.rosterSiteApply, body),
    (job) => job.scope === 'site',
  );

/** Applying a terminal's review: people created or linked, the rest left on the terminal. */
export const useRosterApply = (deviceId: number) =>
  useRosterApplying(
    (body: RosterApplyBody) => call(devicesApi.rosterApply, body),
    (job) => job.scope === 'device' && job.device_id === deviceId,
  );

export const useRosterRemove = () => useDeviceMutation((body: RosterRemoveBody) => call(devicesApi.rosterRemove, body));

export const useDeviceCommand = () => useDeviceMutation((body: DeviceCommandBody) => call(devicesApi.command, body));

export const useAddDevicePersons = () => useDeviceMutation((body: DeviceAddPersonsBody) => call(devicesApi.addPersons, body));

export const useRemoveDevicePersons = () => useDeviceMutation((body: DevicePersonsBody) => call(devicesApi.removePersons, body));

export const useRetryDevicePersons = () => useDeviceMutation((body: DevicePersonsBody) => call(devicesApi.retryPersons, body));

/**
 * POST /person/sync. spec §7: a 20 s timeout and its message hidden (offline devices are asked about, not toasted).
 * A sync that went through moves the people's sync states and the devices' ledgers.
 */
export const useSyncPersons = () =>
  useInvalidatingMutation(
    ({ ids, skipOffline }: { ids: number[]; skipOffline: boolean }) =>
      call(devicesApi.syncPersons, { ids, ...(skipOffline ? { skip_offline: 1 } : {}) }, { timeout: TIMING.syncTimeout, silent: true }),
    [['person'], deviceKeys.all],
    { on: 'success', before: markPeopleChanged },
  );

/** docs/api-devices.md: reading needs rights.face ≥ 1, writing ≥ 2. */
export const useDeviceRights = () => useRightLevel('face');

// ---- Firmware and log capture (issue #20)

export const useFirmware = (enabled: boolean) =>
  useQuery({ queryKey: deviceKeys.firmware, queryFn: () => call(firmwareApi.list, undefined, { inline: true }), enabled });

const UPGRADE_FINAL: readonly FirmwareUpgrade['state'][] = ['done', 'failed'];
/** The upgrades, refreshed every 3 s while one is on its way (a terminal downloads, restarts and reports back). */
export const useUpgrades = (enabled: boolean) =>
  useQuery({
    queryKey: deviceKeys.upgrades,
    queryFn: () => call(firmwareApi.upgrades, {}, { inline: true }),
    enabled,
    refetchInterval: (query) => ((query.state.data ?? []).some((u) => !UPGRADE_FINAL.includes(u.state)) ? 3000 : false),
  });

/** name, version and the file: validation errors mark the form's fields, so the form decides what to show. */
export const useUploadFirmware = () =>
  useInvalidatingMutation(
    ({ name, version, file }: { name: string; version: string; file: File }) => {
      const form = new FormData();
      form.append('name', name);
      form.append('version', version);
      form.append('file', file);
      return upload(firmwareApi.upload, form, { timeout: TIMING.exportTimeout, silent: true });
    },
    [deviceKeys.firmware],
    { on: 'success' },
  );

export const useDeleteFirmware = () => useInvalidatingMutation((id: number) => call(firmwareApi.delete, { id }), [deviceKeys.firmware], { on: 'settled' });

export const useUpgrade = () =>
  useInvalidatingMutation((body: { firmware_id: number; device_ids: number[] }) => call(firmwareApi.upgrade, body), [deviceKeys.firmware, deviceKeys.all], {
    on: 'settled',
  });

/** A device's log captures, refreshed every 2 s while one waits for the terminal. */
export const useDeviceLogs = (id: number | undefined) =>
  useQuery({
    queryKey: deviceKeys.logs(id ?? 0),
    queryFn: () => call(firmwareApi.logs, { id: id ?? 0 }, { inline: true }),
    enabled: Boolean(id),
    refetchInterval: (query) => ((query.state.data ?? []).some((l: LogCapture) => l.state === 'pending') ? 2000 : false),
  });

export const useCaptureLog = () => useInvalidatingMutation((id: number) => call(firmwareApi.captureLog, { id }), [['device', 'logs']], { on: 'settled' });

/** Saves a captured log file as `filename`. */
export const downloadLog = (id: number, filename: string) => download({ ...firmwareApi.logFile, path: `/device/log/file/${id}` }, filename);
