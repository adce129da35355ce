// Progress of long command-line work (`sejong law import`, `law import --git`, `law sync`, `db migrate`), written
// to stderr. On a terminal: one line redrawn in place. Off a terminal (logs, CI, systemd): a plain line when the
// work moves on (at most one per `everyMs`), and a heartbeat line whenever `everyMs` passed in silence, checked by a
// timer twice per `everyMs`, so a line comes at least every 10 s (the default 5 s + 2.5 s) even through a long step
// that reports nothing (an index build, a slow answer, a lock held by another node).
// Here (below every layer) so that the law CLI and cli/ can both use it.

export interface ProgressSink {
  /** a terminal: redraw one line in place */
  tty: boolean;
  write(text: string): void;
  /** milliseconds, monotonic */
  now(): number;
}

const stderrSink = (): ProgressSink => ({ tty: Boolean(process.stderr.isTTY), write: (s) => void process.stderr.write(s), now: () => performance.now() });

export class Progress {
  private stage = 'starting';
  private done = 0;
  private total: number | undefined;
  private lastLine = -Infinity;
  private lastDraw = -Infinity;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly t0: number;

  constructor(private readonly label: string, private readonly sink: ProgressSink = stderrSink(), private readonly everyMs = 5000) {
    this.t0 = sink.now();
  }

  /** Print the first line and start the heartbeat (the timer does not keep the process alive). */
  start(): this {
    if (this.sink.tty) this.draw(this.sink.now());
    else this.line();
    this.timer = setInterval(() => this.tick(), this.everyMs / 2);
    this.timer.unref();
    return this;
  }

  /** Where the work is: `update('files', 150, 3000)`; total undefined when not known. Usable as a callback. */
  readonly update = (stage: string, done: number, total?: number): void => {
    if (this.stopped) return;
    this.stage = stage;
    this.done = done;
    this.total = total;
    const now = this.sink.now();
    if (this.sink.tty) {
      if (now - this.lastDraw >= 100) this.draw(now);
    } else if (now - this.lastLine >= this.everyMs) this.line();
  };

  /** One event worth its own line on and off a terminal (e.g. a statute added by a sync). */
  note(message: string): void {
    if (this.sink.tty) this.sink.write(`\r\x1b[K${message}\n`);
    else this.sink.write(`${this.label}: ${message}\n`);
    this.lastLine = this.sink.now();
  }

  /** The heartbeat (called by the timer; tests call it with a manual clock). */
  tick(): void {
    if (this.stopped) return;
    const now = this.sink.now();
    if (this.sink.tty) this.draw(now);
    else if (now - this.lastLine >= this.everyMs) this.line();
  }

  /** Stop the heartbeat; on a terminal end the redrawn line. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    if (this.sink.tty && this.lastDraw > -Infinity) this.sink.write('\n');
  }

  private text(now: number): string {
    const count = this.total ? `${this.done}/${this.total} (${Math.floor((this.done / this.total) * 100)} %)` : this.done ? String(this.done) : '';
    return `${this.stage}${count ? ` ${count}` : ''}, ${Math.round((now - this.t0) / 1000)} s`;
  }

  private line(): void {
    const now = this.sink.now();
    this.sink.write(`${this.label}: ${this.text(now)}\n`);
    this.lastLine = now;
  }

  private draw(now: number): void {
    const bar = this.total ? `${'█'.repeat(Math.round((Math.min(this.done, this.total) / this.total) * 30)).padEnd(30, '░')} ` : '';
    this.sink.write(`\r\x1b[K${this.label}: ${bar}${this.text(now)}`);
    this.lastDraw = now;
  }
}
