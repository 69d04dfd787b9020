import { isIPv6 } from 'node:net';

/**
 * The sign-in rules' numbers (docs/sign-in-protection.md). Failures are what these rules count; an attempt refused by
 * a rule (too early, over a cap, wrong captcha) is not checked against the password and counts for nothing.
 */
export const SIGN_IN = {
  /** every count below is over the last hour */
  windowMs: 3600_000,
  /** consecutive failures of an account answered without a wait; each further one doubles the wait */
  freeFailures: 3,
  firstDelayMs: 1000,
  maxDelayMs: 60_000,
  /** consecutive failures after which an unknown browser must also solve a captcha */
  captchaAfter: 3,
  /** failures per account per hour from unknown browsers, whatever their addresses */
  accountCap: 10,
  /** distinct accounts per hour that may fail from one address (credential stuffing) */
  addressAccounts: 20,
  /** failures per hour from one known browser on one account before it counts as unknown again */
  deviceCap: 10,
  /** how long a browser stays known after its last sign-in */
  deviceDays: 180,
} as const;

/** One counted attempt: `known` when it came from a known device, `ok` when it signed in. Ids grow with time. */
export interface Attempt {
  id: number;
  account: string;
  ok: boolean;
  known: boolean;
  /** milliseconds */
  at: number;
}

export type Rule = 'delay' | 'account' | 'address';
export interface Verdict {
  /** set when this attempt must not be checked: which rule refused it and how long until it would not */
  refused: { rule: Rule; waitMs: number } | null;
  /** consecutive failures of the account from unknown browsers since its last sign-in */
  streak: number;
  captcha: boolean;
}

/** The wait an account owes after `streak` consecutive failures: 0, 0, 0, 1 s, 2 s, 4 s … up to a minute. */
export function delayAfter(streak: number): number {
  if (streak < SIGN_IN.freeFailures) return 0;
  return Math.min(SIGN_IN.firstDelayMs * 2 ** (streak - SIGN_IN.freeFailures), SIGN_IN.maxDelayMs);
}

/** Failures from unknown browsers after the account's (or, per address, the pair's) last sign-in. */
function streakOf(rows: readonly Attempt[]): Attempt[] {
  const lastOk = rows.reduce((m, r) => (r.ok && r.id > m ? r.id : m), 0);
  return rows.filter((r) => !r.ok && !r.known && r.id > lastOk);
}

/** How long until fewer than `cap` of these instants remain inside the window. */
function waitUnderCap(instants: number[], cap: number, now: number): number {
  if (instants.length < cap) return 0;
  const sorted = [...instants].sort((a, b) => a - b);
  return sorted[sorted.length - cap]! + SIGN_IN.windowMs - now;
}

/**
 * Decides an attempt from an unknown browser on `account` from one address. `byAccount`: the account's attempts of the
 * last hour, from every address; `byAddress`: that address's attempts of the last hour, on every account. Neither
 * holds the attempt being judged. Known browsers are not judged (see the auth service): only their own failures stop them.
 */
export function judge(account: string, accountRows: readonly Attempt[], addressRows: readonly Attempt[], now: number): Verdict {
  const recent = (r: Attempt) => r.at > now - SIGN_IN.windowMs;
  const byAccount = accountRows.filter(recent);
  const byAddress = addressRows.filter(recent);
  const streak = streakOf(byAccount);
  const captcha = streak.length >= SIGN_IN.captchaAfter;
  const verdict = (rule: Rule, waitMs: number): Verdict => ({ refused: { rule, waitMs }, streak: streak.length, captcha });

  // Per address: distinct accounts that failed there since their last sign-in there. An account already among them is
  // left to the account rules, so one person's typing never stops another person at the same address.
  const failing = new Map<string, number>();
  const accounts = new Set(byAddress.map((r) => r.account));
  for (const a of accounts) {
    const last = streakOf(byAddress.filter((r) => r.account === a)).at(-1);
    if (last) failing.set(a, last.at);
  }
  if (!failing.has(account)) {
    const wait = waitUnderCap([...failing.values()], SIGN_IN.addressAccounts, now);
    if (wait > 0) return verdict('address', wait);
  }

  const failures = byAccount.filter((r) => !r.ok && !r.known).map((r) => r.at);
  const capWait = waitUnderCap(failures, SIGN_IN.accountCap, now);
  if (capWait > 0) return verdict('account', capWait);

  const last = streak.at(-1);
  const delayWait = last ? last.at + delayAfter(streak.length) - now : 0;
  if (delayWait > 0) return verdict('delay', delayWait);
  return { refused: null, streak: streak.length, captcha };
}

/**
 * The key an address is counted under: IPv4 as it is (also when mapped into IPv6), IPv6 by its /64, since one
 * subscriber usually holds a whole /64 and could otherwise take a fresh address for every guess.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const bare = ip.split('%')[0]!;
  if (!isIPv6(bare)) return ip;
  const [head = '', tail] = bare.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // A trailing dotted quad (::ffff:1.2.3.4 is handled above; 64:ff9b::1.2.3.4 is not) fills two groups.
  const width = (gs: string[]) => gs.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - width(left) - width(right))).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
