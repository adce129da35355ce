// Line delta of one article text against the previous stored text of the same article (the amendments of a statute
// change a few words or paragraphs, so a new version of an article is mostly copies of the old one's lines).
// Ops, in order: two numbers [start, count] copy lines of the previous text; a string is a new line; an array
// [line, prefix, suffix, middle] is a line of the previous text with its middle replaced.
// Hand-written on purpose: it is a storage encoding (history/writer.ts stores these ops as JSON between the full
// texts of every 16th entry; history/db.ts applies them), a compact copy/replace form that needs only the previous
// text to rebuild. The `diff` package gives edit scripts (added/removed hunks carrying the text of both sides, for
// display), not this form; the comparisons shown to users (history/versions.ts diffArticles) are a separate concern.

export type DeltaOp = number | string | [number, number, number, string];

const MIN_KEEP = 12; // a changed line is stored as prefix/suffix of an old line only when that keeps this many chars

export function lineDelta(prev: string, text: string): DeltaOp[] {
  const a = prev.split('\n');
  const b = text.split('\n');
  const at = new Map<string, number[]>();
  a.forEach((l, i) => { const l2 = at.get(l); if (l2) l2.push(i); else at.set(l, [i]); });
  const ops: DeltaOp[] = [];
  let cursor = 0; // the line of `a` after the last copied one
  for (let i = 0; i < b.length;) {
    const line = b[i]!;
    const cands = at.get(line);
    if (cands) {
      let best = -1, bestLen = 0;
      const js = cands.length > 8 ? [...cands.slice(0, 8), ...(cands.includes(cursor) ? [cursor] : [])] : cands;
      for (const j of js) {
        let k = 0;
        while (i + k < b.length && j + k < a.length && a[j + k] === b[i + k]) k++;
        if (k > bestLen || (k === bestLen && j === cursor)) { best = j; bestLen = k; }
      }
      ops.push(best, bestLen);
      i += bestLen;
      cursor = best + bestLen;
      continue;
    }
    ops.push(changedLine(a, cursor, line));
    if (cursor < a.length) cursor++;
    i++;
  }
  return ops;
}

function changedLine(a: string[], j: number, line: string): DeltaOp {
  const old = a[j];
  if (old === undefined) return line;
  const max = Math.min(old.length, line.length);
  let pre = 0;
  while (pre < max && old.charCodeAt(pre) === line.charCodeAt(pre)) pre++;
  let suf = 0;
  while (suf < max - pre && old.charCodeAt(old.length - 1 - suf) === line.charCodeAt(line.length - 1 - suf)) suf++;
  if (pre + suf < MIN_KEEP) return line;
  return [j, pre, suf, line.slice(pre, line.length - suf)];
}

export function applyDelta(prev: string, ops: DeltaOp[]): string {
  const a = prev.split('\n');
  const out: string[] = [];
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (typeof op === 'number') {
      const n = ops[++i] as number;
      for (let k = 0; k < n; k++) out.push(a[op + k]!);
    } else if (typeof op === 'string') out.push(op);
    else {
      const old = a[op[0]]!;
      out.push(old.slice(0, op[1]) + op[3] + old.slice(old.length - op[2]));
    }
  }
  return out.join('\n');
}
