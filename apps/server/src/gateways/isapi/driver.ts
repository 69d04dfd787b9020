import type { DeviceDriver, DeviceOp, Wire } from '../driver.ts';
import type { Terminal } from '../terminal-events.ts';
import { codeKey, ISAPI_CODES, WRONG_FIRMWARE } from './codec.ts';

/**
 * What one batch to an ISAPI terminal may carry: requests go one at a time, so the batch only bounds how much
 * is planned before results are reported (about ten people with faces), keeping the console's progress live.
 */
export const ISAPI_MAX_BATCH_BYTES = 1024 * 1024;

/** ISAPI terminals are dialled: the server sends each operation as its own HTTP request (docs/isapi-protocol.md). */
export const isapiDriver: DeviceDriver = {
  protocol: 'isapi',
  delivery: 'dialled',
  codeKey,
  isOk(kind, code) {
    if (code === ISAPI_CODES.ok) return true;
    return kind === 'deleteUser' && code === ISAPI_CODES.noUser; // already absent
  },
  wrongFirmware: (code) => WRONG_FIRMWARE.has(code),
};

/** An operation as planned: encoded into requests when sent (a face's multipart is built only then). */
export interface IsapiPlanned {
  op: DeviceOp;
  id: number;
}

export const isapiWire: Wire<IsapiPlanned> = {
  encode: (op, id) => ({ op, id }),
  // A face travels as its JPEG bytes (base64 is 4/3 of them) plus the multipart and JSON around it.
  size: (e) => (e.op.kind === 'photo' ? Math.ceil((e.op.jpegBase64.length * 3) / 4) + 512 : 512),
  maxBatchBytes: ISAPI_MAX_BATCH_BYTES,
  // door opens go in their own lane (isapiDoorWire), never behind a batch of people
  lane: { except: ['unlock'] },
};

/**
 * The door lane (docs/isapi-protocol.md §7): only the queued remote opens, polled beside whatever the terminal's
 * work is doing, so an open never waits behind the heartbeat, a sync or a slow answer.
 */
export const isapiDoorWire: Wire<IsapiPlanned> = { ...isapiWire, lane: { only: ['unlock'] } };

/** A terminal the server dials: where, as whom, and the secret its event notifications carry. */
export interface DialledTerminal extends Terminal {
  readonly ip: string;
  readonly port: number;
  readonly account: string;
  readonly password: string;
  readonly event_secret: string;
  readonly created_at: string;
  readonly upload_face_image: number;
  readonly upload_strangers: number;
}
