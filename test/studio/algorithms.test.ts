// The studio algorithms without a server: on a drawn face with known landmark positions, and on a real portrait
// (landmarks from the shared vision runtime).
import t from 'tap';
import { blendPlanes, boxMean, extractPlanes, fillPolygon, gaussBlur, guidedFilter, hueChroma, labToRgb, rgbToLab, angleDiff, type Pt, type Rgb } from '../../src/tasks/lib/studio-raster.js';
import { faceGeom, facePolygon, axisOffset } from '../../src/tasks/lib/studio-face.js';
import { skinMasks, skinRetouch } from '../../src/tasks/lib/studio-skin.js';
import { makeup, STYLES } from '../../src/tasks/lib/studio-makeup.js';
import { jawSlimWarp, mlsRigid, planJawSlim, slimLandmarks } from '../../src/tasks/lib/studio-warp.js';
import { detectFaces } from '../../src/vision/face.js';
import { PORTRAITS, decode, readFile } from './helpers.js';
import { needsShared } from '../helpers/shared.js';

/** the tests that read faces/public-domain skip, saying so, when it is absent */
const PORTRAITS_NEEDED = needsShared('faces', 'public-domain');

// A 68-point iBUG set measured once on a 512-px portrait, scaled into a 300×340 canvas: the "drawn face".
const TEMPLATE: Pt[] = [[179,181],[181,204],[185,227],[190,250],[197,272],[210,290],[227,304],[247,315],[271,316],[295,312],[314,299],[329,282],[340,263],[345,240],[348,217],[350,194],[350,171],[191,167],[201,155],[218,152],[235,154],[250,160],[278,159],[293,152],[310,147],[326,148],[337,159],[265,173],[266,189],[267,205],[268,221],[248,231],[258,234],[268,237],[279,233],[288,229],[209,177],[218,171],[230,171],[240,178],[229,180],[218,181],[289,175],[299,167],[310,166],[319,171],[310,175],[300,176],[232,262],[246,258],[259,255],[269,257],[278,254],[291,256],[305,259],[292,267],[280,271],[270,273],[259,272],[246,270],[237,262],[259,262],[269,263],[279,261],[300,259],[279,261],[269,263],[259,262]];
const LM: Pt[] = TEMPLATE.map(([x, y]) => [(x - 120), (y - 60)]);

/** Seeded noise so the drawn face is the same every run. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function drawnFace(): Rgb {
  const w = 300, h = 340;
  const data = new Uint8Array(w * h * 3);
  const rand = rng(7);
  // background: blue with a diagonal pattern (structure that must not move or change)
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = (y * w + x) * 3;
    const stripe = ((x + y) >> 3) & 1 ? 20 : 0;
    data[i] = 60 + stripe; data[i + 1] = 90 + stripe; data[i + 2] = 170 + stripe;
  }
  const g = faceGeom(LM);
  const mask = (poly: Pt[]) => fillPolygon(new Float32Array(w * h), w, h, poly);
  const face = mask(facePolygon(g));
  const lips = mask(LM.slice(48, 60));
  const eyes = mask(LM.slice(36, 42)); fillPolygon(eyes, w, h, LM.slice(42, 48));
  for (let i = 0; i < w * h; i++) {
    const o = i * 3;
    if (eyes[i]) { data[o] = 40; data[o + 1] = 30; data[o + 2] = 30; }
    else if (lips[i]) { const n = (rand() - 0.5) * 16; data[o] = 170 + n; data[o + 1] = 95 + n; data[o + 2] = 95 + n; }
    else if (face[i]) { const n = (rand() - 0.5) * 36; data[o] = 215 + n; data[o + 1] = 170 + n; data[o + 2] = 145 + n; } // skin with pore-like noise
  }
  return { data, width: w, height: h };
}

const copy = (img: Rgb): Rgb => ({ ...img, data: img.data.slice() });

/** Std-dev of the high-pass (pixel − 5×5 mean) of the green channel where weight ≥ 0.99. */
function textureStd(img: Rgb, weight: (x: number, y: number) => number): number {
  const roi = { x: 0, y: 0, w: img.width, h: img.height };
  const [, G] = extractPlanes(img, roi);
  const m = boxMean(G, img.width, img.height, 2);
  let s = 0, s2 = 0, n = 0;
  for (let y = 0; y < img.height; y++) for (let x = 0; x < img.width; x++) {
    if (weight(x, y) < 0.99) continue;
    const d = G[y * img.width + x]! - m[y * img.width + x]!;
    s += d; s2 += d * d; n++;
  }
  return Math.sqrt(s2 / n - (s / n) ** 2);
}

t.test('colour and filter primitives', async (t) => {
  for (const c of [[0, 0, 0], [255, 255, 255], [200, 120, 90], [12, 200, 34], [90, 90, 250]] as const) {
    const lab = rgbToLab(c[0], c[1], c[2]);
    const back = labToRgb(lab[0]!, lab[1]!, lab[2]!);
    for (let k = 0; k < 3; k++) t.ok(Math.abs(back[k]! - c[k]) < 0.6, `Lab round trip ${c} channel ${k}: ${back[k]!.toFixed(2)}`);
  }
  t.ok(Math.abs(rgbToLab(255, 255, 255)[0]! - 100) < 0.01, 'white is L 100');
  t.equal(angleDiff(350, 10), -20);
  // guided filter: flattens small noise, keeps a strong step
  const w = 64, h = 32, rand = rng(3);
  const I = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) I[y * w + x] = (x < 32 ? 40 : 210) + (rand() - 0.5) * 20;
  const q = guidedFilter(I, w, h, 4, (0.09 * 255) ** 2);
  let e0 = 0, e1 = 0;
  for (let y = 4; y < h - 4; y++) for (let x = 4; x < 24; x++) { e0 += (I[y * w + x]! - 40) ** 2; e1 += (q[y * w + x]! - 40) ** 2; }
  t.ok(e1 < e0 * 0.25, `noise energy down ${(e1 / e0).toFixed(3)}×`);
  const step = q[16 * w + 34]! - q[16 * w + 29]!;
  t.ok(step > 150, `the step edge stays sharp (${step.toFixed(1)} of 170 across 5 px)`);
  // gaussBlur has finite support: exactly 0 far from the blob
  const m = new Float32Array(100 * 100);
  m[50 * 100 + 50] = 1;
  const b = gaussBlur(m, 100, 100, 3);
  t.equal(b[0], 0);
  t.ok(b[50 * 100 + 50]! > 0 && b[50 * 100 + 53]! > 0);
  // blendPlanes leaves weight-0 pixels bit-identical
  const img = drawnFace();
  const before = img.data.slice();
  const roi = { x: 10, y: 10, w: 20, h: 20 };
  const planes = extractPlanes(img, roi);
  for (const p of planes) p.fill(0);
  const wgt = new Float32Array(400);
  wgt[0] = 1;
  blendPlanes(img, roi, planes, wgt);
  let changed = 0;
  for (let i = 0; i < before.length; i++) if (before[i] !== img.data[i]) changed++;
  t.equal(changed, 3, 'only the weighted pixel (3 channels) changed');
});

t.test('skin retouch on the drawn face', async (t) => {
  const src = drawnFace();
  // all zero: nothing changes
  const z = copy(src);
  skinRetouch(z, LM, { strength: 0, bronzer: 0, eyeBrighten: 0, contour: 0 });
  t.ok(Buffer.from(z.data).equals(Buffer.from(src.data)), 'all parameters 0 → identical image');
  const { roi, hard } = skinMasks(src, LM);
  const inMask = (x: number, y: number) => {
    const rx = x - roi.x, ry = y - roi.y;
    if (rx < 3 || ry < 3 || rx >= roi.w - 3 || ry >= roi.h - 3) return 0;
    // well inside the skin: the hard mask and its 3-px neighbourhood
    for (const [dx, dy] of [[0, 0], [3, 0], [-3, 0], [0, 3], [0, -3]]) if (!hard[(ry + dy!) * roi.w + rx + dx!]) return 0;
    return 1;
  };
  const stds: number[] = [];
  for (const strength of [0, 0.25, 0.5, 0.75, 1]) {
    const o = copy(src);
    const r = skinRetouch(o, LM, { strength, bronzer: 0, eyeBrighten: 0, contour: 0 });
    stds.push(textureStd(o, inMask));
    // outside the ROI nothing is written
    let changed = 0;
    for (let y = 0; y < src.height; y++) for (let x = 0; x < src.width; x++) {
      if (x >= r.roi.x && x < r.roi.x + r.roi.w && y >= r.roi.y && y < r.roi.y + r.roi.h) continue;
      const i = (y * src.width + x) * 3;
      if (o.data[i] !== src.data[i] || o.data[i + 1] !== src.data[i + 1] || o.data[i + 2] !== src.data[i + 2]) changed++;
    }
    t.equal(changed, 0, `strength ${strength}: no pixel outside the face region changed`);
  }
  t.ok(stds.every((v, i) => i === 0 || v < stds[i - 1]!), `texture std falls with strength: ${stds.map((v) => v.toFixed(2)).join(' > ')}`);
  const drop = (i: number) => stds[0]! - stds[i]!;
  t.ok(drop(4) > 0.6 * stds[0]!, 'strength 1 removes most of the fine texture');
  // proportional: the drop at 0.5 is about half the drop at 1 (±15 % of it)
  t.ok(Math.abs(drop(2) / drop(4) - 0.5) < 0.15, `drop at 0.5 / drop at 1 = ${(drop(2) / drop(4)).toFixed(3)}`);
  t.ok(Math.abs(drop(1) / drop(4) - 0.25) < 0.15, `drop at 0.25 / drop at 1 = ${(drop(1) / drop(4)).toFixed(3)}`);

  // bronzer warms the skin (Lab b* up), contour darkens along the jaw, eyeBrighten lifts the eye region
  const meanLab = (img: Rgb, pts: Pt[], r = 3) => {
    let L = 0, A = 0, B = 0, n = 0;
    for (const [px, py] of pts) for (let y = Math.round(py) - r; y <= Math.round(py) + r; y++) for (let x = Math.round(px) - r; x <= Math.round(px) + r; x++) {
      const i = (y * img.width + x) * 3;
      const lab = rgbToLab(img.data[i]!, img.data[i + 1]!, img.data[i + 2]!);
      L += lab[0]!; A += lab[1]!; B += lab[2]!; n++;
    }
    return [L / n, A / n, B / n];
  };
  const cheek: Pt[] = [[LM[2]![0] + 35, LM[2]![1] - 10], [LM[14]![0] - 35, LM[14]![1] - 10]];
  const br = copy(src);
  skinRetouch(br, LM, { strength: 0, bronzer: 1, eyeBrighten: 0, contour: 0 });
  t.ok(meanLab(br, cheek)[2]! > meanLab(src, cheek)[2]! + 3, 'bronzer raises b* (warmer) on the cheeks');
  const ct = copy(src);
  skinRetouch(ct, LM, { strength: 0, bronzer: 0, eyeBrighten: 0, contour: 1 });
  const jawIn = [4, 5, 11, 12].map((i) => [LM[i]![0] + (i < 8 ? 6 : -6), LM[i]![1] - 4] as Pt);
  t.ok(meanLab(ct, jawIn, 2)[0]! < meanLab(src, jawIn, 2)[0]! - 2, 'contour darkens inside the jaw line');
  const forehead: Pt[] = [[LM[27]![0], LM[27]![1] - 30]];
  t.ok(Math.abs(meanLab(ct, forehead)[0]! - meanLab(src, forehead)[0]!) < 0.5, 'contour leaves the forehead alone');
  const ey = copy(src);
  skinRetouch(ey, LM, { strength: 0, bronzer: 0, eyeBrighten: 1, contour: 0 });
  const eyes = [[36, 39], [42, 45]].map(([a, b]) => [(LM[a]![0] + LM[b]![0]) / 2, (LM[a]![1] + LM[b]![1]) / 2] as Pt);
  t.ok(meanLab(ey, eyes, 2)[0]! > meanLab(src, eyes, 2)[0]! + 2, 'eyeBrighten lifts L* in the eyes');
});

t.test('makeup on the drawn face: lips take the style hue, blush on the cheeks only', async (t) => {
  const src = drawnFace();
  const lipCore: Pt[] = [[LM[51]![0], LM[51]![1] + 2], [LM[57]![0], LM[57]![1] - 2], [(LM[48]![0] + LM[62]![0]) / 2, LM[48]![1]]];
  const hueAt = (img: Rgb, pts: Pt[]) => {
    let r = 0, g = 0, b = 0, n = 0;
    for (const [x, y] of pts) { const i = (Math.round(y) * img.width + Math.round(x)) * 3; r += img.data[i]!; g += img.data[i + 1]!; b += img.data[i + 2]!; n++; }
    return hueChroma(r / n, g / n, b / n);
  };
  const before = hueAt(src, lipCore);
  for (const style of ['natural', 'coral', 'red'] as const) {
    const target = hueChroma(...STYLES[style].lip);
    const o = copy(src);
    makeup(o, LM, { lipStrength: 1, blushStrength: 0, style });
    const after = hueAt(o, lipCore);
    t.ok(Math.abs(angleDiff(after.hue, target.hue)) < Math.max(3, Math.abs(angleDiff(before.hue, target.hue)) * 0.5),
      `${style}: hue ${before.hue.toFixed(1)}° → ${after.hue.toFixed(1)}° (target ${target.hue.toFixed(1)}°)`);
    const half = copy(src);
    makeup(half, LM, { lipStrength: 0.5, blushStrength: 0, style });
    const mid = hueAt(half, lipCore);
    const d = (h: number) => Math.abs(angleDiff(h, target.hue));
    t.ok(d(mid.hue) <= d(before.hue) + 0.5 && d(mid.hue) >= d(after.hue) - 0.5, `${style}: strength 0.5 lies between (${mid.hue.toFixed(1)}°)`);
  }
  const o = copy(src);
  const r = makeup(o, LM, { lipStrength: 0, blushStrength: 1, style: 'red' });
  const cheekA = (img: Rgb) => {
    const g = faceGeom(LM);
    const c: Pt = [(LM[1]![0] + LM[31]![0] + LM[41]![0] + LM[2]![0]) / 4, (LM[1]![1] + LM[31]![1] + LM[41]![1] + LM[2]![1]) / 4];
    void g;
    const i = (Math.round(c[1]) * img.width + Math.round(c[0])) * 3;
    return rgbToLab(img.data[i]!, img.data[i + 1]!, img.data[i + 2]!)[1]!;
  };
  t.ok(cheekA(o) > cheekA(src) + 3, `blush raises a* on the cheek (${cheekA(src).toFixed(1)} → ${cheekA(o).toFixed(1)})`);
  let outside = 0;
  for (let y = 0; y < src.height; y++) for (let x = 0; x < src.width; x++) {
    if (x >= r.roi.x && x < r.roi.x + r.roi.w && y >= r.roi.y && y < r.roi.y + r.roi.h) continue;
    const i = (y * src.width + x) * 3;
    if (o.data[i] !== src.data[i]) outside++;
  }
  t.equal(outside, 0, 'nothing outside the face region changed');
  const none = copy(src);
  makeup(none, LM, { lipStrength: 0, blushStrength: 0, style: 'red' });
  t.ok(Buffer.from(none.data).equals(Buffer.from(src.data)), 'strengths 0 → identical');
});

t.test('jawSlim warp on the drawn face', async (t) => {
  const src = drawnFace();
  const g = faceGeom(LM);
  // the control points move toward the axis, more with jawSlim; the chin and the upper face stay
  const off = (lm: Pt[], i: number) => Math.abs(axisOffset(g, lm[i]!));
  const half = slimLandmarks(LM, 0.5), full = slimLandmarks(LM, 1);
  for (const i of [4, 5, 11, 12]) t.ok(off(full, i) < off(half, i) && off(half, i) < off(LM, i), `jaw point ${i} pulled in proportion`);
  t.same(full[8], LM[8]);
  t.same(full[0], LM[0]);
  // MLS interpolates its control points
  const plan = planJawSlim(src, LM, 1);
  for (let k = 0; k < 5; k++) {
    const s = mlsRigid(plan.dst[k]!, plan.dst, plan.src);
    t.ok(Math.hypot(s[0] - plan.src[k]![0], s[1] - plan.src[k]![1]) < 1e-6, `control point ${k} maps back to its source`);
  }
  const z = copy(src);
  jawSlimWarp(z, LM, 0);
  t.ok(Buffer.from(z.data).equals(Buffer.from(src.data)), 'jawSlim 0 → identical');
  const shifts: number[] = [];
  for (const js of [0.25, 0.5, 1]) {
    const o = copy(src);
    const r = jawSlimWarp(o, LM, js);
    shifts.push(r.maxShift);
    let outside = 0;
    for (let y = 0; y < src.height; y++) for (let x = 0; x < src.width; x++) {
      if (x >= r.roi.x && x < r.roi.x + r.roi.w && y >= r.roi.y && y < r.roi.y + r.roi.h) continue;
      const i = (y * src.width + x) * 3;
      if (o.data[i] !== src.data[i]) outside++;
    }
    t.equal(outside, 0, `jawSlim ${js}: nothing beyond the face neighbourhood changed`);
    if (js === 1) {
      // the skin/background edge at jaw point 5 moved inward: sample just inside the original edge on the outer side
      const p = LM[4]!, q = full[4]!;
      const between: Pt = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
      const i = (Math.round(between[1]) * src.width + Math.round(between[0])) * 3;
      t.ok(src.data[i + 2]! < 160, 'before: skin between the old and the new jaw line');
      t.ok(o.data[i + 2]! > 150, `after: background there (blue ${o.data[i + 2]})`);
      // no tearing: every output pixel is a blend of its neighbours (no 0,0,0 holes in the ROI)
      let holes = 0;
      for (let y = r.roi.y; y < r.roi.y + r.roi.h; y++) for (let x = r.roi.x; x < r.roi.x + r.roi.w; x++) {
        const k = (y * src.width + x) * 3;
        if (o.data[k] === 0 && o.data[k + 1] === 0 && o.data[k + 2] === 0) holes++;
      }
      t.equal(holes, 0, 'no holes');
    }
  }
  t.ok(shifts[0]! < shifts[1]! && shifts[1]! < shifts[2]!, `largest displacement grows with jawSlim: ${shifts.map((s) => s.toFixed(1)).join(' < ')} px`);
});

t.test('skin texture variance on a real portrait falls in proportion to strength', PORTRAITS_NEEDED, async (t) => {
  const d = await decode(readFile(PORTRAITS.grace));
  const src: Rgb = { data: d.data, width: d.width, height: d.height };
  const face = (await detectFaces({ ...src, channels: 3 }))[0]!;
  const lm = face.landmarks as Pt[];
  const { roi, hard } = skinMasks(src, lm);
  const inMask = (x: number, y: number) => {
    const rx = x - roi.x, ry = y - roi.y;
    if (rx < 0 || ry < 0 || rx >= roi.w || ry >= roi.h) return 0;
    return hard[ry * roi.w + rx]!;
  };
  const stds: number[] = [];
  for (const strength of [0, 0.5, 1]) {
    const o = copy(src);
    skinRetouch(o, lm, { strength, bronzer: 0, eyeBrighten: 0, contour: 0 });
    stds.push(textureStd(o, inMask));
  }
  t.ok(stds[1]! < stds[0]! && stds[2]! < stds[1]!, `texture std ${stds.map((v) => v.toFixed(2)).join(' > ')}`);
  const ratio = (stds[0]! - stds[1]!) / (stds[0]! - stds[2]!);
  t.ok(ratio > 0.35 && ratio < 0.65, `drop at 0.5 is about half the drop at 1 (${ratio.toFixed(3)})`);
  t.ok(stds[2]! < 0.7 * stds[0]!, 'strength 1 removes a good part of the texture');
});
