// Password guessing on the test console, bounded per client address: 5 failures are free, then each further failure
// locks the address for 2^(n-5) s (at most 15 min); while locked every attempt answers 429 RATE_LIMITED with
// Retry-After. A success clears the address. In memory (a restart forgets, which only helps a legitimate user).
import { ApiError } from '../domain/errors.js';

const FREE_FAILURES = 5;
const MAX_LOCK_MS = 15 * 60_000;
const MAX_TRACKED = 10_000;

interface Entry {
  failures: number;
  lockedUntil: number;
}

export class LoginThrottle {
  private readonly byIp = new Map<string, Entry>();

  /** Throws 429 while the address is locked. */
  check(ip: string, now: number): void {
    const e = this.byIp.get(ip);
    if (e && e.lockedUntil > now) {
      const s = Math.ceil((e.lockedUntil - now) / 1000);
      throw new ApiError('RATE_LIMITED', `Too many wrong passwords from this address; retry in ${s} s`, { headers: { 'retry-after': String(s) } });
    }
  }

  failed(ip: string, now: number): void {
    const e = this.byIp.get(ip) ?? { failures: 0, lockedUntil: 0 };
    e.failures++;
    if (e.failures >= FREE_FAILURES) e.lockedUntil = now + Math.min(MAX_LOCK_MS, 1000 * 2 ** (e.failures - FREE_FAILURES));
    this.byIp.delete(ip);
    this.byIp.set(ip, e);
    if (this.byIp.size > MAX_TRACKED) this.byIp.delete(this.byIp.keys().next().value!);
  }

  succeeded(ip: string): void {
    this.byIp.delete(ip);
  }
}

const throttles = new WeakMap<object, LoginThrottle>();

/** One throttle per running server (keyed by its services object). */
export function throttleFor(services: object): LoginThrottle {
  let t = throttles.get(services);
  if (!t) throttles.set(services, (t = new LoginThrottle()));
  return t;
}
