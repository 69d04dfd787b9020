import { Type, type Static } from 'typebox';
import { Id, IdBody, Nullable, StringEnum } from './common.ts';
import { binary, endpoint } from './endpoint.ts';

/**
 * Fleet work on face terminals (issue #20): firmware uploaded once and sent to one or many terminals, and a
 * terminal's own log file fetched for support. Rights: face devices (view to read, edit to change).
 */
export const FIRMWARE_LIMITS = {
  /** A firmware file is at most this big (terminal firmware packages are a few MB to a few tens of MB). */
  maxBytes: 64 * 1024 * 1024,
  nameMax: 60,
  versionMax: 60,
  /** Terminals one upgrade call may take. */
  devicesMax: 200,
} as const;

export const Firmware = Type.Object({
  id: Id,
  name: Type.String(),
  version: Type.String(),
  size: Type.Integer(),
  /** SHA-256 of the file, hex */
  sha256: Type.String(),
  created_at: Type.String(),
});
export type Firmware = Static<typeof Firmware>;

/**
 * Where one terminal's upgrade is: queued (waiting for its poll), sent (it has the command), downloading (it
 * fetched the file), rebooting (it accepted the file and restarts), done (it came back with the new version),
 * failed (refused, timed out, or back with another version: `reason` says which).
 */
export const UPGRADE_STATES = ['queued', 'sent', 'downloading', 'rebooting', 'done', 'failed'] as const;
export type UpgradeState = (typeof UPGRADE_STATES)[number];

export const FirmwareUpgrade = Type.Object({
  id: Id,
  device_id: Id,
  device_name: Type.String(),
  firmware_id: Id,
  firmware_name: Type.String(),
  firmware_version: Type.String(),
  state: StringEnum(UPGRADE_STATES),
  version_before: Type.String(),
  version_after: Nullable(Type.String()),
  /** the terminal's return code when it refused */
  code: Nullable(Type.Integer()),
  /** what went wrong, in the reader's language ('' unless failed) */
  reason: Type.String(),
  created_at: Type.String(),
});
export type FirmwareUpgrade = Static<typeof FirmwareUpgrade>;

export const UpgradeBody = Type.Object({
  firmware_id: Id,
  device_ids: Type.Array(Id, { minItems: 1, maxItems: FIRMWARE_LIMITS.devicesMax }),
});
export type UpgradeBody = Static<typeof UpgradeBody>;

export const UpgradeListQuery = Type.Object({ device_id: Type.Optional(Id), firmware_id: Type.Optional(Id) });
export type UpgradeListQuery = Static<typeof UpgradeListQuery>;

export const LOG_CAPTURE_STATES = ['pending', 'done', 'failed'] as const;
export type LogCaptureState = (typeof LOG_CAPTURE_STATES)[number];

export const LogCapture = Type.Object({
  id: Id,
  device_id: Id,
  state: StringEnum(LOG_CAPTURE_STATES),
  /** the file's name on the terminal */
  file_name: Type.String(),
  size: Type.Integer(),
  code: Nullable(Type.Integer()),
  /** 'Log capture failed' and why, in the reader's language ('' unless failed) */
  reason: Type.String(),
  created_at: Type.String(),
});
export type LogCapture = Static<typeof LogCapture>;

export const firmwareApi = {
  list: endpoint({ method: 'GET', path: '/firmware/list', response: Type.Array(Firmware) }),
  /** Form fields name and version, then the file (at most 64 MB). Stored once per company, hashed. */
  upload: endpoint({ method: 'POST', path: '/firmware/upload', multipart: true, response: Firmware }),
  /** Removes a firmware file that no upgrade in progress needs. */
  delete: endpoint({ method: 'POST', path: '/firmware/delete', body: IdBody, response: Type.Null() }),
  /** Sends the firmware to the terminals (each reboots once it has it). */
  upgrade: endpoint({ method: 'POST', path: '/firmware/upgrade', body: UpgradeBody, response: Type.Array(FirmwareUpgrade) }),
  /** Upgrades, newest first (one device's, one firmware's, or all; the latest 200). */
  upgrades: endpoint({ method: 'GET', path: '/firmware/upgrades', query: UpgradeListQuery, response: Type.Array(FirmwareUpgrade) }),
  /** Asks the terminal for its log file. */
  captureLog: endpoint({ method: 'POST', path: '/device/log/capture', body: IdBody, response: LogCapture }),
  /** A device's log captures, newest first (the latest 50). */
  logs: endpoint({ method: 'GET', path: '/device/log/list', query: IdBody, response: Type.Array(LogCapture) }),
  /** The captured file (signed-in console, also by cookie for a download link). */
  logFile: endpoint({ method: 'GET', path: '/device/log/file/:id', params: IdBody, response: binary('application/octet-stream') }),
};
