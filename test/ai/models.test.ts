// GET /api/v1/models (open, filters) and the catalog (defaults, prices, override file); and a server with no
// provider configured: every AI endpoint answers 502 AI_API_ERROR naming the missing setting.
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Catalog, DEFAULT_MODELS, imageCost, tokenCost } from '../../src/catalog/catalog.js';
import { formData } from '../helpers/server.js';
import { fakePng } from '../fakes/ai-base.js';
import { errorOf, startAiWorld } from './helpers.js';

t.test('catalog: the spec table, prices, rules', async (t) => {
  const c = new Catalog(DEFAULT_MODELS);
  t.equal(c.all().length, 21, '20 models of the table + fam-c-image-1-mini');
  t.same(c.all().filter((m) => m.imageSizes.length).map((m) => m.id), ['fam-b-3.1-flash-image-preview', 'fam-b-3-pro-image-preview']);
  t.same(c.all().filter((m) => m.systemInstruction).map((m) => m.id).sort(), ['fam-b-2.5-flash-image', 'fam-b-3-pro-image-preview', 'fam-b-3.1-flash-image-preview']);
  const pro = c.get('fam-b-3.1-pro-preview')!;
  t.equal(tokenCost(pro, { input_tokens: 100_000, output_tokens: 1_000_000 }), 12.2, 'up to 200K input: $2 / $12');
  t.equal(tokenCost(pro, { input_tokens: 300_000, output_tokens: 1_000_000 }), 1.2 + 18, 'above 200K input: $4 / $18');
  t.equal(tokenCost(c.get('fam-a-haiku-4-5-20251001')!, { input_tokens: 1000, output_tokens: 2000 }), 0.011);
  const flash = c.get('fam-b-3.1-flash-image-preview')!;
  t.same([imageCost(flash, { imageSize: '1K' }), imageCost(flash), imageCost(flash, { imageSize: '4K' })], [0.067, 0.101, 0.151]);
  t.equal(c.statusText(c.get('fam-a-opus-4-7')!), 'Active, latest');
  t.equal(c.statusText(c.get('fam-b-2.5-pro')!, Date.UTC(2026, 5, 16)), 'Deprecated, retires 2026-06-17', 'before the day');
  t.equal(c.statusText(c.get('fam-b-2.5-pro')!, Date.UTC(2026, 5, 17)), 'Retired 2026-06-17', 'from the day on it says retired');
  t.equal(c.isRetired(c.get('fam-b-2.5-pro')!, Date.UTC(2026, 5, 16)), false);
  t.equal(c.isRetired(c.get('fam-b-2.5-pro')!, Date.UTC(2026, 5, 17)), true);
});

t.test('catalog file: override, add, remove, providers; errors name the entry', async (t) => {
  const c = Catalog.fromObject({
    models: [
      { id: 'fam-a-sonnet-4-6', upstream: 'vendor-sonnet-x', cost: '$2 / $10 per MTok', pricing: { kind: 'tokens', inputPerMTok: 2, outputPerMTok: 10 } },
      { id: 'house-model', family: 'fam-c', upstream: 'gpt-x', capabilities: ['text_generation'], status: 'active', description: 'ours', cost: 'free', pricing: { kind: 'none' } },
    ],
    remove: ['fam-e-3'],
    providers: { 'fam-c': { url: 'http://10.0.0.5:8000', key: 'k' } },
  });
  t.equal(c.get('fam-a-sonnet-4-6')!.upstream, 'vendor-sonnet-x');
  t.equal(c.get('fam-a-sonnet-4-6')!.family, 'fam-a', 'untouched fields kept');
  t.equal(c.get('house-model')!.name, 'house-model');
  t.notOk(c.get('fam-e-3'));
  t.equal(c.providers['fam-c']!.url, 'http://10.0.0.5:8000');
  t.throws(() => Catalog.fromObject({ models: [{ id: 'new-one', family: 'fam-z' }] }), /models\[0\] \(new-one\)/);
  t.throws(() => Catalog.fromObject({ modles: [] }), /catalog/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-cat-'));
  const file = path.join(dir, 'c.json');
  fs.writeFileSync(file, '{ not json');
  t.throws(() => Catalog.load(file), /SEJONG_CATALOG_FILE/);
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-cat-'));
const catFile = path.join(dir, 'catalog.json');
fs.writeFileSync(catFile, JSON.stringify({ models: [{ id: 'fam-c-4o', description: 'operator text' }] }));
const w = await startAiWorld({ families: [], env: { SEJONG_CATALOG_FILE: catFile } });
t.teardown(() => w.close());
const { server } = w;

t.test('GET /api/v1/models: open, total, filters', async (t) => {
  const r = await server.req('/api/v1/models', { key: null });
  t.equal(r.status, 200);
  const all = (await r.json()) as any;
  t.equal(all.total, 21);
  t.equal(all.models.length, 21);
  const m = all.models.find((x: any) => x.apiId === 'fam-a-sonnet-4-6');
  t.match(m, { provider: 'fam-a', status: 'Active, recommended', capabilities: ['text_generation', 'vision_analysis'], cost: '$3 / $15 per MTok (input/output)' });
  t.type(m.description, 'string');
  t.equal(all.models.find((x: any) => x.apiId === 'fam-c-4o').description, 'operator text', 'catalog file applied');

  const active = (await (await server.req('/api/v1/models?status=active', { key: null })).json()) as any;
  t.equal(active.total, 21 - 5, 'deprecated models hidden');
  t.ok(active.models.every((x: any) => x.status.startsWith('Active')));
  const retired = all.models.filter((x: any) => x.retired);
  t.ok(retired.length > 0 || all.models.every((x: any) => !/^Retired/.test(x.status)), 'retired flag and text agree');
  for (const x of all.models) t.equal(/^Retired \d{4}-\d{2}-\d{2}$/.test(x.status), x.retired === true, `${x.apiId}: "${x.status}" (retired ${x.retired})`);
  const vis = (await (await server.req('/api/v1/models?capability=vision_analysis&provider=fam-a', { key: null })).json()) as any;
  t.same(vis.models.map((x: any) => x.apiId), ['fam-a-opus-4-7', 'fam-a-opus-4-6', 'fam-a-sonnet-4-6']);
  const i2i = (await (await server.req('/api/v1/models?capability=image_to_image', { key: null })).json()) as any;
  t.equal(i2i.total, 3);
  const famc = (await (await server.req('/api/v1/models?provider=fam-c', { key: null })).json()) as any;
  t.same(famc.models.map((x: any) => x.apiId), ['fam-c-4o', 'fam-c-image-2', 'fam-c-image-1.5', 'fam-c-image-1', 'fam-c-image-1-mini', 'fam-e-3']);
  for (const q of ['capability=painting', 'provider=fam-x', 'status=old', 'sort=name']) {
    const e = await errorOf(await server.req(`/api/v1/models?${q}`, { key: null }));
    t.same([e.status, e.field], [400, q.split('=')[0]], q);
  }
});

t.test('no provider configured: every AI endpoint → 502 naming the missing setting; nothing created', async (t) => {
  const photo = await fakePng(64, 64);
  const calls: Array<[string, RequestInit & { json?: unknown }, RegExp]> = [
    ['/api/v1/text-to-image/generate', { method: 'POST', json: { model: 'fam-c-image-1', prompt: 'x' } }, /SEJONG_FAMC_URL and SEJONG_FAMC_KEY/],
    ['/api/v1/text-to-image/generate', { method: 'POST', json: { model: 'fam-b-2.5-flash-image', prompt: 'x' } }, /SEJONG_FAMB_URL/],
    ['/api/v1/image-to-image/generate', { method: 'POST', body: formData({}, { image: { data: photo, type: 'image/png' } }) }, /SEJONG_FAMB_URL/],
    ['/api/v1/caricature/generate', { method: 'POST', body: formData({}, { image: { data: photo, type: 'image/png' } }) }, /SEJONG_FAMB_URL/],
    ['/api/v1/analyze/image', { method: 'POST', body: formData({ model: 'fam-c-4o' }, { image: { data: photo, type: 'image/png' } }) }, /SEJONG_FAMC_URL/],
    ['/api/v1/text-to-text/generate', { method: 'POST', json: { model: 'fam-a-opus-4-7', prompt: 'x' } }, /SEJONG_FAMA_URL and SEJONG_FAMA_KEY/],
    ['/api/v1/gemini/text-to-image', { method: 'POST', json: { prompt: 'x' } }, /SEJONG_FAMB_URL/],
  ];
  for (const [p, init, re] of calls) {
    const e = await errorOf(await server.req(p, init));
    t.same([e.status, e.code], [502, 'AI_API_ERROR'], p);
    t.match(e.message, re);
  }
  t.equal((await server.services.jobs.list(server.apiKeyId, { limit: 10 })).jobs.length, 0, 'no job was created');
  // validation still comes first
  const bad = await errorOf(await server.req('/api/v1/text-to-image/generate', { method: 'POST', json: { model: 'fam-c-image-1', prompt: 'x', image_size: '1K' } }));
  t.equal(bad.status, 400);
});
