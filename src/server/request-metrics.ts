// The two per-request metrics (requests by route, method, status; latency by route, method) kept in plain maps and
// handed to prom-client's registry as metric objects read at scrape time. prom-client's own Counter/Histogram
// validate and hash the label object on every inc()/observe(), even through a cached labels() child: that was
// the largest cost of a request's bookkeeping in a profile of the status poll. The text they expose is the same.
import type client from 'prom-client';

interface Count {
  labels: { route: string; method: string; status: string };
  n: number;
}

interface Times {
  labels: { route: string; method: string };
  /** observations per bucket (not cumulative); the last slot is +Inf */
  buckets: Float64Array;
  sum: number;
  count: number;
}

type MetricValue = { labels: Record<string, string | number>; value: number; metricName?: string };

/** What prom-client's Registry needs of a metric: a name, get() and reset(). */
interface RegistryMetric {
  name: string;
  get(): Promise<{ name: string; help: string; type: string; values: MetricValue[]; aggregator: string }>;
  reset(): void;
}

/** one route template and method: its latency and its request counts by status */
interface Slot {
  times: Times;
  counts: Map<number, Count>;
}

export class RequestMetrics {
  /** by route template, then method (constant strings: the lookups hash nothing new per request) */
  private readonly slots = new Map<string, Map<string, Slot>>();

  constructor(registry: client.Registry, names: { requests: string; requestsHelp: string; latency: string; latencyHelp: string }, private readonly bounds: readonly number[]) {
    const counts: RegistryMetric = {
      name: names.requests,
      get: async () => ({
        name: names.requests, help: names.requestsHelp, type: 'counter', aggregator: 'sum',
        values: [...this.allSlots()].flatMap((s) => [...s.counts.values()].map((c) => ({ labels: c.labels, value: c.n }))),
      }),
      reset: () => {
        for (const s of this.allSlots()) s.counts.clear();
      },
    };
    const times: RegistryMetric = {
      name: names.latency,
      get: async () => ({ name: names.latency, help: names.latencyHelp, type: 'histogram', aggregator: 'sum', values: this.histogramValues(names.latency) }),
      reset: () => {
        for (const { times: t } of this.allSlots()) {
          t.buckets.fill(0);
          t.sum = 0;
          t.count = 0;
        }
      },
    };
    registry.registerMetric(counts as unknown as client.Metric);
    registry.registerMetric(times as unknown as client.Metric);
  }

  private *allSlots(): Iterable<Slot> {
    for (const byMethod of this.slots.values()) yield* byMethod.values();
  }

  /** One answered request: three map lookups on constant keys and a bucket search. */
  observe(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.slots.get(route);
    if (!byMethod) this.slots.set(route, (byMethod = new Map()));
    let slot = byMethod.get(method);
    if (!slot) {
      const times = { labels: { route, method }, buckets: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      byMethod.set(method, (slot = { times, counts: new Map() }));
    }
    let c = slot.counts.get(status);
    if (!c) slot.counts.set(status, (c = { labels: { route, method, status: String(status) }, n: 0 }));
    c.n++;
    const t = slot.times;
    let b = 0;
    while (b < this.bounds.length && seconds > this.bounds[b]!) b++;
    t.buckets[b]!++;
    t.sum += seconds;
    t.count++;
  }

  /** _bucket (cumulative, le), _sum and _count lines per (route, method), as prom-client writes them. */
  private histogramValues(name: string): MetricValue[] {
    const out: MetricValue[] = [];
    for (const { times: t } of this.allSlots()) {
      if (t.count === 0) continue; // reset and not observed since
      let acc = 0;
      for (let i = 0; i <= this.bounds.length; i++) {
        acc += t.buckets[i]!;
        out.push({ labels: { le: i < this.bounds.length ? this.bounds[i]! : '+Inf', ...t.labels }, value: acc, metricName: `${name}_bucket` });
      }
      out.push({ labels: t.labels, value: t.sum, metricName: `${name}_sum` });
      out.push({ labels: t.labels, value: t.count, metricName: `${name}_count` });
    }
    return out;
  }
}
