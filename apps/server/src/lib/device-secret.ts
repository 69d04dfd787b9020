import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { verifyPassword } from './crypto.ts';

/**
 * Device secrets (a breaker's MQTT password) are checked on every CONNECT, by the thousand after a restart, so
 * they are not stored as user passwords are (scrypt, ~128 MiB and ~0.3 s each): they are stored as
 * HMAC-SHA256 under a server key kept in DATA_DIR (`keys/device-secrets.key`, 32 random bytes, 0600, made on
 * first use). A drawn secret is 96 random bits, beyond any guessing; an administrator's own password may be
 * weaker, and the key is what keeps even that from being guessed offline from a copy of the database alone
 * (the database never holds the key). Verifying costs one HMAC: microseconds, no memory.
 *
 * Stored form: `hmac-sha256$<key id>$<salt>$<mac>` (mac = HMAC(key, salt ‖ secret), salt 16 bytes, base64).
 * A breaker registered before this holds a `scrypt$…` hash: `verify` answers `upgrade` with the new form when
 * it matches, so the caller stores it and that breaker's next CONNECT is fast (docs/breaker-protocol.md §1).
 */
export interface DeviceSecrets {
  hash(secret: string): string;
  /** `ok` matches, `upgrade` matched an old scrypt hash (store `stored`), `bad` does not match, `abandoned`: the caller left. */
  verify(secret: string, stored: string, alive?: () => boolean): Promise<{ result: 'ok' | 'bad' | 'abandoned' } | { result: 'upgrade'; stored: string }>;
  /** the key id stored hashes carry */
  readonly keyId: string;
}

const KEY_FILE = 'device-secrets.key';

/** The server key: read from DATA_DIR/keys, or drawn and written there once (two servers racing agree on one). */
export function loadDeviceKey(dataDir: string): Buffer {
  const dir = path.join(dataDir, 'keys');
  const file = path.join(dir, KEY_FILE);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('base64') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length < 32) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}

/** One old scrypt check at a time (each takes ~128 MiB); a CONNECT whose client left meanwhile is skipped. */
function oneAtATime() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };
}

export function deviceSecrets(key: Buffer): DeviceSecrets {
  const keyId = createHash('sha256').update(key).digest('base64url').slice(0, 8);
  const mac = (salt: Buffer, secret: string) => createHmac('sha256', key).update(salt).update(secret, 'utf8').digest();
  const hash = (secret: string) => {
    const salt = randomBytes(16);
    return `hmac-sha256$${keyId}$${salt.toString('base64')}$${mac(salt, secret).toString('base64')}`;
  };
  const legacy = oneAtATime();
  return {
    keyId,
    hash,
    async verify(secret, stored, alive = () => true) {
      if (stored.startsWith('hmac-sha256$')) {
        const [, kid, saltB64, macB64] = stored.split('$');
        // Another key (DATA_DIR lost or replaced): the hash cannot be checked; the breaker needs a new password.
        if (kid !== keyId || !saltB64 || !macB64) return { result: 'bad' };
        const expected = Buffer.from(macB64, 'base64');
        const got = mac(Buffer.from(saltB64, 'base64'), secret);
        return { result: got.length === expected.length && timingSafeEqual(got, expected) ? 'ok' : 'bad' };
      }
      if (!stored.startsWith('scrypt$')) return { result: 'bad' };
      return legacy(async () => {
        if (!alive()) return { result: 'abandoned' as const };
        return (await verifyPassword(secret, stored)) ? { result: 'upgrade' as const, stored: hash(secret) } : { result: 'bad' as const };
      });
    },
  };
}
