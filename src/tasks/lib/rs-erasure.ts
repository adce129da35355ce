// Reed–Solomon decoding over GF(256) (QR's field: x⁸ + x⁴ + x³ + x² + 1, generator roots α⁰ … α^(ecc−1)) with
// errors AND erasures: a codeword known to be unreliable costs one parity codeword instead of two, so f erasures
// and t errors are corrected while 2t + f ≤ ecc. Written by hand because the readers in use only take errors:
// zxing-wasm exposes no decoder (only whole-symbol reads), jsQR's decoder has no erasure input, and the qrcode
// package only encodes. Berlekamp–Massey started from the erasure locator, Chien search, Forney's formula.

const EXP = new Uint8Array(512), LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i++) {
  EXP[i] = x; LOG[x] = i;
  x <<= 1;
  if (x & 0x100) x ^= 0x11d;
}
for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255]!;
const mul = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : EXP[LOG[a]! + LOG[b]!]!);
const inv = (a: number): number => EXP[255 - LOG[a]!]!;
/** p(x) with p[i] the coefficient of xⁱ */
const evalAt = (p: number[], x: number): number => { let y = 0; for (let i = p.length - 1; i >= 0; i--) y = mul(y, x) ^ p[i]!; return y; };

/** Syndromes S_j = r(α^j), j < ecc, of a block whose cw[0] is the highest-degree coefficient. */
export function syndromes(cw: Uint8Array, ecc: number): number[] {
  const s: number[] = [];
  for (let j = 0; j < ecc; j++) {
    const a = EXP[j]!;
    let y = 0;
    for (let i = 0; i < cw.length; i++) y = mul(y, a) ^ cw[i]!;
    s.push(y);
  }
  return s;
}

/**
 * Corrects `cw` (a block: data then ecc parity codewords) in place, given the indices of erased codewords (their
 * values are ignored). Returns the number of errors found besides the erasures, or −1 when the block cannot be
 * corrected with `reserve` parity codewords left unused for detection (2t + f ≤ ecc − reserve): with no reserve
 * an f = ecc erasure decode "succeeds" on any word, and each reserved codeword makes a false decode 256× rarer.
 */
export function rsCorrect(cw: Uint8Array, ecc: number, erasures: readonly number[] = [], reserve = 0, syn = syndromes(cw, ecc)): number {
  const n = cw.length, f = erasures.length;
  if (f > ecc - reserve) return -1;
  if (syn.every((v) => v === 0)) return 0;
  // erasure locator Γ(x) = ∏ (1 + X_k x), X_k = α^(n−1−pos)
  let lam: number[] = [1];
  for (const p of erasures) {
    const X = EXP[n - 1 - p]!, next = [...lam, 0];
    for (let i = 1; i < next.length; i++) next[i]! ^= mul(lam[i - 1]!, X);
    lam = next;
  }
  // Berlekamp–Massey from Γ (Blahut): L starts at f and the iteration at syndrome f
  let B = [...lam], L = f;
  for (let r = f; r < ecc; r++) {
    let d = 0;
    for (let i = 0; i <= Math.min(L, lam.length - 1); i++) d ^= mul(lam[i]!, syn[r - i] ?? 0);
    const xB = [0, ...B];
    if (d === 0) { B = xB; continue; }
    const T = lam.slice();
    for (let i = 0; i < xB.length; i++) T[i] = (T[i] ?? 0) ^ mul(d, xB[i]!);
    if (2 * L <= r + f) { const di = inv(d); B = lam.map((v) => mul(v, di)); L = r + 1 + f - L; } else B = xB;
    lam = T;
  }
  while (lam.length > 1 && lam[lam.length - 1] === 0) lam.pop();
  const deg = lam.length - 1;
  if (deg !== L || 2 * (L - f) + f > ecc - reserve) return -1;
  // Chien search: positions whose X⁻¹ is a root
  const pos: number[] = [];
  for (let p = 0; p < n; p++) if (evalAt(lam, EXP[(255 - (n - 1 - p)) % 255]!) === 0) pos.push(p);
  if (pos.length !== deg) return -1;
  // Ω(x) = S(x) Λ(x) mod x^ecc; Forney (first root α⁰): e = X · Ω(X⁻¹) / Λ'(X⁻¹)
  const om = new Array<number>(ecc).fill(0);
  for (let i = 0; i < ecc; i++) for (let j = 0; j <= deg && i + j < ecc; j++) om[i + j]! ^= mul(syn[i]!, lam[j]!);
  const dlam = lam.map((v, i) => (i % 2 === 1 ? v : 0)).slice(1);
  for (const p of pos) {
    const X = EXP[n - 1 - p]!, Xi = inv(X);
    const den = evalAt(dlam, Xi);
    if (den === 0) return -1;
    cw[p]! ^= mul(X, mul(evalAt(om, Xi), inv(den)));
  }
  if (syndromes(cw, ecc).some((v) => v !== 0)) return -1;
  return deg - f;
}
