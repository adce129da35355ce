// A module grid that follows bent paper (session 15): a homography maps a flat code, but a phone photo of a
// printed code shows the paper bowed (on the camera set the rows curve by up to 6 % of the side: ≈ 1–2.5 modules
// off the best homography at the middle of the symbol, enough for a quarter of the modules to be read wrong).
// The grid here is the homography through four anchors plus a quadratic bow of the module coordinates along each
// axis (zero at the finders' centres), fitted to how *decided* the samples are: fixed modules (finders,
// separators, timing, the last alignment pattern, the quiet ring) on their known side of the local mean, every
// data module as far from it as it gets (a sample on a module boundary is grey, one at the centre dark or light;
// this needs no knowledge of the data). The known modules keep the fit from locking a whole module off. No
// library does this for a QR grid (zxing's detector fits one homography).
import { applyH, homography, type Mat3, type Pt } from './geometry.js';
import { homographyFrom } from './qr-homography.js';
import { at, fixedModule, sampleGrid } from './qr-grid.js';

/** Known modules of an n-module code including a one-module quiet ring: 1 dark, 0 light, -1 data; index
 * (i + 1) * (n + 2) + (j + 1). */
function knownModules(n: number): Int8Array {
  const N = n + 2, out = new Int8Array(N * N);
  for (let i = -1; i <= n; i++) for (let j = -1; j <= n; j++) {
    let f = i < 0 || j < 0 || i >= n || j >= n ? 0 : fixedModule(n, i, j);
    if (n >= 25 && f === -1) {
      const r = Math.max(Math.abs(i - (n - 7)), Math.abs(j - (n - 7)));
      if (r <= 2) f = r === 1 ? 0 : 1;
    }
    out[(i + 1) * N + j + 1] = f;
  }
  return out;
}

/** The mean of the samples within 3 modules of each module (incl. the quiet ring) under the plain homography. */
function localMeans(g: Uint8Array, w: number, h: number, H: Mat3, N: number): Float32Array {
  const s = new Float32Array(N * N), out = new Float32Array(N * N), r = 3;
  for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) { const [x, y] = applyH(H, j - 0.5, i - 0.5); s[i * N + j] = at(g, w, h, x, y); }
  for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) {
    let acc = 0, c = 0;
    for (let y = Math.max(0, i - r); y <= Math.min(N - 1, i + r); y++) for (let x = Math.max(0, j - r); x <= Math.min(N - 1, j + r); x++) { acc += s[y * N + x]!; c++; }
    out[i * N + j] = acc / c;
  }
  return out;
}

/** A grid bent as paper bends: the homography through four anchors plus a quadratic bow of the module
 * coordinates (displacement in modules at the symbol's middle: a·q(u) + b·q(v) along each axis, q = bowAt). */
export interface Bent { n: number; src: Pt[]; dst: Pt[]; H: Mat3; bow: [number, number, number, number] }

/** The bow's shape along one axis: 0 at the finders' centres (3.5 and n − 3.5: a bow never moves the three
 * finders the grid was found from), 1 halfway between them. */
const bowAt = (x: number, n: number): number => ((x - 3.5) * (n - 3.5 - x) * 4) / ((n - 7) * (n - 7));

export function bentPoint(b: Bent, u: number, v: number): Pt {
  const qs = bowAt(u, b.n), qt = bowAt(v, b.n);
  return applyH(b.H, u + b.bow[0] * qs + b.bow[1] * qt, v + b.bow[2] * qs + b.bow[3] * qt);
}

/** The modules the fit is scored on, flattened: for each, its centre (u, v), the bow's shape there (qu, qv),
 * its kind (1 dark, 0 light, -1 data) and the local mean; every known module and every second data module (a
 * checkerboard: the decidedness is a sum over hundreds, half of them tell the same). */
interface Probes { u: Float64Array; v: Float64Array; qu: Float64Array; qv: Float64Array; kind: Int8Array; mean: Float32Array }

function probes(n: number, known: Int8Array, mean: Float32Array): Probes {
  const N = n + 2, idx: number[] = [];
  for (let i = -1; i <= n; i++) for (let j = -1; j <= n; j++) {
    const k = (i + 1) * N + j + 1;
    if (known[k] !== -1 || ((i + j) & 1) === 0) idx.push(k);
  }
  const m = idx.length, p: Probes = { u: new Float64Array(m), v: new Float64Array(m), qu: new Float64Array(m), qv: new Float64Array(m), kind: new Int8Array(m), mean: new Float32Array(m) };
  idx.forEach((k, t) => {
    const u = (k % N) - 0.5, v = ((k / N) | 0) - 0.5;
    p.u[t] = u; p.v[t] = v; p.qu[t] = bowAt(u, n); p.qv[t] = bowAt(v, n); p.kind[t] = known[k]!; p.mean[t] = mean[k]!;
  });
  return p;
}

/** Decidedness of the probed modules under the bent grid b: known modules on their side of the local mean
 * (weight 2), data modules away from it. Inlined (no arrays per sample): it runs a few hundred times per fit. */
function decided(g: Uint8Array, w: number, h: number, p: Probes, b: Bent): number {
  const H = b.H, [a1, a2, b1, b2] = b.bow;
  let s = 0;
  for (let t = 0; t < p.u.length; t++) {
    const qu = p.qu[t]!, qv = p.qv[t]!, u = p.u[t]! + a1 * qu + a2 * qv, v = p.v[t]! + b1 * qu + b2 * qv;
    const z = H[6]! * u + H[7]! * v + H[8]!;
    const d = at(g, w, h, (H[0]! * u + H[1]! * v + H[2]!) / z, (H[3]! * u + H[4]! * v + H[5]!) / z) - p.mean[t]!, f = p.kind[t]!;
    s += f === 1 ? -2 * d : f === 0 ? 2 * d : d < 0 ? -d : d;
  }
  return s;
}

/** bow terms scanned first (modules at the symbol's middle), then refined with the anchors */
const BOW_SCAN = [-2.5, -2, -1.5, -1, -0.5, 0.5, 1, 1.5, 2, 2.5];

/**
 * The bow and the four anchors fitted to the decidedness of all modules, from the homography grid (src module
 * points → dst pixels): each bow term scanned alone over BOW_SCAN (the descent alone stops in a near optimum),
 * then all twelve parameters by coordinate descent (¼ and ⅛ module steps, ≤ 3 passes each; the bow within 3
 * modules).
 */
export function fitBent(g: Uint8Array, w: number, h: number, n: number, src: Pt[], dst: Pt[], module: number): Bent {
  const H0 = homography(src, dst), N = n + 2, known = knownModules(n);
  const pr = probes(n, known, localMeans(g, w, h, H0, N));
  // parameters: 8 anchor coordinates (px), 4 bow terms (modules)
  const p = [...dst.flatMap((q) => [q[0], q[1]]), 0, 0, 0, 0];
  let H = H0;
  const Hof = homographyFrom(src);
  const score = (q: number[], anchorsMoved: boolean): number => {
    if (anchorsMoved) {
      const Hn = Hof([[q[0]!, q[1]!], [q[2]!, q[3]!], [q[4]!, q[5]!], [q[6]!, q[7]!]]);
      if (!Hn) return -Infinity;
      H = Hn;
    }
    return decided(g, w, h, pr, { n, src, dst, H, bow: [q[8]!, q[9]!, q[10]!, q[11]!] });
  };
  let best = score(p, false);
  for (let k = 8; k < 12; k++) {
    const keep = p[k]!;
    let bv = keep;
    for (const b of BOW_SCAN) { p[k] = b; const s = score(p, false); if (s > best) { best = s; bv = b; } }
    p[k] = bv;
  }
  for (let step = 0.25; step >= 0.12; step /= 2) {
    for (let pass = 0, moved = true; moved && pass < 3; pass++) {
      moved = false;
      for (let k = 0; k < 12; k++) for (const sg of [1, -1]) {
        const d = sg * step * (k < 8 ? module : 1);
        if (k >= 8 && Math.abs(p[k]! + d) > 3) continue;
        const Hkeep = H;
        p[k]! += d;
        const s = score(p, k < 8);
        if (s > best) { best = s; moved = true; } else { p[k]! -= d; H = Hkeep; }
      }
    }
  }
  const d: Pt[] = [[p[0]!, p[1]!], [p[2]!, p[3]!], [p[4]!, p[5]!], [p[6]!, p[7]!]];
  return { n, src, dst: d, H: homography(src, d), bow: [p[8]!, p[9]!, p[10]!, p[11]!] };
}

/** Sampled module values (n × n) through the bent grid: the mean of five points around each module's centre. */
export function sampleBent(g: Uint8Array, w: number, h: number, b: Bent): Float32Array {
  return sampleGrid(g, w, h, b.n, (u, v) => bentPoint(b, u, v));
}
