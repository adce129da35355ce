// Skin retouch of one face, in place: skin mask from the landmarks (face outline minus eyes, brows and lips,
// weighted by the face's own skin colour, feathered), guided-filter smoothing blended by `strength`, and the
// 1.1.0 extras in CIE Lab: bronzer (warm tint on skin), eyeBrighten (lift + unsharp on the eyes), contour
// (shade under the cheekbones and along the jaw). Nothing outside the feathered face region is written.
import { blendPlanes, extractPlanes, fillPolygon, gaussBlur, guidedFilter, labToRgb, rgbToLab, roiAround, shift, type Pt, type Rgb, type Roi } from './studio-raster.js';
import { browPolygon, cheekHollows, eyePolygon, faceGeom, facePolygon, outerLips, type FaceGeom } from './studio-face.js';

export interface SkinParams {
  strength: number;
  bronzer: number;
  eyeBrighten: number;
  contour: number;
}

/** Tunables (documented in docs/studio.md). */
export const SKIN = {
  /** guided-filter radius as a fraction of the face width */
  radiusPerWidth: 1 / 32,
  /** guided-filter eps: (fraction of 255)^2; textures with a local std-dev below ~this are smoothed */
  epsStd: 0.09,
  /** mask feather (Gaussian sigma) as a fraction of the face width */
  featherPerWidth: 0.02,
  /** Lab shift of the bronzer at 1.0 */
  bronzer: { L: -2, a: 2, b: 6 },
  /** Lab shift of the contour shade at 1.0 */
  contour: { L: -7, a: 1, b: 2 },
  /** L lift and unsharp amount of eyeBrighten at 1.0 */
  eye: { lift: 9, sharpen: 0.9 },
} as const;

export interface SkinMasks {
  roi: Roi;
  /** skin weight 0..1 (feathered) */
  skin: Float32Array;
  /** hard face outline (0/1) */
  face: Float32Array;
  /** hard skin (outline minus features, before colour weighting and feathering) */
  hard: Float32Array;
}

/** The skin masks of one face (exported for tests and the docs' figures). */
/** The ROI of a face (outline + feather + filter margin) and its hard outline mask. */
export function faceRegion(img: Rgb, g: FaceGeom): { roi: Roi; face: Float32Array; sigma: number } {
  const sigma = Math.max(1.2, SKIN.featherPerWidth * g.W);
  const rad = Math.max(2, Math.round(SKIN.radiusPerWidth * g.W));
  const outline = facePolygon(g);
  const roi = roiAround(outline, Math.ceil(3.2 * sigma + rad + 2), img.width, img.height);
  const face = fillPolygon(new Float32Array(roi.w * roi.h), roi.w, roi.h, shift(outline, roi));
  return { roi, face, sigma };
}

export function skinMasks(img: Rgb, lm: Pt[], g: FaceGeom = faceGeom(lm)): SkinMasks {
  const { roi, face, sigma } = faceRegion(img, g);
  const n = roi.w * roi.h;
  const hard = Float32Array.from(face);
  for (const side of [0, 1] as const) {
    fillPolygon(hard, roi.w, roi.h, shift(eyePolygon(g, side), roi), 0);
    fillPolygon(hard, roi.w, roi.h, shift(browPolygon(g, side), roi), 0);
  }
  fillPolygon(hard, roi.w, roi.h, shift(outerLips(g, 1.18), roi), 0);
  // the face's own skin colour: chroma (Cb, Cr) statistics over the hard mask, robust (median / MAD)
  const [R, G, B] = extractPlanes(img, roi);
  const cb: number[] = [], cr: number[] = [];
  // every 3rd pixel is plenty for a median
  for (let i = 0; i < n; i += 3) {
    if (!hard[i]) continue;
    cb.push(-0.168736 * R[i]! - 0.331264 * G[i]! + 0.5 * B[i]!);
    cr.push(0.5 * R[i]! - 0.418688 * G[i]! - 0.081312 * B[i]!);
  }
  if (cb.length > 20) {
    const med = (a: number[]) => {
      const s = Float64Array.from(a).sort();
      return s[s.length >> 1]!;
    };
    const mcb = med(cb), mcr = med(cr);
    const scb = Math.max(2.5, 1.4826 * med(cb.map((v) => Math.abs(v - mcb))));
    const scr = Math.max(2.5, 1.4826 * med(cr.map((v) => Math.abs(v - mcr))));
    for (let i = 0; i < n; i++) {
      if (!hard[i]) continue;
      const u = (-0.168736 * R[i]! - 0.331264 * G[i]! + 0.5 * B[i]! - mcb) / scb;
      const v = (0.5 * R[i]! - 0.418688 * G[i]! - 0.081312 * B[i]! - mcr) / scr;
      const d = Math.sqrt(u * u + v * v);
      // full weight within 2.5 robust std-devs, fading to 0 at 5 (hair, glasses, background in the outline)
      hard[i] = d <= 2.5 ? 1 : d >= 5 ? 0 : (5 - d) / 2.5;
    }
  }
  const skin = gaussBlur(hard, roi.w, roi.h, sigma);
  return { roi, skin, face, hard };
}

export function skinRetouch(img: Rgb, lm: Pt[], p: SkinParams): { roi: Roi } {
  const g = faceGeom(lm);
  // the skin mask (colour statistics, feathering) only when smoothing or bronzer need it
  const needSkin = p.strength > 0 || p.bronzer > 0;
  const m = needSkin ? skinMasks(img, lm, g) : faceRegion(img, g);
  const { roi, face } = m;
  const skin = needSkin ? (m as SkinMasks).skin : new Float32Array(roi.w * roi.h);
  const n = roi.w * roi.h;
  const planes = extractPlanes(img, roi);
  const out: [Float32Array, Float32Array, Float32Array] = [Float32Array.from(planes[0]), Float32Array.from(planes[1]), Float32Array.from(planes[2])];
  const touched = new Float32Array(n);

  // 1. edge-preserving smoothing, blended by strength x skin mask
  if (p.strength > 0) {
    const rad = Math.max(2, Math.round(SKIN.radiusPerWidth * g.W));
    const eps = (SKIN.epsStd * 255) ** 2;
    for (let c = 0; c < 3; c++) {
      const I = planes[c]!;
      const q = guidedFilter(I, roi.w, roi.h, rad, eps);
      const o = out[c]!;
      for (let i = 0; i < n; i++) {
        const k = p.strength * skin[i]!;
        if (k > 0) o[i] = I[i]! + k * (q[i]! - I[i]!);
      }
    }
    for (let i = 0; i < n; i++) if (skin[i]! > 0) touched[i] = 1;
  }

  // 2. weights of the Lab effects
  const sigmaE = Math.max(1, 0.012 * g.W);
  let eyeW: Float32Array | undefined;
  if (p.eyeBrighten > 0) {
    const m = new Float32Array(n);
    for (const side of [0, 1] as const) fillPolygon(m, roi.w, roi.h, shift(eyePolygon(g, side, 1.35, 1.9), roi));
    eyeW = gaussBlur(m, roi.w, roi.h, sigmaE);
  }
  let contourW: Float32Array | undefined;
  if (p.contour > 0) {
    contourW = new Float32Array(n);
    // blurred thin lines = Gaussian of the distance to the cheek hollows and to the jaw line (O(N), no per-pixel distances)
    const sH = 0.05 * g.W, sJ = 0.035 * g.W;
    const hollowLines = new Float32Array(n), jawLines = new Float32Array(n);
    for (const [a, b] of cheekHollows(g)) drawSegment(hollowLines, roi, a, b);
    const jaw = g.lm.slice(2, 15);
    for (let k = 0; k + 1 < jaw.length; k++) drawSegment(jawLines, roi, jaw[k]!, jaw[k + 1]!);
    const hb = normalisePeak(gaussBlur(hollowLines, roi.w, roi.h, sH));
    const jb = normalisePeak(gaussBlur(jawLines, roi.w, roi.h, sJ));
    const faceSoft = gaussBlur(face, roi.w, roi.h, Math.max(1, 0.015 * g.W));
    for (let i = 0; i < n; i++) {
      const f = faceSoft[i]!;
      if (f > 0) contourW[i] = Math.max(hb[i]!, 0.75 * jb[i]!) * f;
    }
  }

  // 3. Lab pass: bronzer on skin, contour shade, eye lift
  if (p.bronzer > 0 || eyeW || contourW) {
    const lab = [0, 0, 0], rgb = [0, 0, 0];
    const [oR, oG, oB] = out;
    for (let i = 0; i < n; i++) {
      const wb = p.bronzer > 0 ? p.bronzer * skin[i]! : 0;
      const wc = contourW ? p.contour * contourW[i]! : 0;
      const we = eyeW ? p.eyeBrighten * eyeW[i]! : 0;
      if (wb <= 0 && wc <= 0 && we <= 0) continue;
      rgbToLab(oR[i]!, oG[i]!, oB[i]!, lab);
      lab[0] += wb * SKIN.bronzer.L + wc * SKIN.contour.L + we * SKIN.eye.lift * (1 - lab[0]! / 110);
      lab[1] += wb * SKIN.bronzer.a + wc * SKIN.contour.a;
      lab[2] += wb * SKIN.bronzer.b + wc * SKIN.contour.b;
      labToRgb(lab[0]!, lab[1]!, lab[2]!, rgb);
      oR[i] = rgb[0]!;
      oG[i] = rgb[1]!;
      oB[i] = rgb[2]!;
      touched[i] = 1;
    }
  }
  // 4. eye sharpening (unsharp mask on the eye regions only)
  if (eyeW) {
    // work on the rectangle around both eyes only (plus the blur support), clamped inside the ROI
    const eyes = [...eyePolygon(g, 0, 1.35, 1.9), ...eyePolygon(g, 1, 1.35, 1.9)];
    const sigmaS = Math.max(1, 0.006 * g.W);
    const sub = roiAround(shift(eyes, roi), Math.ceil(3 * sigmaE + 3 * sigmaS + 4), roi.w, roi.h);
    const sn = sub.w * sub.h;
    const tmp = new Float32Array(sn);
    for (let c = 0; c < 3; c++) {
      const o = out[c]!;
      for (let y = 0; y < sub.h; y++) tmp.set(o.subarray((sub.y + y) * roi.w + sub.x, (sub.y + y) * roi.w + sub.x + sub.w), y * sub.w);
      const blur = gaussBlur(tmp, sub.w, sub.h, sigmaS);
      for (let y = 0; y < sub.h; y++) {
        for (let x = 0; x < sub.w; x++) {
          const i = (sub.y + y) * roi.w + sub.x + x;
          const w = p.eyeBrighten * eyeW[i]!;
          // gaussBlur treats outside as 0: the eye weight is 0 near the sub-rectangle's border by construction
          if (w > 0) o[i] = o[i]! + w * SKIN.eye.sharpen * (o[i]! - blur[y * sub.w + x]!);
        }
      }
    }
  }
  blendPlanes(img, roi, out, touched);
  return { roi };
}

/** Rasterise a segment (image coordinates) as a 1.5-px wide band into an ROI mask. */
function drawSegment(m: Float32Array, roi: Roi, a: Pt, b: Pt): void {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len = Math.hypot(dx, dy) || 1;
  const nx = (-dy / len) * 0.75, ny = (dx / len) * 0.75;
  const quad: Pt[] = [[a[0] + nx, a[1] + ny], [b[0] + nx, b[1] + ny], [b[0] - nx, b[1] - ny], [a[0] - nx, a[1] - ny]];
  fillPolygon(m, roi.w, roi.h, shift(quad, roi));
}

/** Scale so that the largest value is 1 (a blurred line's ridge). */
function normalisePeak(m: Float32Array): Float32Array {
  let mx = 0;
  for (let i = 0; i < m.length; i++) if (m[i]! > mx) mx = m[i]!;
  if (mx > 0) for (let i = 0; i < m.length; i++) m[i] = Math.min(1, m[i]! / mx);
  return m;
}
