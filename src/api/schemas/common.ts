// Response schemas shared by many routes: job creation and status envelopes, the job error, token usage, dates.
// Each route declares its success answer with these (RouteDef.responses); /openapi.json is generated from them and
// SEJONG_VALIDATE_RESPONSES checks every JSON 2xx answer against them, so the two cannot drift.
import { z } from 'zod';

export const isoDate = z.string().describe('ISO 8601 date-time (UTC)');
export const jobStatus = z.enum(['processing', 'completed', 'failed']);
export const rect = z.strictObject({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
export const point = z.tuple([z.number(), z.number()]);
export const size = z.tuple([z.number(), z.number()]).describe('[width, height]');

/** why a job failed (status failed) */
export const jobError = z.strictObject({ code: z.string(), message: z.string() });

/** tokens of one AI call */
export const usage = z.strictObject({ input_tokens: z.number().int(), output_tokens: z.number().int() });

/** `{success, jobId, accessKey, status: 'processing', ...extra}`: the answer of every asynchronous creating call */
export const jobCreated = <T extends z.ZodRawShape>(extra: T) => z.strictObject({
  success: z.literal(true),
  jobId: z.string().describe('the job id (prefix names the family)'),
  accessKey: z.string().describe('per-job credential: Authorization: Bearer <accessKey> on status and result routes'),
  status: z.literal('processing'),
  ...extra,
});

/** a 2xx answer of a route: `responses: ok('what it is', schema, example?)` */
export const ok = (description: string, schema: z.ZodType, example?: unknown) => ({ 200: { description, schema, ...(example !== undefined ? { example } : {}) } });

/** `{success: true}` (deletions, logouts) */
export const done = z.strictObject({ success: z.literal(true) });
