// The chroma key's edge steps (see chroma-key.ts for the order): unmixing of the band around the ½ contour into
// foreground/screen mixes, then a light 3x3 smoothing of the band.
import type { KeyCtx } from './chroma-key-steps.js';
import { threadScratch } from './lib/scratch.js';

/**
 * A copy of c.alpha in the thread's scratch plane that c.alpha is not (the alpha step fills "chroma.alpha-a"; the
 * edge steps alternate between the two), so that the steps reuse two planes instead of allocating one each.
 */
function alphaCopy(c: KeyCtx): Float32Array {
  const a = c.alpha;
  let b = threadScratch.get('f32', 'chroma.alpha-b', a.length);
  if (b.buffer === a.buffer) b = threadScratch.get('f32', 'chroma.alpha-a', a.length);
  b.set(a);
  return b;
}

/** Unmixed alpha this close to 0 or 1 is the screen's noise and lighting, not a mix: snapped to solid. */
const UNMIX_FLOOR = 0.08;
/** Weight of the key's dominant channel when unmixing edges (spill lives there); at 2048²: 1 → IoU 0.9979, 0.3 → 0.9983, 0.1 → 0.9987, 0 → 0.9993. */
const SPILL_WEIGHT = 0.1;

/**
 * Edge unmixing on a trimap. The ½ contour of the smoothstep alpha, widened by r (≈ 0.25 % of the short side, at
 * least 2 px), is the unknown band; outside it, alpha ≥ ½ is sure foreground and alpha < ½ sure screen (screen noise
 * cannot punch holes in them). A band pixel is (nearly) a linear mix P = a·F + (1 − a)·K of the local foreground F
 * and the local screen K (lighting varies, so both are local): K is the mean of the sure screen pixels in the r×r
 * cells within 2, 4, then 8 cells; F is the sure-foreground cell mean that best explains P as a mix (least
 * residual; the foreground has several colours), and a is P's projection on the line K → F, with the key's
 * dominant channel (where spill lives) down-weighted. Pixels without both sides in reach, or where F and
 * K are too close to tell apart, keep the smoothstep alpha.
 */
export function unmixEdges(c: KeyCtx): void {
  if (!c.edgeSmoothing) return;
  const { w, h, px, alpha: a } = c;
  const r = Math.max(2, Math.round(Math.min(w, h) * 0.0025));
  // the band: squares of radius r painted around every contour pixel (found by the alpha step)
  const band = threadScratch.get('u8', 'chroma.band', w * h).fill(0);
  const list: number[] = [];
  for (const ci of c.contour) {
    const x = ci % w, y = (ci - x) / w;
    for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++) {
      for (let j = yy * w + Math.max(0, x - r), e = yy * w + Math.min(w - 1, x + r); j <= e; j++) {
        if (!band[j]) { band[j] = 1; list.push(j); }
      }
    }
  }
  // per r×r cell, computed when first needed: sums of r, g, b and count of the sure foreground (0..3) and the sure
  // screen (4..7) pixels
  const gw = Math.ceil(w / r), gh = Math.ceil(h / r);
  // from the thread's scratch: a fresh Float64Array here was 7.5 MB per 1024² image (r = 3), counted by V8 as
  // external memory whatever few cells were touched — alone enough to start a mark-compact per image (issue 19).
  // Float32 holds these sums exactly (integers below 2²⁴: at most r² · 255 per cell); a cell is zeroed when first
  // summed, so only `done` needs clearing.
  const cell = threadScratch.get('f32', 'chroma.cell', gw * gh * 8);
  const done = threadScratch.get('u8', 'chroma.cell-done', gw * gh).fill(0);
  const sumCell = (g: number): void => {
    done[g] = 1;
    const gx = g % gw, gy = (g - gx) / gw, k0 = g * 8;
    cell.fill(0, k0, k0 + 8);
    for (let y = gy * r; y < Math.min(h, gy * r + r); y++) {
      for (let i = y * w + gx * r, e = y * w + Math.min(w, gx * r + r); i < e; i++) {
        if (band[i]) continue;
        const k = k0 + (a[i]! >= 0.5 ? 0 : 4), o = i * 4;
        cell[k] += px[o]!;
        cell[k + 1] += px[o + 1]!;
        cell[k + 2] += px[o + 2]!;
        cell[k + 3]++;
      }
    }
  };
  // spill (screen light on the foreground's rim) adds to the key's dominant channel and would pull alpha towards
  // the screen: that channel weighs SPILL_WEIGHT in the fit
  const kd = c.keyRgb.indexOf(Math.max(...c.keyRgb));
  const w0 = kd === 0 ? SPILL_WEIGHT : 1, w1 = kd === 1 ? SPILL_WEIGHT : 1, w2 = kd === 2 ? SPILL_WEIGHT : 1;
  const out = alphaCopy(c);
  for (const i of list) {
    const o = i * 4;
    if (px[o + 3] !== 255) continue;
    const pr = px[o]!, pg = px[o + 1]!, pb = px[o + 2]!;
    const x = i % w, cx = (x / r) | 0, cy = (((i - x) / w) / r) | 0;
    for (let R = 2; R <= 8; R *= 2) {
      const gx0 = Math.max(0, cx - R), gx1 = Math.min(gw - 1, cx + R), gy0 = Math.max(0, cy - R), gy1 = Math.min(gh - 1, cy + R);
      // K: the screen's mean over the window (the screen is smooth)
      let kr = 0, kg = 0, kb = 0, kn = 0;
      for (let gy = gy0; gy <= gy1; gy++) {
        for (let g = gy * gw + gx0, e = gy * gw + gx1; g <= e; g++) {
          if (!done[g]) sumCell(g);
          const k = g * 8 + 4;
          kr += cell[k]!; kg += cell[k + 1]!; kb += cell[k + 2]!; kn += cell[k + 3]!;
        }
      }
      if (!kn) continue;
      kr /= kn; kg /= kn; kb /= kn;
      // F: the foreground cell whose colour best explains P as a mix with K (the foreground is not one colour)
      let best = Infinity, bestT = -1;
      for (let gy = gy0; gy <= gy1; gy++) {
        for (let g = gy * gw + gx0, e = gy * gw + gx1; g <= e; g++) {
          const k = g * 8, fn = cell[k + 3]!;
          if (!fn) continue;
          const dr = cell[k]! / fn - kr, dg = cell[k + 1]! / fn - kg, db = cell[k + 2]! / fn - kb;
          const len2 = w0 * dr * dr + w1 * dg * dg + w2 * db * db;
          if (len2 < 900) continue; // too close to the screen colour to tell a mix
          let t = (w0 * (pr - kr) * dr + w1 * (pg - kg) * dg + w2 * (pb - kb) * db) / len2;
          t = t < 0 ? 0 : t > 1 ? 1 : t;
          const er = pr - kr - t * dr, eg = pg - kg - t * dg, eb = pb - kb - t * db;
          const res = w0 * er * er + w1 * eg * eg + w2 * eb * eb;
          if (res < best) { best = res; bestT = t; }
        }
      }
      if (bestT < 0) continue;
      out[i] = bestT <= UNMIX_FLOOR ? 0 : bestT >= 1 - UNMIX_FLOOR ? 1 : bestT; // within the screen's noise of either side: solid
      break;
    }
  }
  c.alpha = out;
}

/** 3x3 smoothing of the edge band only (where the neighbourhood's alpha varies): solid areas stay exact. */
export function smoothEdges(c: KeyCtx): void {
  if (!c.edgeSmoothing) return;
  const { w, h, alpha: a } = c;
  const sm = alphaCopy(c);
  for (let y = 1; y < h - 1; y++) {
    let i = y * w + 1;
    for (let x = 1; x < w - 1; x++, i++) {
      const m1 = a[i]!;
      const t1 = a[i - w]!, b1 = a[i + w]!, m0 = a[i - 1]!, m2 = a[i + 1]!;
      // solid neighbourhood (all nine equal): the common case, nothing to do
      if (t1 === m1 && b1 === m1 && m0 === m1 && m2 === m1 && a[i - w - 1] === m1 && a[i - w + 1] === m1 && a[i + w - 1] === m1 && a[i + w + 1] === m1) continue;
      const t0 = a[i - w - 1]!, t2 = a[i - w + 1]!, b0 = a[i + w - 1]!, b2 = a[i + w + 1]!;
      const mx = Math.max(t0, t1, t2, m0, m1, m2, b0, b1, b2);
      const mn = Math.min(t0, t1, t2, m0, m1, m2, b0, b1, b2);
      if (mx - mn > 0.01) sm[i] = (t0 + t2 + b0 + b2 + 2 * (t1 + m0 + m2 + b1) + 4 * m1) / 16;
    }
  }
  c.alpha = sm;
}

