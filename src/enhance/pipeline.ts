// The enhancement as a list of steps read top to bottom (imgproxy's pipeline idea): each step is a small function
// over one context; pixel work happens in pool tasks only. Progress advances tile by tile.
import { ApiError } from '../domain/errors.js';
import type { Services } from '../services.js';
import type { PrivacyRegion, TileOptions } from '../tasks/lib/tiling.js';
import type { EnhancePrepareInput, EnhancePrepareOutput } from '../tasks/enhance-prepare.js';
import type { EnhanceTileInput } from '../tasks/enhance-tile.js';
import type { EnhanceFinishInput, EnhanceFinishOutput } from '../tasks/enhance-finish.js';
import type { QualityResult } from '../tasks/quality.js';

export interface EnhanceInput {
  image: Buffer;
  regions: PrivacyRegion[];
  tile?: Partial<TileOptions>;
  /** called with 0..1 as the work advances (after the preparation, after each tile) */
  onProgress?: (p: number, tilesDone: number) => Promise<void> | void;
  /** return the raw composite too (tests) */
  returnRaw?: boolean;
  /** abort between steps and tiles after this time (ms since epoch, services.clock); default now + SEJONG_ENHANCE_BUDGET_MS */
  deadline?: number;
}

export interface EnhanceContext {
  services: Services;
  input: EnhanceInput;
  /** performance.now() at the start: durations only (the time of day comes from services.clock) */
  startedAt: number;
  /** services.clock time after which no further step or tile starts */
  deadline: number;
  prepared?: EnhancePrepareOutput;
  tiles?: Uint8Array[];
  finished?: EnhanceFinishOutput;
  timings: Record<string, number>;
}

type Step = { name: string; run: (c: EnhanceContext) => Promise<void> };

/** Share of the progress bar taken by the preparation; the tiles take the rest up to TILE_SHARE_END. */
const PREPARE_SHARE = 0.1;
const TILE_SHARE_END = 0.95;

/** Decode, measure quality, blur privacy regions, estimate the global parameters, cut the tiles (one task). */
async function prepare(c: EnhanceContext): Promise<void> {
  const { image, regions, tile } = c.input;
  // copy: the pool transfers the buffer, the caller keeps its own
  const bytes = new Uint8Array(image.byteLength);
  bytes.set(image);
  c.prepared = await c.services.pool.run('enhance-prepare', {
    image: bytes, regions, tile, field: 'image', maxPixels: c.services.config.maxInputPixels,
  } satisfies EnhancePrepareInput);
  await c.input.onProgress?.(PREPARE_SHARE, 0);
}

/** Enhance every tile as its own pool task, at most one per worker at a time for this job. */
async function enhanceTiles(c: EnhanceContext): Promise<void> {
  const p = c.prepared!;
  const out: Uint8Array[] = new Array(p.tiles.length);
  let next = 0, done = 0;
  const lanes = Math.max(1, Math.min(c.services.pool.size, p.tiles.length));
  const lane = async () => {
    while (next < p.tiles.length) {
      const t = p.tiles[next++]!;
      checkDeadline(c, 'enhanceTiles');
      const r = await c.services.pool.run('enhance-tile', { ...t, params: p.estimate.params } satisfies EnhanceTileInput);
      out[r.index] = r.data;
      done++;
      await c.input.onProgress?.(PREPARE_SHARE + ((TILE_SHARE_END - PREPARE_SHARE) * done) / p.tiles.length, done);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  c.tiles = out;
}

/** Blend the overlaps, restore the privacy regions from the original, encode, measure quality after (one task). */
async function blendRestoreEncode(c: EnhanceContext): Promise<void> {
  const p = c.prepared!;
  c.finished = await c.services.pool.run('enhance-finish', {
    width: p.width, height: p.height, original: p.original, plan: p.plan, tiles: c.tiles!, regionRects: p.regionRects, returnRaw: c.input.returnRaw,
  } satisfies EnhanceFinishInput);
}

export const ENHANCE_STEPS: Step[] = [
  { name: 'prepare', run: prepare },
  { name: 'enhanceTiles', run: enhanceTiles },
  { name: 'blendRestoreEncode', run: blendRestoreEncode },
];

function checkDeadline(c: EnhanceContext, step: string): void {
  if (c.services.clock.now() <= c.deadline) return;
  const budget = c.services.config.enhanceBudgetMs;
  throw new ApiError('SERVICE_BUSY', `The enhancement ran past its time budget of ${budget} ms (SEJONG_ENHANCE_BUDGET_MS) before step ${step}; retry later or send a smaller image`, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(budget / 1000))) } });
}

export interface EnhanceOutcome {
  jpeg: Uint8Array;
  png: Uint8Array;
  raw?: Uint8Array;
  width: number;
  height: number;
  qualityBefore: QualityResult;
  qualityAfter: QualityResult;
  tilesProcessed: number;
  params: EnhancePrepareOutput['estimate'];
  regions: Array<{ field: string; x: number; y: number; w: number; h: number }>;
  timings: Record<string, number>;
  processingTimeMs: number;
}

export async function runEnhance(services: Services, input: EnhanceInput): Promise<EnhanceOutcome> {
  const deadline = input.deadline ?? services.clock.now() + services.config.enhanceBudgetMs;
  const c: EnhanceContext = { services, input, startedAt: performance.now(), deadline, timings: {} };
  for (const step of ENHANCE_STEPS) {
    checkDeadline(c, step.name);
    const t0 = performance.now();
    await step.run(c);
    c.timings[step.name] = Math.round(performance.now() - t0);
  }
  const p = c.prepared!, f = c.finished!;
  return {
    jpeg: f.jpeg, png: f.png, raw: f.raw, width: p.width, height: p.height,
    qualityBefore: p.qualityBefore, qualityAfter: f.qualityAfter, tilesProcessed: c.tiles!.length,
    params: p.estimate, regions: p.regionRects, timings: c.timings, processingTimeMs: Math.round(performance.now() - c.startedAt),
  };
}

/** The four numbers of the spec's qualityBefore / qualityAfter. */
export function qualitySummary(q: QualityResult): { brightness: number; contrast: number; sharpness: number; overallScore: number } {
  return { brightness: q.brightness, contrast: q.contrast, sharpness: q.sharpness, overallScore: q.overallScore };
}
