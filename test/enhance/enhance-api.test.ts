// POST /ekyc/enhance (sync and async), status, image (200 / 202 / 404 failed / 410 expired), validation, tenant costs.
import t from 'tap';
import sharp from 'sharp';
import { startTestServer, formData } from '../helpers/server.js';
import { renderCard } from '../helpers/id-cards.js';
import { runEnhance } from '../../src/enhance/pipeline.js';
import { defaultRegions } from '../../src/enhance/privacy.js';

const s = await startTestServer({ manualClock: true, workers: 2, env: { SEJONG_FETCH_ALLOW: '127.0.0.1' } });
t.teardown(() => s.close());
const card = await renderCard('jumin', { seed: 31, degrade: { blur: 1.2, noise: 10 } });
const png = { image: { data: card.image, type: 'image/png', filename: 'card.png' } };
const post = (fields: Record<string, string | boolean | undefined>, files: Record<string, { data: Buffer; type?: string }> = png) =>
  s.req('/api/v1/ekyc/enhance', { method: 'POST', body: formData(fields, files) });
// a receiver URL nobody listens on: the callback fails quietly, which these tests do not look at
const CALLBACK = 'http://127.0.0.1:9/never';

async function waitDone(id: string): Promise<Record<string, any>> {
  for (let i = 0; i < 900; i++) {
    const r = await (await s.req(`/api/v1/ekyc/enhance/status/${id}`)).json();
    if (r.status !== 'processing') return r;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('timeout');
}

t.test('synchronous enhance: the final result, the JPEG, the status, the cost under the tenant', async (t) => {
  const r = await post({ doc_type: 'jumin', tenant_id: 'bank-a' });
  t.equal(r.status, 200);
  const b = await r.json();
  t.match(b, {
    success: true, jobId: /^ekyc-enhance-\d{8}-/, status: 'completed', enhancedImageUrl: new RegExp(`/api/v1/ekyc/enhance/image/${b.jobId}$`),
    qualityBefore: { brightness: Number, contrast: Number, sharpness: Number, overallScore: Number },
    qualityAfter: { brightness: Number, contrast: Number, sharpness: Number, overallScore: Number },
    tilesProcessed: 15, processingTimeMs: Number, estimatedCostUsd: 0.01, privacyMode: 'juminMask', accessKey: String,
  });
  // judged by OCR (enhance-ocr.test.ts), not by the score: only check that it does not fall (docs/image.md#quality)
  t.ok(b.qualityAfter.overallScore >= b.qualityBefore.overallScore - 5, `quality ${b.qualityBefore.overallScore} → ${b.qualityAfter.overallScore}`);
  const img = await s.req(`/api/v1/ekyc/enhance/image/${b.jobId}`);
  t.equal(img.status, 200);
  t.equal(img.headers.get('content-type'), 'image/jpeg');
  const meta = await sharp(Buffer.from(await img.arrayBuffer())).metadata();
  t.match(meta, { format: 'jpeg', width: 1280, height: 807 });
  const viaKey = await s.req(`/api/v1/ekyc/enhance/image/${b.jobId}?key=${b.accessKey}&format=png`, { key: null });
  t.equal(viaKey.status, 200, 'the access key as ?key= works');
  t.equal(viaKey.headers.get('content-type'), 'image/png');
  const st = await (await s.req(`/api/v1/ekyc/enhance/status/${b.jobId}`)).json();
  t.match(st, { jobId: b.jobId, status: 'completed', progress: 1, tilesProcessed: 15, enhancedImageUrl: b.enhancedImageUrl, processingTimeMs: Number });
  const usage = await (await s.req('/api/v1/admin/usage/tenants?tenant=bank-a', { key: s.adminKey })).json();
  t.match(usage.rows, [{ tenant: 'bank-a', jobs: 1, costUsd: 0.01, byFamily: { ekyc_enhance: { jobs: 1, cost: 0.01 } } }]);
  const other = await s.req(`/api/v1/ekyc/enhance-pipeline/status/${b.jobId}`);
  t.equal(other.status, 404, 'not readable through the pipeline family');
  t.equal((await other.json()).error.code, 'JOB_NOT_FOUND');
});

t.test('asynchronous enhance: 202 at once, image 202 while processing, then 200; expiry 410 after 1 h', async (t) => {
  const r = await post({ doc_type: 'driver', callback_url: CALLBACK, tenant_id: 'bank-b' });
  t.equal(r.status, 202);
  const b = await r.json();
  t.match(b, { success: true, status: 'processing', jobId: /^ekyc-enhance-/, accessKey: String, enhancedImageUrl: String, estimatedCostUsd: 0.01 });
  const early = await s.req(`/api/v1/ekyc/enhance/image/${b.jobId}`);
  t.equal(early.status, 202, 'in progress: 202');
  t.match(await early.json(), { jobId: b.jobId, status: 'processing', progress: Number });
  const done = await waitDone(b.jobId);
  t.equal(done.status, 'completed');
  const img = await s.req(`/api/v1/ekyc/enhance/image/${b.jobId}`);
  t.equal(img.status, 200, 'done: 200');
  t.equal(img.headers.get('content-type'), 'image/jpeg');
  (s.clock as any).advance(59 * 60_000);
  t.equal((await s.req(`/api/v1/ekyc/enhance/image/${b.jobId}`)).status, 200, 'still there after 59 min');
  (s.clock as any).advance(61_000);
  const gone = await s.req(`/api/v1/ekyc/enhance/image/${b.jobId}`);
  t.equal(gone.status, 410, 'after 1 h: 410');
  t.equal((await gone.json()).error.code, 'IMAGE_EXPIRED');
  const st = await s.req(`/api/v1/ekyc/enhance/status/${b.jobId}`);
  t.equal(st.status, 410, 'the status endpoint answers 410 too (one behaviour everywhere)');
  t.match(await st.json(), { error: { code: 'IMAGE_EXPIRED' } });
  const cacheBust = await s.req(`/api/v1/ekyc/enhance/image/${b.jobId}?_=123`);
  t.equal(cacheBust.status, 410, 'an unknown query parameter is ignored (410, not 400)');
  const badFormat = await s.req(`/api/v1/ekyc/enhance/image/${b.jobId}?format=gif`);
  t.equal(badFormat.status, 400, 'known parameters are still checked');
});

t.test('a failed job: image 404, status failed with the reason', async (t) => {
  const broken = card.image.subarray(0, 3000); // a PNG header that decodes no further
  const r = await post({ doc_type: 'jumin', callback_url: CALLBACK }, { image: { data: Buffer.from(broken), type: 'image/png' } });
  t.equal(r.status, 202);
  const { jobId } = await r.json();
  const st = await waitDone(jobId);
  t.match(st, { status: 'failed', error: { code: 'INVALID_REQUEST', message: /truncated/ } });
  const img = await s.req(`/api/v1/ekyc/enhance/image/${jobId}`);
  t.equal(img.status, 404);
  t.match(await img.json(), { success: false, error: { code: 'JOB_FAILED', message: /truncated/ } });
  const sync = await post({ doc_type: 'jumin' }, { image: { data: Buffer.from(broken), type: 'image/png' } });
  t.equal(sync.status, 400, 'synchronous mode answers the 400 itself');
  t.match(await sync.json(), { error: { code: 'INVALID_REQUEST', field: 'image' } });
});

t.test('validation: every rejection names the field', async (t) => {
  const cases: Array<[Record<string, string | undefined>, string, RegExp]> = [
    [{ doc_type: 'jumin', privacy_regions: '{"regions":[{"x":0.5,"y":0.5,"w":0.6,"h":0.1}]}' }, 'privacy_regions.regions[0].w', /x \+ w <= 1/],
    [{ doc_type: 'jumin', privacy_regions: '{"regions":[{"x":0.5,"y":0.5,"w":0.1}]}' }, 'privacy_regions.regions[0].h', /Expected a number/],
    [{ doc_type: 'jumin', privacy_regions: 'regions' }, 'privacy_regions', /not valid JSON/],
    [{ doc_type: 'jumin', privacy_mode: 'custom' }, 'privacy_regions', /required/],
    [{ doc_type: 'jumin', privacy_mode: 'blurAll' }, 'privacy_mode', /juminMask/],
    [{ doc_type: 'passport' }, 'doc_type', /jumin/],
    [{}, 'doc_type', /jumin.*nothing|required/],
    [{ doc_type: 'jumin', callback_url: 'ftp://example.com/x' }, 'callback_url', /http/],
    [{ doc_type: 'jumin', callback_url: 'http://10.1.2.3/hook' }, 'callback_url', /private/],
    [{ doc_type: 'jumin', callback_meta: '{broken' }, 'callback_meta', /JSON/],
    [{ doc_type: 'jumin', tenant_id: 'a b' }, 'tenant_id', /.+/],
    [{ doc_type: 'jumin', colour: 'red' }, 'colour', /^Unknown part colour; this endpoint accepts image, doc_type, /],
  ];
  for (const [fields, field, re] of cases) {
    const r = await post(fields);
    t.equal(r.status, 400, `${JSON.stringify(fields)} → 400`);
    const b = await r.json();
    t.equal(b.error.field, field, `names ${field}`);
    t.match(b.error.message, re);
  }
  const noImage = await s.req('/api/v1/ekyc/enhance', { method: 'POST', body: formData({ doc_type: 'jumin' }) });
  t.equal(noImage.status, 400);
  t.equal((await noImage.json()).error.field, 'image');
  const gif = await post({ doc_type: 'jumin' }, { image: { data: Buffer.from('GIF89a' + 'x'.repeat(40)), type: 'image/gif' } });
  t.equal(gif.status, 415);
  t.equal((await s.req('/api/v1/ekyc/enhance/status/ekyc-enhance-20261122-nope')).status, 404);
  t.equal((await s.req('/api/v1/ekyc/enhance/image/ekyc-enhance-20261122-nope')).status, 404);
});

t.test('progress advances tile by tile', async (t) => {
  const seen: Array<[number, number]> = [];
  const out = await runEnhance(s.services, { image: card.image, regions: defaultRegions('jumin', 'juminMask'), onProgress: (p, tiles) => { seen.push([p, tiles]); } });
  t.equal(out.tilesProcessed, 15);
  t.equal(seen.length, 16, 'once after the preparation, then once per tile');
  t.same(seen.map((x) => x[1]), [...Array(16).keys()], 'tiles done 0, 1, …, 15');
  for (let i = 1; i < seen.length; i++) t.ok(seen[i]![0] > seen[i - 1]![0], `progress rises at tile ${i}`);
  t.ok(seen[0]![0] > 0 && seen[15]![0] < 1, 'within 0..1 (1 is set on completion)');
});

t.test('an enhancement past its time budget stops between tiles with 503 SERVICE_BUSY naming the budget', async (t) => {
  let tilesSeen = 0;
  const budget = s.services.config.enhanceBudgetMs;
  const err = await runEnhance(s.services, {
    image: card.image, regions: defaultRegions('jumin', 'juminMask'),
    // the manual clock jumps past the budget after the third tile: no further tile may start
    onProgress: (_p, tiles) => { tilesSeen = tiles; if (tiles === 3) (s.clock as any).advance(budget + 1); },
  }).then(() => null, (e: any) => e);
  t.equal(err?.code, 'SERVICE_BUSY');
  t.equal(err?.status, 503);
  t.match(err?.message, new RegExp(`time budget of ${budget} ms \\(SEJONG_ENHANCE_BUDGET_MS\\) before step enhanceTiles`));
  t.ok(tilesSeen >= 3 && tilesSeen <= 4, `stopped right after the budget passed (tiles done ${tilesSeen} of 15)`);
  t.equal(err?.headers?.['Retry-After'], String(Math.ceil(budget / 1000)));
});
