// The photo-studio catalog: every feature with self-describing params (name, type, range, default, the feature
// version that introduced it), its job family, cost and time basis. GET /api/v1/studio/catalog serves FEATURES;
// the request schemas of src/api/studio.ts are built from the same definitions, so docs and validation agree.
import { z } from 'zod';
import type { Family } from '../jobs/families.js';

export type ParamType = 'number' | 'integer' | 'enum' | 'url' | 'array';

export interface StudioParam {
  name: string;
  type: ParamType;
  required: boolean;
  min?: number;
  max?: number;
  default?: number | string;
  /** suggested slider step for numbers */
  step?: number;
  values?: string[];
  /** feature version that introduced the parameter */
  since: '1.0.0' | '1.1.0';
  label: string;
  description: string;
  /** for arrays: the shape of one item */
  items?: Record<string, { type: ParamType; min?: number; required: boolean }>;
}

export interface StudioFeature {
  id: 'skin-retouch' | 'reshape' | 'makeup' | 'mosaic';
  label: string;
  category: 'retouch' | 'reshape' | 'makeup' | 'privacy';
  status: 'active';
  /** feature version that introduced the feature */
  since: '1.0.0' | '1.1.0';
  method: 'POST';
  path: string;
  mode: 'async' | 'sync';
  family: Family;
  /** needs a face (no face: original image returned, faceDetected false) */
  usesFaces: boolean;
  params: StudioParam[];
  /** USD: the estimate given at creation (one face) */
  costPerImage: number;
  /** USD per additional face treated */
  costPerExtraFace: number;
  /** USD charged when no face was found (detection only) */
  costNoFace: number;
  /** seconds on one idle worker for a ~1 MP portrait (measured: bench/studio.ts, bench/RESULTS.md "## studio") */
  baseSeconds: number;
}

const imageUrl: StudioParam = {
  name: 'imageUrl', type: 'url', required: true, since: '1.0.0', label: 'Image URL',
  description: 'http(s) URL of a JPEG, PNG or WebP photo (fetched by the server; private addresses refused)',
};
const unit = (name: string, label: string, def: number, since: '1.0.0' | '1.1.0', description: string): StudioParam => ({
  name, type: 'number', required: false, min: 0, max: 1, default: def, step: 0.05, since, label, description,
});

export const FEATURES: StudioFeature[] = [
  {
    id: 'skin-retouch', label: 'Skin retouch', category: 'retouch', status: 'active', since: '1.0.0',
    method: 'POST', path: '/api/v1/studio/skin-retouch', mode: 'async', family: 'studio_skin', usesFaces: true,
    params: [
      imageUrl,
      unit('strength', 'Smoothing strength', 1.0, '1.0.0', 'Edge-preserving skin smoothing (guided filter) blended over the skin mask; 0 leaves the skin texture as it is'),
      unit('bronzer', 'Bronzer', 0.0, '1.1.0', 'Warm tint on the skin (CIE Lab shift)'),
      unit('eyeBrighten', 'Eye brighten', 0.0, '1.1.0', 'Lifts and sharpens the eye regions'),
      unit('contour', 'Contour', 0.0, '1.1.0', 'Shades under the cheekbones and along the jaw'),
    ],
    costPerImage: 0.002, costPerExtraFace: 0.001, costNoFace: 0.0005, baseSeconds: 1.0,
  },
  {
    id: 'reshape', label: 'Face reshape', category: 'reshape', status: 'active', since: '1.0.0',
    method: 'POST', path: '/api/v1/studio/reshape', mode: 'async', family: 'studio_reshape', usesFaces: true,
    params: [
      imageUrl,
      unit('jawSlim', 'Jaw slim', 0.0, '1.0.0', 'Pulls the lower jaw toward the face axis with a smooth landmark-driven warp; 0 leaves the face as it is'),
    ],
    costPerImage: 0.002, costPerExtraFace: 0.001, costNoFace: 0.0005, baseSeconds: 0.5,
  },
  {
    id: 'makeup', label: 'Makeup', category: 'makeup', status: 'active', since: '1.1.0',
    method: 'POST', path: '/api/v1/studio/makeup', mode: 'async', family: 'studio_makeup', usesFaces: true,
    params: [
      { ...imageUrl, since: '1.1.0' },
      unit('lipStrength', 'Lip colour', 0.0, '1.1.0', 'Lip colour of the style, blended in CIE Lab so texture and highlights stay'),
      unit('blushStrength', 'Blush', 0.0, '1.1.0', 'Soft cheek gradients in the style\'s blush colour'),
      { name: 'style', type: 'enum', required: false, values: ['natural', 'coral', 'red'], default: 'natural', since: '1.1.0', label: 'Style', description: 'Colour family of lips and blush' },
    ],
    costPerImage: 0.002, costPerExtraFace: 0.001, costNoFace: 0.0005, baseSeconds: 0.6,
  },
  {
    id: 'mosaic', label: 'Mosaic', category: 'privacy', status: 'active', since: '1.0.0',
    method: 'POST', path: '/api/v1/studio/mosaic', mode: 'sync', family: 'studio_mosaic', usesFaces: false,
    params: [
      imageUrl,
      {
        name: 'regions', type: 'array', required: true, since: '1.0.0', label: 'Regions',
        description: 'Rectangles to pixelate, in image pixels',
        items: { x: { type: 'integer', min: 0, required: true }, y: { type: 'integer', min: 0, required: true }, width: { type: 'integer', min: 1, required: true }, height: { type: 'integer', min: 1, required: true } },
      },
      { name: 'blockSize', type: 'integer', required: false, min: 4, max: 40, default: 16, step: 1, since: '1.0.0', label: 'Block size', description: 'Mosaic cell size in pixels' },
    ],
    costPerImage: 0, costPerExtraFace: 0, costNoFace: 0, baseSeconds: 0.3,
  },
];

export const FEATURE_BY_ID = Object.fromEntries(FEATURES.map((f) => [f.id, f])) as Record<StudioFeature['id'], StudioFeature>;

/** At most this many faces (largest first) are treated in one photo. */
export const MAX_FACES = 8;

/** The public catalog answer. */
export function catalogAnswer(): { features: Array<Record<string, unknown>> } {
  return {
    features: FEATURES.map((f) => ({
      id: f.id, label: f.label, category: f.category, status: f.status, since: f.since,
      endpoint: { method: f.method, path: f.path }, mode: f.mode,
      params: f.params.map((p) => ({ ...p })),
      pricing: { currency: 'USD', perImage: f.costPerImage, perExtraFace: f.costPerExtraFace, noFace: f.costNoFace },
      estimatedSeconds: f.baseSeconds,
    })),
  };
}

/** The zod schema of a feature's JSON body, built from its params (strict: unknown fields are refused). */
export function bodySchema(f: StudioFeature): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const p of f.params) {
    let s: z.ZodType;
    if (p.type === 'url') s = z.string().min(1).max(2048);
    else if (p.type === 'number') s = z.number().min(p.min!).max(p.max!);
    else if (p.type === 'integer') s = z.number().int().min(p.min!).max(p.max!);
    else if (p.type === 'enum') s = z.enum(p.values as [string, ...string[]]);
    else continue; // arrays (mosaic) are validated by their own module
    shape[p.name] = p.required ? s : s.optional();
  }
  return z.object(shape).strict();
}

/** Actual cost of a finished job. */
export function actualCost(f: StudioFeature, facesTreated: number): number {
  if (facesTreated <= 0) return f.costNoFace;
  return Math.round((f.costPerImage + f.costPerExtraFace * (facesTreated - 1)) * 1e6) / 1e6;
}

/** Seconds estimate at creation: the feature's base time scaled by the pool backlog. */
export function estimateSeconds(f: StudioFeature, queued: number, workers: number): number {
  return Math.round(f.baseSeconds * (1 + queued / Math.max(1, workers)) * 10) / 10;
}
