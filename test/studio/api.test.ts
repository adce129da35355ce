// The studio endpoints end to end on a real server: catalog, validation, jobs with progress, status, image proxy.
import t from 'tap';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { PORTRAITS, changedWhere, decode, imageServer, readFile } from './helpers.js';
import { detectFaces } from '../../src/vision/face.js';
import { faceGeom, axisOffset } from '../../src/tasks/lib/studio-face.js';
import { hueChroma, angleDiff } from '../../src/tasks/lib/studio-raster.js';
import { STYLES } from '../../src/tasks/lib/studio-makeup.js';
import { skipFileWithoutShared } from '../helpers/shared.js';

await skipFileWithoutShared('faces');

const files = { 'group.jpg': readFile(PORTRAITS.group), 'grace.jpg': readFile(PORTRAITS.grace), 'coffee.png': readFile(PORTRAITS.coffee), 'astronaut.png': readFile(PORTRAITS.astronaut), 'text.txt': Buffer.from('not an image'), 'broken.jpg': readFile(PORTRAITS.grace).subarray(0, 3000) };

const readJson = (r: Response): Promise<any> => r.json();

let s: TestServer;
let img: { url: string; close: () => Promise<void> };

t.before(async () => {
  img = await imageServer(files);
  s = await startTestServer({ env: { SEJONG_FETCH_ALLOW: '127.0.0.1' } });
});
t.teardown(async () => {
  await s?.close();
  await img?.close();
});

interface Status {
  jobId: string; status: string; featureId: string; progress: number; actualCost: number | null; faceDetected: boolean | null;
  faceCount: number | null; facesTreated: number | null; imageUrl: string | null; processingTimeMs: number | null; error?: { code: string };
}

/** Create a job and poll its status until done; returns the creation answer, every progress seen and the last status. */
async function runJob(path: string, json: unknown, auth?: 'access'): Promise<{ created: any; progress: number[]; last: Status }> {
  const r = await s.req(path, { method: 'POST', json });
  const created = await readJson(r);
  if (r.status !== 200) throw new Error(`create ${r.status}: ${JSON.stringify(created)}`);
  const progress: number[] = [];
  for (let i = 0; i < 600; i++) {
    const st = await s.req(`/api/v1/studio/status/${created.jobId}`, auth === 'access' ? { key: null, headers: { authorization: `Bearer ${created.accessKey}` } } : {});
    const body = (await readJson(st)) as Status;
    if (st.status !== 200) throw new Error(`status ${st.status}: ${JSON.stringify(body)}`);
    progress.push(body.progress);
    if (body.status !== 'processing') return { created, progress, last: body };
    // backs off to 4 polls a second: the job-access-key budget (300/min) holds however long the job takes
    await new Promise((res) => setTimeout(res, Math.min(250, 25 + 10 * i)));
  }
  throw new Error('job did not finish');
}

async function fetchImage(rel: string): Promise<Response> {
  return fetch(s.url + rel);
}

t.test('catalog: every feature, self-describing params, 1.1.0 params marked', async (t) => {
  const r = await s.req('/api/v1/studio/catalog', { key: null });
  t.equal(r.status, 200);
  const body = await readJson(r);
  const ids = body.features.map((f: any) => f.id);
  t.same(ids, ['skin-retouch', 'reshape', 'makeup', 'mosaic']);
  for (const f of body.features) {
    t.ok(f.label && f.category && f.status === 'active' && Array.isArray(f.params), `${f.id} has id, label, category, status, params`);
  }
  const skin = body.features[0];
  const p = Object.fromEntries(skin.params.map((x: any) => [x.name, x]));
  t.match(p.strength, { type: 'number', min: 0, max: 1, default: 1, since: '1.0.0' });
  for (const n of ['bronzer', 'eyeBrighten', 'contour']) t.match(p[n], { type: 'number', min: 0, max: 1, default: 0, since: '1.1.0' });
  t.match(p.imageUrl, { type: 'url', required: true });
  const mk = Object.fromEntries(body.features[2].params.map((x: any) => [x.name, x]));
  t.same(mk.style.values, ['natural', 'coral', 'red']);
  t.equal(mk.style.default, 'natural');
  t.equal(mk.lipStrength.since, '1.1.0');
  t.equal(body.features[2].since, '1.1.0');
  const rs = Object.fromEntries(body.features[1].params.map((x: any) => [x.name, x]));
  t.match(rs.jawSlim, { min: 0, max: 1, type: 'number' });
  const mo = Object.fromEntries(body.features[3].params.map((x: any) => [x.name, x]));
  t.match(mo.blockSize, { min: 4, max: 40, default: 16 });
  // the same definitions document the routes in OpenAPI
  const doc = await readJson(await s.req('/openapi.json', { key: null }));
  for (const ep of ['skin-retouch', 'reshape', 'makeup']) t.ok(doc.paths[`/api/v1/studio/${ep}`]?.post?.requestBody, `${ep} in openapi.json with its body schema`);
  t.ok(doc.paths['/api/v1/studio/status/{job_id}']?.get, 'status in openapi.json');
  t.ok(doc.paths['/api/v1/studio/image']?.get, 'image in openapi.json');
});

t.test('every out-of-range or ill-typed parameter is a 400 naming it', async (t) => {
  const u = `${img.url}/grace.jpg`;
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['skin-retouch', { imageUrl: u, strength: 1.5 }, 'strength'],
    ['skin-retouch', { imageUrl: u, strength: -0.01 }, 'strength'],
    ['skin-retouch', { imageUrl: u, bronzer: 2 }, 'bronzer'],
    ['skin-retouch', { imageUrl: u, eyeBrighten: -1 }, 'eyeBrighten'],
    ['skin-retouch', { imageUrl: u, contour: 1.2 }, 'contour'],
    ['skin-retouch', { imageUrl: u, contour: '0.5' }, 'contour'],
    ['skin-retouch', { strength: 0.5 }, 'imageUrl'],
    ['skin-retouch', { imageUrl: u, glow: 1 }, 'glow'],
    ['reshape', { imageUrl: u, jawSlim: 1.01 }, 'jawSlim'],
    ['reshape', { imageUrl: u, jawSlim: -0.5 }, 'jawSlim'],
    ['makeup', { imageUrl: u, lipStrength: 3 }, 'lipStrength'],
    ['makeup', { imageUrl: u, blushStrength: -0.2 }, 'blushStrength'],
    ['makeup', { imageUrl: u, style: 'purple' }, 'style'],
    ['makeup', { imageUrl: 42 }, 'imageUrl'],
  ];
  for (const [ep, json, field] of cases) {
    const r = await s.req(`/api/v1/studio/${ep}`, { method: 'POST', json });
    const b = await readJson(r);
    t.equal(r.status, 400, `${ep} ${JSON.stringify(json)} → 400`);
    t.equal(b.error.code, 'INVALID_REQUEST');
    t.equal(b.error.field, field, `names ${field}`);
    t.match(b.error.message, field);
  }
  // a URL that is not an image, and an unreachable one
  const r1 = await s.req('/api/v1/studio/skin-retouch', { method: 'POST', json: { imageUrl: `${img.url}/text.txt` } });
  t.equal(r1.status, 415);
  t.equal((await readJson(r1)).error.field, 'imageUrl');
  const r2 = await s.req('/api/v1/studio/skin-retouch', { method: 'POST', json: { imageUrl: `${img.url}/missing.jpg` } });
  t.equal(r2.status, 400);
  t.equal((await readJson(r2)).error.field, 'imageUrl');
  // no key
  const r3 = await s.req('/api/v1/studio/skin-retouch', { method: 'POST', key: null, json: { imageUrl: `${img.url}/grace.jpg` } });
  t.equal(r3.status, 401);
});

t.test('skin retouch: job, monotonic progress, status fields, image proxy, outside-face pixels unchanged', async (t) => {
  const { created, progress, last } = await runJob('/api/v1/studio/skin-retouch', { imageUrl: `${img.url}/grace.jpg`, strength: 1, bronzer: 0.5, eyeBrighten: 0.5, contour: 0.5 }, 'access');
  t.match(created, { success: true, status: 'processing', featureId: 'skin-retouch', estimatedCost: Number, estimatedTime: Number });
  t.match(created.jobId, /^studio_skin_\d{8}/);
  t.equal(typeof created.accessKey, 'string');
  for (let i = 1; i < progress.length; i++) t.ok(progress[i]! >= progress[i - 1]!, `progress never goes back (${progress[i - 1]} → ${progress[i]})`);
  t.ok(progress.every((p) => p >= 0 && p <= 100), 'progress within 0..100');
  t.equal(progress[progress.length - 1], 100);
  t.match(last, { status: 'completed', featureId: 'skin-retouch', progress: 100, faceDetected: true, faceCount: 1, facesTreated: 1, actualCost: 0.002 });
  t.match(last.imageUrl, /^\/api\/v1\/studio\/image\?key=/);
  t.notMatch(JSON.stringify(last), /studio_skin_[^"]*\/image"/, 'no storage key in the status');
  // status with the API key gives the same URL (sealed access key)
  const st2 = await readJson(await s.req(`/api/v1/studio/status/${created.jobId}`));
  t.equal(st2.imageUrl, last.imageUrl);
  const r = await fetchImage(last.imageUrl!);
  t.equal(r.status, 200);
  t.equal(r.headers.get('content-type'), 'image/png');
  const out = await decode(Buffer.from(await r.arrayBuffer()));
  const src = await decode(files['grace.jpg']);
  t.equal(out.width, src.width);
  // the face and its neighbourhood (the detector's box grown by 35 % on every side); everything else must be identical
  const f = (await detectFaces({ ...src, channels: 3 }))[0]!;
  const [x1, y1, x2, y2] = f.box;
  const mx = 0.35 * (x2 - x1), my = 0.35 * (y2 - y1);
  const outside = changedWhere(src, out, (x, y) => x < x1 - mx || x > x2 + mx || y < y1 - my || y > y2 + my);
  t.ok(outside.counted > 50_000, `many outside pixels counted (${outside.counted})`);
  t.equal(outside.changed, 0, 'no pixel outside the face neighbourhood changed');
  const inside = changedWhere(src, out, (x, y) => x > x1 && x < x2 && y > y1 && y < y2);
  t.ok(inside.changed > inside.counted * 0.3, `the face changed (${inside.changed}/${inside.counted})`);
  // wrong key / other family
  const bad = await fetchImage('/api/v1/studio/image?key=nope');
  t.equal(bad.status, 401);
  const nokey = await fetchImage('/api/v1/studio/image');
  t.equal(nokey.status, 401);
  t.equal((await readJson(nokey)).error.field, 'key');
  const nf = await s.req('/api/v1/studio/status/studio_skin_20260101_nope');
  t.equal(nf.status, 404);
  t.equal((await readJson(nf)).error.code, 'JOB_NOT_FOUND');
});

t.test('no face (coffee.png): original image returned unchanged, faceDetected false, for all three features', async (t) => {
  for (const [ep, json] of [['reshape', { jawSlim: 1 }], ['skin-retouch', {}], ['makeup', { lipStrength: 1, style: 'red' }]] as const) {
    const { last } = await runJob(`/api/v1/studio/${ep}`, { imageUrl: `${img.url}/coffee.png`, ...json });
    t.match(last, { status: 'completed', faceDetected: false, faceCount: 0, facesTreated: 0, progress: 100 }, ep);
    const r = await fetchImage(last.imageUrl!);
    t.equal(r.status, 200);
    t.equal(r.headers.get('content-type'), 'image/png');
    t.ok(Buffer.from(await r.arrayBuffer()).equals(files['coffee.png']), `${ep}: byte-identical original`);
  }
});

t.test('makeup: lip hue moves toward the style colour; outside pixels unchanged', async (t) => {
  const src = await decode(files['grace.jpg']);
  const f = (await detectFaces({ ...src, channels: 3 }))[0]!;
  const lips = f.landmarks.slice(48, 60);
  const xs = lips.map((p) => p[0]), ys = lips.map((p) => p[1]);
  // lip core: the middle of the lip polygon's bounding box
  const lx1 = Math.min(...xs), lx2 = Math.max(...xs), ly1 = Math.min(...ys), ly2 = Math.max(...ys);
  const mean = (d: { data: Uint8Array; width: number }) => {
    let r = 0, g = 0, b = 0, n = 0;
    for (let y = Math.round(ly1 + 0.2 * (ly2 - ly1)); y < ly2 - 0.2 * (ly2 - ly1); y++) {
      for (let x = Math.round(lx1 + 0.25 * (lx2 - lx1)); x < lx2 - 0.25 * (lx2 - lx1); x++) {
        const i = (y * d.width + x) * 3;
        r += d.data[i]!; g += d.data[i + 1]!; b += d.data[i + 2]!; n++;
      }
    }
    return hueChroma(r / n, g / n, b / n);
  };
  const before = mean(src);
  for (const style of ['natural', 'coral', 'red'] as const) {
    const { last } = await runJob('/api/v1/studio/makeup', { imageUrl: `${img.url}/grace.jpg`, lipStrength: 1, blushStrength: 0.5, style });
    t.match(last, { status: 'completed', faceDetected: true, featureId: 'makeup' });
    const out = await decode(Buffer.from(await (await fetchImage(last.imageUrl!)).arrayBuffer()));
    const after = mean(out);
    const target = hueChroma(...STYLES[style].lip);
    const d0 = Math.abs(angleDiff(before.hue, target.hue)), d1 = Math.abs(angleDiff(after.hue, target.hue));
    t.ok(d1 < d0 || d1 < 5, `${style}: lip hue ${before.hue.toFixed(1)}° → ${after.hue.toFixed(1)}° (target ${target.hue.toFixed(1)}°)`);
    t.ok(Math.abs(after.chroma - target.chroma) < Math.abs(before.chroma - target.chroma) - 3, `${style}: lip chroma ${before.chroma.toFixed(1)} → ${after.chroma.toFixed(1)} (target ${target.chroma.toFixed(1)})`);
    const [x1, y1, x2, y2] = f.box;
    const mx = 0.35 * (x2 - x1), my = 0.35 * (y2 - y1);
    const outside = changedWhere(src, out, (x, y) => x < x1 - mx || x > x2 + mx || y < y1 - my || y > y2 + my);
    t.equal(outside.changed, 0, `${style}: no pixel outside the face neighbourhood changed`);
  }
});

t.test('reshape: re-detected jaw landmarks move inward, more with a larger jawSlim', async (t) => {
  const src = await decode(files['grace.jpg']);
  const f0 = (await detectFaces({ ...src, channels: 3 }))[0]!;
  const g = faceGeom(f0.landmarks);
  const jawWidth = (lm: Array<[number, number]>) => {
    let s = 0;
    for (const i of [3, 4, 5, 6, 10, 11, 12, 13]) s += Math.abs(axisOffset(g, lm[i]!));
    return s / 8;
  };
  const w0 = jawWidth(f0.landmarks);
  const widths: number[] = [];
  for (const jawSlim of [0.5, 1]) {
    const { last } = await runJob('/api/v1/studio/reshape', { imageUrl: `${img.url}/grace.jpg`, jawSlim });
    t.match(last, { status: 'completed', faceDetected: true, featureId: 'reshape', facesTreated: 1 });
    const out = await decode(Buffer.from(await (await fetchImage(last.imageUrl!)).arrayBuffer()));
    const f1 = (await detectFaces({ ...out, channels: 3 }))[0]!;
    widths.push(jawWidth(f1.landmarks));
    // far from the face nothing moved
    const [x1, y1, x2, y2] = f0.box;
    const outside = changedWhere(src, out, (x, y) => x < x1 - (x2 - x1) || x > x2 + (x2 - x1) || y > y2 + 1.2 * (y2 - y1));
    t.equal(outside.changed, 0, `jawSlim ${jawSlim}: background beyond the face neighbourhood unchanged`);
  }
  t.ok(widths[0]! < w0, `jawSlim 0.5 moves the jaw inward (${w0.toFixed(2)} → ${widths[0]!.toFixed(2)} px from the axis)`);
  t.ok(widths[1]! < widths[0]!, `jawSlim 1 moves it further (${widths[1]!.toFixed(2)})`);
});

t.test('several faces: each face is treated and the status says so', async (t) => {
  const src = await decode(files['group.jpg']);
  const faces = await detectFaces({ ...src, channels: 3 });
  t.ok(faces.length >= 3, `the group photo has ${faces.length} faces`);
  const { last } = await runJob('/api/v1/studio/makeup', { imageUrl: `${img.url}/group.jpg`, lipStrength: 1, style: 'red' });
  t.match(last, { status: 'completed', faceDetected: true, faceCount: faces.length, facesTreated: faces.length, actualCost: 0.002 + 0.001 * (faces.length - 1) });
  t.match((last as any).facesNote, /each was treated/);
  const out = await decode(Buffer.from(await (await fetchImage(last.imageUrl!)).arrayBuffer()));
  for (const [k, f] of faces.entries()) {
    const lips = f.landmarks.slice(48, 60);
    const cx = Math.round(lips.reduce((a, p) => a + p[0], 0) / 12), cy = Math.round(lips.reduce((a, p) => a + p[1], 0) / 12);
    let diff = 0;
    for (let y = cy - 1; y <= cy + 1; y++) for (let x = cx - 2; x <= cx + 2; x++) {
      const i = (y * src.width + x) * 3;
      diff += Math.abs(out.data[i]! - src.data[i]!) + Math.abs(out.data[i + 1]! - src.data[i + 1]!) + Math.abs(out.data[i + 2]! - src.data[i + 2]!);
    }
    t.ok(diff > 15 * 15, `face ${k}: lips recoloured (sum |Δ| ${diff})`);
  }
});

t.test('a corrupt image fails the job with a reason; its image answers JOB_FAILED', async (t) => {
  const { created, last } = await runJob('/api/v1/studio/skin-retouch', { imageUrl: `${img.url}/broken.jpg` });
  t.equal(last.status, 'failed');
  t.equal(last.error?.code, 'INVALID_REQUEST');
  t.match((last as any).error.message, /imageUrl/);
  t.equal(last.actualCost, 0);
  t.equal(last.imageUrl, null);
  const r = await fetchImage(`/api/v1/studio/image?key=${encodeURIComponent(created.accessKey)}`);
  t.equal(r.status, 422);
  t.equal((await readJson(r)).error.code, 'JOB_FAILED');
});

t.test('a full pool (queue 1): accepted jobs wait for a slot instead of failing; a refused creation is 503 SERVICE_BUSY', async (t) => {
  const small = await startTestServer({ workers: 1, env: { SEJONG_FETCH_ALLOW: '127.0.0.1', SEJONG_QUEUE_SIZE: '1' } });
  t.teardown(() => small.close());
  const answers = await Promise.all([0, 1, 2, 3].map(() => small.req('/api/v1/studio/reshape', { method: 'POST', json: { imageUrl: `${img.url}/grace.jpg`, jawSlim: 0.5 } })));
  const accepted: string[] = [];
  for (const r of answers) {
    const b = await readJson(r);
    if (r.status === 200) accepted.push(b.jobId);
    else {
      t.equal(r.status, 503);
      t.equal(b.error.code, 'SERVICE_BUSY');
      t.ok(Number(r.headers.get('retry-after')) >= 1, 'Retry-After');
    }
  }
  t.ok(accepted.length >= 1, `${accepted.length} of 4 accepted`);
  for (const id of accepted) {
    let st: any;
    for (let i = 0; i < 1200; i++) {
      st = await readJson(await small.req(`/api/v1/studio/status/${id}`));
      if (st.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, Math.min(250, 25 + 10 * i)));
    }
    t.equal(st.status, 'completed', `${id} completed (${st.error?.code ?? 'no error'})`);
  }
});
