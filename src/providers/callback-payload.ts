// The body of a completion callback (Standard Webhooks), as one zod schema: callbacks.ts builds bodies of this
// type and the OpenAPI document describes it under `webhooks` from the same schema.
import { z } from 'zod';

export const CALLBACK_TYPES = ['ekyc.enhance.completed', 'ekyc.enhance.failed', 'ekyc.pipeline.completed', 'ekyc.pipeline.failed'] as const;

export const callbackPayload = z.object({
  type: z.string().describe(`one of ${CALLBACK_TYPES.join(', ')}`),
  timestamp: z.string().describe('ISO 8601 time the body was frozen (the job finished)'),
  jobId: z.string(),
  status: z.enum(['completed', 'failed']),
  result: z.record(z.string(), z.unknown()).nullable().describe('the job\'s result (as its status endpoint shows it); null on failure'),
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional().describe('the request field a refusal names') }).nullable().describe('null on success'),
  callback_meta: z.unknown().describe('the client\'s callback_meta JSON, unchanged (null when none was sent)'),
}).meta({
  examples: [{
    type: 'ekyc.enhance.completed', timestamp: '2026-11-22T07:30:00.000Z', jobId: 'ekyc-enhance-20261122-y3ih6o37iq8f',
    status: 'completed', result: { success: true, tilesProcessed: 15 }, error: null, callback_meta: { orderId: 'A-17' },
  }],
});

export type CallbackPayload = z.infer<typeof callbackPayload>;
