import type { TerminalEvents } from '../terminal-events.ts';
import { EVENT, punchOf, type AcsEvent } from './events.codec.ts';
import type { DialledTerminal } from './driver.ts';

/**
 * One live event from a terminal, posted (host notification) or streamed (alertStream), kept the same way: a
 * granted person → a punch (its picture kept when the device uploads face images); a refused face with its
 * picture → a stranger when the device uploads strangers; then the backlog search's resume mark moves up to it.
 * Resolves once committed, true when the event was a punch. The punch key (device, PIN, local time) makes a repeat
 * of one event one punch.
 */
export async function ingestLiveEvent<T extends DialledTerminal>(
  events: TerminalEvents<T>,
  d: T,
  event: AcsEvent,
  picture: Buffer | undefined,
): Promise<boolean> {
  const punch = punchOf(event);
  if (punch) {
    await events.punches(d, [punch]);
    if (picture && d.upload_face_image) await events.punchPhoto(d, punch.pin, punch.time, Buffer.from(picture));
  } else if (event.major === EVENT.major && event.minor === EVENT.faceRefused && picture && d.upload_strangers) {
    await events.stranger(d, {
      time: event.time,
      pin: event.employeeNo || '0',
      reason: event.employeeNo ? 'verifyFailed' : 'failed',
      jpeg: Buffer.from(picture),
    });
  }
  // The resume mark of the backlog search: events up to here are kept.
  if (event.time > d.att_stamp || !/^\d{4}-/.test(d.att_stamp)) await events.stamp(d, 'att', event.time);
  return !!punch;
}

/**
 * The picture the alertStream sends as the part after its event: added to the punch already kept (when the device
 * uploads face images), or, for a refused face, the stranger kept with it.
 */
export async function ingestLivePicture<T extends DialledTerminal>(events: TerminalEvents<T>, d: T, event: AcsEvent, jpeg: Buffer) {
  const punch = punchOf(event);
  if (punch) {
    if (d.upload_face_image) await events.punchPhoto(d, punch.pin, punch.time, Buffer.from(jpeg));
    return;
  }
  await ingestLiveEvent(events, d, event, jpeg);
}
