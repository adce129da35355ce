// A non-negative integer's decimal text, made without V8's number-to-string cache.
//
// Why by hand: `${n}` and String(n) put every new number's text into V8's number-string cache, an old-generation
// table, so each text stays reachable from old space and survives the next scavenge. The rate-limit header's
// `r=<remaining>` is a new number on every keyed request: at ~15k polls/s that was ~165 KB copied and then promoted
// at every scavenge (`--trace-gc-nvp`: new_space_survived 165 → 16 KB without it), which lengthened each scavenge
// and fed the old generation garbage for its mark-compacts. Texts made from these tables are ordinary young strings.
const SMALL: readonly string[] = Array.from({ length: 1000 }, (_, i) => String(i));
const PADDED: readonly string[] = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** decimal text of n (a non-negative integer; anything else as toFixed(0) gives it, which is uncached as well) */
export function decimalText(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n >= 1e9) return n.toFixed(0);
  if (n < 1000) return SMALL[n]!;
  if (n < 1e6) return SMALL[Math.floor(n / 1000)]! + PADDED[n % 1000]!;
  return SMALL[Math.floor(n / 1e6)]! + PADDED[Math.floor(n / 1000) % 1000]! + PADDED[n % 1000]!;
}
