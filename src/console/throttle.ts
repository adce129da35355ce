// Password guessing on the test console, bounded per client address: 5 failures are free, then each further failure
// locks the address for 2^(n-5) s (at most 15 min); while locked every attempt answers 429 RATE_LIMITED with
// Retry-After. A success clears the address. Two implementations behind LoginThrottle, chosen at start-up
// (src/server/start.ts): in memory per node (embedded; a restart forgets, which only helps a legitimate user) and in
// Redis (shared mode, throttle-redis.ts: one count for the whole fleet, so a balancer spreading guesses over N nodes
// does not give N times the guesses).
import { ApiError } from '../domain/errors.js';

export const FREE_FAILURES = 5;
export const MAX_LOCK_MS = 15 * 60_000;
const MAX_TRACKED = 10_000;

interface Entry {
  failures: number;
  lockedUntil: number;
}

export interface LoginThrottle {
  /** Throws 429 while the address is locked. */
  check(ip: string, now: number): Promise<void>;
  failed(ip: string, now: number): Promise<void>;
  succeeded(ip: string): Promise<void>;
}

/** How long an address is locked after its n-th failure (0 while failures are free). */
export function lockMs(failures: number): number {
  return failures >= FREE_FAILURES ? Math.min(MAX_LOCK_MS, 1000 * 2 ** (failures - FREE_FAILURES)) : 0;
}

/** The 429 for an address locked until lockedUntil (nothing when it is not locked). */
export function refuseIfLocked(lockedUntil: number, now: number): void {
  if (lockedUntil <= now) return;
  const s = Math.ceil((lockedUntil - now) / 1000);
  throw new ApiError('RATE_LIMITED', `Too many wrong passwords from this address; retry in ${s} s`, { headers: { 'retry-after': String(s) } });
}

export class MemoryLoginThrottle implements LoginThrottle {
  private readonly byIp = new Map<string, Entry>();

  async check(ip: string, now: number): Promise<void> {
    refuseIfLocked(this.byIp.get(ip)?.lockedUntil ?? 0, now);
  }

  async failed(ip: string, now: number): Promise<void> {
    const e = this.byIp.get(ip) ?? { failures: 0, lockedUntil: 0 };
    e.failures++;
    if (e.failures >= FREE_FAILURES) e.lockedUntil = now + lockMs(e.failures);
    this.byIp.delete(ip);
    this.byIp.set(ip, e);
    if (this.byIp.size > MAX_TRACKED) this.byIp.delete(this.byIp.keys().next().value!);
  }

  async succeeded(ip: string): Promise<void> {
    this.byIp.delete(ip);
  }
}
