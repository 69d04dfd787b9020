/**
 * The outbound seam between features and wire protocols. Features plan protocol-free operations
 * (`DeviceOp`); each protocol says how one is written on its wire (`Wire`) and how a batch reaches the
 * device (`delivery`): polled (the terminal asks, ZKTeco PUSH), dialled (the server calls the device,
 * Hikvision ISAPI) or published (MQTT, breakers). Features never see protocol text.
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
      /** the person's gender when said (ISAPI terminals hold it; ZK's user record has no field for it) */
      gender?: 'male' | 'female';
    }
  | { kind: 'photo'; pin: string; jpegBase64: string }
  | { kind: 'deleteUser'; pin: string }
  | { kind: 'unlock'; seconds: number }
  | { kind: 'options'; values: Record<string, string | number> }
  | { kind: 'info' }
  | { kind: 'reboot' }
  | { kind: 'queryPunches'; from: string; to: string }
  | { kind: 'check' }
  /**
   * Read every user the terminal holds, with cards, validity and enrolment faces, and report them (TerminalEvents
   * `roster`, `rosterFace`): the first step of taking over a working site (issue #30). Never changes the terminal.
   */
  | { kind: 'readRoster' }
  /** install firmware fetched from `url` (a path the terminal asks this server for), then restart */
  | { kind: 'upgrade'; url: string; md5: string; size: number }
  /** send the terminal's log file (`path` on the terminal; the protocol's usual one when absent) */
  | { kind: 'getLog'; path?: string };

/** A device's answer to one operation, matched by the id the operation was planned with. */
export interface CommandResult {
  id: number;
  code: number;
  /** protocol-specific result data (e.g. INFO fields), already parsed by the gateway */
  data?: Record<string, string>;
  /** a file the terminal sent back (getLog) */
  file?: { name: string; data: Buffer };
}

/** How planned operations reach a device. */
export type DeliveryMode = 'polled' | 'dialled' | 'published';

/** How one protocol writes operations: the ledger plans within `maxBatchBytes` of encoded output. */
export interface Wire<Encoded> {
  encode(op: DeviceOp, id: number): Encoded;
  /** Bytes the encoded operation takes in a batch. */
  size(encoded: Encoded): number;
  /** Largest batch (bytes) the device accepts at once: the ledger fills each batch up to it. */
  readonly maxBatchBytes: number;
  /** People planned into one batch at most, when the device limits that too (default: the ledger's own cap). */
  readonly maxBatchPeople?: number;
  /**
   * Which queued one-offs a poll with this wire takes (default: all of them, then the ledger's work). `only`: just
   * these kinds and no ledger work, a lane of their own beside the device's other work (ISAPI door opens);
   * `except`: these are left to such a lane, so no one-off is ever planned by two polls at once.
   */
  readonly lane?: { readonly only: readonly DeviceOp['kind'][] } | { readonly except: readonly DeviceOp['kind'][] };
}

/** One planned operation, with the id its result comes back with. */
export interface Planned<Encoded> {
  id: number;
  encoded: Encoded;
}

/** What features need to know of a protocol to judge results; `delivery` says who starts a batch. */
export interface DeviceDriver {
  readonly protocol: string;
  readonly delivery: DeliveryMode;
  /** Human meaning of a protocol return code, as a message key (see i18n `device.codes`). */
  codeKey(code: number): string;
  /** Whether a command of this kind did what was wanted: some "errors" are the wanted state. */
  isOk(kind: DeviceOp['kind'], code: number): boolean;
  /** The terminal refused an upgrade because the firmware is not for it (spec §8 "upgrade unknown version"). */
  wrongFirmware?(code: number): boolean;
}

/**
 * Carries queued work to devices of a dialled or published protocol: woken after the commit that queued
 * work, it asks the inbound port for the terminal and a batch (`poll` with its own wire), sends it, and
 * reports the answers (`commandResults`). It also catches up by itself (a device that was unreachable
 * when woken). A polled protocol needs none: the next poll takes the work.
 */
export interface Delivery {
  readonly protocol: string;
  /** Work is waiting for this device. */
  wake(deviceId: number): void;
  close(): Promise<void>;
}

/** A protocol as app.ts hands it to the devices module: its driver and, unless polled, its delivery. */
export interface Protocol<Events> {
  driver: DeviceDriver;
  /** Built once the inbound port exists (a delivery plans and reports through it). */
  delivery?: (events: Events) => Delivery;
  /** Finding terminals on the network (dialled protocols: the server asks each address; ZK PUSH terminals call in instead). */
  discover?: Discovery;
}

/** A terminal that answered a discovery probe. */
export interface DiscoveredTerminal {
  ip: string;
  port: number;
  /** ok: the account read its device info; wrongPassword: refused; noPassword: none given, it proved its kind anyway */
  auth: 'ok' | 'wrongPassword' | 'noPassword';
  model: string;
  /** as the terminal reports it */
  serial: string;
  firmware: string;
  deviceName: string;
}

/** Asks each address (`concurrency` at once, `timeoutMs` each at most); answers the terminals found, in address order. */
export type Discovery = (
  addresses: readonly string[],
  o: { port: number; account: string; password: string; timeoutMs: number; concurrency: number },
) => Promise<DiscoveredTerminal[]>;
