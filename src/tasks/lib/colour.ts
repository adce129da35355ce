// Colour helpers: sRGB <-> OKLab (a perceptual space: distances roughly match perceived differences, and
// lightness is separate from chroma, so uneven lighting of a green screen moves L more than a/b), hex parsing.

const LIN = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  LIN[i] = c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}

export function srgbToOklab(r: number, g: number, b: number, out: Float32Array | number[] = [0, 0, 0], o = 0): Float32Array | number[] {
  const lr = LIN[r]!, lg = LIN[g]!, lb = LIN[b]!;
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  out[o] = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
  out[o + 1] = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  out[o + 2] = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  return out;
}

const enc = (v: number): number => {
  const c = v <= 0.0031308 ? 12.92 * v : 1.055 * Math.pow(Math.max(0, v), 1 / 2.4) - 0.055;
  return c <= 0 ? 0 : c >= 1 ? 255 : Math.round(c * 255);
};

export function oklabToSrgb(L: number, a: number, b: number): [number, number, number] {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    enc(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    enc(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    enc(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
  ];
}

/** oklabToSrgb without the array allocation: writes r, g, b into out[0..2]. */
export function oklabToSrgbInto(L: number, a: number, b: number, out: Uint8Array | number[]): void {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  out[0] = enc(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s);
  out[1] = enc(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s);
  out[2] = enc(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s);
}

/** "#rgb", "#rrggbb" or "rrggbb" → [r,g,b]; undefined when not a hex colour. */
export function parseHex(s: string): [number, number, number] | undefined {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(s.trim());
  if (!m) return undefined;
  let h = m[1]!;
  if (h.length === 3) h = h.split('').map((c) => c + c).join('');
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

export const toHex = (rgb: ArrayLike<number>): string => '#' + [rgb[0]!, rgb[1]!, rgb[2]!].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
