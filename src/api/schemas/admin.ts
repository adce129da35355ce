// Success answers of the admin routes: API keys, spend per tenant, and print administration (albums,
// advertisers and their points ledger, ad applications with creative versions, impressions).
import { z } from 'zod';
import { AD_MODES } from '../../print/types.js';
import { isoDate } from './common.js';

const limits = { rateLimitPerMinute: z.number().int(), rateLimitPerDay: z.number().int() };
export const keyCreated = z.strictObject({ id: z.string(), key: z.string().describe('the secret, shown only here'), name: z.string(), ...limits, createdAt: isoDate });
export const keyList = z.strictObject({
  keys: z.array(z.strictObject({ id: z.string(), name: z.string(), admin: z.boolean(), ...limits, createdAt: isoDate, revokedAt: isoDate.nullable() })),
});
export const keyPatched = z.strictObject({ id: z.string(), name: z.string(), ...limits });
export const keyRevoked = z.strictObject({ id: z.string(), revoked: z.literal(true), revokedAt: isoDate });
const byFamily = z.record(z.string(), z.strictObject({ jobs: z.number().int(), cost: z.number() }));
export const tenantUsage = z.strictObject({
  rows: z.array(z.strictObject({ tenant: z.string(), day: z.string().describe('YYYY-MM-DD (UTC)'), jobs: z.number().int(), costUsd: z.number(), byFamily })),
  totalUsd: z.number(),
});

// ------------------------------------------------------------------ print administration
export const album = z.strictObject({
  id: z.string(), name: z.string(), ad_mode: z.enum(AD_MODES), fixed_application_id: z.string().optional(),
  advertiser_ids: z.array(z.string()), settings: z.record(z.string(), z.unknown()).optional(),
  created_at: isoDate, updated_at: isoDate,
});
export const albumList = z.strictObject({ albums: z.array(album) });

export const advertiser = z.strictObject({
  id: z.string(), name: z.string(), unit_points: z.number().int(), balance: z.number().int(), active: z.boolean(), ledger_seq: z.number().int(),
  created_at: isoDate, updated_at: isoDate, ledger_entries: z.number().int(), ledger_sum: z.number().int().describe('always equals balance'),
});
export const advertiserList = z.strictObject({ advertisers: z.array(advertiser) });

const ledgerEntry = z.strictObject({
  advertiser_id: z.string(), seq: z.number().int(), at: isoDate, kind: z.enum(['top_up', 'adjustment', 'charge', 'refund']),
  delta: z.number().int(), balance_after: z.number().int(), reason: z.string(), job_id: z.string().optional(), album_id: z.string().optional(),
});
export const topUpDone = z.strictObject({ advertiser_id: z.string(), balance: z.number().int(), entry: ledgerEntry });
export const ledger = z.strictObject({ advertiser_id: z.string(), balance: z.number().int(), entries: z.array(ledgerEntry) });

export const application = z.strictObject({
  id: z.string(), advertiser_id: z.string(), title: z.string(), album_ids: z.array(z.string()),
  created_at: isoDate, updated_at: isoDate, approved_version: z.number().int().nullable(),
  versions: z.array(z.strictObject({
    version: z.number().int(), status: z.enum(['pending', 'approved', 'rejected']), format: z.enum(['jpeg', 'png', 'webp']),
    width: z.number().int(), height: z.number().int(), bytes: z.number().int(),
    uploaded_at: isoDate, decided_at: isoDate.nullable(), decision_reason: z.string().optional(), image_url: z.string(),
  })),
});
export const applicationList = z.strictObject({ applications: z.array(application) });

export const impressions = z.strictObject({
  impressions: z.array(z.strictObject({
    job_id: z.string(), album_id: z.string(), at: isoDate, status: z.enum(['composing', 'printed', 'refunded', 'failed']),
    advertiser_id: z.string().nullable(), application_id: z.string().nullable(), version: z.number().int().nullable(),
    unit_points: z.number().int(), balance_before: z.number().int().nullable(), balance_after: z.number().int().nullable(),
    selected_reason: z.string(), skipped: z.array(z.strictObject({ advertiser_id: z.string(), reason: z.string() })),
    image: z.strictObject({ width: z.number().int(), height: z.number().int(), format: z.enum(['jpeg', 'png']), expires_at: isoDate.nullable() }).nullable(),
    ad_image_url: z.string().nullable(),
  })),
  next_cursor: z.string().nullable(),
});

/** POST /api/v1/composite/print (the sheet itself is fetched from image_url) */
export const printAnswer = z.strictObject({
  success: z.literal(true), job_id: z.string(), status: z.literal('completed'), image_url: z.string(),
  width: z.number().int(), height: z.number().int(), format: z.enum(['jpeg', 'png']), expires_at: isoDate.nullable(), elapsed_ms: z.number(),
  applied: z.record(z.string(), z.boolean()).describe('ai_image, signature, qr_code, a3_ad, perforation, header'),
  ad_selected: z.strictObject({
    advertiser_id: z.string().nullable(), application_id: z.string().nullable(), version: z.number().int().nullable(), image_url: z.string().nullable(),
    selected_reason: z.string(), skipped: z.array(z.strictObject({ advertiser_id: z.string(), reason: z.string() })).optional(),
  }),
  ad_charged: z.strictObject({ balance_before: z.number().int().optional(), unit_points: z.number().int(), balance_after: z.number().int().optional(), charged: z.boolean() }).nullable(),
  replayed: z.boolean().describe('true when this job_id was printed before: the same sheet, nothing charged again'),
});
