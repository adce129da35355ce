// Composite/Print: POST /api/v1/composite/print (spec), the sheet image route and the creative image route; starts
// the print state shared with the print administration routes (./print-admin.ts).
import crypto from 'node:crypto';
import { z } from 'zod';
import { ApiError, invalid } from '../domain/errors.js';
import { defineRoute, reply, type Ctx, type RouteDef } from '../server/types.js';
import type { Services } from '../services.js';
import { openPrintStore } from '../print/open.js';
import { WALL_CAP_FACTOR } from '../pool/budget-clock.js';
import { isEngineBusy } from '../shared/errors.js';
import type { PrintRepo } from '../print/repo.js';
import type { Impression } from '../print/types.js';
import type { PrintResult, PrintState } from '../print/state.js';
import { POSITIONS, defaults } from '../tasks/lib/composite-layout.js';
import type { CompositeInput, CompositeOutput } from '../tasks/composite.js';
import { sniffFormat } from '../tasks/lib/image-io.js';

import { URL_STORES, urlStorageType } from '../catalog/storage.js';

export const STORAGE_TYPES = URL_STORES;
const DEFAULT_TTL_HOURS = 24;
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
  }).optional(), // other keys (the spec's "…") are accepted and ignored; the known ones are checked
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
  storage_type: urlStorageType.optional(),
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


// ------------------------------------------------------------------ module state (per server)

export type { PrintResult, PrintState } from '../print/state.js';

/** The print state of a running server (also used by ./print-admin.ts). */
export function printState(services: Services): PrintState {
  return state(services);
}

function state(services: Services): PrintState {
  const s = services.ext.print;
  if (!s) throw new ApiError('INTERNAL_ERROR', 'The print module is not started');
  return s;
}

export async function start(services: Services): Promise<void> {
  const { config, clock, log } = services;
  // a charged print stays composing at most this long (pool wait + task + storing) before it counts as interrupted; a
  // task may run WALL_CAP_FACTOR × its budget in wall time on a loaded node (its budget counts its own time, not its
  // wait for a CPU: src/pool/budget-clock.ts), so the lease covers that cap, not the budget
  const leaseMs = config.queueWaitMs + WALL_CAP_FACTOR * config.taskTimeoutMs + 60_000;
  // LMDB or PostgreSQL (src/print/open.ts); the signing secret is the fleet's in shared mode
  const { store, secret, recoverEveryMs } = await openPrintStore(services.engines, { leaseMs });
  const recover = async () => {
    const n = await store.recoverInterrupted(clock.now());
    if (n) log.warn({ msg: 'print: refunded prints interrupted by a stop', count: n });
  };
  await recover();
  const timer = recoverEveryMs ? setInterval(() => void recover().catch((e: Error) => log.warn({ msg: 'print: recovery failed', err: e.message })), recoverEveryMs) : undefined;
  timer?.unref();
  services.ext.print = { store, secret, inflight: new Map(), timer } satisfies PrintState;
}

export async function stop(services: Services): Promise<void> {
  clearInterval(services.ext.print?.timer);
}

/** The print store of a running server (tests, bench). */
export function printStore(services: Services): PrintRepo {
  return state(services).store;
}

// ------------------------------------------------------------------ helpers

import { iso } from '../clock.js';
import { ok } from './schemas/common.js';
import { printAnswer } from './schemas/admin.js';
export { iso };

function imageKey(st: PrintState, jobId: string): string {
  return crypto.createHmac('sha256', st.secret).update(`print-image|${jobId}`).digest('base64url').slice(0, 32);
}

function imageUrl(services: Services, st: PrintState, jobId: string): string {
  return `${services.baseUrl()}/api/v1/composite/print/image/${encodeURIComponent(jobId)}?key=${imageKey(st, jobId)}`;
}

export function creativeUrl(services: Services, appId: string, version: number): string {
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
    out[k] = v && typeof v === 'object' && base && typeof base === 'object' ? { ...base, ...v } : v;
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
  const prev = await st.store.impression(b.job_id);
  if (prev && (prev.album_id !== b.album_id || prev.key_id !== ctx.principal.keyId) && prev.status !== 'failed' && prev.status !== 'refunded') {
    throw conflict(b.job_id, prev.album_id, prev.key_id !== ctx.principal.keyId);
  }
  const album = await st.store.album(b.album_id);
  if (!album) throw new ApiError('NOT_FOUND', `No album ${b.album_id}`, { field: 'album_id' });
  b = { ...b, settings: mergeSettings(album.settings as Settings | undefined, b.settings) };
  checkFits(b);
  const hash = requestHash(b);
  if (prev?.status === 'printed' && prev.image && prev.image.request_hash === hash && prev.image.expires_at > now && (await services.blobs.getMeta(`print/${b.job_id}`))) {
    return { album_id: prev.album_id, key_id: prev.key_id, body: response(services, st, prev, prev.image, false, true, t0) };
  }

  // fetch before charging: an unreadable picture costs the advertiser nothing
  const ai = await services.fetcher.fetchImage(b.ai_image_url, 'ai_image_url');
  const fmt = sniffFormat(ai);
  if (fmt !== 'jpeg' && fmt !== 'png' && fmt !== 'webp') {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Expected a JPEG/PNG/WebP image at ai_image_url but received ${fmt === 'gif' ? 'a GIF image' : 'data that is not an image'}`, { field: 'ai_image_url' });
  }
  await checkPrintAspect(services, ai);

  const wantAd = b.settings?.ad?.show !== false;
  // secure the composition slot BEFORE charging: a busy pool refuses here (503 + Retry-After) with no ledger entry
  const ticket = services.pool.admit('composite');
  let sel: Awaited<ReturnType<typeof st.store.selectAndCharge>>;
  try {
    sel = await st.store.selectAndCharge({ job_id: b.job_id, album_id: b.album_id, at: now, key_id: ctx.principal.keyId, want_ad: wantAd });
    if (sel.kind === 'album_not_found') throw new ApiError('NOT_FOUND', `No album ${b.album_id}`, { field: 'album_id' });
    if (sel.kind === 'conflict') throw conflict(b.job_id, sel.existing.album_id, sel.existing.key_id !== ctx.principal.keyId);
  } catch (e) {
    ticket.release();
    throw e;
  }
  const imp = sel.impression;
  const chargedNow = sel.kind === 'new' && imp.advertiser_id !== undefined;

  let out: CompositeOutput;
  try {
    const ad = wantAd && imp.application_id && imp.version ? await st.store.creative(imp.application_id, imp.version) : undefined;
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
    out = await services.pool.run('composite', input, { ticket });
  } catch (e) {
    ticket.release(); // no-op once run() took it
    // nothing printed: give the points back, only when this request charged them and still holds the print (a
    // repeat of the job_id that took it over is finishing it). Not when PostgreSQL was out of reach: the client is
    // told 503 and resends the job_id, which finishes the charged print without a second charge; a print never
    // resent is refunded when its lease runs out (recoverInterrupted).
    if (sel.kind === 'new' && !isEngineBusy(e)) await st.store.refund(b.job_id, (e as Error)?.message ?? 'composition failed', services.clock.now(), sel.claim);
    throw e;
  }
  const ttlHours = b.output?.ttl_hours ?? DEFAULT_TTL_HOURS;
  const done = services.clock.now();
  const expiresAt = done + Math.round(ttlHours * 3600_000);
  const contentType = out.format === 'png' ? 'image/png' : 'image/jpeg';
  await services.blobs.put(`print/${b.job_id}`, out.image, { contentType, createdAt: done, expiresAt });
  const image = { width: out.width, height: out.height, format: out.format, bytes: out.image.byteLength, expires_at: expiresAt, request_hash: hash, applied: out.applied };
  const stored = await st.store.markPrinted(b.job_id, image);
  // this node outlived its lease and another node refunded the print: never answer it as charged
  if (!stored) throw new ApiError('SERVICE_BUSY', `The print ${b.job_id} took longer than its lease and was refunded by another node; nothing is charged for it; send it again with the same job_id`, { field: 'job_id', headers: { 'retry-after': '1' } });
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

const tags = ['Composite/Print'];

export const routes: RouteDef[] = [
  defineRoute({
    method: 'POST', path: '/api/v1/composite/print', auth: 'key', tags,
    summary: 'Compose a printable sheet (AI picture, header, QR, signature, perforation, A3 ad); charges the selected advertiser once per job_id',
    body: { kind: 'json', schema: printBody },
    maxBodyBytes: 4 * 1048576,
    responses: ok('the sheet\'s URL, what was applied, the ad and the charge', printAnswer),
    handler: print,
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/composite/print/image/:job_id', auth: 'none', tags,
    summary: 'The composed sheet (key = the value in image_url)',
    query: z.object({ key: z.string().min(1).max(100) }),
    responses: { 200: { description: 'The sheet', contentType: 'image/jpeg' } },
    handler: async (ctx) => {
      const { services } = ctx;
      const st = state(services);
      const jobId = ctx.params.job_id!;
      const want = Buffer.from(imageKey(st, jobId));
      const got = Buffer.from(String(ctx.query.key));
      if (want.length !== got.length || !crypto.timingSafeEqual(want, got)) throw new ApiError('INVALID_API_KEY', 'The key query parameter does not match this print', { field: 'key' });
      const imp = await st.store.impression(jobId);
      if (!imp?.image) throw new ApiError('NOT_FOUND', `No printed sheet for job_id ${jobId}`);
      const bytes = await services.blobs.get(`print/${jobId}`);
      const meta = await services.blobs.getMeta(`print/${jobId}`);
      if (!bytes || !meta || (meta.expiresAt !== undefined && meta.expiresAt <= services.clock.now())) {
        throw new ApiError('IMAGE_EXPIRED', `The sheet of job_id ${jobId} expired at ${iso(imp.image.expires_at)}`);
      }
      return reply.binary(bytes, meta.contentType, 200, { 'cache-control': 'private, max-age=300', 'content-disposition': `inline; filename="${jobId.replace(/[^A-Za-z0-9._-]/g, '_')}.${imp.image.format === 'png' ? 'png' : 'jpg'}"` });
    },
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/composite/print/ads/:id/versions/:version/image', auth: 'key', tags,
    summary: 'An ad creative (as selected for a print)',
    responses: { 200: { description: 'the creative (JPEG, PNG or WebP)', contentType: 'image/*' } },
    handler: async (ctx) => {
      const st = state(ctx.services);
      const app = await st.store.application(ctx.params.id!);
      const v = app?.versions.find((x) => x.version === Number(ctx.params.version));
      const bytes = v ? await st.store.creative(app!.id, v.version) : undefined;
      if (!app || !v || !bytes) throw new ApiError('NOT_FOUND', `No creative ${ctx.params.id} v${ctx.params.version}`);
      return reply.binary(bytes, `image/${v.format}`);
    },
  }),
];

/** Pictures further from square than this are refused before any charge (a 1x300 strip would make a sheet taller than JPEG allows). */
export const PRINT_MAX_ASPECT = 6;

/** The picture's header (the image-info task: format, oriented size, off the event loop): an absurd aspect ratio is
 * a 400 naming ai_image_url, with nothing charged; an unreadable header is refused the same way. */
async function checkPrintAspect(services: Services, ai: Buffer): Promise<void> {
  const { width: w, height: h } = await services.pool.run('image-info', { image: ai, field: 'ai_image_url', maxPixels: services.config.maxInputPixels }, { transfer: false });
  if (Math.max(w, h) / Math.min(w, h) > PRINT_MAX_ASPECT) {
    throw invalid('ai_image_url', `a picture with an aspect ratio between 1:${PRINT_MAX_ASPECT} and ${PRINT_MAX_ASPECT}:1`, `${w}x${h}`);
  }
}
