// Privacy regions: the parts of an ID card that the enhancement must never see and that the output carries
// unchanged from the input. Regions are fractions of the image (x, y, w, h in 0..1). This file holds the modes,
// the per-doc_type defaults, the validation of a client's `privacy_regions`, and the fraction → pixel mapping.
import { ApiError } from '../domain/errors.js';

export const DOC_TYPES = ['jumin', 'alien', 'driver'] as const;
export type DocType = (typeof DOC_TYPES)[number];

/**
 * juminMask (default): the resident / foreigner registration-number line (it carries sex, birthplace and serial).
 * fullMask: every personal field of the card: name, full registration / licence number, address, photo.
 * none: no privacy region: the whole card is enhanced.
 * custom: only the regions sent in privacy_regions (required with this mode).
 * When privacy_regions is sent without privacy_mode, the mode is custom.
 */
export const PRIVACY_MODES = ['juminMask', 'fullMask', 'none', 'custom'] as const;
export type PrivacyMode = (typeof PRIVACY_MODES)[number];

import type { PrivacyRegion } from '../tasks/lib/tiling.js';
import { LAYOUTS, type Region } from '../vision/layouts.js';
export type { PrivacyRegion } from '../tasks/lib/tiling.js';

/**
 * The default regions per doc_type, on a perspective-corrected card (1280x807). They follow the field layout the
 * ID-card OCR reads (LAYOUTS in src/vision/idcard.ts, also used by the test renderer): the personal fields of that
 * layout plus the photo box, and for juminMask the registration-number line. Cards with another layout need
 * privacy_regions.
 */
const PERSONAL_FIELDS = ['name', 'jumin_full', 'registration_number', 'license_number', 'address'];
const PHOTO: Record<DocType, Region> = { jumin: [0.7, 0.22, 0.25, 0.48], driver: [0.03, 0.2, 0.23, 0.5], alien: [0.72, 0.2, 0.24, 0.5] };
/**
 * juminMask covers the whole registration-number line, not only the 7 digits after the hyphen: a line that is half
 * enhanced and half original reads worse than either (measured with the e-KYC OCR on dark cards: 1.00 → 0.84 when
 * only the tail was restored), and the birth-date half gains nothing worth that. Field names as in LAYOUTS.
 */
const NUMBER_FIELD: Record<DocType, string> = { jumin: 'jumin_full', driver: 'jumin_full', alien: 'registration_number' };

const toRegion = (field: string, r: Region): PrivacyRegion => ({ field, x: r[0], y: r[1], w: r[2], h: r[3] });

export const DEFAULT_REGIONS: Record<DocType, { juminMask: PrivacyRegion[]; fullMask: PrivacyRegion[] }> = Object.fromEntries(
  DOC_TYPES.map((d) => [d, {
    juminMask: [toRegion(NUMBER_FIELD[d], LAYOUTS[d].regions[NUMBER_FIELD[d]]!)],
    fullMask: [
      ...Object.entries(LAYOUTS[d].regions).filter(([f]) => PERSONAL_FIELDS.includes(f)).map(([f, r]) => toRegion(f, r)),
      toRegion('photo', PHOTO[d]),
    ],
  }]),
) as Record<DocType, { juminMask: PrivacyRegion[]; fullMask: PrivacyRegion[] }>;

export function defaultRegions(docType: DocType | undefined, mode: PrivacyMode): PrivacyRegion[] {
  if (mode === 'none' || mode === 'custom') return [];
  // without a doc_type (pipeline before detection) the jumin layout is the default
  return DEFAULT_REGIONS[docType ?? 'jumin'][mode].map((r) => ({ ...r }));
}

export const MAX_REGIONS = 32;
const EPS = 1e-9;

const bad = (field: string, msg: string) => new ApiError('INVALID_REQUEST', msg, { field });
const showV = (v: unknown): string => (v === undefined ? 'nothing' : typeof v === 'string' ? `string "${v.slice(0, 30)}"` : Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`);

/** Parse the privacy_regions form field: `{"regions":[{"field","x","y","w","h"}]}` (fractions). Throws 400 naming the problem. */
export function parsePrivacyRegions(text: string, field = 'privacy_regions'): PrivacyRegion[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw bad(field, `Expected JSON text like {"regions":[{"field":"jumin_back","x":0.3,"y":0.3,"w":0.3,"h":0.12}]} for ${field} but it is not valid JSON (${(e as Error).message})`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw bad(field, `Expected an object with a regions array for ${field} but received ${showV(doc)}`);
  const extra = Object.keys(doc).filter((k) => k !== 'regions');
  if (extra.length) throw bad(`${field}.${extra[0]}`, `Unknown field ${field}.${extra[0]} (only regions is accepted)`);
  const regions = (doc as { regions?: unknown }).regions;
  if (!Array.isArray(regions)) throw bad(`${field}.regions`, `Expected an array for ${field}.regions but received ${showV(regions)}`);
  if (regions.length > MAX_REGIONS) throw bad(`${field}.regions`, `Expected at most ${MAX_REGIONS} regions for ${field}.regions but received ${regions.length}`);
  return regions.map((r, i) => {
    const at = `${field}.regions[${i}]`;
    if (typeof r !== 'object' || r === null || Array.isArray(r)) throw bad(at, `Expected an object {field, x, y, w, h} for ${at} but received ${showV(r)}`);
    const o = r as Record<string, unknown>;
    const unknown = Object.keys(o).filter((k) => !['field', 'x', 'y', 'w', 'h'].includes(k));
    if (unknown.length) throw bad(`${at}.${unknown[0]}`, `Unknown field ${at}.${unknown[0]} (expected field, x, y, w, h)`);
    const name = o.field === undefined ? `region${i}` : o.field;
    if (typeof name !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw bad(`${at}.field`, `Expected a name of 1 to 64 letters, digits, _ . - for ${at}.field but received ${showV(o.field)}`);
    const num = (k: 'x' | 'y' | 'w' | 'h', min: number, minIncl: boolean): number => {
      const v = o[k];
      if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(`${at}.${k}`, `Expected a number (fraction of the image) for ${at}.${k} but received ${showV(v)}`);
      if ((minIncl ? v < min : v <= min) || v > 1) throw bad(`${at}.${k}`, `Expected a fraction ${minIncl ? '>=' : '>'} ${min} and <= 1 for ${at}.${k} but received ${v}`);
      return v;
    };
    const x = num('x', 0, true), y = num('y', 0, true), w = num('w', 0, false), h = num('h', 0, false);
    if (x + w > 1 + EPS) throw bad(`${at}.w`, `Expected ${at}.x + w <= 1 (the region must lie inside the image) but received x=${x}, w=${w}`);
    if (y + h > 1 + EPS) throw bad(`${at}.h`, `Expected ${at}.y + h <= 1 (the region must lie inside the image) but received y=${y}, h=${h}`);
    return { field: name, x, y, w, h };
  });
}

/** Resolve mode + explicit regions into the regions to apply (400 on a contradiction). */
export function resolveRegions(docType: DocType | undefined, mode: PrivacyMode | undefined, explicit: PrivacyRegion[] | undefined): { mode: PrivacyMode; regions: PrivacyRegion[] } {
  if (explicit) {
    if (mode === 'none') throw bad('privacy_mode', 'Expected privacy_mode custom (or no privacy_mode) when privacy_regions is sent but received "none"');
    if (mode && mode !== 'custom') return { mode, regions: [...defaultRegions(docType, mode), ...explicit] };
    return { mode: 'custom', regions: explicit };
  }
  if (mode === 'custom') throw bad('privacy_regions', 'privacy_regions is required when privacy_mode is custom');
  const m = mode ?? 'juminMask';
  return { mode: m, regions: defaultRegions(docType, m) };
}
