// Face reshape (jawSlim): a landmark-driven moving-least-squares warp (Schaefer, McPhail, Warren 2006, rigid
// variant). The lower jaw points move toward the face axis; eyes, nose, mouth, the upper jaw and a ring
// around the face stay fixed. The displacement is also multiplied by an elliptical fall-off that is exactly 0
// beyond the face's neighbourhood, so no background farther away bends and those pixels stay bit-identical.
// Backward mapping: for every output pixel the source position is computed (on a 4-px grid, bilinearly
// interpolated) and sampled bilinearly, so the result has no holes or tears.
import { roiAround, type Pt, type Rgb, type Roi } from './studio-raster.js';
import { axisOffset, faceGeom, type FaceGeom } from './studio-face.js';

export const RESHAPE = {
  /** at jawSlim 1 a lower-jaw point moves this share of its distance to the face axis */
  maxPull: 0.2,
  /** per-point weights of jaw points 2..14 (0 at the chin, which lies on the axis) */
  jawWeights: [0.15, 0.45, 0.8, 1, 1, 0.75, 0, 0.75, 1, 1, 0.8, 0.45, 0.15],
  /** fall-off ellipse around the nose tip: semi-axes as multiples of face width (across) and length (down) */
  ellipse: { across: 0.85, down: 1.05, inner: 0.65 },
  /** grid step of the displacement field in pixels */
  grid: 4,
};

export interface WarpPlan {
  /** control points: where each source point ends up (deformed space) */
  dst: Pt[];
  /** the source points */
  src: Pt[];
  roi: Roi;
  centre: Pt;
  g: FaceGeom;
}

/** Where the jaw landmarks go for a given jawSlim (index 0..67 → new position; others unchanged). */
export function slimLandmarks(lm: Pt[], jawSlim: number): Pt[] {
  const g = faceGeom(lm);
  return lm.map((p, i) => {
    if (i < 2 || i > 14) return p;
    const w = RESHAPE.jawWeights[i - 2]!;
    const off = axisOffset(g, p);
    const k = RESHAPE.maxPull * w * jawSlim * off;
    return [p[0] - g.right[0] * k, p[1] - g.right[1] * k] as Pt;
  });
}

export function planJawSlim(img: Rgb, lm: Pt[], jawSlim: number): WarpPlan {
  const g = faceGeom(lm);
  const moved = slimLandmarks(lm, jawSlim);
  const src: Pt[] = [], dst: Pt[] = [];
  // moving: jaw 2..14; fixed: jaw 0,1,15,16, brows, nose, eyes, mouth
  const fixed = [0, 1, 15, 16, 17, 19, 21, 22, 24, 26, 27, 30, 31, 33, 35, 36, 39, 42, 45, 48, 51, 54, 57];
  for (let i = 2; i <= 14; i++) {
    src.push(lm[i]!);
    dst.push(moved[i]!);
  }
  for (const i of fixed) {
    src.push(lm[i]!);
    dst.push(lm[i]!);
  }
  const centre = lm[30]!;
  const A = RESHAPE.ellipse.across * g.W, B = RESHAPE.ellipse.down * g.L;
  // a fixed ring just outside the fall-off ellipse
  const ring: Pt[] = [];
  for (let k = 0; k < 24; k++) {
    const t = (k / 24) * 2 * Math.PI;
    const u = Math.cos(t) * A * 1.05, v = Math.sin(t) * B * 1.05;
    const p: Pt = [centre[0] + u * g.right[0] + v * g.down[0], centre[1] + u * g.right[1] + v * g.down[1]];
    ring.push(p);
    src.push(p);
    dst.push(p);
  }
  const roi = roiAround(ring, 2, img.width, img.height);
  return { dst, src, roi, centre, g };
}

/** Rigid MLS: deformed-space point v → source point (control points dst → src). */
export function mlsRigid(v: Pt, dst: Pt[], src: Pt[]): Pt {
  let sw = 0, px = 0, py = 0, qx = 0, qy = 0;
  const n = dst.length;
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const dx = dst[i]![0] - v[0], dy = dst[i]![1] - v[1];
    const d2 = dx * dx + dy * dy;
    if (d2 < 1e-10) return [src[i]![0], src[i]![1]];
    const wi = 1 / d2;
    w[i] = wi;
    sw += wi;
    px += wi * dst[i]![0];
    py += wi * dst[i]![1];
    qx += wi * src[i]![0];
    qy += wi * src[i]![1];
  }
  px /= sw; py /= sw; qx /= sw; qy /= sw;
  // M = sum w conj(p^) q^ (complex); rotation part only (rigid)
  let mr = 0, mi = 0;
  for (let i = 0; i < n; i++) {
    const ax = dst[i]![0] - px, ay = dst[i]![1] - py;
    const bx = src[i]![0] - qx, by = src[i]![1] - qy;
    mr += w[i]! * (ax * bx + ay * by);
    mi += w[i]! * (ax * by - ay * bx);
  }
  const vx = v[0] - px, vy = v[1] - py;
  const fx = mr * vx - mi * vy, fy = mr * vy + mi * vx;
  const fl = Math.hypot(fx, fy), vl = Math.hypot(vx, vy);
  if (fl < 1e-12) return [qx + vx, qy + vy];
  return [qx + (fx / fl) * vl, qy + (fy / fl) * vl];
}

/** Fall-off 1 inside the inner ellipse, smoothstep to exactly 0 at the ellipse. */
function falloff(plan: WarpPlan, x: number, y: number): number {
  const { g, centre } = plan;
  const dx = x - centre[0], dy = y - centre[1];
  const u = (dx * g.right[0] + dy * g.right[1]) / (RESHAPE.ellipse.across * g.W);
  const v = (dx * g.down[0] + dy * g.down[1]) / (RESHAPE.ellipse.down * g.L);
  const r = Math.sqrt(u * u + v * v);
  const inner = RESHAPE.ellipse.inner;
  if (r <= inner) return 1;
  if (r >= 1) return 0;
  const t = (r - inner) / (1 - inner);
  return 1 - t * t * (3 - 2 * t);
}

/** Apply the jawSlim warp to one face in place. Returns the ROI and the largest displacement (px). */
export function jawSlimWarp(img: Rgb, lm: Pt[], jawSlim: number): { roi: Roi; maxShift: number } {
  const plan = planJawSlim(img, lm, jawSlim);
  const { roi } = plan;
  if (jawSlim <= 0 || roi.w < 2 || roi.h < 2) return { roi, maxShift: 0 };
  const step = RESHAPE.grid;
  const gw = Math.ceil(roi.w / step) + 1, gh = Math.ceil(roi.h / step) + 1;
  const DX = new Float32Array(gw * gh), DY = new Float32Array(gw * gh);
  for (let j = 0; j < gh; j++) {
    for (let i = 0; i < gw; i++) {
      const x = roi.x + i * step + 0.5, y = roi.y + j * step + 0.5;
      const f = falloff(plan, x, y);
      if (f <= 0) continue;
      const s = mlsRigid([x, y], plan.dst, plan.src);
      DX[j * gw + i] = (s[0] - x) * f;
      DY[j * gw + i] = (s[1] - y) * f;
    }
  }
  const { data, width: W } = img;
  // sample from an unwarped copy of the ROI (sampling positions are clamped to it: the field is 0 at its edge)
  const rw = roi.w, rh = roi.h;
  const srcCopy = new Uint8Array(rw * rh * 3);
  for (let y = 0; y < rh; y++) srcCopy.set(data.subarray(((roi.y + y) * W + roi.x) * 3, ((roi.y + y) * W + roi.x + rw) * 3), y * rw * 3);
  let maxShift = 0;
  for (let y = 0; y < rh; y++) {
    const gy = y / step, j0 = Math.floor(gy), ty = gy - j0, j1 = Math.min(gh - 1, j0 + 1);
    for (let x = 0; x < rw; x++) {
      const gx = x / step, i0 = Math.floor(gx), tx = gx - i0, i1 = Math.min(gw - 1, i0 + 1);
      const a = j0 * gw + i0, b = j0 * gw + i1, c = j1 * gw + i0, d = j1 * gw + i1;
      const dx = (DX[a]! * (1 - tx) + DX[b]! * tx) * (1 - ty) + (DX[c]! * (1 - tx) + DX[d]! * tx) * ty;
      const dy = (DY[a]! * (1 - tx) + DY[b]! * tx) * (1 - ty) + (DY[c]! * (1 - tx) + DY[d]! * tx) * ty;
      if (Math.abs(dx) < 1e-3 && Math.abs(dy) < 1e-3) continue;
      const m = Math.hypot(dx, dy);
      if (m > maxShift) maxShift = m;
      const sx = Math.min(rw - 1, Math.max(0, x + dx)), sy = Math.min(rh - 1, Math.max(0, y + dy));
      const x0 = Math.floor(sx), y0 = Math.floor(sy), x1 = Math.min(rw - 1, x0 + 1), y1 = Math.min(rh - 1, y0 + 1);
      const fx = sx - x0, fy = sy - y0;
      const o = ((roi.y + y) * W + roi.x + x) * 3;
      for (let ch = 0; ch < 3; ch++) {
        const v00 = srcCopy[(y0 * rw + x0) * 3 + ch]!, v10 = srcCopy[(y0 * rw + x1) * 3 + ch]!;
        const v01 = srcCopy[(y1 * rw + x0) * 3 + ch]!, v11 = srcCopy[(y1 * rw + x1) * 3 + ch]!;
        const v = (v00 * (1 - fx) + v10 * fx) * (1 - fy) + (v01 * (1 - fx) + v11 * fx) * fy;
        data[o + ch] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
      }
    }
  }
  return { roi, maxShift };
}
