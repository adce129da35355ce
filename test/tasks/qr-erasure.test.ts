// Reed–Solomon with erasures (src/tasks/lib/rs-erasure.ts), the symbol corrected before zxing reads it
// (src/tasks/lib/qr-erasure.ts), and the photo kinds of test/helpers/qr-more.ts read by qrRecognize.
import t from 'tap';
import { createRequire } from 'node:module';
import { rsCorrect } from '../../src/tasks/lib/rs-erasure.js';
import { correctSymbol } from '../../src/tasks/lib/qr-erasure.js';
import { qrMatrix } from '../../src/tasks/qr-generate.js';
import qrRecognize, { zxingReady, GRID_BUDGET } from '../../src/tasks/qr-recognize.js';
import { moreQr } from '../helpers/qr-more.js';
import { prng } from '../helpers/images.js';

const require = createRequire(import.meta.url);
// the qrcode package's own encoder makes the parity: the decoder is checked against an independent encoder
const Encoder = require('qrcode/lib/core/reed-solomon-encoder.js') as new (ecc: number) => { encode(d: Uint8Array): Uint8Array };

function block(r: () => number, k: number, ecc: number): Uint8Array {
  const data = Uint8Array.from({ length: k }, () => Math.floor(r() * 256));
  return new Uint8Array([...data, ...new Encoder(ecc).encode(data)]);
}

t.test('rsCorrect: f erasures and t errors with 2t + f ≤ ecc are corrected exactly', async (t) => {
  const r = prng(27);
  let exact = 0;
  for (let i = 0; i < 300; i++) {
    const ecc = 8 + Math.floor(r() * 23), clean = block(r, 10 + Math.floor(r() * 110), ecc), cw = clean.slice();
    const f = Math.floor(r() * (ecc + 1)), e = Math.floor(((ecc - f) / 2) * r());
    const pos = [...cw.keys()].sort(() => r() - 0.5);
    for (const p of pos.slice(0, f)) cw[p] = Math.floor(r() * 256);
    for (const p of pos.slice(f, f + e)) cw[p]! ^= 1 + Math.floor(r() * 255);
    const found = rsCorrect(cw, ecc, pos.slice(0, f));
    if (found === e && cw.every((v, j) => v === clean[j])) exact++;
  }
  t.equal(exact, 300);
});

t.test('rsCorrect: past the capacity or the reserve it refuses', async (t) => {
  const r = prng(5);
  const clean = block(r, 30, 10);
  const over = clean.slice();
  over[0]! ^= 1; over[5]! ^= 7; over[9]! ^= 9; // three errors with eight erasures: 2·3 + 8 > 10
  const eight = [10, 11, 12, 13, 14, 15, 16, 17];
  // with no parity kept back this word lies one error from another codeword: a miscorrection (why RESERVE exists)
  const mis = over.slice();
  t.equal(rsCorrect(mis, 10, eight, 0), 1);
  t.not(mis.join(), clean.join(), 'decoded to a wrong codeword');
  t.equal(rsCorrect(over.slice(), 10, eight, 2), -1, 'refused with two parity codewords kept back');
  const five = clean.slice();
  for (const p of [1, 2, 3, 4, 20]) five[p]! ^= 0x55;
  const fixed = five.slice();
  t.equal(rsCorrect(fixed, 10, [], 0), 5, 'five errors in ten parity codewords');
  t.equal(fixed.join(), clean.join());
  t.equal(rsCorrect(five.slice(), 10, [], 2), -1, 'not with two parity codewords kept back');
  t.equal(rsCorrect(clean.slice(), 10, [3, 4]), 0, 'a clean block with erasures named is left as it is');
});

t.test('correctSymbol: a logo over a third of an H code, its modules undecided, is corrected', async (t) => {
  const m = qrMatrix('https://shop.example/item/4242?c=erasures', 'H'), n = m.size;
  const dark = m.modules.slice(), margin = new Float32Array(n * n).fill(40);
  const a = Math.round(n * 0.22), b = n - a; // 56 % of the side: 31 % of the area
  let covered = 0;
  for (let i = a; i < b; i++) for (let j = a; j < b; j++) { dark[i * n + j] = 0; margin[i * n + j] = 1; covered++; }
  t.ok(covered / (n * n) > 0.3, `logo covers ${(100 * covered / n / n).toFixed(0)} % of the symbol`);
  const fixed = correctSymbol(dark, margin, n);
  t.ok(fixed, 'corrected');
  t.equal(fixed!.reduce((s, v, i) => s + (v !== m.modules[i] ? 1 : 0), 0), 0, 'every module as generated');
  // the same logo with every module equally certain (no erasures): past what errors alone correct
  t.equal(correctSymbol(dark, new Float32Array(n * n).fill(40), n), undefined);
});

t.test('correctSymbol: a grid that is no code is not corrected', async (t) => {
  const r = prng(9);
  let fixed = 0;
  for (const n of [21, 25, 29, 33]) for (let k = 0; k < 25; k++) {
    const m = qrMatrix('x', 'L'), dark = m.size === 21 && n === 21 ? m.modules.slice() : new Uint8Array(n * n);
    for (let i = 0; i < n * n; i++) dark[i] = r() < 0.5 ? 1 : 0;
    if (correctSymbol(dark, Float32Array.from({ length: n * n }, () => r() * 50), n)) fixed++;
  }
  t.equal(fixed, 0);
});

t.test('the photo kinds of qr-more.ts read with their payload', async (t) => {
  await zxingReady();
  const saved = { ...GRID_BUDGET };
  t.teardown(() => Object.assign(GRID_BUDGET, saved));
  // twice the floor, as in qr-budget.test.ts: a loaded runner's CPU time for the same work varies
  GRID_BUDGET.floorMs = 2 * saved.floorMs;
  // logo seeds that main's reader (errors only) missed on the tuning run; the others one per kind
  const cases = [await moreQr('logo', 5201), await moreQr('logo', 5205), await moreQr('logo', 5212), await moreQr('cylinder', 5216), await moreQr('mirrored', 5200), await moreQr('screen', 5200), await moreQr('low-jpeg', 5201)];
  await qrRecognize({ image: cases[0]!.bytes }); // warm: the first call compiles the grid reader inside its budget
  for (const s of cases) {
    const o = await qrRecognize({ image: s.bytes });
    t.equal(o.data, s.data, `${s.name}: the payload (${o.method ?? 'not read'})`);
  }
});
