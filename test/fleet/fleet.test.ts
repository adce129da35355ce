// The fleet test of issue #14, over the public HTTP API only: three real sejong processes in shared mode (one
// PostgreSQL, one Redis) behind HAProxy on loopback. Async jobs created round-robin and polled on another node while
// a node is killed with SIGKILL and restarted; a key's per-minute limit across the three; an enhance callback whose
// receiver fails once, delivered with the same webhook-id after the node that accepted it is killed.
// 200 concurrent prints over the nodes (a third sent twice with one job_id) with a node SIGKILLed mid-way: the
// PostgreSQL print store charges each job_id once and never loses a point. The key limit part runs as `todo` when
// API keys are not fleet-wide (detected at run time through the API).
import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { enginesMissing } from '../helpers/engines.js';
import { call, haproxyMissing, startFleet, type Fleet, type FleetNode } from '../helpers/fleet.js';
import { FambFake } from '../fakes/famb.js';
import { formData } from '../helpers/server.js';
import { renderCard } from '../helpers/id-cards.js';
import { imageServer } from '../print/helpers.js';
import { aiPicture, solid } from '../print/fixtures.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const missing = enginesMissing() ?? haproxyMissing();
const MODEL = 'fam-b-2.5-flash-image';
const JOBS = Number(process.env.FLEET_JOBS ?? 300);

/** run fn(i) for i < n with at most `width` at once */
async function each(n: number, width: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => { while (next < n) await fn(next++); }));
}

/** a request to the first live node from `start` on; a refused connection or a 502/503 moves to the next node */
async function onNode(fleet: Fleet, start: number, pathname: string, init: Parameters<typeof call>[2], keys?: string[]): Promise<{ res: Response; node: FleetNode }> {
  let last = '';
  for (let k = 0; k < 60; k++) {
    const node = fleet.nodes[(start + k) % fleet.nodes.length]!;
    if (!node.proc) continue;
    try {
      const res = await call(node.url, pathname, keys ? { ...init, key: keys[(start + k) % fleet.nodes.length] } : init);
      if (res.status !== 502 && res.status !== 503) return { res, node };
      last = `${res.status} ${await res.text()}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await sleep(200);
  }
  throw new Error(`${pathname}: no node answered (${last})`);
}

async function newKey(base: string, adminKey: string, body: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const r = await call(base, '/api/v1/admin/keys', { method: 'POST', key: adminKey, json: { name: 'fleet', ...body } });
  if (r.status !== 201) throw new Error(`key: ${r.status} ${await r.text()}`);
  return (await r.json()) as { id: string; key: string };
}

t.test('fleet of three behind HAProxy', { skip: missing }, async (t) => {
  const famb = await new FambFake({ imageBase: 48 }).start();
  famb.latencyMs = 150;
  t.teardown(() => famb.close());
  const fleet = await startFleet({
    nodes: 3,
    env: { SEJONG_FAMB_URL: famb.url, SEJONG_FAMB_KEY: famb.key, SEJONG_FETCH_ALLOW: '127.0.0.1', SEJONG_QUEUE_SIZE: '1000', SEJONG_QUEUE_WAIT_MS: '120000', SEJONG_QUEUE_LOCK_MS: '4000', SEJONG_QUEUE_STALLED_MS: '2000' },
  });
  t.teardown(() => fleet.close());

  // a key made through the balancer; is it known on every node (fleet-wide keys) yet?
  const { key } = await newKey(fleet.url, fleet.adminKey);
  const known = await Promise.all(fleet.nodes.map(async (n) => (await call(n.url, '/api/v1/text-to-image/models', { key })).status));
  const keysShared = known.every((s) => s === 200);
  const noKeys = keysShared ? false : `API keys are not fleet-wide yet (the key answers ${known.join('/')} on the three nodes): fleet-auth`;

  // a key made on each node (fleet-wide keys or not, each works on its own node); polls and downloads use the
  // job's access key (Bearer), which any node checks against the job record
  const keys = await Promise.all(fleet.nodes.map(async (n) => (await newKey(n.url, fleet.adminKey)).key));

  t.test(`${JOBS} async jobs round-robin, polled on another node, one node SIGKILLed and restarted`, async (t) => {
    const jobs: Array<{ id: string; at: number; token: string }> = [];
    const victim = fleet.nodes[1]!;
    let outage: Promise<void> | undefined;
    await each(JOBS, 12, async (i) => {
      if (i === Math.floor(JOBS / 3)) outage = (async () => { await victim.kill('SIGKILL'); await sleep(1500); await victim.start(); })();
      const { res, node } = await onNode(fleet, i % 3, '/api/v1/text-to-image/generate', { method: 'POST', json: { model: MODEL, prompt: `fleet job ${i}` } }, keys);
      const b = (await res.json()) as { jobId?: string; accessKey?: string };
      if (res.status !== 200 || !b.jobId || !b.accessKey) throw new Error(`job ${i}: ${res.status} ${JSON.stringify(b)}`);
      jobs.push({ id: b.jobId, at: fleet.nodes.indexOf(node), token: b.accessKey });
    });
    await outage;
    t.equal(jobs.length, JOBS, `${JOBS} jobs accepted (a request to the dead node went to the next one)`);
    const bearer = (j: { token: string }) => ({ authorization: `Bearer ${j.token}` });
    const final = new Map<string, { status: string; error?: { code?: string; message?: string } }>();
    const deadline = Date.now() + 240_000;
    await each(jobs.length, 24, async (i) => {
      const j = jobs[i]!;
      while (Date.now() < deadline) {
        const { res, node } = await onNode(fleet, j.at + 1, `/api/v1/text-to-image/status/${j.id}`, { headers: bearer(j) });
        const b = (await res.json()) as { status: string; error?: { code?: string; message?: string } };
        if (res.status === 200 && fleet.nodes.indexOf(node) === j.at) { await sleep(100); continue; } // only the other nodes count
        if (res.status === 200 && b.status !== 'processing') { final.set(j.id, b); return; }
        if (res.status !== 200) { final.set(j.id, { status: `http ${res.status}`, error: b.error }); return; }
        await sleep(300);
      }
    });
    const stuck = jobs.filter((j) => !final.has(j.id)).map((j) => j.id);
    t.same(stuck, [], 'no job left processing');
    const bad = [...final].filter(([, b]) => !(b.status === 'completed' || (b.status === 'failed' && b.error?.code && b.error.message)));
    t.same(bad, [], 'every job completed, or failed with a code and a reason (seen on a node other than its creator)');
    const completed = jobs.filter((j) => final.get(j.id)?.status === 'completed');
    t.ok(completed.length >= JOBS * 0.9, `${completed.length} of ${JOBS} completed (the rest failed with a reason)`);
    const unreadable: string[] = [];
    const sizes = new Map<string, Set<string>>();
    await each(completed.length, 12, async (i) => {
      const j = completed[i]!;
      for (const n of fleet.nodes) {
        const r = await call(n.url, `/api/v1/text-to-image/download/${j.id}`, { headers: bearer(j) });
        const bytes = Buffer.from(await r.arrayBuffer());
        if (r.status !== 200 || bytes.subarray(1, 4).toString() !== 'PNG') unreadable.push(`${j.id}@${n.name}: ${r.status}`);
        (sizes.get(j.id) ?? sizes.set(j.id, new Set()).get(j.id)!).add(`${bytes.length}`);
      }
    });
    t.same(unreadable, [], 'every result is readable (a PNG) from every node');
    t.same([...sizes].filter(([, s]) => s.size !== 1), [], 'the three nodes serve the same bytes');
  });

  t.test('a key\'s per-minute limit holds exactly across the three nodes', { todo: noKeys }, async (t) => {
    const LIMIT = 30;
    const { key: k } = await newKey(fleet.url, fleet.adminKey, { rateLimitPerMinute: LIMIT });
    // a burst well inside one minute (a fixed window must not turn over in the middle)
    while (new Date().getUTCSeconds() > 40) await sleep(500);
    const statuses: number[] = new Array(LIMIT + 15);
    await Promise.all(Array.from(statuses, async (_, i) => {
      statuses[i] = (await call(fleet.nodes[i % 3]!.url, '/api/v1/text-to-image/models', { key: k })).status;
    }));
    t.same({ ok: statuses.filter((s) => s === 200).length, limited: statuses.filter((s) => s === 429).length }, { ok: LIMIT, limited: 15 }, `${LIMIT} answered, the rest 429, over three nodes`);
  });

  t.test('200 concurrent prints over the nodes, a third sent twice with one job_id, a node killed mid-way', async (t) => {
    const img = await imageServer({ '/ai.jpg': { body: await aiPicture(400, 400), type: 'image/jpeg' } });
    t.teardown(() => img.close());
    const n1 = fleet.nodes[0]!.url;
    const adm = (path: string, json?: unknown, method = json === undefined ? 'GET' : 'POST') => call(n1, `/api/v1/admin/print${path}`, { method, json, key: fleet.adminKey });
    const UNIT = 5;
    const START = 5000;
    const adv = (await (await adm('/advertisers', { name: 'fleet adv', unit_points: UNIT })).json()) as { id: string };
    t.equal((await adm(`/advertisers/${adv.id}/top-ups`, { points: START, reason: 'fleet test' })).status, 201, 'topped up');
    const fd = formData({ advertiser_id: adv.id, title: 'fleet ad', album_ids: JSON.stringify(['alb-fleet']) }, { image: { data: await solid(300, 120, [200, 0, 0]), filename: 'ad.png', type: 'image/png' } });
    const app = (await (await call(n1, '/api/v1/admin/print/applications', { method: 'POST', body: fd, key: fleet.adminKey })).json()) as { id: string };
    t.equal((await adm(`/applications/${app.id}/versions/1/approve`, {})).status, 200, 'creative approved');
    t.equal((await adm('/albums', { id: 'alb-fleet', name: 'fleet album', ad_mode: 'selected', advertiser_ids: [adv.id] })).status, 201, 'album made');
    // the print store is the fleet's: the advertiser made on n1 is read on n2 and n3
    for (const n of fleet.nodes.slice(1)) t.equal((await call(n.url, `/api/v1/admin/print/advertisers/${adv.id}`, { key: fleet.adminKey })).status, 200, `the advertiser is known on ${n.name}`);
    t.test('balance = start - ledger charges, duplicates charged once', async (t) => {
      const N = 200;
      const sends = Array.from({ length: N }, (_, i) => `fleet-${i}`);
      for (let i = 0; i < N; i += 3) sends.push(`fleet-${i}`); // a third of them twice
      const victim = fleet.nodes[1]!;
      const printKeys = [keys[0]!, keys[0]!, keys[0]!];
      const answers: Array<{ job: string; status: number; charged?: boolean }> = [];
      const kill = async () => { await victim.kill('SIGKILL'); await sleep(1500); await victim.start(); };
      await Promise.all(sends.map(async (job, i) => {
        const b = { ai_image_url: `${img.url}/ai.jpg`, album_id: 'alb-fleet', job_id: job, settings: { qr: { show: false }, event_name: 'fleet' }, output: { target_width: 300, quality: 80 } };
        // a print whose node died before it answered is sent again with the same job_id (what job_id is for)
        // one API key (a job_id belongs to the key that printed it: a repeat with another key is a 409)
        const { res } = await onNode(fleet, i % 3, '/api/v1/composite/print', { method: 'POST', json: b }, printKeys);
        const body = (await res.json()) as { ad_charged?: { charged?: boolean } };
        answers.push({ job, status: res.status, charged: body.ad_charged?.charged });
        // mid-way: the victim holds prints it has charged and not yet composed (its pool is one worker)
        if (answers.length === 60) void kill();
      }));
      while (!victim.proc) await sleep(200);
      t.same(answers.filter((a) => a.status !== 200).map((a) => `${a.job}: ${a.status}`), [], 'every print answered 200');
      const perJob = new Map<string, number>();
      for (const a of answers) perJob.set(a.job, (perJob.get(a.job) ?? 0) + (a.charged ? 1 : 0));
      t.same([...perJob].filter(([, c]) => c > 1), [], 'no job_id charged twice in its answers');
      const bal = (await (await call(fleet.nodes[2]!.url, `/api/v1/admin/print/advertisers/${adv.id}`, { key: fleet.adminKey })).json()) as { balance: number; ledger_sum: number; ledger_entries: number };
      t.same(bal, { ...bal, balance: START - UNIT * N, ledger_sum: START - UNIT * N, ledger_entries: 1 + N }, `balance = ${START} - ${UNIT} x ${N} prints; one top-up and one charge per job_id in the ledger`);
      const ledger = (await (await call(fleet.nodes[0]!.url, `/api/v1/admin/print/advertisers/${adv.id}/ledger?limit=1000`, { key: fleet.adminKey })).json()) as { entries: Array<{ kind: string; delta: number; job_id?: string }> };
      const charges = ledger.entries.filter((e) => e.kind === 'charge');
      const refunds = ledger.entries.filter((e) => e.kind === 'refund');
      t.equal(bal.balance, START - charges.reduce((n, e) => n - e.delta, 0) - refunds.reduce((n, e) => n - e.delta, 0), 'balance = start - sum of the ledger charges (net of refunds)');
      t.equal(new Set(charges.map((e) => e.job_id)).size, charges.length, 'one charge entry per job_id');
      t.same([...new Set(charges.map((e) => e.job_id))].sort(), [...new Set(sends)].sort(), 'every job_id charged');
      const answeredCharged = new Set(answers.filter((a) => a.charged).map((a) => a.job));
      const takenOver = charges.filter((e) => !answeredCharged.has(e.job_id!)).length;
      t.ok(takenOver >= 1, `${takenOver} prints charged by the killed node were finished by another node, not charged again`);
      const imps = (await (await call(fleet.nodes[2]!.url, '/api/v1/admin/print/impressions?album_id=alb-fleet&limit=1000', { key: fleet.adminKey })).json()) as { impressions: Array<{ status: string }> };
      t.same(imps.impressions.map((i) => i.status), Array(N).fill('printed'), 'one impression per job_id, every one printed (none left composing or refunded)');
    });
  });

  // the last part: the killed node stays down (close() removes the rest)
  t.test('an enhance callback whose receiver fails once is delivered with the same webhook-id after its node dies', async (t) => {
    const hits: Array<{ id: string; body: string; at: number }> = [];
    let failFirst = true;
    const rcv = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        hits.push({ id: String(req.headers['webhook-id']), body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        res.statusCode = failFirst ? 500 : 200;
        failFirst = false;
        res.end();
      });
    }).listen(0, '127.0.0.1');
    await new Promise((r) => rcv.once('listening', r));
    t.teardown(() => new Promise<void>((r) => rcv.close(() => r())));
    const url = `http://127.0.0.1:${(rcv.address() as AddressInfo).port}/hook`;
    const a = fleet.nodes[2]!;
    const { key: ka } = await newKey(a.url, fleet.adminKey);
    const card = await renderCard('jumin', { seed: 7 });
    const r = await call(a.url, '/api/v1/ekyc/enhance', { method: 'POST', key: ka, body: formData({ doc_type: 'jumin', callback_url: url, callback_meta: '{"order":"FLEET-1"}' }, { image: { data: card.image, type: 'image/png' } }) });
    const accepted = (await r.json()) as { jobId?: string };
    t.equal(r.status, 202, `node ${a.name} accepted the job (${JSON.stringify(accepted).slice(0, 200)})`);
    for (let i = 0; i < 600 && hits.length < 1; i++) await sleep(200);
    t.equal(hits.length, 1, 'the first attempt reached the receiver (which answered 500)');
    await a.kill('SIGKILL');
    // the next attempt comes after the backoff (5 s), or after the lease if the dead node had not recorded the 500
    for (let i = 0; i < 900 && hits.length < 2; i++) await sleep(200);
    t.equal(hits.length, 2, 'a second attempt was made by a node that is up');
    t.equal(hits[1]?.id, hits[0]?.id, 'with the same webhook-id');
    t.equal(hits[1]?.body, hits[0]?.body, 'and the same body');
    t.match(JSON.parse(hits[1]?.body ?? '{}'), { type: 'ekyc.enhance.completed', jobId: accepted.jobId, status: 'completed', callback_meta: { order: 'FLEET-1' } }, `the completion (${hits[1]?.body.slice(0, 400)})`);
    await sleep(6000);
    t.equal(hits.length, 2, 'delivered once after the success (no further attempt)');
  });
});
