// Job ids (prefix + YYYYMMDD + random suffix) and per-job access keys (32 random bytes, base64url; stored hashed).
import crypto from 'node:crypto';
import { FAMILIES, type Family } from './families.js';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

export function randomSuffix(len = 12): string {
  const bytes = crypto.randomBytes(len);
  let s = '';
  for (let i = 0; i < len; i++) s += ALPHABET[bytes[i]! % 36];
  return s;
}

export function newJobId(family: Family, now: number): string {
  const prefix = FAMILIES[family].prefix;
  const sep = prefix.endsWith('-') ? '-' : '_';
  const d = new Date(now);
  const ymd = `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
  return `${prefix}${ymd}${sep}${randomSuffix()}`;
}

export function newAccessKey(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function sha256(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && crypto.timingSafeEqual(x, y);
}
