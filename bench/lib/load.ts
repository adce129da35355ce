// Load generators for the benchmarks: wrk when installed (a C client that outruns uWS), else autocannon.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
import autocannon from 'autocannon';

export interface LoadResult {
  tool: 'wrk' | 'autocannon';
  rps: number;
  p50ms: number;
  p99ms: number;
  errors: number;
  non2xx: number;
}

export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

export async function load(url: string, opts: { connections: number; seconds: number; headers?: Record<string, string>; threads?: number; method?: string; body?: string }): Promise<LoadResult> {
  if (hasWrk()) {
    const script = `/tmp/sejong-wrk-${process.pid}.lua`;
    const hdrs = Object.entries(opts.headers ?? {}).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`).join('\n');
    const req = opts.method ? `wrk.method = ${JSON.stringify(opts.method)}\n` + (opts.body !== undefined ? `wrk.body = ${JSON.stringify(opts.body)}\n` : '') : '';
    const lua = `${hdrs}
${req}done = function(summary, latency, requests)
  io.write(string.format("RESULT %f %f %f %d\\n", summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end`;
    // no response() callback: it makes wrk hand every response (headers and body) to Lua, which costs the load
    // generator more than a fast server spends per request; wrk counts non-2xx answers itself (parsed below)
    (await import('node:fs')).writeFileSync(script, lua);
    // async: the servers under test may live in this process and must keep their event loop
    const { stdout: out } = await run('wrk', ['-t', String(opts.threads ?? 1), '-c', String(opts.connections), '-d', `${opts.seconds}s`, '--latency', '-s', script, url], { encoding: 'utf8' });
    const m = /RESULT ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(out);
    const non = /Non-2xx or 3xx responses: (\d+)/.exec(out);
    if (!m) throw new Error(`wrk output not understood:\n${out}`);
    return { tool: 'wrk', rps: Number(m[1]), p50ms: Number(m[2]), p99ms: Number(m[3]), errors: Number(m[4]), non2xx: non ? Number(non[1]) : 0 };
  }
  // (autocannon takes an explicit `method: undefined` as a method of its own and throws: the default is spelled out)
  const r = await autocannon({ url, connections: opts.connections, duration: opts.seconds, headers: opts.headers, method: (opts.method ?? 'GET') as 'GET', body: opts.body });
  return { tool: 'autocannon', rps: r.requests.average, p50ms: r.latency.p50, p99ms: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

export function table(rows: Array<Record<string, string | number>>): string {
  const cols = Object.keys(rows[0] ?? {});
  const fmt = (v: string | number) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : v);
  const w = cols.map((c) => Math.max(c.length, ...rows.map((r) => fmt(r[c]!).length)));
  const line = (vals: string[]) => '| ' + vals.map((v, i) => v.padEnd(w[i]!)).join(' | ') + ' |';
  return [line(cols), '|' + w.map((n) => '-'.repeat(n + 2)).join('|') + '|', ...rows.map((r) => line(cols.map((c) => fmt(r[c]!))))].join('\n');
}
