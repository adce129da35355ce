// decimalText: the same text as String(n) for every non-negative integer the rate-limit header carries, across the
// table boundaries (999 / 1000, 999,999 / 1,000,000, the zero-padded middle groups) and beyond the tables (≥ 1e9).
import t from 'tap';
import { decimalText } from '../../src/server/decimal-text.js';

t.test('small and boundary values', async (t) => {
  for (const n of [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 1010, 1099, 10_000, 65_536, 100_000, 999_999, 1_000_000, 1_000_001, 1_002_003, 100_000_007, 999_999_999, 1_000_000_000, 2 ** 31, 2 ** 53 - 1]) {
    t.equal(decimalText(n), String(n), `${n}`);
  }
});

t.test('every integer 0 – 20,000 and a stride through 1e9', async (t) => {
  let wrong = 0;
  for (let n = 0; n <= 20_000; n++) if (decimalText(n) !== String(n)) wrong++;
  for (let n = 20_000; n < 1e9; n += 99_991) if (decimalText(n) !== String(n)) wrong++;
  t.equal(wrong, 0);
});

t.test('a header built with it reads as before', async (t) => {
  t.equal(`"minute";r=${decimalText(59_940)};t=${decimalText(17)}`, '"minute";r=59940;t=17');
  t.equal(decimalText(1_000_040), '1000040', 'a zero-padded middle group');
});
