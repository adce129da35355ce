// 2-D power / magnitude spectra of small square patches (n a power of two, 32…256), for the presentation-attack
// cues (spoof-cues.ts, screen-moire.ts). A 30-line radix-2 FFT instead of an npm package: the patches are at most
// 256², one transform per image, and the project already carried this code (tested through spoof-cues since
// 2026-11-22); fft.js (last release 2021) or ndarray-fft (2016, needs ndarray) would add a dependency for nothing.

/** In-place radix-2 FFT of one row/column (re, im of length n, n a power of two). */
export function fft1(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) { [re[i], re[j]] = [re[j]!, re[i]!]; [im[i], im[j]] = [im[j]!, im[i]!]; }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const a = (-2 * Math.PI) / len, wr = Math.cos(a), wi = Math.sin(a);
    for (let i = 0; i < n; i += len) {
      let cr = 1, ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const ur = re[i + k]!, ui = im[i + k]!;
        const vr = re[i + k + len / 2]! * cr - im[i + k + len / 2]! * ci, vi = re[i + k + len / 2]! * ci + im[i + k + len / 2]! * cr;
        re[i + k] = ur + vr; im[i + k] = ui + vi; re[i + k + len / 2] = ur - vr; im[i + k + len / 2] = ui - vi;
        const nr = cr * wr - ci * wi; ci = cr * wi + ci * wr; cr = nr;
      }
    }
  }
}

/** Magnitude spectrum (n×n, DC at 0,0, row-major [v * n + u]) of a Hann-windowed, mean-removed n×n patch. */
export function spectrum(patch: ArrayLike<number>, n: number): Float64Array {
  let mean = 0;
  for (let k = 0; k < n * n; k++) mean += patch[k]!;
  mean /= n * n;
  const hann = new Float64Array(n);
  for (let x = 0; x < n; x++) hann[x] = 0.5 - 0.5 * Math.cos((2 * Math.PI * x) / (n - 1));
  const re = new Float64Array(n * n), im = new Float64Array(n * n);
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) re[y * n + x] = (patch[y * n + x]! - mean) * hann[x]! * hann[y]!;
  const r = new Float64Array(n), i = new Float64Array(n);
  for (let y = 0; y < n; y++) { r.set(re.subarray(y * n, y * n + n)); i.set(im.subarray(y * n, y * n + n)); fft1(r, i); re.set(r, y * n); im.set(i, y * n); }
  for (let x = 0; x < n; x++) {
    for (let y = 0; y < n; y++) { r[y] = re[y * n + x]!; i[y] = im[y * n + x]!; }
    fft1(r, i);
    for (let y = 0; y < n; y++) { re[y * n + x] = r[y]!; im[y * n + x] = i[y]!; }
  }
  const mag = new Float64Array(n * n);
  for (let k = 0; k < mag.length; k++) mag[k] = Math.hypot(re[k]!, im[k]!);
  return mag;
}
