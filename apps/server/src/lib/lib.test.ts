import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashPassword, verifyPassword } from './crypto.ts';
import { isoToMs, readZoneOffsetMs, zonedToUtcMs, zoneOffsetMs } from './time.ts';
import { addressKey, delayAfter, judge, SIGN_IN, type Attempt } from './throttle.ts';
import { cellText } from './xlsx.ts';

test('password hashes verify, carry their parameters, and default to the OWASP scrypt cost', async () => {
  const h = await hashPassword('correct horse', 10);
  assert.match(h, /^scrypt\$10\$8\$1\$/);
  assert.equal(await verifyPassword('correct horse', h), true);
  assert.equal(await verifyPassword('wrong horse', h), false);
  assert.equal(await verifyPassword('x', 'garbage'), false);
  assert.match(await hashPassword('p'), /^scrypt\$17\$8\$1\$/);
});

const HOUR = SIGN_IN.windowMs;
/** Attempts on `account` at the given instants (ms), failed from an unknown browser unless `ok`/`known`. */
const tries = (account: string, ats: number[], o: { ok?: boolean; known?: boolean; from?: number } = {}): Attempt[] =>
  ats.map((at, i) => ({ id: (o.from ?? 0) + i + 1, account, at, ok: o.ok ?? false, known: o.known ?? false }));

test('sign-in delays grow 0, 0, 0, 1 s, 2 s, 4 s … and stop at a minute', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12].map(delayAfter), [0, 0, 0, 1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
});

test('judge: the account waits after its 3rd consecutive failure; a sign-in ends the streak, not the hourly count', () => {
  const now = 10 * HOUR;
  const three = tries('ann', [now - 3000, now - 2000, now - 500]);
  const v = judge('ann', three, [], now);
  assert.deepEqual(v.refused, { rule: 'delay', waitMs: 500 });
  assert.equal(v.captcha, true);
  assert.equal(judge('ann', three, [], now + 500).refused, null, 'after the wait the attempt is checked');
  // A sign-in (from anywhere, any browser) after them clears the delay and the captcha.
  const signedIn = [...three, ...tries('ann', [now - 100], { ok: true, from: 3 })];
  assert.deepEqual(judge('ann', signedIn, [], now), { refused: null, streak: 0, captcha: false });
  // Failures from a known browser are that browser's business: they neither delay nor cap unknown browsers.
  assert.equal(judge('ann', tries('ann', Array<number>(9).fill(now - 10), { known: true }), [], now).refused, null);
});

test('judge: 10 failures in an hour cap the account whatever their addresses, until the oldest is an hour old', () => {
  const now = 10 * HOUR;
  const ten = tries(
    'bob',
    [...Array(10).keys()].map((i) => now - HOUR + 60_000 + i * 60_000),
  );
  // Even after a sign-in (the streak is over), the hour's failures still count for unknown browsers.
  const rows = [...ten, ...tries('bob', [now - 1000], { ok: true, from: 10 })];
  assert.deepEqual(judge('bob', rows, [], now).refused, { rule: 'account', waitMs: 60_000 });
  assert.equal(judge('bob', rows, [], now + 60_000).refused, null);
});

test('judge: an address may fail on 20 distinct accounts an hour; those already failing there are left to the account rules', () => {
  const now = 10 * HOUR;
  const byAddress = [...Array(20).keys()].flatMap((i) => tries(`user${i}`, [now - HOUR + 1000 + i * 1000], { from: i * 10 }));
  assert.deepEqual(judge('fresh', [], byAddress, now).refused, { rule: 'address', waitMs: 1000 });
  assert.equal(judge('user3', [], byAddress, now).refused, null, 'an account already tried there is not refused by this rule');
  // One person typing 50 wrong passwords is one account: everybody else at that address is untouched.
  const onePerson = tries(
    'typo',
    [...Array(50).keys()].map((i) => now - i * 1000),
  );
  assert.equal(judge('colleague', [], onePerson, now).refused, null);
  // An account that then signed in there no longer counts against the address.
  const healed = [...byAddress, ...tries('user0', [now - 10], { ok: true, from: 1000 })];
  assert.equal(judge('fresh', [], healed, now).refused, null);
});

test('addresses are counted by IPv4, by the IPv4 inside a mapped IPv6 address, and by the /64 of IPv6', () => {
  assert.equal(addressKey('203.0.113.7'), '203.0.113.7');
  assert.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(addressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(addressKey('2001:0db8:0001:0002:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64');
  assert.equal(addressKey('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(addressKey('::1'), '0:0:0:0::/64');
  assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(addressKey('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
});

test('isoToMs reads stored instants exactly as Date.parse does, and hands any other form to it', () => {
  const samples = ['2026-10-31T16:00:00.000Z', '2024-02-29T23:59:59.999Z', '1999-12-31T00:00:00.001Z', '2026-03-29T01:30:00.000Z'];
  for (let ms = Date.UTC(2020, 0, 1); ms < Date.UTC(2030, 0, 1); ms += 7_777_777_777) samples.push(new Date(ms).toISOString());
  for (const s of samples) assert.equal(isoToMs(s), Date.parse(s), s);
  for (const odd of ['2026-10-31 16:00:00', '2026-10-31T16:00:00Z', '2026-10-31T16:00:00+08:00', '2026-10-31T16/00/00.000Z', 'garbage'])
    assert.deepEqual(isoToMs(odd), Date.parse(odd), odd);
});

test('an imported cell reads as trimmed text the one way every import reads it', () => {
  const when = new Date('2026-10-05T09:30:00Z');
  assert.equal(cellText(null), '');
  assert.equal(cellText(undefined as never), '');
  assert.equal(cellText(1001), '1001');
  assert.equal(cellText(2.5), '2.5');
  assert.equal(cellText('  Wang  '), 'Wang');
  assert.equal(cellText(true), '1');
  assert.equal(cellText(false), '0');
  assert.equal(cellText(when), '2026-10-05');
  assert.equal(cellText(when, 'minute'), '2026-10-05 09:30');
  assert.equal(cellText({ richText: [{ text: ' An' }, { text: 'nual ' }] }), 'Annual');
  assert.equal(cellText({ text: ' link ', hyperlink: 'https://example.test' }), 'link');
  assert.equal(cellText({ formula: 'A1+1', result: 7 }), '7');
  assert.equal(cellText({ formula: 'A1', result: when }, 'minute'), '2026-10-05 09:30');
});

test('zone offsets, read once per quarter hour, equal Intl’s around changes, odd offsets included', () => {
  /** The offset as Intl gives it, read afresh (what zoneOffsetMs caches). */
  // the offset read afresh, every time (what zoneOffsetMs caches)
  const direct = readZoneOffsetMs;
  const around = [
    ['America/New_York', '2026-03-08T07:00:00Z', -4 * 3600_000], // spring forward at 02:00 local
    ['America/New_York', '2026-11-01T06:00:00Z', -5 * 3600_000], // fall back
    ['Australia/Lord_Howe', '2026-04-04T15:00:00Z', 10.5 * 3600_000], // a half-hour change
    ['Asia/Shanghai', '1900-12-31T15:54:17Z', 8 * 3600_000], // from local mean time (+8:05:43), mid quarter hour
  ] as const;
  for (const [zone, iso, after] of around) {
    const at = Date.parse(iso);
    // the quarter hour before and after each change, every 7 s (both orders: a cached quarter must not leak)
    for (const step of [1000, -1000])
      for (let ms = step > 0 ? at - 3600_000 : at + 3600_000; Math.abs(ms - at) <= 3600_000; ms += step * 7)
        assert.equal(zoneOffsetMs(zone, ms), direct(zone, ms), `${zone} at ${new Date(ms).toISOString()}`);
    assert.equal(zoneOffsetMs(zone, at + 3600_000), after, `${zone} after the change`);
  }
  assert.equal(zoneOffsetMs('Asia/Kathmandu', Date.parse('2026-06-01T00:07:30Z')), (5 * 60 + 45) * 60_000);
  // a wall time in the spring-forward gap moves forward; one in the repeated hour is its first instance
  assert.equal(new Date(zonedToUtcMs('2026-03-08 02:30', 'America/New_York')).toISOString(), '2026-03-08T07:30:00.000Z');
  assert.equal(new Date(zonedToUtcMs('2026-03-29 02:30', 'Europe/Berlin')).toISOString(), '2026-03-29T01:30:00.000Z');
  assert.equal(new Date(zonedToUtcMs('2026-11-01 01:30', 'America/New_York')).toISOString(), '2026-11-01T05:30:00.000Z');
  assert.equal(new Date(zonedToUtcMs('2026-10-25 02:30', 'Europe/Berlin')).toISOString(), '2026-10-25T00:30:00.000Z');
  assert.equal(new Date(zonedToUtcMs('2026-04-05 01:45', 'Australia/Lord_Howe')).toISOString(), '2026-04-04T14:45:00.000Z');
  assert.equal(new Date(zonedToUtcMs('2026-07-01 12:00', 'Asia/Shanghai')).toISOString(), '2026-07-01T04:00:00.000Z');
});
