// Text-to-Text (synchronous): generate through the catalog's text models; models list.
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../server/types.js';
import { tokenCost } from '../catalog/catalog.js';
import { UpstreamError } from '../providers/ai/http.js';
import { ai, MAX_PROMPT, startAi } from '../providers/ai/service.js';
import type { Services } from '../services.js';
import { ok } from './schemas/common.js';
import { textAnswer, textModels } from './schemas/models.js';

export const MAX_OUTPUT_TOKENS = 128_000;

const body = z.object({
  model: z.string().min(1).max(100),
  prompt: z.string().max(MAX_PROMPT * 4).refine((s) => s.trim().length > 0, { message: 'must not be blank' }),
  response_format: z.enum(['text', 'json']).optional(),
  max_tokens: z.number().int().min(1).max(MAX_OUTPUT_TOKENS).optional(),
  temperature: z.number().min(0).max(1).optional(),
}).strict();

/** The JSON text of an answer that must be JSON: code fences around it are removed; anything else is a 502. */
export function jsonAnswer(text: string, model: string): string {
  const t = text.trim().replace(/^```(?:json)?\s*\n?([\s\S]*?)\n?```$/i, '$1').trim();
  try {
    JSON.parse(t);
    return t;
  } catch {
    throw new UpstreamError(`The provider of model ${model} answered with text that is not valid JSON although response_format json was requested`);
  }
}

export async function start(services: Services): Promise<void> {
  await startAi(services);
}

export const routes: RouteDef[] = [
  defineRoute({
    method: 'POST', path: '/api/v1/text-to-text/generate', auth: 'key', tags: ['Text-to-Text'],
    summary: 'Generate text (synchronous)',
    responses: ok('the generated text', textAnswer),
    body: { kind: 'json', schema: body },
    handler: async (ctx) => {
      const b = ctx.body;
      const { services } = ctx;
      const gw = ai(services);
      const m = gw.model(b.model, 'text_generation');
      const t0 = performance.now();
      const json = b.response_format === 'json';
      const r = await gw.text(m, { prompt: b.prompt, maxTokens: b.max_tokens ?? 4096, temperature: b.temperature ?? 0.7, json });
      const text = json ? jsonAnswer(r.text, m.id) : r.text;
      const cost = tokenCost(m, r.usage);
      await services.spend.record({ keyId: ctx.principal.keyId, family: 'text-to-text', cost, at: services.clock.now() });
      return {
        success: true, model: m.id, provider: m.family, text,
        processing_time_ms: Math.round(performance.now() - t0),
        usage: { input_tokens: r.usage.input_tokens, output_tokens: r.usage.output_tokens },
        cost,
      };
    },
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/text-to-text/models', auth: 'key', tags: ['Text-to-Text'],
    summary: 'Text models (retired models are left out)',
    responses: ok('the models', textModels),
    handler: (ctx) => {
      const gw = ai(ctx.services);
      const now = ctx.services.clock.now();
      return {
        models: gw.catalog.with('text_generation').filter((m) => !gw.catalog.isRetired(m, now)).map((m) => ({
          model: m.id, provider: m.family, description: m.description, status: gw.catalog.statusText(m), cost: m.cost,
        })),
      };
    },
  }),
];
