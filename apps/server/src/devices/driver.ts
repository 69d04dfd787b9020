/**
 * What features ask of a terminal, independent of its wire protocol. A driver turns these into its
 * protocol's commands; features never see protocol text (so a Hikvision ISAPI driver can follow).
 */
export type DeviceOp =
  | {
      kind: 'user';
      pin: string;
      name: string;
      /** 0 ordinary user, 14 device administrator */
      pri: number;
      password: string;
      card: string;
      /** limited-time access, device-local 'YYYY-MM-DD HH:mm:ss', or null for none */
      start: string | null;
      end: string | null;
    }
  | { kind: 'photo'; pin: string; jpegBase64: string }
  | { kind: 'deleteUser'; pin: string }
  | { kind: 'unlock'; seconds: number }
  | { kind: 'options'; values: Record<string, string | number> }
  | { kind: 'info' }
  | { kind: 'reboot' }
  | { kind: 'queryPunches'; from: string; to: string }
  | { kind: 'check' };

export interface DeviceDriver {
  readonly protocol: string;
  /** The command line for one operation; `id` is echoed back with the result. */
  encode(op: DeviceOp, id: number): string;
  /** Largest reply (bytes) of commands the terminal accepts at once. */
  readonly maxReplyBytes: number;
  /** Human meaning of a protocol return code, as a message key (see i18n `device.codes`). */
  codeKey(code: number): string;
  /** Whether a command of this kind did what was wanted: some "errors" are the wanted state. */
  isOk(kind: DeviceOp['kind'], code: number): boolean;
}
