// The global in-flight body budget: bytes of request bodies being buffered at once, all requests together.
// A request reserves its Content-Length up front; a chunked body (no length) reserves as it grows. Released on
// finish or abort. Beyond the budget the caller answers 503 SERVICE_BUSY with Retry-After.
export interface DrainOptions {
  /** called when the budget is back to 0 after at least `mark` bytes were taken since the last call */
  onDrained: () => void;
  mark: number;
}

export class BodyBudget {
  private used = 0;
  private taken = 0;
  constructor(readonly limit: number, private readonly drain?: DrainOptions) {}

  /** Reserve n bytes; false (nothing reserved) when the budget would be exceeded. */
  take(n: number): boolean {
    if (n <= 0) return true;
    if (this.used + n > this.limit) return false;
    this.used += n;
    this.taken += n;
    return true;
  }

  give(n: number): void {
    this.used = Math.max(0, this.used - n);
    if (this.used === 0 && this.drain && this.taken >= this.drain.mark) {
      this.taken = 0;
      this.drain.onDrained();
    }
  }

  get inUse(): number {
    return this.used;
  }
}

/** A request's share of the budget: grows with the body, given back once. */
export class BodyLease {
  private held = 0;
  private closed = false;
  constructor(private readonly budget: BodyBudget) {}

  /** Make sure `total` bytes are held; false when the budget is exhausted. */
  ensure(total: number): boolean {
    if (this.closed) return false;
    if (total <= this.held) return true;
    if (!this.budget.take(total - this.held)) return false;
    this.held = total;
    return true;
  }

  release(): void {
    if (this.closed) return;
    this.closed = true;
    this.budget.give(this.held);
    this.held = 0;
  }
}
