// Password hashing with scrypt; the stored string carries its parameters so they can be raised later. And the rules a
// new password must meet: long enough, and not one that attackers try first.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { readFileSync } from 'node:fs';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))));

const N = 16384;
const r = 8;
const p = 1;
const KEY_LENGTH = 64;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r, p });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(rr), p: Number(pp) });
  return timingSafeEqual(expected, actual);
}

export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 1024;

/** Lower-case common passwords; see the file's header for its source and licence. */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n').filter((line) => line !== '' && !line.startsWith('#')),
);
/** "Monkey2024!" is "monkey" to a guesser: digits and symbols put after a common word add almost nothing. */
const APPENDED_DIGITS_AND_SYMBOLS = /[\d\W_]+$/;

export function isCommonPassword(password: string): boolean {
  const lower = password.trim().toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return true;
  const stem = lower.replace(APPENDED_DIGITS_AND_SYMBOLS, '');
  return stem.length >= 6 && COMMON_PASSWORDS.has(stem);
}

/** Why a new password is refused, in a sentence for its owner; null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return 'Password is too long.';
  if (isCommonPassword(password)) {
    return 'This password is one of the most common passwords, which attackers try first. Choose a less common one.';
  }
  return null;
}
