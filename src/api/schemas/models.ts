// Success answers of the catalogs (models, text-to-image and text models, studio features) and the synchronous
// AI calls (text-to-text, the legacy text-to-image).
import { z } from 'zod';
import { CAPABILITIES, PROVIDERS } from '../../catalog/catalog.js';
import { usage } from './common.js';

const provider = z.enum(PROVIDERS as [string, ...string[]]).describe('lower-case provider (family) value');
const capability = z.enum(CAPABILITIES as [string, ...string[]]);

export const modelCatalog = z.strictObject({
  total: z.number().int(),
  models: z.array(z.strictObject({
    apiId: z.string(), name: z.string(), provider, status: z.string().describe('Active, or Deprecated with the retirement date'),
    capabilities: z.array(capability), cost: z.string().describe('cost text as published'), description: z.string(),
    retiresOn: z.string().nullable().describe('YYYY-MM-DD'), retired: z.boolean(),
  })),
});

export const txt2imgModels = z.strictObject({
  models: z.array(z.strictObject({
    id: z.string(), name: z.string(), provider, costPerImage: z.string(),
    supportedImageSizes: z.array(z.enum(['1K', '2K', '4K'])), supportsSystemInstruction: z.boolean(), status: z.string(),
  })),
});

export const textModels = z.strictObject({
  models: z.array(z.strictObject({ model: z.string(), provider, description: z.string(), status: z.string(), cost: z.string() })),
});

export const textAnswer = z.strictObject({
  success: z.literal(true), model: z.string(), provider,
  text: z.string().describe('the generated text (response_format json: a JSON text)'),
  processing_time_ms: z.number(), usage, cost: z.number().describe('USD'),
});

export const legacyImageAnswer = z.strictObject({
  success: z.literal(true), image: z.string().describe('PNG, base64'), model: z.string(), mimeType: z.literal('image/png'),
  width: z.number().int(), height: z.number().int(), cost: z.number().describe('USD'),
});

const studioParam = z.strictObject({
  name: z.string(), type: z.enum(['number', 'integer', 'enum', 'url', 'array']), required: z.boolean(),
  min: z.number().optional(), max: z.number().optional(), default: z.union([z.number(), z.string()]).optional(),
  step: z.number().optional(), values: z.array(z.string()).optional(), since: z.string(), label: z.string(), description: z.string(),
  items: z.record(z.string(), z.strictObject({ type: z.string(), min: z.number().optional(), required: z.boolean() })).optional(),
});

export const studioCatalog = z.strictObject({
  features: z.array(z.strictObject({
    id: z.string(), label: z.string(), category: z.string(), status: z.string(), since: z.string(),
    endpoint: z.strictObject({ method: z.string(), path: z.string() }), mode: z.enum(['async', 'sync']),
    params: z.array(studioParam),
    pricing: z.strictObject({ currency: z.literal('USD'), perImage: z.number(), perExtraFace: z.number(), noFace: z.number() }),
    estimatedSeconds: z.number(),
  })),
});
