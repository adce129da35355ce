// Composite/Print: POST /api/v1/composite/print (spec), the sheet image route, and the print administration
// (albums, advertisers with a points ledger, ad applications with versioned creatives, impressions + CSV).
import crypto from 'node:crypto';
import { z } from 'zod';
import { ApiError, invalid } from '../server/errors.js';
import { form } from '../server/validate.js';
import { reply, type Ctx, type RouteDef } from '../server/types.js';
import type { Services } from '../services.js';
import { PrintStore } from '../print/store.js';
import { AD_MODES, type Impression } from '../print/types.js';
import { POSITIONS, defaults } from '../tasks/lib/composite-layout.js';
import type { CompositeInput, CompositeOutput, ProbeOutput } from '../tasks/composite.js';
import { sniffFormat } from '../tasks/lib/image-io.js';

export const STORAGE_TYPES = ['url_a', 'url_b'] as const;
const DEFAULT_TTL_HOURS = 24;
const CREATIVE_MAX_BYTES = 10 * 1048576;
const SIGNATURE_MAX_BYTES = 2 * 1048576;

const position = z.enum(POSITIONS);
const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour #RRGGBB');

export const settingsSchema = z.object({
  event_name: z.string().max(100).optional(),
  event_date: z.string().max(40).optional(),
  ticket_no: z.string().max(40).optional(),
  dream_title: z.string().max(100).optional(),
  qr: z.object({
    payload: z.string().min(1).max(1000).optional(),
    position: position.optional(),
    size: z.number().int().min(60).max(2000).optional(),
    show: z.boolean().optional(),
  }).strict().optional(),
  signature: z.object({ position: position.optional(), width: z.number().int().min(20).max(4000).optional() }).strict().optional(),
  perforation: z.boolean().optional(),
  ad: z.object({
    a3_width_ratio: z.number().min(0.1).max(1).optional(),
    a3_top_padding: z.number().int().min(0).max(2000).optional(),
    a3_bottom_padding: z.number().int().min(0).max(2000).optional(),
    align: z.enum(['left', 'center', 'right']).optional(),
    show: z.boolean().optional(),
  }).strict().optional(),
  header: z.object({
    show_name: z.boolean().optional(),
    show_date: z.boolean().optional(),
    show_ticket: z.boolean().optional(),
    show_title: z.boolean().optional(),
    position: position.optional(),
    font_size: z.number().int().min(8).max(300).optional(),
    color: hex.optional(),
  }).strict().optional(),
  image_scale: z.number().min(0.1).max(1).optional(),
  top_margin: z.number().int().min(0).max(2000).optional(),
}).strict();

const outputSchema = z.object({
  format: z.enum(['jpeg', 'png']).optional(),
  quality: z.number().int().min(60).max(100).optional(),
  storage_type: z.enum(STORAGE_TYPES).optional(),
  ttl_hours: z.number().min(0.01).max(720).optional(),
  target_width: z.number().int().min(300).max(4800).optional(),
}).strict();

const JOB_ID = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;
const printBody = z.object({
  ai_image_url: z.string().min(1).max(4096),
  album_id: z.string().min(1).max(100),
  job_id: z.string().regex(JOB_ID, 'a job id of 1 to 128 letters, digits or ._:@- (first a letter or digit)'),
  signature_data_url: z.string().max(Math.ceil(SIGNATURE_MAX_BYTES * 1.4) + 100).optional(),
  settings: settingsSchema.optional(),
  output: outputSchema.optional(),
}).strict();
type PrintBody = z.infer<typeof printBody>;

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

// ------------------------------------------------------------------ module state (per server)

interface PrintState {
  store: PrintStore;
  secret: Buffer;
  /** job_id → the print in progress in this process (a concurrent repeat waits for it) */
  inflight: Map<string, Promise<PrintResult>>;
}

interface PrintResult {
  body: Record<string, unknown>;
  album_id: string;
  key_id?: string;
}

function state(services: Services): PrintState {
  const s = services.ext.print as PrintState | undefined;
  if (!s) throw new ApiError('INTERNAL_ERROR', 'The print module is not started');
  return s;
}

export async function start(services: Services): Promise<void> {
  const store = new PrintStore(services.store);
  const n = await store.recoverInterrupted(services.clock.now());
  if (n) services.log.warn({ msg: 'print: refunded prints interrupted by a stop', count: n });
  services.ext.print = { store, secret: await store.secret(), inflight: new Map() } satisfies PrintState;
}

/** The PrintStore of a running server (tests, bench). */
export function printStore(services: Services): PrintStore {
  return state(services).store;
}

// ------------------------------------------------------------------ helpers

const iso = (t: number | undefined): string | null => (t === undefined ? null : new Date(t).toISOString());

function imageKey(st: PrintState, jobId: string): string {
  return crypto.createHmac('sha256', st.secret).update(`print-image|${jobId}`).digest('base64url').slice(0, 32);
}

function imageUrl(services: Services, st: PrintState, jobId: string): string {
  return `${services.baseUrl()}/api/v1/composite/print/image/${encodeURIComponent(jobId)}?key=${imageKey(st, jobId)}`;
}

function creativeUrl(services: Services, appId: string, version: number): string {
  return `${services.baseUrl()}/api/v1/composite/print/ads/${encodeURIComponent(appId)}/versions/${version}/image`;
}

type Settings = z.infer<typeof settingsSchema>;

/** Album defaults under the request's settings: top-level keys, and the keys inside qr/signature/ad/header. */
export function mergeSettings(album: Settings | undefined, req: Settings | undefined): Settings | undefined {
  if (!album) return req;
  if (!req) return album;
  const out: Record<string, unknown> = { ...album };
  for (const [k, v] of Object.entries(req)) {
    const base = out[k];
    out[k] = v && typeof v === 'object' && base && typeof base === 'object' ? { ...(base as object), ...(v as object) } : v;
  }
  return out as Settings;
}

function requestHash(b: PrintBody): string {
  const h = crypto.createHash('sha256');
  h.update(JSON.stringify({ u: b.ai_image_url, s: b.settings ?? {}, o: { ...b.output, storage_type: undefined, ttl_hours: undefined } }));
  h.update(b.signature_data_url ?? '');
  return h.digest('hex');
}

function parseSignature(dataUrl: string | undefined): Buffer | undefined {
  if (dataUrl === undefined || dataUrl === '') return undefined;
  const m = /^data:image\/png(;[a-z0-9=._-]+)*;base64,([A-Za-z0-9+/=\s]+)$/i.exec(dataUrl);
  if (!m) throw invalid('signature_data_url', 'a PNG data URL (data:image/png;base64,…)', dataUrl.slice(0, 40));
  const bytes = Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64');
  if (bytes.length > SIGNATURE_MAX_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', `signature_data_url holds ${bytes.length} bytes; at most ${SIGNATURE_MAX_BYTES} are accepted`, { field: 'signature_data_url' });
  if (sniffFormat(bytes) !== 'png') throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Expected PNG bytes in signature_data_url but the data is not a PNG image', { field: 'signature_data_url' });
  return bytes;
}

/** Cross-field limits the schema cannot express: elements must fit the sheet width. */
function checkFits(b: PrintBody): void {
  const W = b.output?.target_width ?? 1181;
  const d = defaults(W);
  const content = W - 2 * d.margin;
  const s = b.settings;
  if (s?.qr?.size !== undefined && s.qr.size > content) throw invalid('settings.qr.size', `at most ${content} (the content width at target_width ${W})`, s.qr.size);
  if (s?.signature?.width !== undefined && s.signature.width > content) throw invalid('settings.signature.width', `at most ${content} (the content width at target_width ${W})`, s.signature.width);
  if (s?.top_margin !== undefined && s.top_margin > W) throw invalid('settings.top_margin', `at most ${W} (target_width)`, s.top_margin);
}

function adSelected(services: Services, imp: Impression): Record<string, unknown> {
  return {
    advertiser_id: imp.advertiser_id ?? null,
    application_id: imp.application_id ?? null,
    version: imp.version ?? null,
    image_url: imp.application_id && imp.version ? creativeUrl(services, imp.application_id, imp.version) : null,
    selected_reason: imp.selected_reason,
    ...(imp.skipped ? { skipped: imp.skipped } : {}),
  };
}

function adCharged(imp: Impression, chargedNow: boolean): Record<string, unknown> | null {
  if (!imp.advertiser_id) return null;
  return { balance_before: imp.balance_before, unit_points: imp.unit_points, balance_after: imp.balance_after, charged: chargedNow };
}

// ------------------------------------------------------------------ the print

async function print(ctx: Ctx<PrintBody>): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const { services } = ctx;
  const st = state(services);
  const b = ctx.body;
  checkFits(b);
  services.fetcher.checkUrl(b.ai_image_url, 'ai_image_url');
  const signature = parseSignature(b.signature_data_url);
  ctx.logExtra.print_job = b.job_id;

  // a concurrent repeat of a print still running in this process waits for it
  const running = st.inflight.get(b.job_id);
  if (running) {
    const r = await running.catch(() => undefined);
    if (r) {
      if (r.album_id !== b.album_id || r.key_id !== ctx.principal.keyId) throw conflict(b.job_id, r.album_id, r.key_id !== ctx.principal.keyId);
      return { ...r.body, replayed: true, elapsed_ms: Math.round(performance.now() - t0), ad_charged: r.body.ad_charged ? { ...(r.body.ad_charged as object), charged: false } : null };
    }
  }
  const p = runPrint(ctx, st, b, signature, t0);
  st.inflight.set(b.job_id, p);
  try {
    return (await p).body;
  } finally {
    if (st.inflight.get(b.job_id) === p) st.inflight.delete(b.job_id);
  }
}

function conflict(jobId: string, albumId: string, otherKey = false): ApiError {
  return new ApiError('CONFLICT', otherKey
    ? `job_id ${jobId} was already used by another API key; a job_id identifies one print`
    : `job_id ${jobId} was already used for album ${albumId}; a job_id identifies one print`, { field: 'job_id' });
}

async function runPrint(ctx: Ctx<PrintBody>, st: PrintState, b: PrintBody, signature: Buffer | undefined, t0: number): Promise<PrintResult> {
  const { services } = ctx;
  const now = services.clock.now();

  // an earlier print with this job_id: same album → same ad, no charge; its stored sheet when the request is the same
  const prev = st.store.impression(b.job_id);
  if (prev && (prev.album_id !== b.album_id || prev.key_id !== ctx.principal.keyId) && prev.status !== 'failed' && prev.status !== 'refunded') {
    throw conflict(b.job_id, prev.album_id, prev.key_id !== ctx.principal.keyId);
  }
  const album = st.store.albums.get(b.album_id);
  if (!album) throw new ApiError('NOT_FOUND', `No album ${b.album_id}`, { field: 'album_id' });
  b = { ...b, settings: mergeSettings(album.settings as Settings | undefined, b.settings) };
  checkFits(b);
  const hash = requestHash(b);
  if (prev?.status === 'printed' && prev.image && prev.image.request_hash === hash && prev.image.expires_at > now && services.blobs.getMeta(`print/${b.job_id}`)) {
    return { album_id: prev.album_id, key_id: prev.key_id, body: response(services, st, prev, prev.image, false, true, t0) };
  }

  // fetch before charging: an unreadable picture costs the advertiser nothing
  const ai = await services.fetcher.fetchImage(b.ai_image_url, 'ai_image_url');
  const fmt = sniffFormat(ai);
  if (fmt !== 'jpeg' && fmt !== 'png' && fmt !== 'webp') {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Expected a JPEG/PNG/WebP image at ai_image_url but received ${fmt === 'gif' ? 'a GIF image' : 'data that is not an image'}`, { field: 'ai_image_url' });
  }

  const wantAd = b.settings?.ad?.show !== false;
  const sel = await st.store.selectAndCharge({ job_id: b.job_id, album_id: b.album_id, at: now, key_id: ctx.principal.keyId, want_ad: wantAd });
  if (sel.kind === 'album_not_found') throw new ApiError('NOT_FOUND', `No album ${b.album_id}`, { field: 'album_id' });
  if (sel.kind === 'conflict') throw conflict(b.job_id, sel.existing.album_id, sel.existing.key_id !== ctx.principal.keyId);
  const imp = sel.impression;
  const chargedNow = sel.kind === 'new' && imp.advertiser_id !== undefined;

  let out: CompositeOutput;
  try {
    const ad = wantAd && imp.application_id && imp.version ? st.store.creative(imp.application_id, imp.version) : undefined;
    if (imp.application_id && wantAd && !ad) throw new ApiError('INTERNAL_ERROR', `The creative of ${imp.application_id} v${imp.version} is missing`);
    const input: CompositeInput = {
      ai,
      signature,
      ad,
      settings: b.settings,
      output: { format: b.output?.format, quality: b.output?.quality, target_width: b.output?.target_width },
      qr_default_payload: imageUrl(services, st, b.job_id),
      maxPixels: services.config.maxInputPixels,
    };
    out = await services.pool.run<CompositeOutput>('composite', input);
  } catch (e) {
    // nothing printed: give the points back (only when this request charged them)
    if (sel.kind === 'new') await st.store.refund(b.job_id, (e as Error)?.message ?? 'composition failed', services.clock.now());
    throw e;
  }
  const ttlHours = b.output?.ttl_hours ?? DEFAULT_TTL_HOURS;
  const done = services.clock.now();
  const expiresAt = done + Math.round(ttlHours * 3600_000);
  const contentType = out.format === 'png' ? 'image/png' : 'image/jpeg';
  await services.blobs.put(`print/${b.job_id}`, out.image, { contentType, createdAt: done, expiresAt });
  const image = { width: out.width, height: out.height, format: out.format, bytes: out.image.byteLength, expires_at: expiresAt, request_hash: hash, applied: out.applied };
  const stored = (await st.store.markPrinted(b.job_id, image)) ?? imp;
  return { album_id: b.album_id, key_id: ctx.principal.keyId, body: response(services, st, stored, image, chargedNow, sel.kind === 'replay', t0) };
}

function response(services: Services, st: PrintState, imp: Impression, image: NonNullable<Impression['image']>, chargedNow: boolean, replayed: boolean, t0: number): Record<string, unknown> {
  return {
    success: true,
    job_id: imp.job_id,
    status: 'completed',
    image_url: imageUrl(services, st, imp.job_id),
    width: image.width,
    height: image.height,
    format: image.format,
    expires_at: iso(image.expires_at),
    elapsed_ms: Math.round(performance.now() - t0),
    applied: image.applied,
    ad_selected: adSelected(services, imp),
    ad_charged: adCharged(imp, chargedNow),
    replayed,
  };
}

// ------------------------------------------------------------------ admin views

function advertiserView(store: PrintStore, id: string): Record<string, unknown> | undefined {
  const a = store.advertisers.get(id);
  if (!a) return undefined;
  const l = store.ledgerSum(id);
  return { ...a, created_at: iso(a.created_at), updated_at: iso(a.updated_at), ledger_entries: l.entries, ledger_sum: l.sum };
}

function albumView(a: { created_at: number; updated_at: number } & Record<string, unknown>): Record<string, unknown> {
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
  return ctx.services.pool.run<ProbeOutput>('composite', { mode: 'probe', bytes: f.data, field: 'image', maxPixels: ctx.services.config.maxInputPixels });
}

function applicationView(services: Services, a: import('../print/types.js').Application): Record<string, unknown> {
  const approved = PrintStore.approved(a);
  return {
    ...a,
    created_at: iso(a.created_at),
    updated_at: iso(a.updated_at),
    approved_version: approved?.version ?? null,
    versions: a.versions.map((v) => ({ ...v, uploaded_at: iso(v.uploaded_at), decided_at: iso(v.decided_at), image_url: creativeUrl(services, a.id, v.version) })),
  };
}

const A = '/api/v1/admin/print';
const tags = ['Composite/Print'];
const adminTags = ['Admin', 'Composite/Print'];

function decide(status: 'approved' | 'rejected'): RouteDef['handler'] {
  return async (ctx) => {
    const { services } = ctx;
    const st = state(services);
    const version = Number(ctx.params.version);
    if (!Number.isInteger(version) || version < 1) throw invalid('version', 'a positive integer', ctx.params.version);
    const body = (ctx.body ?? {}) as z.infer<typeof decision>;
    if (status === 'rejected' && !body.reason) throw invalid('reason', 'a reason for the rejection');
    const r = await st.store.decide(ctx.params.id!, version, status, body.reason, services.clock.now());
    if (r === 'not_found') throw new ApiError('NOT_FOUND', `No ad application ${ctx.params.id}`);
    if (r === 'no_version') throw new ApiError('NOT_FOUND', `Ad application ${ctx.params.id} has no version ${version}`, { field: 'version' });
    return applicationView(services, r);
  };
}

export const routes: RouteDef[] = [
  {
    method: 'POST', path: '/api/v1/composite/print', auth: 'key', tags,
    summary: 'Compose a printable sheet (AI picture, header, QR, signature, perforation, A3 ad); charges the selected advertiser once per job_id',
    body: { kind: 'json', schema: printBody },
    maxBodyBytes: 4 * 1048576,
    handler: (ctx) => print(ctx as Ctx<PrintBody>),
  },
  {
    method: 'GET', path: '/api/v1/composite/print/image/:job_id', auth: 'none', tags,
    summary: 'The composed sheet (key = the value in image_url)',
    query: z.object({ key: z.string().min(1).max(100) }),
    responses: { 200: { description: 'The sheet', contentType: 'image/jpeg' } },
    handler: (ctx) => {
      const { services } = ctx;
      const st = state(services);
      const jobId = ctx.params.job_id!;
      const want = Buffer.from(imageKey(st, jobId));
      const got = Buffer.from(String((ctx.query as { key: string }).key));
      if (want.length !== got.length || !crypto.timingSafeEqual(want, got)) throw new ApiError('INVALID_API_KEY', 'The key query parameter does not match this print', { field: 'key' });
      const imp = st.store.impression(jobId);
      if (!imp?.image) throw new ApiError('NOT_FOUND', `No printed sheet for job_id ${jobId}`);
      const bytes = services.blobs.get(`print/${jobId}`);
      const meta = services.blobs.getMeta(`print/${jobId}`);
      if (!bytes || !meta || (meta.expiresAt !== undefined && meta.expiresAt <= services.clock.now())) {
        throw new ApiError('IMAGE_EXPIRED', `The sheet of job_id ${jobId} expired at ${iso(imp.image.expires_at)}`);
      }
      return reply.binary(bytes, meta.contentType, 200, { 'cache-control': 'private, max-age=300', 'content-disposition': `inline; filename="${jobId.replace(/[^A-Za-z0-9._-]/g, '_')}.${imp.image.format === 'png' ? 'png' : 'jpg'}"` });
    },
  },
  {
    method: 'GET', path: '/api/v1/composite/print/ads/:id/versions/:version/image', auth: 'key', tags,
    summary: 'An ad creative (as selected for a print)',
    handler: (ctx) => {
      const st = state(ctx.services);
      const app = st.store.applications.get(ctx.params.id!);
      const v = app?.versions.find((x) => x.version === Number(ctx.params.version));
      const bytes = v ? st.store.creative(app!.id, v.version) : undefined;
      if (!app || !v || !bytes) throw new ApiError('NOT_FOUND', `No creative ${ctx.params.id} v${ctx.params.version}`);
      return reply.binary(bytes, `image/${v.format}`);
    },
  },

  // ---------------------------------------------------------------- albums
  {
    method: 'POST', path: `${A}/albums`, auth: 'admin', tags: adminTags, summary: 'Create an album with its print setting for advertisers',
    body: { kind: 'json', schema: albumCreate },
    handler: async (ctx) => {
      const st = state(ctx.services);
      const b = ctx.body as z.infer<typeof albumCreate>;
      if (b.ad_mode === 'fixed' && !b.fixed_application_id) throw invalid('fixed_application_id', 'an ad application id when ad_mode is fixed');
      if (b.fixed_application_id && !st.store.applications.get(b.fixed_application_id)) throw new ApiError('NOT_FOUND', `No ad application ${b.fixed_application_id}`, { field: 'fixed_application_id' });
      for (const [i, id] of (b.advertiser_ids ?? []).entries()) if (!st.store.advertisers.get(id)) throw new ApiError('NOT_FOUND', `No advertiser ${id}`, { field: `advertiser_ids.${i}` });
      const r = await st.store.createAlbum(b, ctx.services.clock.now());
      if (r === 'exists') throw new ApiError('CONFLICT', `Album ${b.id} exists`, { field: 'id' });
      return reply.json(albumView(r as never), 201);
    },
  },
  {
    method: 'GET', path: `${A}/albums`, auth: 'admin', tags: adminTags, summary: 'List albums',
    handler: (ctx) => ({ albums: state(ctx.services).store.listAlbums().map((a) => albumView(a as never)) }),
  },
  {
    method: 'GET', path: `${A}/albums/:id`, auth: 'admin', tags: adminTags, summary: 'Read an album',
    handler: (ctx) => {
      const a = state(ctx.services).store.albums.get(ctx.params.id!);
      if (!a) throw new ApiError('NOT_FOUND', `No album ${ctx.params.id}`);
      return albumView(a as never);
    },
  },
  {
    method: 'PATCH', path: `${A}/albums/:id`, auth: 'admin', tags: adminTags, summary: 'Update an album\'s name or print settings (ad_mode, fixed_application_id, advertiser_ids)',
    body: { kind: 'json', schema: albumPatch },
    handler: async (ctx) => {
      const st = state(ctx.services);
      const b = ctx.body as z.infer<typeof albumPatch>;
      const cur = st.store.albums.get(ctx.params.id!);
      if (!cur) throw new ApiError('NOT_FOUND', `No album ${ctx.params.id}`);
      const mode = b.ad_mode ?? cur.ad_mode;
      const fixed = b.fixed_application_id === null ? undefined : (b.fixed_application_id ?? cur.fixed_application_id);
      if (mode === 'fixed' && !fixed) throw invalid('fixed_application_id', 'an ad application id when ad_mode is fixed');
      if (b.fixed_application_id && !st.store.applications.get(b.fixed_application_id)) throw new ApiError('NOT_FOUND', `No ad application ${b.fixed_application_id}`, { field: 'fixed_application_id' });
      for (const [i, id] of (b.advertiser_ids ?? []).entries()) if (!st.store.advertisers.get(id)) throw new ApiError('NOT_FOUND', `No advertiser ${id}`, { field: `advertiser_ids.${i}` });
      const r = await st.store.updateAlbum(ctx.params.id!, b as never, ctx.services.clock.now());
      if (!r) throw new ApiError('NOT_FOUND', `No album ${ctx.params.id}`);
      return albumView(r as never);
    },
  },

  // ---------------------------------------------------------------- advertisers and points
  {
    method: 'POST', path: `${A}/advertisers`, auth: 'admin', tags: adminTags, summary: 'Create an advertiser (unit_points per printed ad; optional initial points, written as a ledger entry)',
    body: { kind: 'json', schema: advertiserCreate },
    handler: async (ctx) => {
      const st = state(ctx.services);
      const a = await st.store.createAdvertiser(ctx.body as z.infer<typeof advertiserCreate>, ctx.services.clock.now());
      return reply.json(advertiserView(st.store, a.id), 201);
    },
  },
  {
    method: 'GET', path: `${A}/advertisers`, auth: 'admin', tags: adminTags, summary: 'List advertisers with balance and ledger sum',
    handler: (ctx) => {
      const st = state(ctx.services);
      return { advertisers: st.store.listAdvertisers().map((a) => advertiserView(st.store, a.id)) };
    },
  },
  {
    method: 'GET', path: `${A}/advertisers/:id`, auth: 'admin', tags: adminTags, summary: 'Read an advertiser (balance, ledger_sum, ledger_entries)',
    handler: (ctx) => {
      const v = advertiserView(state(ctx.services).store, ctx.params.id!);
      if (!v) throw new ApiError('NOT_FOUND', `No advertiser ${ctx.params.id}`);
      return v;
    },
  },
  {
    method: 'PATCH', path: `${A}/advertisers/:id`, auth: 'admin', tags: adminTags, summary: 'Change name, unit_points or active',
    body: { kind: 'json', schema: advertiserPatch },
    handler: async (ctx) => {
      const st = state(ctx.services);
      const r = await st.store.updateAdvertiser(ctx.params.id!, ctx.body as z.infer<typeof advertiserPatch>, ctx.services.clock.now());
      if (!r) throw new ApiError('NOT_FOUND', `No advertiser ${ctx.params.id}`);
      return advertiserView(st.store, r.id);
    },
  },
  {
    method: 'POST', path: `${A}/advertisers/:id/top-ups`, auth: 'admin', tags: adminTags,
    summary: 'Add points (or remove them with a negative amount) with a reason; one ledger entry',
    body: { kind: 'json', schema: topUp },
    handler: async (ctx) => {
      const st = state(ctx.services);
      const b = ctx.body as z.infer<typeof topUp>;
      const r = await st.store.topUp(ctx.params.id!, b.points, b.reason, ctx.services.clock.now());
      if (r === 'not_found') throw new ApiError('NOT_FOUND', `No advertiser ${ctx.params.id}`);
      if (r === 'negative') throw new ApiError('CONFLICT', `Removing ${-b.points} points would make the balance negative`, { field: 'points' });
      return reply.json({ advertiser_id: r.advertiser.id, balance: r.advertiser.balance, entry: { ...r.entry, at: iso(r.entry.at) } }, 201);
    },
  },
  {
    method: 'GET', path: `${A}/advertisers/:id/ledger`, auth: 'admin', tags: adminTags, summary: 'Ledger entries of an advertiser, oldest first (after = last seq seen)',
    query: z.object({ limit: form.int(1, 10000).optional(), after: form.int(0, Number.MAX_SAFE_INTEGER).optional() }).strict(),
    handler: (ctx) => {
      const st = state(ctx.services);
      const a = st.store.advertisers.get(ctx.params.id!);
      if (!a) throw new ApiError('NOT_FOUND', `No advertiser ${ctx.params.id}`);
      const q = ctx.query as { limit?: number; after?: number };
      const entries = st.store.ledgerOf(a.id, { limit: q.limit ?? 1000, after: q.after });
      return { advertiser_id: a.id, balance: a.balance, entries: entries.map((e) => ({ ...e, at: iso(e.at) })) };
    },
  },

  // ---------------------------------------------------------------- ad applications
  {
    method: 'POST', path: `${A}/applications`, auth: 'admin', tags: adminTags,
    summary: 'Create an ad application with its first creative (version 1, pending); multipart: advertiser_id, title, album_ids (JSON array), image',
    body: { kind: 'multipart', fields: applicationFields, files: { image: { required: true, maxBytes: CREATIVE_MAX_BYTES } } },
    maxBodyBytes: CREATIVE_MAX_BYTES + 65536,
    handler: async (ctx) => {
      const st = state(ctx.services);
      const b = ctx.body as z.infer<typeof applicationFields>;
      if (!st.store.advertisers.get(b.advertiser_id)) throw new ApiError('NOT_FOUND', `No advertiser ${b.advertiser_id}`, { field: 'advertiser_id' });
      const c = await probeCreative(ctx);
      const r = await st.store.createApplication({ advertiser_id: b.advertiser_id, title: b.title, album_ids: b.album_ids ?? [] }, { bytes: Buffer.from(c.bytes), format: c.format, width: c.width, height: c.height }, ctx.services.clock.now());
      if (r === 'advertiser_not_found') throw new ApiError('NOT_FOUND', `No advertiser ${b.advertiser_id}`, { field: 'advertiser_id' });
      return reply.json(applicationView(ctx.services, r), 201);
    },
  },
  {
    method: 'POST', path: `${A}/applications/:id/versions`, auth: 'admin', tags: adminTags,
    summary: 'Upload a new creative version (pending until approved; the latest approved version keeps running)',
    body: { kind: 'multipart', fields: z.object({}).strict(), files: { image: { required: true, maxBytes: CREATIVE_MAX_BYTES } } },
    maxBodyBytes: CREATIVE_MAX_BYTES + 65536,
    handler: async (ctx) => {
      const st = state(ctx.services);
      if (!st.store.applications.get(ctx.params.id!)) throw new ApiError('NOT_FOUND', `No ad application ${ctx.params.id}`);
      const c = await probeCreative(ctx);
      const r = await st.store.addVersion(ctx.params.id!, { bytes: Buffer.from(c.bytes), format: c.format, width: c.width, height: c.height }, ctx.services.clock.now());
      if (!r) throw new ApiError('NOT_FOUND', `No ad application ${ctx.params.id}`);
      return reply.json(applicationView(ctx.services, r.app), 201);
    },
  },
  {
    method: 'POST', path: `${A}/applications/:id/versions/:version/approve`, auth: 'admin', tags: adminTags, summary: 'Approve a creative version',
    body: { kind: 'json', schema: decision },
    handler: decide('approved'),
  },
  {
    method: 'POST', path: `${A}/applications/:id/versions/:version/reject`, auth: 'admin', tags: adminTags, summary: 'Reject a creative version (reason required)',
    body: { kind: 'json', schema: decision },
    handler: decide('rejected'),
  },
  {
    method: 'GET', path: `${A}/applications`, auth: 'admin', tags: adminTags, summary: 'List ad applications (optionally of one advertiser)',
    query: z.object({ advertiser_id: z.string().min(1).max(100).optional() }).strict(),
    handler: (ctx) => ({ applications: state(ctx.services).store.listApplications((ctx.query as { advertiser_id?: string }).advertiser_id).map((a) => applicationView(ctx.services, a)) }),
  },
  {
    method: 'GET', path: `${A}/applications/:id`, auth: 'admin', tags: adminTags, summary: 'Read an ad application with its versions',
    handler: (ctx) => {
      const a = state(ctx.services).store.applications.get(ctx.params.id!);
      if (!a) throw new ApiError('NOT_FOUND', `No ad application ${ctx.params.id}`);
      return applicationView(ctx.services, a);
    },
  },

  // ---------------------------------------------------------------- impressions
  {
    method: 'GET', path: `${A}/impressions`, auth: 'admin', tags: adminTags,
    summary: 'Impressions (one per job_id) by album, advertiser and time range, oldest first, with a cursor',
    query: impressionQuery,
    handler: (ctx) => {
      const q = ctx.query as z.infer<typeof impressionQuery>;
      const st = state(ctx.services);
      const r = st.store.queryImpressions({
        album_id: q.album_id, advertiser_id: q.advertiser_id,
        from: timeBound(q.from, 'from', false), to: timeBound(q.to, 'to', true),
        limit: q.limit ?? 100, cursor: q.cursor,
      });
      return { impressions: r.items.map((i) => impressionView(ctx.services, i)), next_cursor: r.next_cursor ?? null };
    },
  },
  {
    method: 'GET', path: `${A}/impressions/export`, auth: 'admin', tags: adminTags,
    summary: 'Impressions as CSV (same filters, every matching row)',
    query: csvQuery,
    responses: { 200: { description: 'CSV', contentType: 'text/csv' } },
    handler: (ctx) => {
      const q = ctx.query as z.infer<typeof csvQuery>;
      const st = state(ctx.services);
      const lines = [CSV_COLUMNS.join(',')];
      let cursor: string | undefined;
      do {
        const r = st.store.queryImpressions({ album_id: q.album_id, advertiser_id: q.advertiser_id, from: timeBound(q.from, 'from', false), to: timeBound(q.to, 'to', true), limit: 1000, cursor });
        for (const i of r.items) {
          const row: Record<string, unknown> = { ...i, at: iso(i.at) };
          lines.push(CSV_COLUMNS.map((c) => csvCell(row[c])).join(','));
        }
        cursor = r.next_cursor;
      } while (cursor);
      return reply.make({ status: 200, body: lines.join('\r\n') + '\r\n', contentType: 'text/csv; charset=utf-8', headers: { 'content-disposition': 'attachment; filename="impressions.csv"' } });
    },
  },
];
