// One charge per print, whichever node a job_id reaches and however often: the same job_id sent to two nodes at once
// (50 pairs), and the two paths that used to charge a print twice (charge, refund, charge again on the resend):
// - the request that charged a print failed while a repeat of its job_id on another node was finishing it: its
//   refund made the repeat's sheet unstorable (503), and the resend was charged anew;
// - a step after the charge failed because PostgreSQL was out of reach (a pool time-out under load): the print was
//   refunded, and the resend charged anew. Now it stays charged under its lease and the resend finishes it.
// Both modes (embedded: one server stands in for both nodes); the two-node race is shared mode only.
import t from 'tap';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { enginesMissing } from '../helpers/engines.js';
import { ApiError } from '../../src/domain/errors.js';
import { engineBusy } from '../../src/shared/errors.js';
import { admin, imageServer, type ImageServer } from './helpers.js';
import { aiPicture, solid } from './fixtures.js';

const MODES = ['embedded', 'shared'] as const;
const UNIT = 5;
const START = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Run = (task: string, input: { qr_default_payload?: string }, opts?: unknown) => Promise<unknown>;
/** Wrap a node's pool.run for the composite task: `hook` sees the print's job_id and may wait or throw first. */
function hookComposite(s: TestServer, hook: (jobId: string) => Promise<void>): void {
  const pool = s.services.pool as unknown as { run: Run };
  const run = pool.run.bind(pool);
  pool.run = async (task, input, opts) => {
    if (task === 'composite') await hook(decodeURIComponent(/print\/image\/([^?]+)/.exec(input.qr_default_payload ?? '')?.[1] ?? ''));
    return run(task, input, opts);
  };
}

interface Answer { status: number; retry: string | null; body: any }

async function setup(t: any, storage: (typeof MODES)[number], album: string) {
  const img: ImageServer = await imageServer({ '/ai.jpg': { body: await aiPicture(240, 240), type: 'image/jpeg' } });
  t.teardown(() => img.close());
  // a loaded machine: the picture server (this process) may answer slowly
  const env = { SEJONG_FETCH_ALLOW: '127.0.0.1', SEJONG_FETCH_TIMEOUT_MS: '120000', SEJONG_QUEUE_WAIT_MS: '60000' };
  const a = await startTestServer({ storage, env });
  t.teardown(() => a.close());
  let b = a;
  if (storage === 'shared') {
    b = await startTestServer({ storage, env, sharedEnv: a.sharedEnv });
    t.teardown(() => b.close());
  }
  const adm = admin(a);
  const adv = await adm.advertiser(`adv ${album}`, UNIT, START);
  await adm.creative(adv, await solid(300, 120, [0, 90, 200]), { album_ids: [album] });
  await adm.album(album, 'selected', { advertiser_ids: [adv] });
  // one API key on both nodes (a job_id belongs to the key that printed it; keys are the fleet's)
  const print = async (s: TestServer, jobId: string): Promise<Answer> => {
    const r = await s.req('/api/v1/composite/print', { method: 'POST', key: a.apiKey, json: { ai_image_url: `${img.url}/ai.jpg`, album_id: album, job_id: jobId, settings: { qr: { show: false } }, output: { target_width: 300, quality: 80 } } });
    return { status: r.status, retry: r.headers.get('retry-after'), body: await r.json() };
  };
  /** what a kiosk does: resend the same job_id after a 503 (bounded) */
  const printUntilDone = async (s: TestServer, jobId: string): Promise<Answer[]> => {
    const out: Answer[] = [];
    for (let i = 0; i < 60; i++) {
      out.push(await print(s, jobId));
      if (out[out.length - 1]!.status !== 503) break;
      await sleep(250);
    }
    return out;
  };
  const ledger = async () => {
    const r = await adm.call('GET', `/api/v1/admin/print/advertisers/${adv}/ledger?limit=1000`);
    return r.body.entries as Array<{ kind: string; delta: number; job_id?: string }>;
  };
  return { a, b, adm, adv, print, printUntilDone, ledger };
}

/** charge entries per job_id */
function chargesPerJob(entries: Array<{ kind: string; job_id?: string }>): Map<string, number> {
  const m = new Map<string, number>();
  for (const e of entries) if (e.kind === 'charge') m.set(e.job_id!, (m.get(e.job_id!) ?? 0) + 1);
  return m;
}

for (const storage of MODES) {
  const skip = storage === 'shared' ? enginesMissing() : undefined;

  t.test(`${storage}: 50 job_ids each sent to two nodes at once are charged exactly once each`, { skip }, async (t) => {
    const { a, b, adm, adv, printUntilDone, ledger } = await setup(t, storage, 'alb-pairs');
    const jobs = Array.from({ length: 50 }, (_, i) => `pair-${i}`);
    const answers = await Promise.all(jobs.flatMap((job) => [a, b].map(async (s) => ({ job, last: (await printUntilDone(s, job)).at(-1)! }))));
    t.same(answers.filter((x) => x.last.status !== 200).map((x) => `${x.job}: ${x.last.status} ${JSON.stringify(x.last.body).slice(0, 200)}`), [], 'every print answered 200');
    const chargedAnswers = new Map<string, number>();
    for (const x of answers) if (x.last.body.ad_charged?.charged) chargedAnswers.set(x.job, (chargedAnswers.get(x.job) ?? 0) + 1);
    t.same([...jobs].filter((j) => (chargedAnswers.get(j) ?? 0) > 1), [], 'no job_id answered as charged twice');
    const entries = await ledger();
    const per = chargesPerJob(entries);
    t.same(jobs.filter((j) => per.get(j) !== 1), [], 'exactly one charge entry per job_id');
    t.equal(entries.filter((e) => e.kind === 'refund').length, 0, 'no refund');
    const bal = await adm.balance(adv);
    const charged = entries.filter((e) => e.kind === 'charge').reduce((n, e) => n - e.delta, 0);
    t.same([bal.balance, bal.ledger_sum, bal.ledger_entries], [START - UNIT * 50, START - UNIT * 50, 51], 'balance = start - 50 charges = ledger sum; one top-up + 50 charges');
    t.equal(bal.balance, START - charged, 'balance = start - sum of the charge entries');
  });

  t.test(`${storage}: a step after the charge failing because PostgreSQL is out of reach: the resend finishes the charged print, no second charge`, { skip }, async (t) => {
    const { a, adm, adv, printUntilDone, ledger } = await setup(t, storage, 'alb-busy');
    const failed = new Set<string>();
    hookComposite(a, async (jobId) => {
      if (failed.has(jobId)) return;
      failed.add(jobId);
      throw engineBusy('PostgreSQL');
    });
    const jobs = Array.from({ length: 10 }, (_, i) => `busy-${i}`);
    const runs = await Promise.all(jobs.map((job) => printUntilDone(a, job)));
    for (const [i, run] of runs.entries()) {
      t.same(run.map((x) => x.status), [503, 200], `${jobs[i]}: 503, then the resend prints`);
      t.same([run[0]!.body.error?.code, run[0]!.retry], ['SERVICE_BUSY', '2'], 'the 503 asks for a resend');
      t.same([run[1]!.body.replayed, run[1]!.body.ad_charged?.charged], [true, false], 'the resend finishes the print charged by the first request');
    }
    const entries = await ledger();
    t.same(jobs.filter((j) => chargesPerJob(entries).get(j) !== 1), [], 'exactly one charge entry per job_id');
    t.equal(entries.filter((e) => e.kind === 'refund').length, 0, 'no refund (and so no second charge)');
    t.same(await adm.balance(adv).then((x) => [x.balance, x.ledger_sum, x.ledger_entries]), [START - UNIT * 10, START - UNIT * 10, 11]);
  });
}

t.test('shared: the node that charged a print fails while a repeat on another node finishes it: no refund, no second charge', { skip: enginesMissing() }, async (t) => {
  const { a, b, adm, adv, print, ledger } = await setup(t, 'shared', 'alb-race');
  let releaseA!: () => void;
  let releaseB!: () => void;
  const aGate = new Promise<void>((r) => (releaseA = r));
  const bGate = new Promise<void>((r) => (releaseB = r));
  let aComposing = false;
  let bComposing = false;
  hookComposite(a, async () => {
    aComposing = true;
    await aGate;
    throw new ApiError('INTERNAL_ERROR', 'composition failed (test)');
  });
  hookComposite(b, async () => {
    bComposing = true;
    await bGate;
  });
  const first = print(a, 'race-1'); // charges, then composes until released
  while (!aComposing) await sleep(20);
  const repeat = print(b, 'race-1'); // replays the charged print and takes it over
  while (!bComposing) await sleep(20);
  releaseA();
  const fa = await first;
  t.same([fa.status, fa.body.error?.code], [500, 'INTERNAL_ERROR'], 'the first request fails');
  t.equal((await a.services.ext.print!.store.impression('race-1'))?.status, 'composing', 'not refunded: the repeat holds the print');
  releaseB();
  const rb = await repeat;
  t.equal(rb.status, 200, `the repeat prints (${JSON.stringify(rb.body).slice(0, 300)})`);
  t.same([rb.body.replayed, rb.body.ad_charged?.charged], [true, false], 'as the replay of the print charged by the first request');
  t.equal((await b.services.ext.print!.store.impression('race-1'))?.status, 'printed');
  const entries = await ledger();
  t.same(entries.map((e) => e.kind), ['top_up', 'charge'], 'one charge, no refund');
  t.same(await adm.balance(adv).then((x) => [x.balance, x.ledger_sum]), [START - UNIT, START - UNIT]);
});
