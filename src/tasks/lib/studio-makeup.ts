// Makeup on one face, in place: lip colour from the lip polygon (outer minus the open mouth) with a soft mask,
// and blush as soft elliptical cheek gradients. Both blend in CIE Lab: chroma (a, b) moves toward the style's
// colour while the lightness keeps its own variation, so lip texture and highlights survive.
import { blendPlanes, extractPlanes, fillPolygon, gaussBlur, labToRgb, rgbToLab, roiAround, shift, type Pt, type Rgb, type Roi } from './studio-raster.js';
import { cheekCentres, faceGeom, facePolygon, innerLips, outerLips, polyArea } from './studio-face.js';

export type MakeupStyle = 'natural' | 'coral' | 'red';
export interface MakeupParams {
  lipStrength: number;
  blushStrength: number;
  style: MakeupStyle;
}

/** sRGB colours of each style (lip, blush). */
export const STYLES: Record<MakeupStyle, { lip: [number, number, number]; blush: [number, number, number] }> = {
  natural: { lip: [196, 112, 118], blush: [232, 138, 146] },
  coral: { lip: [246, 110, 92], blush: [250, 142, 112] },
  red: { lip: [186, 24, 44], blush: [222, 86, 96] },
};

export const MAKEUP = {
  /** lip mask feather sigma as a fraction of the face width */
  lipFeather: 0.01,
  /** share of the distance to the style's mean lightness the lips move at strength 1 (texture kept) */
  lipLightness: 0.5,
  /** blush: Gaussian sigma (x, y) as fractions of the face width, and the largest blend weight */
  blushSigma: [0.1, 0.075] as const,
  blushMax: 0.3,
};

export function makeup(img: Rgb, lm: Pt[], p: MakeupParams): { roi: Roi } {
  const g = faceGeom(lm);
  const outline = facePolygon(g);
  const sigmaL = Math.max(0.8, MAKEUP.lipFeather * g.W);
  const roi = roiAround(outline, Math.ceil(3.2 * Math.max(sigmaL, 0.02 * g.W) + 2), img.width, img.height);
  const n = roi.w * roi.h;
  const [R, G, B] = extractPlanes(img, roi);
  const out: [Float32Array, Float32Array, Float32Array] = [Float32Array.from(R), Float32Array.from(G), Float32Array.from(B)];
  const touched = new Float32Array(n);
  const style = STYLES[p.style];

  // lips
  let lipW: Float32Array | undefined;
  let lipMeanL = 0;
  if (p.lipStrength > 0) {
    const m = new Float32Array(n);
    fillPolygon(m, roi.w, roi.h, shift(outerLips(g), roi));
    const inner = innerLips(g);
    // an open mouth (teeth, tongue) is not painted
    if (polyArea(inner) > 0.08 * polyArea(outerLips(g))) fillPolygon(m, roi.w, roi.h, shift(inner, roi), 0);
    lipW = gaussBlur(m, roi.w, roi.h, sigmaL);
    let s = 0, c = 0;
    const lab = [0, 0, 0];
    for (let i = 0; i < n; i++) {
      if (m[i]) {
        rgbToLab(R[i]!, G[i]!, B[i]!, lab);
        s += lab[0]!;
        c++;
      }
    }
    lipMeanL = c ? s / c : 50;
  }
  // blush
  let blushW: Float32Array | undefined;
  if (p.blushStrength > 0) {
    blushW = new Float32Array(n);
    const face = gaussBlur(fillPolygon(new Float32Array(n), roi.w, roi.h, shift(outline, roi)), roi.w, roi.h, Math.max(1, 0.02 * g.W));
    const centres = cheekCentres(g).map((c) => [c[0] - roi.x, c[1] - roi.y] as Pt);
    const sx = MAKEUP.blushSigma[0] * g.W, sy = MAKEUP.blushSigma[1] * g.W;
    const { right, down } = g;
    for (let y = 0; y < roi.h; y++) {
      for (let x = 0; x < roi.w; x++) {
        const i = y * roi.w + x;
        if (face[i]! <= 0) continue;
        let w = 0;
        for (const c of centres) {
          const dx = x + 0.5 - c[0], dy = y + 0.5 - c[1];
          const u = dx * right[0] + dy * right[1], v = dx * down[0] + dy * down[1];
          w = Math.max(w, Math.exp(-0.5 * ((u * u) / (sx * sx) + (v * v) / (sy * sy))));
        }
        blushW[i] = w * face[i]!;
      }
    }
  }
  if (!lipW && !blushW) return { roi };
  const lipT = rgbToLab(...style.lip) as number[];
  const blushT = rgbToLab(...style.blush) as number[];
  const lab = [0, 0, 0], rgb = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const wl = lipW ? p.lipStrength * lipW[i]! : 0;
    const wb = blushW ? p.blushStrength * MAKEUP.blushMax * blushW[i]! : 0;
    if (wl <= 0 && wb <= 0) continue;
    rgbToLab(out[0][i]!, out[1][i]!, out[2][i]!, lab);
    if (wl > 0) {
      lab[0] += wl * MAKEUP.lipLightness * (lipT[0]! - lipMeanL);
      lab[1] += wl * (lipT[1]! - lab[1]!);
      lab[2] += wl * (lipT[2]! - lab[2]!);
    }
    if (wb > 0) {
      lab[1] += wb * (blushT[1]! - lab[1]!);
      lab[2] += wb * (blushT[2]! - lab[2]!);
      lab[0] += wb * 0.25 * (blushT[0]! - lab[0]!);
    }
    labToRgb(lab[0]!, lab[1]!, lab[2]!, rgb);
    out[0][i] = rgb[0]!;
    out[1][i] = rgb[1]!;
    out[2][i] = rgb[2]!;
    touched[i] = 1;
  }
  blendPlanes(img, roi, out, touched);
  return { roi };
}
