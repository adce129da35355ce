// Print administration: albums, advertisers with a points ledger (top-ups), ad applications with versioned
// creatives, impressions and their CSV export. The print state (store, secret) is started by ./composite.ts.
import { z } from 'zod';
import { ApiError, invalid } from '../domain/errors.js';
import { form } from '../server/validate.js';
import { defineRoute, reply, type Ctx, type CtxOf, type JsonBody, type RouteDef } from '../server/types.js';
import type { Services } from '../services.js';
import type { PrintRepo } from '../print/repo.js';
import { approvedVersion } from '../print/select.js';
import { AD_MODES, type Album, type Application, type Impression } from '../print/types.js';
import type { ProbeOutput } from '../tasks/composite.js';
import { creativeUrl, iso, printState as state, settingsSchema } from './composite.js';
import { ok } from './schemas/common.js';
import { advertiser, advertiserList, album, albumList, application, applicationList, impressions, ledger, topUpDone } from './schemas/admin.js';

const CREATIVE_MAX_BYTES = 10 * 1048576;

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const albumCreate = z.object({
  id: z.string().regex(ID, 'an id of 1 to 100 letters, digits or ._- (first a letter or digit)').optional(),
  name: z.string().trim().min(1).max(200),
  ad_mode: z.enum(AD_MODES).default('none'),
  fixed_application_id: z.string().min(1).max(100).optional(),
  advertiser_ids: z.array(z.string().min(1).max(100)).max(1000).optional(),
  settings: settingsSchema.optional(),
}).strict();
const albumPatch = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  ad_mode: z.enum(AD_MODES).optional(),
  fixed_application_id: z.string().min(1).max(100).nullable().optional(),
  advertiser_ids: z.array(z.string().min(1).max(100)).max(1000).optional(),
  settings: settingsSchema.nullable().optional(),
}).strict();
const advertiserCreate = z.object({
  name: z.string().trim().min(1).max(200),
  unit_points: z.number().int().min(1).max(1_000_000_000),
  active: z.boolean().optional(),
  initial_points: z.number().int().min(0).max(1_000_000_000_000).optional(),
  reason: z.string().trim().min(1).max(300).optional(),
}).strict();
const advertiserPatch = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  unit_points: z.number().int().min(1).max(1_000_000_000).optional(),
  active: z.boolean().optional(),
}).strict();
const topUp = z.object({
  points: z.number().int().min(-1_000_000_000_000).max(1_000_000_000_000).refine((v) => v !== 0, 'a non-zero integer'),
  reason: z.string().trim().min(1).max(300),
}).strict();
const applicationFields = z.object({
  advertiser_id: z.string().min(1).max(100),
  title: z.string().trim().min(1).max(200),
  album_ids: form.json(z.array(z.string().min(1).max(100)).max(1000)).optional(),
}).strict();
const decision = z.object({ reason: z.string().trim().min(1).max(300).optional() }).strict();
const day = /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/;
const impressionQuery = z.object({
  album_id: z.string().min(1).max(100).optional(),
  advertiser_id: z.string().min(1).max(100).optional(),
  from: z.string().regex(day, 'a date YYYY-MM-DD or an ISO time').optional(),
  to: z.string().regex(day, 'a date YYYY-MM-DD or an ISO time').optional(),
  limit: form.int(1, 1000).optional(),
  cursor: z.string().max(200).optional(),
}).strict();
const csvQuery = impressionQuery.omit({ limit: true, cursor: true });

// ------------------------------------------------------------------ admin views

async function advertiserView(store: PrintRepo, id: string): Promise<Record<string, unknown> | undefined> {
  const a = await store.advertiser(id);
  if (!a) return undefined;
  const l = await store.ledgerSum(id);
  return { ...a, created_at: iso(a.created_at), updated_at: iso(a.updated_at), ledger_entries: l.entries, ledger_sum: l.sum };
}

function albumView(a: Album): Record<string, unknown> {
  return { ...a, created_at: iso(a.created_at), updated_at: iso(a.updated_at) };
}

function impressionView(services: Services, imp: Impression): Record<string, unknown> {
  return {
    job_id: imp.job_id,
    album_id: imp.album_id,
    at: iso(imp.at),
    status: imp.status,
    advertiser_id: imp.advertiser_id ?? null,
    application_id: imp.application_id ?? null,
    version: imp.version ?? null,
    unit_points: imp.unit_points,
    balance_before: imp.balance_before ?? null,
    balance_after: imp.balance_after ?? null,
    selected_reason: imp.selected_reason,
    skipped: imp.skipped ?? [],
    image: imp.image ? { width: imp.image.width, height: imp.image.height, format: imp.image.format, expires_at: iso(imp.image.expires_at) } : null,
    ad_image_url: imp.application_id && imp.version ? creativeUrl(services, imp.application_id, imp.version) : null,
  };
}

function timeBound(v: string | undefined, field: string, end: boolean): number | undefined {
  if (!v) return undefined;
  const t = Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v);
  if (!Number.isFinite(t)) throw invalid(field, 'a date YYYY-MM-DD or an ISO time', v);
  // a bare date as `to` includes that whole day
  return end && v.length === 10 ? t + 86400_000 : t;
}

const CSV_COLUMNS = ['job_id', 'at', 'album_id', 'status', 'advertiser_id', 'application_id', 'version', 'unit_points', 'balance_before', 'balance_after', 'selected_reason'] as const;

/** RFC 4180 field; cells starting with = + - @ are prefixed with ' so spreadsheets do not run them as formulas. */
export function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

async function probeCreative(ctx: Ctx): Promise<ProbeOutput> {
  const f = ctx.files.image;
  if (!f) throw invalid('image', 'a JPEG/PNG/WebP file part');
  return ctx.services.pool.run('composite-probe', { mode: 'probe', bytes: f.data, field: 'image', maxPixels: ctx.services.config.maxInputPixels });
}

function applicationView(services: Services, a: Application): Record<string, unknown> {
  const approved = approvedVersion(a);
  return {
    ...a,
    created_at: iso(a.created_at),
    updated_at: iso(a.updated_at),
    approved_version: approved?.version ?? null,
    versions: a.versions.map((v) => ({ ...v, uploaded_at: iso(v.uploaded_at), decided_at: iso(v.decided_at), image_url: creativeUrl(services, a.id, v.version) })),
  };
}
const A = '/api/v1/admin/print';
const adminTags = ['Admin', 'Composite/Print'];

function decide(status: 'approved' | 'rejected') {
  return async (ctx: CtxOf<JsonBody<typeof decision>>) => {
    const { services } = ctx;
    const st = state(services);
    const version = Number(ctx.params.version);
    if (!Number.isInteger(version) || version < 1) throw invalid('version', 'a positive integer', ctx.params.version);
    const body = ctx.body;
    if (status === 'rejected' && !body.reason) throw invalid('reason', 'a reason for the rejection');
    const r = await st.store.decide(ctx.params.id!, version, status, body.reason, services.clock.now());
    if (r === 'not_found') throw new ApiError('NOT_FOUND', `No ad application ${ctx.params.id}`);
    if (r === 'no_version') throw new ApiError('NOT_FOUND', `Ad application ${ctx.params.id} has no version ${version}`, { field: 'version' });
    return applicationView(services, r);
  };
}
export const routes: RouteDef[] = [
  // ---------------------------------------------------------------- albums
  defineRoute({
    method: 'POST', path: `${A}/albums`, auth: 'admin', tags: adminTags, errors: ['CONFLICT', 'NOT_FOUND'], summary: 'Create an album with its print setting for advertisers',
    responses: { 201: { description: 'the album', schema: album } },
    body: { kind: 'json', schema: albumCreate },
    handler: async (ctx) => {
      const st = state(ctx.services);
      const b = ctx.body;
      if (b.ad_mode === 'fixed' && !b.fixed_application_id) throw invalid('fixed_application_id', 'an ad application id when ad_mode is fixed');
      if (b.fixed_application_id && !await st.store.application(b.fixed_application_id)) throw new ApiError('NOT_FOUND', `No ad application ${b.fixed_application_id}`, { field: 'fixed_application_id' });
      for (const [i, id] of (b.advertiser_ids ?? []).entries()) if (!await st.store.advertiser(id)) throw new ApiError('NOT_FOUND', `No advertiser ${id}`, { field: `advertiser_ids.${i}` });
      const r = await st.store.createAlbum(b, ctx.services.clock.now());
      if (r === 'exists') throw new ApiError('CONFLICT', `Album ${b.id} exists`, { field: 'id' });
      return reply.json(albumView(r), 201);
    },
  }),
  defineRoute({
    method: 'GET', path: `${A}/albums`, auth: 'admin', tags: adminTags, summary: 'List albums',
    responses: ok('the albums', albumList),
    handler: async (ctx) => ({ albums: (await state(ctx.services).store.listAlbums()).map((a) => albumView(a)) }),
  }),
  defineRoute({
    method: 'GET', path: `${A}/albums/:id`, auth: 'admin', tags: adminTags, summary: 'Read an album',
    responses: ok('the album', album),
    handler: async (ctx) => {
      const a = await state(ctx.services).store.album(ctx.params.id!);
      if (!a) throw new ApiError('NOT_FOUND', `No album ${ctx.params.id}`);
      return albumView(a);
    },
  }),
  defineRoute({
    method: 'PATCH', path: `${A}/albums/:id`, auth: 'admin', tags: adminTags, summary: 'Update an album\'s name or print settings (ad_mode, fixed_application_id, advertiser_ids)',
    responses: ok('the album', album),
    body: { kind: 'json', schema: albumPatch },
    handler: async (ctx) => {
      const st = state(ctx.services);
      const b = ctx.body;
      const cur = await st.store.album(ctx.params.id!);
      if (!cur) throw new ApiError('NOT_FOUND', `No album ${ctx.params.id}`);
      const mode = b.ad_mode ?? cur.ad_mode;
      const fixed = b.fixed_application_id === null ? undefined : (b.fixed_application_id ?? cur.fixed_application_id);
      if (mode === 'fixed' && !fixed) throw invalid('fixed_application_id', 'an ad application id when ad_mode is fixed');
      if (b.fixed_application_id && !await st.store.application(b.fixed_application_id)) throw new ApiError('NOT_FOUND', `No ad application ${b.fixed_application_id}`, { field: 'fixed_application_id' });
      for (const [i, id] of (b.advertiser_ids ?? []).entries()) if (!await st.store.advertiser(id)) throw new ApiError('NOT_FOUND', `No advertiser ${id}`, { field: `advertiser_ids.${i}` });
      const r = await st.store.updateAlbum(ctx.params.id!, b as never, ctx.services.clock.now());
      if (!r) throw new ApiError('NOT_FOUND', `No album ${ctx.params.id}`);
      return albumView(r);
    },
  }),

  // ---------------------------------------------------------------- advertisers and points
  defineRoute({
    method: 'POST', path: `${A}/advertisers`, auth: 'admin', tags: adminTags, summary: 'Create an advertiser (unit_points per printed ad; optional initial points, written as a ledger entry)',
    responses: { 201: { description: 'the advertiser', schema: advertiser } },
    body: { kind: 'json', schema: advertiserCreate },
    handler: async (ctx) => {
      const st = state(ctx.services);
      const a = await st.store.createAdvertiser(ctx.body, ctx.services.clock.now());
      return reply.json(await advertiserView(st.store, a.id), 201);
    },
  }),
  defineRoute({
    method: 'GET', path: `${A}/advertisers`, auth: 'admin', tags: adminTags, summary: 'List advertisers with balance and ledger sum',
    responses: ok('the advertisers', advertiserList),
    handler: async (ctx) => {
      const st = state(ctx.services);
      return { advertisers: await Promise.all((await st.store.listAdvertisers()).map((a) => advertiserView(st.store, a.id))) };
    },
  }),
  defineRoute({
    method: 'GET', path: `${A}/advertisers/:id`, auth: 'admin', tags: adminTags, summary: 'Read an advertiser (balance, ledger_sum, ledger_entries)',
    responses: ok('the advertiser', advertiser),
    handler: async (ctx) => {
      const v = await advertiserView(state(ctx.services).store, ctx.params.id!);
      if (!v) throw new ApiError('NOT_FOUND', `No advertiser ${ctx.params.id}`);
      return v;
    },
  }),
  defineRoute({
    method: 'PATCH', path: `${A}/advertisers/:id`, auth: 'admin', tags: adminTags, summary: 'Change name, unit_points or active',
    responses: ok('the advertiser', advertiser),
    body: { kind: 'json', schema: advertiserPatch },
    handler: async (ctx) => {
      const st = state(ctx.services);
      const r = await st.store.updateAdvertiser(ctx.params.id!, ctx.body, ctx.services.clock.now());
      if (!r) throw new ApiError('NOT_FOUND', `No advertiser ${ctx.params.id}`);
      return await advertiserView(st.store, r.id);
    },
  }),
  defineRoute({
    method: 'POST', path: `${A}/advertisers/:id/top-ups`, auth: 'admin', tags: adminTags, errors: ['CONFLICT'],
    summary: 'Add points (or remove them with a negative amount) with a reason; one ledger entry',
    responses: { 201: { description: 'the new balance and ledger entry', schema: topUpDone } },
    body: { kind: 'json', schema: topUp },
    handler: async (ctx) => {
      const st = state(ctx.services);
      const b = ctx.body;
      const r = await st.store.topUp(ctx.params.id!, b.points, b.reason, ctx.services.clock.now());
      if (r === 'not_found') throw new ApiError('NOT_FOUND', `No advertiser ${ctx.params.id}`);
      if (r === 'negative') throw new ApiError('CONFLICT', `Removing ${-b.points} points would make the balance negative`, { field: 'points' });
      return reply.json({ advertiser_id: r.advertiser.id, balance: r.advertiser.balance, entry: { ...r.entry, at: iso(r.entry.at) } }, 201);
    },
  }),
  defineRoute({
    method: 'GET', path: `${A}/advertisers/:id/ledger`, auth: 'admin', tags: adminTags, summary: 'Ledger entries of an advertiser, oldest first (after = last seq seen)',
    responses: ok('the entries', ledger),
    query: z.object({ limit: form.int(1, 10000).optional(), after: form.int(0, Number.MAX_SAFE_INTEGER).optional() }).strict(),
    handler: async (ctx) => {
      const st = state(ctx.services);
      const a = await st.store.advertiser(ctx.params.id!);
      if (!a) throw new ApiError('NOT_FOUND', `No advertiser ${ctx.params.id}`);
      const q = ctx.query;
      const entries = await st.store.ledgerOf(a.id, { limit: q.limit ?? 1000, after: q.after });
      return { advertiser_id: a.id, balance: a.balance, entries: entries.map((e) => ({ ...e, at: iso(e.at) })) };
    },
  }),

  // ---------------------------------------------------------------- ad applications
  defineRoute({
    method: 'POST', path: `${A}/applications`, auth: 'admin', tags: adminTags, errors: ['NOT_FOUND'],
    summary: 'Create an ad application with its first creative (version 1, pending); multipart: advertiser_id, title, album_ids (JSON array), image',
    responses: { 201: { description: 'the application', schema: application } },
    body: { kind: 'multipart', fields: applicationFields, files: { image: { required: true, maxBytes: CREATIVE_MAX_BYTES } } },
    maxBodyBytes: CREATIVE_MAX_BYTES + 65536,
    handler: async (ctx) => {
      const st = state(ctx.services);
      const b = ctx.body;
      if (!await st.store.advertiser(b.advertiser_id)) throw new ApiError('NOT_FOUND', `No advertiser ${b.advertiser_id}`, { field: 'advertiser_id' });
      const c = await probeCreative(ctx);
      const r = await st.store.createApplication({ advertiser_id: b.advertiser_id, title: b.title, album_ids: b.album_ids ?? [] }, { bytes: Buffer.from(c.bytes), format: c.format, width: c.width, height: c.height }, ctx.services.clock.now());
      if (r === 'advertiser_not_found') throw new ApiError('NOT_FOUND', `No advertiser ${b.advertiser_id}`, { field: 'advertiser_id' });
      return reply.json(applicationView(ctx.services, r), 201);
    },
  }),
  defineRoute({
    method: 'POST', path: `${A}/applications/:id/versions`, auth: 'admin', tags: adminTags,
    summary: 'Upload a new creative version (pending until approved; the latest approved version keeps running)',
    responses: { 201: { description: 'the application', schema: application } },
    body: { kind: 'multipart', fields: z.object({}).strict(), files: { image: { required: true, maxBytes: CREATIVE_MAX_BYTES } } },
    maxBodyBytes: CREATIVE_MAX_BYTES + 65536,
    handler: async (ctx) => {
      const st = state(ctx.services);
      if (!await st.store.application(ctx.params.id!)) throw new ApiError('NOT_FOUND', `No ad application ${ctx.params.id}`);
      const c = await probeCreative(ctx);
      const r = await st.store.addVersion(ctx.params.id!, { bytes: Buffer.from(c.bytes), format: c.format, width: c.width, height: c.height }, ctx.services.clock.now());
      if (!r) throw new ApiError('NOT_FOUND', `No ad application ${ctx.params.id}`);
      return reply.json(applicationView(ctx.services, r.app), 201);
    },
  }),
  defineRoute({
    method: 'POST', path: `${A}/applications/:id/versions/:version/approve`, auth: 'admin', tags: adminTags, summary: 'Approve a creative version',
    responses: ok('the application', application),
    body: { kind: 'json', schema: decision },
    handler: decide('approved'),
  }),
  defineRoute({
    method: 'POST', path: `${A}/applications/:id/versions/:version/reject`, auth: 'admin', tags: adminTags, summary: 'Reject a creative version (reason required)',
    responses: ok('the application', application),
    body: { kind: 'json', schema: decision },
    handler: decide('rejected'),
  }),
  defineRoute({
    method: 'GET', path: `${A}/applications`, auth: 'admin', tags: adminTags, summary: 'List ad applications (optionally of one advertiser)',
    responses: ok('the applications', applicationList),
    query: z.object({ advertiser_id: z.string().min(1).max(100).optional() }).strict(),
    handler: async (ctx) => ({ applications: (await state(ctx.services).store.listApplications(ctx.query.advertiser_id)).map((a) => applicationView(ctx.services, a)) }),
  }),
  defineRoute({
    method: 'GET', path: `${A}/applications/:id`, auth: 'admin', tags: adminTags, summary: 'Read an ad application with its versions',
    responses: ok('the application', application),
    handler: async (ctx) => {
      const a = await state(ctx.services).store.application(ctx.params.id!);
      if (!a) throw new ApiError('NOT_FOUND', `No ad application ${ctx.params.id}`);
      return applicationView(ctx.services, a);
    },
  }),

  // ---------------------------------------------------------------- impressions
  defineRoute({
    method: 'GET', path: `${A}/impressions`, auth: 'admin', tags: adminTags,
    summary: 'Impressions (one per job_id) by album, advertiser and time range, oldest first, with a cursor',
    responses: ok('a page of impressions', impressions),
    query: impressionQuery,
    handler: async (ctx) => {
      const q = ctx.query;
      const st = state(ctx.services);
      const r = await st.store.queryImpressions({
        album_id: q.album_id, advertiser_id: q.advertiser_id,
        from: timeBound(q.from, 'from', false), to: timeBound(q.to, 'to', true),
        limit: q.limit ?? 100, cursor: q.cursor,
      });
      return { impressions: r.items.map((i) => impressionView(ctx.services, i)), next_cursor: r.next_cursor ?? null };
    },
  }),
  defineRoute({
    method: 'GET', path: `${A}/impressions/export`, auth: 'admin', tags: adminTags,
    summary: 'Impressions as CSV (same filters, every matching row)',
    query: csvQuery,
    responses: { 200: { description: 'CSV', contentType: 'text/csv' } },
    handler: async (ctx) => {
      const q = ctx.query;
      const st = state(ctx.services);
      const lines = [CSV_COLUMNS.join(',')];
      let cursor: string | undefined;
      do {
        const r = await st.store.queryImpressions({ album_id: q.album_id, advertiser_id: q.advertiser_id, from: timeBound(q.from, 'from', false), to: timeBound(q.to, 'to', true), limit: 1000, cursor });
        for (const i of r.items) {
          const row: Record<string, unknown> = { ...i, at: iso(i.at) };
          lines.push(CSV_COLUMNS.map((c) => csvCell(row[c])).join(','));
        }
        cursor = r.next_cursor;
      } while (cursor);
      return reply.make({ status: 200, body: lines.join('\r\n') + '\r\n', contentType: 'text/csv; charset=utf-8', headers: { 'content-disposition': 'attachment; filename="impressions.csv"' } });
    },
  }),
];
