import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;

/**
 * scrypt with N=2^17, r=8, p=1 (OWASP ASVS 5.0 / Password Storage Cheat Sheet).
 * The parameters travel in the hash, so lowering the cost for tests never weakens stored hashes.
 */
export async function hashPassword(password: string, log2N = 17): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** log2N;
  const key = await scrypt(password, salt, 32, { N, r: 8, p: 1, maxmem: 256 * N * 8 });
  return `scrypt$${log2N}$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, ln, r, p, saltB64, keyB64] = stored.split('$');
  if (alg !== 'scrypt' || !ln || !r || !p || !saltB64 || !keyB64) return false;
  const N = 2 ** Number(ln);
  const expected = Buffer.from(keyB64, 'base64');
  const key = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length, { N, r: Number(r), p: Number(p), maxmem: 256 * N * Number(r) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A password hash to compare against when the account does not exist, so timing does not reveal accounts. */
let dummy: Promise<string> | undefined;
export const dummyHash = (log2N: number) => (dummy ??= hashPassword(randomBytes(12).toString('hex'), log2N));

/** 256-bit opaque tokens; only their SHA-256 is stored. */
export const newToken = () => randomBytes(32).toString('base64url');
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
export const randomDigits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join('');
