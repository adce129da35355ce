// The plain-map request metrics expose exactly the text prom-client's own Counter and Histogram would.
import t from 'tap';
import client from 'prom-client';
import { RequestMetrics } from '../../src/server/request-metrics.js';

const BOUNDS = [0.001, 0.01, 0.1, 1];
const names = { requests: 'x_requests_total', requestsHelp: 'requests', latency: 'x_seconds', latencyHelp: 'latency' };
const samples: Array<[string, string, number, number]> = [
  ['/health', 'GET', 200, 0.0004], ['/health', 'GET', 200, 0.001], ['/health', 'GET', 200, 0.02],
  ['/api/v1/x/status/:id', 'GET', 404, 0.5], ['/api/v1/x/status/:id', 'GET', 200, 7], ['/api/v1/x', 'POST', 429, 0.01],
];

t.test('same exposition text as prom-client Counter + Histogram', async (t) => {
  const ours = new client.Registry();
  const m = new RequestMetrics(ours, names, BOUNDS);
  const ref = new client.Registry();
  const c = new client.Counter({ name: names.requests, help: names.requestsHelp, labelNames: ['route', 'method', 'status'], registers: [ref] });
  const h = new client.Histogram({ name: names.latency, help: names.latencyHelp, labelNames: ['route', 'method'], buckets: BOUNDS, registers: [ref] });
  for (const [route, method, status, s] of samples) {
    m.observe(route, method, status, s);
    c.inc({ route, method, status: String(status) });
    h.observe({ route, method }, s);
  }
  const text = await ours.metrics();
  t.equal(text, await ref.metrics());
  t.match(text, 'x_seconds_bucket{le="0.001",route="/health",method="GET"} 2');
  t.match(text, 'x_seconds_count{route="/api/v1/x/status/:id",method="GET"} 2');
  t.match(text, 'x_requests_total{route="/api/v1/x",method="POST",status="429"} 1');
  ours.resetMetrics();
  t.equal((await ours.getMetricsAsJSON()).flatMap((x) => x.values).length, 0, 'reset empties both');
  m.observe('/health', 'GET', 200, 0.0005);
  const after = await ours.metrics();
  t.match(after, 'x_requests_total{route="/health",method="GET",status="200"} 1', 'counts start again from zero');
  t.match(after, 'x_seconds_count{route="/health",method="GET"} 1', 'latencies start again from zero');
  t.notMatch(after, '/api/v1/x', 'routes not seen since the reset stay out');
});
