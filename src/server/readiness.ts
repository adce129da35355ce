// Readiness (GET /ready): the store answers a read (in shared mode PostgreSQL and Redis answer too), the pool's
// workers answer a task, every worker loaded the ONNX models (warm-up at start), and the server is not draining.
// /health stays a plain liveness probe.
import type { ReadinessProbe, ReadyCheck, Services } from '../services.js';

export type { ReadyCheck };

const POOL_PING_MS = 5000;
const CACHE_MS = 1000;

export class Readiness implements ReadinessProbe {
  private models: { ok: boolean; detail: string } = { ok: false, detail: 'warming up' };
  private cached?: { at: number; value: Promise<ReadyCheck> };

  constructor(private readonly services: Services, private readonly draining: () => boolean) {}

  private warming = false;

  /** Load the models on every worker (one task per worker at once); readiness waits for it. */
  warmUp(): void {
    if (this.warming) return;
    this.warming = true;
    const { pool } = this.services;
    const t0 = performance.now();
    const runs = Array.from({ length: pool.size }, () => pool.run('models-ready', { holdMs: 200 }, { wait: true }));
    void Promise.all(runs).then(
      (r) => {
        const threads = new Set(r.map((x) => x.threadId)).size;
        this.models = { ok: true, detail: `${r[0]?.models.length ?? 0} models on ${threads} of ${pool.size} workers in ${Math.round(performance.now() - t0)} ms` };
      },
      (e: Error) => {
        this.models = { ok: false, detail: `model load failed: ${e.message}` };
        this.services.log.error({ msg: 'model warm-up failed', err: e.message });
      },
    );
  }

  check(): Promise<ReadyCheck> {
    this.warmUp(); // SEJONG_WARMUP=off: the first probe starts it
    const now = performance.now();
    if (!this.cached || now - this.cached.at > CACHE_MS) this.cached = { at: now, value: this.measure() };
    return this.cached.value.then((v) => (this.draining() ? { ready: false, checks: { ...v.checks, draining: { ok: false, detail: 'shutting down' } } } : v));
  }

  private async measure(): Promise<ReadyCheck> {
    const checks: ReadyCheck['checks'] = {};
    try {
      this.services.store.root.get('__ready__');
      checks.store = { ok: true };
    } catch (e) {
      checks.store = { ok: false, detail: (e as Error).message };
    }
    try {
      await this.services.pool.run('pool-selftest', { mode: 'echo' }, { wait: true, signal: AbortSignal.timeout(POOL_PING_MS) });
      checks.pool = { ok: true, detail: `${this.services.pool.size} workers` };
    } catch (e) {
      checks.pool = { ok: false, detail: (e as Error).message };
    }
    const { engines } = this.services;
    if (engines.mode === 'shared') {
      // a node whose PostgreSQL or Redis is away answers most routes 503: take it out of the balancer
      checks.database = await probe(() => engines.pg.query('select 1'));
      checks.redis = await probe(() => engines.redis.ping());
    }
    checks.models = this.models;
    checks.draining = { ok: true };
    return { ready: Object.values(checks).every((c) => c.ok), checks };
  }
}

/** ok when fn settles within the ping budget; else the reason */
async function probe(fn: () => Promise<unknown>): Promise<{ ok: boolean; detail?: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([fn(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${POOL_PING_MS} ms`)), POOL_PING_MS)))]);
    return { ok: true };
  } catch (e) {
    return { ok: false, detail: (e as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
