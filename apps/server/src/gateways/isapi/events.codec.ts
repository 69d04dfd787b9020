import { isIP } from 'node:net';
import type { PunchRecord } from '../terminal-events.ts';
import type { StreamPart } from './alert-stream.codec.ts';
import { arr, escapeXml, int, jsonObject, localTime, obj, str, xmlLeaves } from './codec.ts';

/**
 * ISAPI person events, inbound (docs/isapi-protocol.md): the live notification a terminal posts, the event search of
 * the backlog, a part of the alertStream, what an event means for attendance, and the host the terminal is told to post
 * to. Pure functions on codec.ts's tolerant readers.
 */

/** Major type 5 (events), minor types of a person recognised or refused (access-control event table). */
export const EVENT = {
  major: 5,
  /** a card, a fingerprint, a face: access granted */
  granted: new Set([1, 38, 75, 104]),
  /** face authentication failed: a stranger or a refused person */
  faceRefused: 76,
} as const;

/** A person event as it arrives, from the live notification or from a search. */
export interface AcsEvent {
  /** device-local 'YYYY-MM-DD HH:mm:ss' */
  time: string;
  employeeNo: string;
  major: number;
  minor: number;
  serialNo: number | undefined;
  verifyMode: string;
  attendanceStatus: string;
}

function readEvent(e: Record<string, unknown>, time: unknown, tz: number | undefined): AcsEvent | undefined {
  const t = localTime(str(time), tz);
  const major = int(e.major ?? e.majorEventType);
  const minor = int(e.minor ?? e.subEventType);
  if (!t || major === undefined || minor === undefined) return undefined;
  return {
    time: t,
    employeeNo: str(e.employeeNoString ?? e.employeeNo).slice(0, 32),
    major,
    minor,
    serialNo: int(e.serialNo),
    verifyMode: str(e.currentVerifyMode),
    attendanceStatus: str(e.attendanceStatus),
  };
}

/** The live notification's JSON (event_log / AccessControllerEvent part). */
export function parseNotification(text: string, tz?: number): AcsEvent | undefined {
  const j = jsonObject(text);
  if (!j || str(j.eventType) !== 'AccessControllerEvent') return undefined;
  return readEvent(obj(j.AccessControllerEvent), j.dateTime, tz);
}

export function eventSearchBody(searchID: string, position: number, maxResults: number, from: string, to: string) {
  return { AcsEventCond: { searchID, searchResultPosition: position, maxResults, major: EVENT.major, minor: 0, startTime: from, endTime: to } };
}

/** POST /ISAPI/AccessControl/AcsEvent answer: the events and whether more follow. */
export function parseEventSearch(text: string, tz?: number): { events: AcsEvent[]; more: boolean; matches: number } | undefined {
  const j = jsonObject(text);
  if (!j || !('AcsEvent' in j)) return undefined;
  const a = obj(j.AcsEvent);
  const events = arr(a.InfoList)
    .slice(0, 1000)
    .map((e) => readEvent(obj(e), obj(e).time, tz))
    .filter((e): e is AcsEvent => !!e);
  return { events, more: str(a.responseStatusStrg) === 'MORE', matches: int(a.numOfMatches) ?? events.length };
}

/** What a person event means for attendance: a punch (granted), a refusal (a stranger), or nothing. */
export function punchOf(e: AcsEvent): PunchRecord | undefined {
  if (e.major !== EVENT.major || !EVENT.granted.has(e.minor) || !e.employeeNo) return undefined;
  const status = e.attendanceStatus === 'checkOut' ? 1 : e.attendanceStatus === 'breakOut' ? 2 : e.attendanceStatus === 'breakIn' ? 3 : 0;
  const verify =
    e.verifyMode.includes('face') || e.minor === 75
      ? 15
      : e.verifyMode.includes('fp') || e.minor === 38
        ? 1
        : e.verifyMode.includes('card') || e.minor === 1
          ? 4
          : 0;
  return { pin: e.employeeNo, time: e.time, status, verify, workcode: '', mask: null, temperature: null, alcohol: null };
}

/** Where a terminal posts its events: http or https, an IPv4 or IPv6 address or a host name, a port, a path. */
export interface EventHost {
  protocol?: 'http' | 'https';
  host: string;
  port: number;
  path: string;
}

/**
 * The host notification the terminal is told to post events to (PUT /ISAPI/Event/notification/httpHosts). An
 * address goes as `addressingFormatType` ipaddress (`ipAddress`, or `ipv6Address`), a name as hostname
 * (`hostName`); `protocolType` HTTP or HTTPS.
 */
export function httpHostsXml(h: EventHost): Buffer {
  const kind = isIP(h.host);
  const address =
    kind === 4
      ? `<addressingFormatType>ipaddress</addressingFormatType><ipAddress>${escapeXml(h.host)}</ipAddress>`
      : kind === 6
        ? `<addressingFormatType>ipaddress</addressingFormatType><ipv6Address>${escapeXml(h.host)}</ipv6Address>`
        : `<addressingFormatType>hostname</addressingFormatType><hostName>${escapeXml(h.host)}</hostName>`;
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>' +
      '<HttpHostNotificationList><HttpHostNotification>' +
      `<id>1</id><url>${escapeXml(h.path)}</url><protocolType>${h.protocol === 'https' ? 'HTTPS' : 'HTTP'}</protocolType><parameterFormatType>JSON</parameterFormatType>` +
      `${address}<portNo>${h.port}</portNo>` +
      '<httpAuthenticationMethod>none</httpAuthenticationMethod>' +
      '</HttpHostNotification></HttpHostNotificationList>',
  );
}

/** What one alertStream part says: a person event, a picture, or something else (a heartbeat, another event). */
export type AlertPart = { kind: 'event'; event: AcsEvent; pictures: number } | { kind: 'picture'; jpeg: Buffer } | { kind: 'other' };

/** One part read: the event JSON (as the host notification posts it), its XML form, a JPEG, or other. */
export function readAlertPart(p: StreamPart, tz?: number): AlertPart {
  if (/^image\/jpe?g$/i.test(p.contentType) && p.data.length > 3 && p.data[0] === 0xff && p.data[1] === 0xd8) return { kind: 'picture', jpeg: p.data };
  const text = p.data.toString('utf8').trim();
  if (text.startsWith('{')) {
    const event = parseNotification(text, tz);
    if (!event) return { kind: 'other' };
    const pictures = int(obj(jsonObject(text)?.AccessControllerEvent).picturesNumber) ?? 0;
    return { kind: 'event', event, pictures };
  }
  if (text.startsWith('<') && /<eventType>\s*AccessControllerEvent\s*<\/eventType>/.test(text)) {
    // <EventNotificationAlert>…<dateTime>…<AccessControllerEvent><majorEventType>5</majorEventType>…
    const x = xmlLeaves(text);
    const event = readEvent(x, x.dateTime, tz);
    return event ? { kind: 'event', event, pictures: int(x.picturesNumber) ?? 0 } : { kind: 'other' };
  }
  return { kind: 'other' };
}
