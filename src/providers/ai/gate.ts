// The AI slot of one server (services.ext.ai): the gateway and the gate that bounds the AI jobs' pool tasks.
import type { AiGateway } from './gateway.js';

export interface AiSlot {
  gateway: AiGateway;
  gate?: Gate;
}

/** Limits how many pool tasks the AI jobs keep queued, so that a burst of finished upstream calls waits here
 * (in memory, per job) instead of overflowing the bounded pool queue and failing with SERVICE_BUSY. */
export class Gate {
  private active = 0;
  private readonly waiters: Array<() => void> = [];
  constructor(private readonly size: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((r) => this.waiters.push(r));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiters.shift();
      if (next) next();
      else this.active--;
    }
  }
}

