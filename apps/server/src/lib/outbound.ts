import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { invalid } from './errors.ts';

/**
 * The outbound guard (issue #28): where the server may send what a tenant's administrator chose (webhooks, the
 * parking operator). Internal addresses are refused when a URL is saved and again at every request, which resolves
 * the name, checks every address it got, and connects to exactly the address checked (a name answering a public
 * address to the check and 127.0.0.1 to the connection — DNS rebinding — reaches nothing internal).
 */

/** Why an address is internal; each has a reason in the four languages (`reasons.outbound.<kind>`). */
export type AddressKind = 'unspecified' | 'loopback' | 'linkLocal' | 'uniqueLocal' | 'private' | 'multicast' | 'reserved';

/** An address range (CIDR), as bits: IPv4 in 32, IPv6 in 128. */
export interface Cidr {
  v6: boolean;
  base: bigint;
  bits: number;
}

/** What may be reached beyond public addresses: OUTBOUND_ALLOW's ranges, and private ranges in LAN mode. */
export interface OutboundPolicy {
  allow: readonly Cidr[];
  /** 10/8, 172.16/12, 192.168/16 and 100.64/10 (RUN_MODE=lan) */
  privateAllowed: boolean;
}

type Ip = { v6: boolean; value: bigint };

function parseV4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((n, p) => (n << 8n) | BigInt(p), 0n);
}

function parseV6(text: string): bigint | null {
  let s = text;
  // a dotted IPv4 tail (::ffff:127.0.0.1) is its two last groups
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const v4 = parseV4(dotted[1]!);
    if (v4 === null) return null;
    s = `${s.slice(0, dotted.index + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const group = (h: string) => (h === '' ? [] : h.split(':'));
  const head = group(halves[0]!);
  const rest = halves.length === 2 ? group(halves[1]!) : [];
  if (![...head, ...rest].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const known = head.length + rest.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  const groups = [...head.map((g) => BigInt(`0x${g}`)), ...Array<bigint>(8 - known).fill(0n), ...rest.map((g) => BigInt(`0x${g}`))];
  return groups.reduce((n, g) => (n << 16n) | g, 0n);
}

/** An address as bits; an IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 address it carries. */
export function ipOf(raw: string): Ip | null {
  const text = raw.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(text) === 4) return { v6: false, value: parseV4(text)! };
  if (isIP(text) !== 6) return null;
  const value = parseV6(text);
  if (value === null) return null;
  if (value >> 32n === 0xffffn) return { v6: false, value: value & 0xffffffffn };
  return { v6: true, value };
}

const cidr = (text: string): Cidr => {
  const c = parseCidr(text);
  if (!c) throw new Error(`bad built-in range ${text}`);
  return c;
};

/** `10.0.0.0/8`, `::1/128`, or one address (a range of one). */
export function parseCidr(text: string): Cidr | null {
  const [addr, len, extra] = text.trim().split('/');
  if (extra !== undefined || !addr) return null;
  const ip = ipOf(addr);
  if (!ip) return null;
  const width = ip.v6 ? 128 : 32;
  // an IPv4 range written in IPv6 (::ffff:127.0.0.0/104) is that IPv4 range
  const mapped = !ip.v6 && isIP(addr) === 6;
  const bits = len === undefined ? width : /^\d{1,3}$/.test(len) ? Number(len) - (mapped ? 96 : 0) : NaN;
  if (!Number.isInteger(bits) || bits < 0 || bits > width) return null;
  const mask = ((1n << BigInt(bits)) - 1n) << BigInt(width - bits);
  return { v6: ip.v6, base: ip.value & mask, bits };
}

/** OUTBOUND_ALLOW: ranges separated by commas; an entry that is not one names itself in the error. */
export function parseCidrList(text: string): Cidr[] {
  return text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => {
      const c = parseCidr(x);
      if (!c) throw new Error(`"${x}" is not an address range such as 127.0.0.0/8 or ::1/128`);
      return c;
    });
}

function inRange(ip: Ip, c: Cidr): boolean {
  if (ip.v6 !== c.v6) return false;
  const width = ip.v6 ? 128 : 32;
  return ip.value >> BigInt(width - c.bits) === c.base >> BigInt(width - c.bits);
}

const V4: [Cidr, AddressKind][] = [
  [cidr('0.0.0.0/8'), 'unspecified'],
  [cidr('127.0.0.0/8'), 'loopback'],
  [cidr('169.254.0.0/16'), 'linkLocal'],
  [cidr('10.0.0.0/8'), 'private'],
  [cidr('172.16.0.0/12'), 'private'],
  [cidr('192.168.0.0/16'), 'private'],
  // carrier-grade NAT (RFC 6598): the provider's side of a router, never a customer's receiver
  [cidr('100.64.0.0/10'), 'private'],
  [cidr('224.0.0.0/4'), 'multicast'],
  [cidr('240.0.0.0/4'), 'reserved'],
];
const V6: [Cidr, AddressKind][] = [
  [cidr('::/128'), 'unspecified'],
  [cidr('::1/128'), 'loopback'],
  [cidr('fe80::/10'), 'linkLocal'],
  [cidr('fc00::/7'), 'uniqueLocal'],
  // the deprecated site-local range: some stacks still route it inside a site
  [cidr('fec0::/10'), 'reserved'],
  [cidr('ff00::/8'), 'multicast'],
];
/** IPv6 forms that carry an IPv4 address in their last 32 bits: IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::/96). */
const CARRIERS = [cidr('::/96'), cidr('64:ff9b::/96')];
const SIX_TO_FOUR = cidr('2002::/16');

/** Why an address is internal, or null for a public one. An address that cannot be read is 'reserved'. */
export function classify(address: string): AddressKind | null {
  const ip = ipOf(address);
  if (!ip) return 'reserved';
  if (!ip.v6) return V4.find(([c]) => inRange(ip, c))?.[1] ?? null;
  const own = V6.find(([c]) => inRange(ip, c))?.[1];
  if (own) return own;
  const v4 = (value: bigint): AddressKind | null => V4.find(([c]) => inRange({ v6: false, value }, c))?.[1] ?? null;
  if (CARRIERS.some((c) => inRange(ip, c))) return v4(ip.value & 0xffffffffn);
  if (inRange(ip, SIX_TO_FOUR)) return v4((ip.value >> 80n) & 0xffffffffn);
  return null;
}

/** Why the policy refuses an address, or null when it may be reached. */
export function refusalOf(address: string, policy: OutboundPolicy): AddressKind | null {
  const kind = classify(address);
  if (!kind) return null;
  if (kind === 'private' && policy.privateAllowed) return null;
  const ip = ipOf(address);
  if (ip && policy.allow.some((c) => inRange(ip, c))) return null;
  return kind;
}

const KIND_TEXT: Record<AddressKind, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local address',
  private: 'a private network address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
};

/** A request the guard refused before connecting; its message is what a delivery log records. */
export class OutboundRefused extends Error {
  readonly kind: AddressKind | 'url';
  /** the address, or "name → address" */
  readonly address: string;
  constructor(message: string, kind: AddressKind | 'url', address: string) {
    super(`refused: ${message}`);
    this.name = 'OutboundRefused';
    this.kind = kind;
    this.address = address;
  }
}

/** http(s), a host, no account in it, no spaces: what every stored outbound URL must be (the fragment dropped). */
export function httpUrl(raw: string): URL | null {
  const text = raw.trim();
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return null;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname || u.username || u.password || /\s/.test(text)) return null;
  u.hash = '';
  return u;
}

export type LookupAll = (host: string) => Promise<{ address: string; family: number }[]>;
const systemLookup: LookupAll = (host) => dns.promises.lookup(host, { all: true, order: 'verbatim' });

/** A POST's answer: its status and the start of its body (what a delivery log may keep). */
export interface OutboundAnswer {
  status: number;
  excerpt: string;
}
export interface OutboundPostInit {
  headers: Record<string, string>;
  body: string;
  signal?: AbortSignal;
  /** characters of the answer kept (the rest is not read) */
  excerptMax: number;
}
export type OutboundPost = (url: string, init: OutboundPostInit) => Promise<OutboundAnswer>;

/** Save-time lookups wait this long; a name that does not resolve (yet) is saved, the request checks it again. */
const SAVE_LOOKUP_MS = 2000;

/**
 * The guard under a policy (config.outbound, from OUTBOUND_ALLOW and RUN_MODE). `lookup` resolves a name to all its
 * addresses (dns.lookup; tests inject one).
 */
export function outboundGuard(policy: OutboundPolicy, lookup: LookupAll = systemLookup) {
  /** The URL's addresses: the literal one, or every address its name resolves to now. */
  async function addressesOf(u: URL): Promise<{ host: string; literal: boolean; addresses: { address: string; family: number }[] }> {
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const family = isIP(host);
    if (family) return { host, literal: true, addresses: [{ address: host, family }] };
    return { host, literal: false, addresses: await lookup(host) };
  }

  /** The first address the policy refuses, as the refusal; null when every one may be reached. */
  function refused(target: Awaited<ReturnType<typeof addressesOf>>): OutboundRefused | null {
    for (const { address } of target.addresses) {
      const kind = refusalOf(address, policy);
      if (!kind) continue;
      const what = target.literal ? `${address} is ${KIND_TEXT[kind]}` : `${target.host} resolves to ${address}, ${KIND_TEXT[kind]}`;
      return new OutboundRefused(what, kind, target.literal ? address : `${target.host} → ${address}`);
    }
    return null;
  }

  return {
    policy,
    /**
     * The save-time check of a URL a tenant chose: the house's validation error on `field` when it is not an http(s)
     * address or points at an internal address (a name is resolved, for a short while; one that does not resolve is
     * accepted, since every request resolves and checks it again). Answers the URL as the URL parser writes it (no
     * fragment).
     */
    async checkUrl(raw: string, field: string): Promise<string> {
      const u = httpUrl(raw);
      if (!u) throw invalid(field, 'reasons.outboundUrl');
      let target: Awaited<ReturnType<typeof addressesOf>>;
      try {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('lookup timed out')), SAVE_LOOKUP_MS)));
        target = await Promise.race([addressesOf(u), late]).finally(() => clearTimeout(timer));
      } catch {
        return u.toString();
      }
      const no = refused(target);
      if (no) throw invalid(field, `reasons.outbound.${no.kind}`, { address: no.address });
      return u.toString();
    },

    /**
     * POSTs `body` to `url` when every address of its host may be reached, on a connection to the address checked
     * (TLS still names and verifies the host). Redirects are answers, never followed. Throws OutboundRefused before
     * any connection when refused; network errors as node:http raises them.
     */
    post: (async (url, init) => {
      const u = httpUrl(url);
      if (!u) throw new OutboundRefused('not an http(s) address', 'url', '');
      const target = await addressesOf(u);
      const no = refused(target);
      if (no) throw no;
      if (!target.addresses.length) throw new Error(`${target.host} has no address`);
      const checked = target.addresses;
      const { address, family } = checked[0]!;
      // every connection of this request goes to an address just checked, whatever the name answers meanwhile (all of
      // them when the connection tries several: happy eyeballs)
      const pinned: LookupFunction = (_host, opts, cb) =>
        (opts as { all?: boolean }).all ? (cb as (e: null, a: { address: string; family: number }[]) => void)(null, checked) : cb(null, address, family);
      const send = u.protocol === 'https:' ? https.request : http.request;
      return new Promise<OutboundAnswer>((resolve, reject) => {
        const req = send(
          u,
          {
            method: 'POST',
            headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
            lookup: pinned,
            // a fresh connection each time: a pooled one could have been opened under another policy
            agent: false,
            ...(init.signal ? { signal: init.signal } : {}),
          },
          (res) => {
            if (init.excerptMax <= 0) {
              resolve({ status: res.statusCode ?? 0, excerpt: '' });
              return void res.destroy();
            }
            let excerpt = '';
            const done = () => resolve({ status: res.statusCode ?? 0, excerpt: excerpt.slice(0, init.excerptMax) });
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              excerpt += chunk;
              // enough read: the rest of a large answer is never fetched
              if (excerpt.length >= init.excerptMax) res.destroy();
            });
            res.on('error', () => {});
            res.on('close', done);
          },
        );
        req.on('error', reject);
        req.end(init.body);
      });
    }) satisfies OutboundPost,
  };
}
export type OutboundGuard = ReturnType<typeof outboundGuard>;
