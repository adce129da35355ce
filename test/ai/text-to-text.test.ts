// POST /api/v1/text-to-text/generate (sync) through the three families; GET /api/v1/text-to-text/models;
// plus the legacy synchronous POST /api/v1/gemini/text-to-image (same server, saves a start-up).
import t from 'tap';
import { fakePng } from '../fakes/ai-base.js';
import { errorOf, markDiff, startAiWorld } from './helpers.js';

const w = await startAiWorld();
t.teardown(() => w.close());
const { server, fama, famb, famc } = w;
t.beforeEach(() => {
  fama.reset();
  famb.reset();
  famc.reset();
  fama.answer = famb.answer = famc.answer = undefined;
});
const gen = (json: unknown) => server.req('/api/v1/text-to-text/generate', { method: 'POST', json });

t.test('family A: defaults, answer shape, usage, cost, spend', async (t) => {
  const r = await gen({ model: 'fam-a-sonnet-4-6', prompt: 'Write a haiku' });
  t.equal(r.status, 200);
  const b = (await r.json()) as any;
  t.match(b, { success: true, model: 'fam-a-sonnet-4-6', provider: 'fam-a', text: 'fam-a answer to: Write a haiku' });
  t.type(b.processing_time_ms, 'number');
  t.same(Object.keys(b.usage).sort(), ['input_tokens', 'output_tokens']);
  t.ok(b.usage.input_tokens > 0 && b.usage.output_tokens > 0);
  t.equal(b.cost, Math.round((b.usage.input_tokens * 3 + b.usage.output_tokens * 15)) / 1e6);
  const sent = fama.last!.body;
  t.equal(sent.max_tokens, 4096, 'default max_tokens');
  t.equal(sent.temperature, 0.7, 'default temperature');
  t.notOk(sent.system);
  t.ok((await server.services.spend.forKey(server.apiKeyId)).some((d) => d.byFamily['text-to-text']));
});

t.test('response_format json on each family; non-JSON answer → 502', async (t) => {
  for (const model of ['fam-a-haiku-4-5-20251001', 'fam-b-3.1-pro-preview']) {
    const b = (await (await gen({ model, prompt: 'give json', response_format: 'json', max_tokens: 100, temperature: 0 })).json()) as any;
    t.same(JSON.parse(b.text), { answer: 'give json', images: 0 }, model);
  }
  t.equal(famb.last!.body.generationConfig.responseMimeType, 'application/json');
  t.equal(famb.last!.body.generationConfig.maxOutputTokens, 100);
  fama.answer = () => '```json\n{"a": 1}\n```';
  const fenced = (await (await gen({ model: 'fam-a-opus-4-7', prompt: 'x', response_format: 'json' })).json()) as any;
  t.equal(fenced.text, '{"a": 1}', 'code fences removed');
  fama.answer = () => 'Sure! Here is your JSON: {a: 1}';
  const e = await errorOf(await gen({ model: 'fam-a-opus-4-7', prompt: 'x', response_format: 'json' }));
  t.same([e.status, e.code], [502, 'AI_API_ERROR']);
  t.match(e.message, /not valid JSON/);
  const plain = (await (await gen({ model: 'fam-a-opus-4-7', prompt: 'x', response_format: 'text' })).json()) as any;
  t.equal(plain.text, 'Sure! Here is your JSON: {a: 1}');
});

t.test('bad fields → 400 naming the field', async (t) => {
  const cases: Array<[unknown, string]> = [
    [{ prompt: 'x' }, 'model'],
    [{ model: 'fam-a-opus-4-7' }, 'prompt'],
    [{ model: 'fam-a-opus-4-7', prompt: 'x', temperature: 1.5 }, 'temperature'],
    [{ model: 'fam-a-opus-4-7', prompt: 'x', temperature: '0.5' }, 'temperature'],
    [{ model: 'fam-a-opus-4-7', prompt: 'x', max_tokens: 0 }, 'max_tokens'],
    [{ model: 'fam-a-opus-4-7', prompt: 'x', max_tokens: 10.5 }, 'max_tokens'],
    [{ model: 'fam-a-opus-4-7', prompt: 'x', response_format: 'xml' }, 'response_format'],
    [{ model: 'fam-c-4o', prompt: 'x' }, 'model'],
    [{ model: 'fam-b-2.5-flash-image', prompt: 'x' }, 'model'],
    [{ model: 'fam-a-opus-4-20250514', prompt: 'x' }, 'model'],
    [{ model: 'fam-a-opus-4-7', prompt: 'x', system: 'y' }, 'system'],
  ];
  for (const [body, field] of cases) {
    const e = await errorOf(await gen(body));
    t.same([e.status, e.code, e.field], [400, 'INVALID_REQUEST', field], `${JSON.stringify(body)} → ${e.message}`);
  }
  t.equal(fama.requests.length + famb.requests.length + famc.requests.length, 0);
});

t.test('upstream 429 retried once; 500 → 502 naming the status; malformed → 502', async (t) => {
  famb.next({ status: 429, retryAfter: '0' });
  const ok = await gen({ model: 'fam-b-3-flash-preview', prompt: 'x' });
  t.equal(ok.status, 200);
  t.equal(famb.requests.length, 2);
  fama.next({ status: 529 }, { status: 500 });
  const e = await errorOf(await gen({ model: 'fam-a-opus-4-7', prompt: 'x' }));
  t.same([e.status, e.code], [502, 'AI_API_ERROR']);
  t.match(e.message, /fam-a provider \(model fam-a-opus-4-7\) answered HTTP 500/);
  t.notMatch(e.message, /scripted|fama-test-key/);
  fama.next('malformed');
  const m = await errorOf(await gen({ model: 'fam-a-opus-4-7', prompt: 'x' }));
  t.same([m.status, m.code], [502, 'AI_API_ERROR']);
});

t.test('GET /api/v1/text-to-text/models', async (t) => {
  const { models } = (await (await server.req('/api/v1/text-to-text/models')).json()) as any;
  const ids = models.map((m: any) => m.model);
  t.ok(ids.includes('fam-a-opus-4-7') && ids.includes('fam-b-3-flash-preview'));
  t.notOk(ids.includes('fam-c-4o'), 'vision-only model not listed');
  t.notOk(ids.includes('fam-a-opus-4-20250514'), 'retired model not listed');
  const a = models.find((m: any) => m.model === 'fam-a-sonnet-4-6');
  t.equal(a.provider, 'fam-a');
  t.type(a.description, 'string');
});

t.test('legacy POST /api/v1/gemini/text-to-image: sync image with mark', async (t) => {
  const r = await server.req('/api/v1/gemini/text-to-image', { method: 'POST', json: { prompt: 'a boat', style: 'ink', storage_type: 'url' } });
  t.equal(r.status, 200);
  const b = (await r.json()) as any;
  t.match(b, { success: true, model: 'fam-b-2.5-flash-image' });
  const d = await markDiff(await fakePng(96, 96), Buffer.from(b.image, 'base64'));
  t.equal(d.outside, 0);
  t.ok(d.inside > d.area / 2, 'mark present');
  t.match(famb.last!.body.contents[0].parts[0].text, /a boat[\s\S]*Style: ink/);
  const c = (await (await server.req('/api/v1/gemini/text-to-image', { method: 'POST', json: { prompt: 'a boat', model: 'fam-c-image-1.5', aspect_ratio: '16:9' } })).json()) as any;
  t.equal(c.model, 'fam-c-image-1.5');
  t.equal(famc.last!.body.size, '1536x1024');
  for (const [body, field] of [[{}, 'prompt'], [{ prompt: 'x', model: 'fam-a-opus-4-7' }, 'model'], [{ prompt: 'x', ttlHours: 1 }, 'ttlHours']] as const) {
    const e = await errorOf(await server.req('/api/v1/gemini/text-to-image', { method: 'POST', json: body }));
    t.same([e.status, e.field], [400, field]);
  }
  famb.next({ status: 500 }, { status: 500 });
  const e = await errorOf(await server.req('/api/v1/gemini/text-to-image', { method: 'POST', json: { prompt: 'x' } }));
  t.same([e.status, e.code], [502, 'AI_API_ERROR']);
  famb.next({ status: 429, retryAfter: '0' });
  t.equal((await server.req('/api/v1/gemini/text-to-image', { method: 'POST', json: { prompt: 'x' } })).status, 200);
});
