// Box-drawing tables (━┯│├┼ …, Hangul 2 columns wide) → structured rows, cells and spans.
import { charWidth } from './normalize.js';

export interface TableCell {
  text: string;
  /** 0-based grid column / row of the cell's top-left corner */
  col: number;
  row: number;
  colspan?: number;
  rowspan?: number;
}
export interface ParsedTable {
  columns: number;
  rows: TableCell[][];
}

const VERT = new Set([...'│┃├┤┼┬┴┯┷┿╋┠┨╂┝┥┌┐└┘┏┓┗┛╀╁╃╄╅╆╇╈╉╊┞┟┡┢┦┧┩┪┭┮┱┲┵┶┹┺┽┾╿╽╼╾┰┸┒┎┖┚┍┑┕┙']);
const HORIZ = new Set([...'─━═┄┅┈┉╌╍']);
const isBox = (cp: number) => cp >= 0x2500 && cp <= 0x257f;

/** Expand a line into display columns (a wide char fills its first column, the next is ''). */
function toCols(line: string): string[] {
  const out: string[] = [];
  for (const ch of line) {
    out.push(ch);
    if (charWidth(ch.codePointAt(0)!) === 2) out.push('');
  }
  return out;
}

/** Split text into blocks of consecutive lines that contain box-drawing characters; returns parsed tables. */
export function parseBoxTables(text: string): ParsedTable[] {
  const lines = text.split(/\r?\n/).map((l) => l.replace(/\s+$/, ''));
  const tables: ParsedTable[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!hasBox(lines[i]!)) { i++; continue; }
    const block: string[] = [];
    while (i < lines.length && (hasBox(lines[i]!) || (lines[i]!.trim() === '' && i + 1 < lines.length && hasBox(lines[i + 1]!)))) {
      if (lines[i]!.trim() !== '') block.push(lines[i]!);
      i++;
    }
    const t = parseBlock(block);
    if (t && t.rows.length) tables.push(t);
  }
  return tables;
}

function hasBox(l: string): boolean {
  for (let k = 0; k < l.length; k++) if (isBox(l.charCodeAt(k))) return true;
  return false;
}

/** Tables whose spacing was collapsed (legalize-kr article text): cells split at │, rows between rule lines. */
function parseCollapsed(block: string[]): ParsedTable | null {
  const rows: TableCell[][] = [];
  let cur: string[] | null = null;
  const flush = () => {
    if (cur && cur.some((c) => c)) rows.push(cur.map((text, col) => ({ text, col, row: rows.length })));
    cur = null;
  };
  for (const line of block) {
    const t = line.trim();
    if (![...t].some((c) => !isBox(c.codePointAt(0)!) && c.trim())) { flush(); continue; }
    const cells = t.split(/[│┃]/).map((c) => c.trim().replace(/\s+/g, ' '));
    if (cells[0] === '') cells.shift();
    if (cells.length && cells[cells.length - 1] === '') cells.pop();
    if (!cur) cur = cells;
    else cells.forEach((c, i) => { if (c) cur![i] = cur![i] ? `${cur![i]} ${c}` : c; });
  }
  flush();
  const columns = Math.max(0, ...rows.map((r) => r.length));
  return rows.length ? { columns, rows } : null;
}

function parseBlock(block: string[]): ParsedTable | null {
  // aligned layout? the │ of all text lines fall on a few columns; collapsed spacing scatters them
  const all = new Set<number>();
  let maxPer = 0;
  for (const l of block) {
    const g = toCols(l);
    if (!g.some((c) => c.trim() && !isBox(c.codePointAt(0)!))) continue;
    let n = 0;
    g.forEach((c, x) => { if (c === '│' || c === '┃') { all.add(x); n++; } });
    maxPer = Math.max(maxPer, n);
  }
  if (all.size > Math.max(maxPer * 2, maxPer + 3)) return parseCollapsed(block);
  const grid = block.map(toCols);
  const width = Math.max(...grid.map((g) => g.length));
  // vertical boundary columns: where a vertical connector appears in a text line (or a junction in a rule)
  const bset = new Set<number>();
  for (const g of grid) g.forEach((c, x) => { if (VERT.has(c)) bset.add(x); });
  const bounds = [...bset].sort((a, b) => a - b);
  // column intervals [start, end)
  const ivs: Array<[number, number]> = [];
  let prev = 0;
  for (const b of bounds) {
    if (b > prev) ivs.push([prev, b]);
    prev = b + 2;
  }
  if (width > prev) ivs.push([prev, width]);
  if (!ivs.length) return null;
  const seg = (g: string[], [a, b]: [number, number]) => g.slice(a, b).join('');
  const isRule = (s: string) => { const t = s.replace(/\s/g, ''); return t.length > 0 && [...t].every((c) => HORIZ.has(c) || VERT.has(c)); };
  // per line, per interval: rule or text
  const nL = grid.length, nC = ivs.length;
  const rule: boolean[][] = grid.map((g) => ivs.map((iv) => isRule(seg(g, iv))));
  // boundary presence on the right of interval k in line l
  const hasRightBound = (l: number, k: number) => {
    if (k >= nC - 1) return true;
    const x = ivs[k]![1];
    const g = grid[l]!;
    return VERT.has(g[x] ?? ' ') || VERT.has(g[x - 1] ?? ' ') || VERT.has(g[x + 1] ?? ' ');
  };
  // grid row cuts: a line index where any column has a rule
  const rowOf: number[] = new Array(nL).fill(-1);
  let r = -1, inText = false;
  for (let l = 0; l < nL; l++) {
    const anyRule = rule[l]!.some(Boolean);
    if (anyRule) { inText = false; continue; }
    if (!inText) { r++; inText = true; }
    rowOf[l] = r;
  }
  // text lines that are interrupted by partial rules: a partial rule line ends rows only in its own columns
  // Build row boundaries per column: lines with rule in column k separate cells in k.
  const nRows = r + 1;
  if (nRows <= 0) return null;
  // for partial rules (rule in some columns only), grid rows must split at them: recompute rows as bands between any rule line
  const bandStart: number[] = []; // line index where each grid row starts
  for (let l = 0; l < nL; l++) if (rowOf[l]! >= 0 && (l === 0 || rowOf[l - 1] !== rowOf[l])) bandStart.push(l);
  const used: boolean[][] = Array.from({ length: nRows }, () => new Array(nC).fill(false));
  const rows: TableCell[][] = Array.from({ length: nRows }, () => []);
  for (let row = 0; row < nRows; row++) {
    for (let k = 0; k < nC; k++) {
      if (used[row]![k]) continue;
      // row span: extend down while the next band is not separated from this one by a rule in column k
      let endRow = row;
      while (endRow + 1 < nRows) {
        const a = lastLineOf(rowOf, endRow), b = bandStart[endRow + 1]!;
        let sep = false;
        for (let l = a + 1; l < b; l++) if (rule[l]![k]) sep = true;
        if (sep) break;
        endRow++;
      }
      // col span: extend right while no boundary between k and k+1 in any line of the cell
      let endCol = k;
      const first = bandStart[row]!, last = lastLineOf(rowOf, endRow);
      while (endCol + 1 < nC) {
        let bound = false;
        for (let l = first; l <= last; l++) if (rowOf[l]! >= 0 && hasRightBound(l, endCol)) bound = true;
        if (bound) break;
        endCol++;
      }
      const parts: string[] = [];
      let joinTight = false;
      for (let l = first; l <= last; l++) {
        if (rowOf[l]! < 0) continue;
        const raw = seg(grid[l]!, [ivs[k]![0], ivs[endCol]![1]]).replace(/[│┃]/g, ' ');
        const t = raw.trim().replace(/\s+/g, ' ');
        if (!t) { joinTight = false; continue; }
        if (parts.length && joinTight) parts[parts.length - 1] += t;
        else parts.push(t);
        joinTight = !/\s$/.test(raw) && /[\p{L}\p{N},]$/u.test(t);
      }
      for (let rr = row; rr <= endRow; rr++) for (let kk = k; kk <= endCol; kk++) used[rr]![kk] = true;
      const cell: TableCell = { text: parts.join(' '), col: k, row };
      if (endCol > k) cell.colspan = endCol - k + 1;
      if (endRow > row) cell.rowspan = endRow - row + 1;
      rows[row]!.push(cell);
    }
  }
  // drop columns that are empty everywhere (margins)
  return { columns: nC, rows: rows.filter((rw) => rw.some((c) => c.text !== '')) };
}

function lastLineOf(rowOf: number[], row: number): number {
  let last = -1;
  for (let l = 0; l < rowOf.length; l++) if (rowOf[l] === row) last = l;
  return last;
}
