// A sampled QR symbol corrected with erasures before zxing reads it: the modules the sampler could not decide
// (smallest margin to the threshold: inside a glare spot, under noise at 2–3 px modules) mark their codewords as
// erasures, each block is corrected by lib/rs-erasure.ts (an erasure costs half an error), and the corrected
// codewords are placed and masked back into the symbol with its function patterns and format word redrawn —
// zxing's pure read then parses a clean code (and checks it again). The symbol's layout (function patterns, format bits, block split) comes from the qrcode package, which
// draws our codes: its reserved-module map, format words and block tables.
import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import { rsCorrect, syndromes } from './rs-erasure.js';

const require = createRequire(import.meta.url);
const ECC = require('qrcode/lib/core/error-correction-code.js') as { getBlocksCount(v: number, l: unknown): number; getTotalCodewordsCount(v: number, l: unknown): number };
const LEVEL = require('qrcode/lib/core/error-correction-level.js') as Record<'L' | 'M' | 'Q' | 'H', unknown>;
const FORMAT = require('qrcode/lib/core/format-info.js') as { getEncodedBits(l: unknown, mask: number): number };
const UTILS = require('qrcode/lib/core/utils.js') as { getSymbolTotalCodewords(v: number): number };

const MASKS: ((i: number, j: number) => boolean)[] = [
  (i, j) => (i + j) % 2 === 0, (i) => i % 2 === 0, (_, j) => j % 3 === 0, (i, j) => (i + j) % 3 === 0,
  (i, j) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0, (i, j) => ((i * j) % 2) + ((i * j) % 3) === 0,
  (i, j) => (((i * j) % 2) + ((i * j) % 3)) % 2 === 0, (i, j) => (((i * j) % 3) + ((i + j) % 2)) % 2 === 0,
];
/** parity codewords per block kept back to detect a false decode (rs-erasure.ts: each makes one 256× rarer) */
const RESERVE = 2;
/** format words farther than this (bits, the nearer of the two copies) from every valid one: not a code */
const FORMAT_MAX = 3;

interface Layout { order: Int32Array; total: number; fixed: [number, number][] }
const layouts = new Map<number, Layout>();
/** The data modules of an n-module symbol in placement order (row-major indices), from qrcode's reserved map. */
function layout(n: number): Layout | undefined {
  const v = (n - 17) / 4;
  if (!Number.isInteger(v) || v < 1 || v > 40) return undefined;
  let l = layouts.get(n);
  if (l) return l;
  const ref = QRCode.create('1', { version: v, errorCorrectionLevel: 'L' }).modules as unknown as { reservedBit: Uint8Array; data: Uint8Array };
  const reserved = ref.reservedBit;
  // every function module (finders, timing, alignment, version information) as the reference symbol draws it
  const fixed: [number, number][] = [];
  for (let i = 0; i < n * n; i++) if (reserved[i]) fixed.push([i, ref.data[i]!]);
  const order: number[] = [];
  let inc = -1, row = n - 1;
  for (let col = n - 1; col > 0; col -= 2) {
    if (col === 6) col--;
    for (;;) {
      for (let c = 0; c < 2; c++) if (!reserved[row * n + col - c]) order.push(row * n + col - c);
      row += inc;
      if (row < 0 || row >= n) { row -= inc; inc = -inc; break; }
    }
  }
  l = { order: Int32Array.from(order), total: UTILS.getSymbolTotalCodewords(v), fixed };
  layouts.set(n, l);
  return l;
}

/** The two copies of the format word's 15 modules (bit i at index i), as qrcode places them. */
function formatCells(n: number): [number[], number[]] {
  const a: number[] = [], b: number[] = [];
  for (let i = 0; i < 15; i++) {
    a.push(i < 6 ? i * n + 8 : i < 8 ? (i + 1) * n + 8 : (n - 15 + i) * n + 8);
    b.push(i < 8 ? 8 * n + n - i - 1 : i < 9 ? 8 * n + 15 - i : 8 * n + 15 - i - 1);
  }
  return [a, b];
}

/** Level and mask from the nearer copy of the format word, or undefined past FORMAT_MAX bits. */
function readFormat(dark: Uint8Array, n: number): { level: 'L' | 'M' | 'Q' | 'H'; mask: number } | undefined {
  const copies = formatCells(n).map((cells) => cells.reduce((w, c, i) => w | (dark[c]! << i), 0));
  let best: { level: 'L' | 'M' | 'Q' | 'H'; mask: number } | undefined, bestD = FORMAT_MAX + 1;
  for (const level of ['L', 'M', 'Q', 'H'] as const) for (let mask = 0; mask < 8; mask++) {
    const word = FORMAT.getEncodedBits(LEVEL[level], mask);
    for (const w of copies) {
      let x = w ^ word, d = 0;
      for (; x; x &= x - 1) d++;
      if (d < bestD) { bestD = d; best = { level, mask }; }
    }
  }
  return best;
}

/** Block k's codeword indices in the interleaved stream (data interleaved first, then parity). */
function blocks(v: number, level: 'L' | 'M' | 'Q' | 'H', total: number): { idx: number[]; ecc: number }[] {
  const nb = ECC.getBlocksCount(v, LEVEL[level]), eccTotal = ECC.getTotalCodewordsCount(v, LEVEL[level]);
  const g2 = total % nb, g1 = nb - g2, d1 = Math.floor((total - eccTotal) / nb), ecc = eccTotal / nb;
  const out = Array.from({ length: nb }, (_, b) => ({ idx: [] as number[], ecc, d: b < g1 ? d1 : d1 + 1 }));
  let k = 0;
  for (let i = 0; i <= d1; i++) for (const b of out) if (i < b.d) b.idx.push(k++);
  for (let i = 0; i < ecc; i++) for (const b of out) b.idx.push(k++);
  return out;
}

/**
 * The symbol's dark modules with every block corrected, erasures being the codewords whose least certain module
 * (`margin`: distance to the threshold) ranks lowest in the block; per block the fewest erasures that correct it
 * (0, 2, 4, … up to ecc − RESERVE). Undefined when the format word or any block cannot be corrected.
 */
export function correctSymbol(dark: Uint8Array, margin: Float32Array, n: number): Uint8Array | undefined {
  const l = layout(n), fmt = l && readFormat(dark, n);
  if (!l || !fmt) return undefined;
  const { order, total } = l, mask = MASKS[fmt.mask]!;
  const cw = new Uint8Array(total), conf = new Float32Array(total).fill(Infinity);
  for (let b = 0; b < total * 8; b++) {
    const m = order[b]!, i = Math.floor(m / n), j = m % n, k = b >> 3;
    const bit = dark[m]! ^ (mask(i, j) ? 1 : 0);
    cw[k] = (cw[k]! << 1) | bit;
    conf[k] = Math.min(conf[k]!, margin[m]!);
  }
  for (const { idx, ecc } of blocks((n - 17) / 4, fmt.level, total)) {
    const block = Uint8Array.from(idx, (k) => cw[k]!), syn = syndromes(block, ecc);
    const weakest = idx.map((k, p) => ({ p, c: conf[k]! })).sort((a, b) => a.c - b.c).map((e) => e.p);
    let fixed: Uint8Array | undefined;
    for (let f = 0; f <= ecc - RESERVE && !fixed; f += 2) {
      const trial = block.slice();
      if (rsCorrect(trial, ecc, weakest.slice(0, f), RESERVE, syn) >= 0) fixed = trial;
    }
    if (!fixed) return undefined;
    idx.forEach((k, p) => { cw[k] = fixed[p]!; });
  }
  const out = dark.slice(), word = FORMAT.getEncodedBits(LEVEL[fmt.level], fmt.mask);
  for (const [m, bit] of l.fixed) out[m] = bit;
  for (const cells of formatCells(n)) cells.forEach((c, i) => { out[c] = (word >> i) & 1; });
  for (let b = 0; b < total * 8; b++) {
    const m = order[b]!, bit = (cw[b >> 3]! >> (7 - (b & 7))) & 1;
    out[m] = bit ^ (mask(Math.floor(m / n), m % n) ? 1 : 0);
  }
  return out;
}
