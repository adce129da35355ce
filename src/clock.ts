// Time source, injectable so that tests can move time (expiry, rate-limit windows, retries).
export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

/** An epoch-milliseconds time as ISO 8601 text, or null when there is none (job records' optional times). */
export const iso = (t?: number): string | null => (t === undefined ? null : new Date(t).toISOString());

export class ManualClock implements Clock {
  constructor(private t = Date.UTC(2026, 10, 22, 0, 0, 0)) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(t: number): void {
    this.t = t;
  }
}
