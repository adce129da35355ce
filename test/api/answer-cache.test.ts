// The serialised-answer cache of completed jobs (api/answer-cache.ts): built once per completed job and kind,
// rebuilt while unfinished, bounded.
import t from 'tap';
import { AnswerCache } from '../../src/api/answer-cache.js';
import type { JobRecord } from '../../src/jobs/engine.js';

const job = (status: JobRecord['status'], id = 'txt2img_20261122_aaaaaaaaaaaa', completedAt?: number): JobRecord => ({
  id, family: 'txt2img', accessKeyHash: 'x', status, progress: 0, createdAt: 1, updatedAt: 1, ttlMs: 1000, meta: {}, completedAt,
});

t.test('completed answers are built once; unfinished ones every time', async (t) => {
  const c = new AnswerCache();
  let builds = 0;
  const build = () => ({ n: ++builds });
  t.equal(c.json(job('processing'), 's', build).toString(), '{"n":1}');
  t.equal(c.json(job('processing'), 's', build).toString(), '{"n":2}', 'processing: rebuilt');
  const done = job('completed', undefined, 5);
  const kept = c.json(done, 's', build);
  t.equal(kept.toString(), '{"n":3}');
  t.equal(c.json(done, 's', build), kept, 'completed: kept (the same bytes)');
  t.equal(c.json(done, 'other', build).toString(), '{"n":4}', 'per kind');
  t.equal(await c.jsonAsync(done, 's', async () => ({ n: ++builds })), kept, 'async builder: the kept answer');
  t.equal(c.json(job('failed'), 's', build).toString(), '{"n":5}', 'failed: rebuilt');
  t.equal(c.json(job('completed', 'txt2img_20261122_u', 1), 's', () => ({ s: '한글' })).toString(), '{"s":"한글"}', 'UTF-8 bytes');
});

t.test('bounded: oldest answers dropped first, huge answers never kept', async (t) => {
  const c = new AnswerCache(400);
  let builds = 0;
  const big = (n: number) => () => ({ n: ++builds, pad: 'x'.repeat(n) });
  const a = job('completed', 'txt2img_20261122_a', 1);
  const b = job('completed', 'txt2img_20261122_b', 1);
  const first = c.json(a, 's', big(80));
  c.json(b, 's', big(80));
  t.equal(c.json(a, 's', big(80)), first, 'both fit: a kept');
  c.json(job('completed', 'txt2img_20261122_c', 1), 's', big(80));
  c.json(job('completed', 'txt2img_20261122_d', 1), 's', big(80));
  c.json(job('completed', 'txt2img_20261122_e', 1), 's', big(80));
  t.not(c.json(a, 's', big(80)), first, 'a dropped when the cache filled up');
  const huge = job('completed', 'txt2img_20261122_h', 1);
  t.not(c.json(huge, 's', big(200)), c.json(huge, 's', big(200)), 'more than a quarter of the bound: never kept');
});
