// Fleet benchmark (issue 14): status poll (job access key) and job creation (admin key) and job creation, side by side in one run, on
//   A) one node in LMDB mode, B) one node in shared mode (PostgreSQL + Redis), C) three shared nodes behind HAProxy.
// Real processes (`bin/sejong.js serve`, 1 pool worker each), loopback only; the setups run one after the other
// (each is closed before the next starts). Text-to-image jobs against the fake family-B provider (no latency).
// Run: npm run bench -- fleet [--seconds 6] [--connections 16]
import os from 'node:os';
import { call, startFleet, type Fleet } from '../test/helpers/fleet.js';
import { enginesMissing } from '../test/helpers/engines.js';
import { FambFake } from '../test/fakes/famb.js';
import { load, table, type LoadResult } from './lib/load.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const SECONDS = arg('seconds', 6);
const CONNECTIONS = arg('connections', 16);
const MODEL = 'fam-b-2.5-flash-image';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const missing = enginesMissing();
if (missing) {
  console.error(`fleet bench needs PostgreSQL and Redis: ${missing}`);
  process.exit(2);
}

const famb = await new FambFake({ imageBase: 48 }).start();
const env = { SEJONG_FAMB_URL: famb.url, SEJONG_FAMB_KEY: famb.key, SEJONG_QUEUE_SIZE: '100000', SEJONG_LOG_LEVEL: 'error' };

async function measure(label: string, start: () => Promise<Fleet>, base: (f: Fleet) => string): Promise<Array<Record<string, string | number>>> {
  const fleet = await start();
  try {
    const url = base(fleet);
    // the admin key (SEJONG_ADMIN_KEY, the same on every node) creates; the job's access key (Bearer) polls: both are
    // known to every node whether or not API keys are fleet-wide yet
    const key = fleet.adminKey;
    const g = await call(url, '/api/v1/text-to-image/generate', { method: 'POST', key, json: { model: MODEL, prompt: 'bench' } });
    const { jobId, accessKey } = (await g.json()) as { jobId: string; accessKey: string };
    for (let i = 0; i < 200; i++) {
      const s = (await (await call(url, `/api/v1/text-to-image/status/${jobId}`, { headers: { authorization: `Bearer ${accessKey}` } })).json()) as { status: string };
      if (s.status !== 'processing') break;
      await sleep(100);
    }
    const headers = { 'x-api-key': key };
    const poll = { authorization: `Bearer ${accessKey}` };
    const rows: Array<Record<string, string | number>> = [];
    const row = (what: string, x: LoadResult) => rows.push({ setup: label, what, 'req/s': Math.round(x.rps), 'p50 ms': x.p50ms, 'p99 ms': x.p99ms, errors: x.errors, non2xx: x.non2xx, tool: x.tool });
    await load(`${url}/api/v1/text-to-image/status/${jobId}`, { connections: CONNECTIONS, seconds: 1, headers: poll }); // warm-up
    row('status poll', await load(`${url}/api/v1/text-to-image/status/${jobId}`, { connections: CONNECTIONS, seconds: SECONDS, headers: poll }));
    row('job creation', await load(`${url}/api/v1/text-to-image/generate`, {
      connections: CONNECTIONS, seconds: SECONDS, method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ model: MODEL, prompt: 'bench' }),
    }));
    return rows;
  } finally {
    await fleet.close();
  }
}

const rows = [
  ...(await measure('1 node, LMDB', () => startFleet({ nodes: 1, storage: 'embedded', haproxy: false, env }), (f) => f.nodes[0]!.url)),
  ...(await measure('1 node, shared', () => startFleet({ nodes: 1, haproxy: false, env }), (f) => f.nodes[0]!.url)),
  ...(await measure('3 nodes + HAProxy', () => startFleet({ nodes: 3, env }), (f) => f.url)),
];
await famb.close();
console.log(`\nfleet: ${SECONDS} s per line, ${CONNECTIONS} connections, ${os.cpus().length} cores, load average at the end ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
console.log(table(rows));
process.exit(0);
