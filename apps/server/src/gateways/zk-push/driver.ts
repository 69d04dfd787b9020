import type { DeviceDriver, DeviceOp, Wire } from '../driver.ts';
import { codeKey, encodeOp } from './codec.ts';

/**
 * 2.4.1 sets no size limit on a reply (notes §10.2), but a terminal reads a reply into a buffer of its own:
 * face terminals of this family take 6 MB (issue #20: the 2 MB replies used before were a third of it).
 * Each reply is filled up to that, about 150 people with 30 KB faces; together with the terminal asking
 * again right after posting a full reply's results (notes §3), a full re-sync goes at the link's pace.
 */
export const ZK_MAX_REPLY_BYTES = 6 * 1024 * 1024;

/** ZK PUSH terminals poll (GET /iclock/getrequest): the reply to a poll carries the batch. */
export const zkPushDriver: DeviceDriver = {
  protocol: 'zk-push',
  delivery: 'polled',
  codeKey,
  isOk(kind, code) {
    if (code === 0) return true;
    if (kind === 'deleteUser' && code === -10) return true; // already absent
    if (kind === 'queryPunches' && code === -1) return true; // real firmware answers -1 for "no records" (notes §7)
    return code > 0 && kind !== 'user' && kind !== 'photo';
  },
  // App. 1 -1004 "data and equipment configuration are inconsistent": the terminal does not take this firmware.
  wrongFirmware: (code) => code === -1004,
};

/** Command lines of a poll reply, one `C:<id>:…` line per command. */
export const zkPushWire: Wire<string> = {
  encode(op: DeviceOp, id: number): string {
    // SET OPTION takes one key per command; each line gets the same id so the results map back to one op.
    return encodeOp(op)
      .split('\n')
      .map((line) => `C:${id}:${line}`)
      .join('\n');
  },
  // Lines are joined by '\n' in the reply.
  size: (text) => text.length + 1,
  maxBatchBytes: ZK_MAX_REPLY_BYTES,
};
