// MeCab's lattice and Viterbi search over one text (MeCab tokenizer.cpp / viterbi.cpp, with mecab-ko's left-space
// penalty): every dictionary word starting at each position, unknown words by character category, the cheapest path
// of word costs plus connection costs. Hand-written with the reader (dictionary.ts says why).
//
// speed26: the lattice's nodes are rows of typed arrays reused text after text (Nodes), not an object each, and each
// position's left nodes a reused list of row numbers: the analysis of a question made ≈ 60 node objects, an array per
// position and a CharInfo per position for the GC, and the connection loop read two objects per left node. Objects
// are made for the best path only. The search, its order and its ties are MeCab's as before (the analyses of the
// evaluation questions are compared with the earlier code: bench/RESULTS.md).
import { typeOf, defaultTypeOf, lengthOf, groups, invokes, type CharProperty } from './char-property.js';
import type { Dictionary, Token } from './dictionary.js';
import type { Matrix } from './matrix.js';

/** the longest run of one category taken as one unknown word (MeCab's max-grouping-size) */
const MAX_GROUP = 24;

export interface LatticeNode {
  start: number;
  end: number;
  token: Token;
  unknown: boolean;
  /** whitespace came before it (mecab-ko: particles and endings must not start an eojeol) */
  spaceBefore: boolean;
}

export interface LatticeParts {
  dic: Dictionary;
  unk: Dictionary;
  chars: CharProperty;
  matrix: Matrix;
  /** posid → extra cost when the word follows whitespace (dicrc left-space-penalty-factor) */
  spacePenalty: Map<number, number>;
  /** unk.dic's tokens of a category name */
  unknownTokens(category: string): Token[];
  /** the dictionary words starting each eojeol suffix seen (bounded; questions repeat their endings and particles) */
  words: Map<string, DictWord[]>;
}

/** the dictionary's words starting at a position: their length in characters and their tokens */
export interface DictWord { length: number; tokens: Token[] }

/** eojeol suffixes whose words are remembered */
const MAX_MEMO = 8192;

const BOS_TOKEN: Token = { lcAttr: 0, rcAttr: 0, posid: 0, wcost: 0, feature: -1 };


/** the lattice's nodes as rows (row 0: BOS), grown as needed and reused by the next text (one analysis at a time
 * per thread: viterbi does not call itself) */
class Nodes {
  n = 0;
  start = new Int32Array(256);
  end = new Int32Array(256);
  rc = new Int32Array(256);
  cost = new Float64Array(256);
  prev = new Int32Array(256);
  space = new Uint8Array(256);
  unknown = new Uint8Array(256);
  /** (kept after the analysis till overwritten: dictionary tokens the words memo holds anyway; truncating the array
   * gave its storage back and the next text allocated it again) */
  token: Token[] = [];

  add(start: number, end: number, token: Token, unknown: boolean): number {
    const i = this.n++;
    if (i === this.start.length) this.grow();
    this.start[i] = start; this.end[i] = end; this.rc[i] = token.rcAttr; this.unknown[i] = unknown ? 1 : 0;
    this.token[i] = token;
    return i;
  }

  private grow(): void {
    const m = this.start.length * 2;
    const more = <T extends Int32Array | Float64Array | Uint8Array>(a: T, make: (k: number) => T): T => { const b = make(m); b.set(a); return b; };
    this.start = more(this.start, (k) => new Int32Array(k)); this.end = more(this.end, (k) => new Int32Array(k));
    this.rc = more(this.rc, (k) => new Int32Array(k)); this.cost = more(this.cost, (k) => new Float64Array(k));
    this.prev = more(this.prev, (k) => new Int32Array(k)); this.space = more(this.space, (k) => new Uint8Array(k));
    this.unknown = more(this.unknown, (k) => new Uint8Array(k));
  }
}

/** the state of one analysis, reused: the nodes, each position's left nodes (rows, in the order added), the best
 * left node per connection id */
interface Work { nodes: Nodes; ends: number[][]; count: Int32Array; best: BestLeft; penalty: Float64Array; parts: LatticeParts | null }
let work: Work | null = null;

function workFor(p: LatticeParts, n: number): Work {
  if (!work || work.best.seen.length < p.matrix.rsize) work = { nodes: new Nodes(), ends: [], count: new Int32Array(0), best: bestLeft(p.matrix.rsize), penalty: new Float64Array(0), parts: null };
  if (work.parts !== p) { work.penalty = penalties(p.spacePenalty); work.parts = p; }
  // (the lists keep their length and their storage: count[i] says how many of list i's rows are this text's; an
  // array's length set to 0 gives its storage back, and each text allocated it again)
  const ends = work.ends;
  while (ends.length <= n) ends.push([]);
  if (work.count.length <= n) work.count = new Int32Array(2 * n + 2);
  work.count.fill(0, 0, n + 1);
  work.nodes.n = 0;
  return work;
}

/** the left-space penalties by posid (0: none) */
function penalties(m: Map<number, number>): Float64Array {
  let max = 0;
  for (const k of m.keys()) max = Math.max(max, k);
  const a = new Float64Array(max + 1);
  for (const [k, v] of m) a[k] = v;
  return a;
}

/** the best path through text (whitespace between words, not inside them), first word first */
export function viterbi(text: string, p: LatticeParts): LatticeNode[] {
  const n = text.length;
  const w = workFor(p, n);
  const { nodes, ends, count, best } = w;
  const push = (at: number, row: number): void => { ends[at]![count[at]!++] = row; };
  const spaceMask = categoryMask(p.chars, 'SPACE');
  const utf8: Utf8 = { text, bytes: null, byteAt: null, charAt: null };
  push(0, nodes.add(0, 0, BOS_TOKEN, false));
  nodes.cost[0] = 0; nodes.prev[0] = -1; nodes.space[0] = 0;
  for (let pos = 0; pos < n; pos++) {
    const left = ends[pos]!, nLeft = count[pos]!;
    if (nLeft === 0) continue;
    let s = pos;
    while (s < n && p.chars.kindOf(spaceMask, text.charCodeAt(s))) s++;
    if (s === n) { for (let k = 0; k < nLeft; k++) push(n, left[k]!); continue; }
    // every word starting at s joins the same left nodes: the best of them is found once per connection id
    best.round++;
    const from = nodes.n;
    addCandidates(text, s, utf8, p, nodes);
    const space = s > pos ? 1 : 0;
    for (let i = from; i < nodes.n; i++) {
      nodes.space[i] = space;
      connect(i, nodes.token[i]!, left, nLeft, nodes, p, best, w.penalty);
      push(nodes.end[i]!, i);
    }
  }
  best.round++;
  const eos = nodes.add(n, n, BOS_TOKEN, false);
  nodes.space[eos] = 0;
  connect(eos, BOS_TOKEN, ends[n]!, count[n]!, nodes, p, best, w.penalty);
  const path: LatticeNode[] = [];
  for (let x = nodes.prev[eos]!; x > 0; x = nodes.prev[x]!) {
    path.push({ start: nodes.start[x]!, end: nodes.end[x]!, token: nodes.token[x]!, unknown: nodes.unknown[x] === 1, spaceBefore: nodes.space[x] === 1 });
  }
  return path.reverse();
}

/**
 * The best left node per right connection id (lcAttr) for the left nodes of one position (speed23): the words
 * starting there share their connection ids (a surface's readings of one part of speech, the prefixes 가, 가방 …),
 * and the minimum over the left nodes, first one on a tie, is the same for each; a round number marks what is valid.
 */
interface BestLeft { round: number; seen: Uint32Array; cost: Float64Array; prev: Int32Array }

function bestLeft(rsize: number): BestLeft {
  return { round: 0, seen: new Uint32Array(rsize), cost: new Float64Array(rsize), prev: new Int32Array(rsize) };
}

/** node i's cheapest left node among the first nLeft rows of `left` and its cost to here */
function connect(i: number, token: Token, left: number[], nLeft: number, nodes: Nodes, p: LatticeParts, memo: BestLeft, penalty: Float64Array): void {
  const lc = token.lcAttr;
  let best: number, prev: number;
  if (memo.seen[lc] === memo.round) { best = memo.cost[lc]!; prev = memo.prev[lc]!; }
  else {
    const row = p.matrix.row(lc);
    const cost = nodes.cost, rc = nodes.rc;
    best = Infinity; prev = -1;
    for (let k = 0; k < nLeft; k++) {
      const l = left[k]!;
      const c = cost[l]! + row[rc[l]!]!;
      if (c < best) { best = c; prev = l; }
    }
    memo.seen[lc] = memo.round; memo.cost[lc] = best; memo.prev[lc] = prev;
  }
  nodes.cost[i] = best + token.wcost + (nodes.space[i] && token.posid < penalty.length ? penalty[token.posid]! : 0);
  nodes.prev[i] = prev;
}

function categoryMask(chars: CharProperty, name: string): number {
  const i = chars.names.indexOf(name);
  return i < 0 ? 0 : 1 << i;
}

/** the text's UTF-8 bytes and the byte ↔ character offsets, made on the first dictionary search the memo misses */
interface Utf8 { text: string; bytes: Buffer | null; byteAt: Int32Array | null; charAt: Int32Array | null }

function utf8Of(u: Utf8): Utf8 {
  if (u.bytes) return u;
  const { text } = u, n = text.length;
  const bytes = Buffer.from(text, 'utf8');
  const byteAt = new Int32Array(n + 1);
  const charAt = new Int32Array(bytes.length + 1).fill(-1);
  for (let i = 0, b = 0; i <= n; i++) { byteAt[i] = b; charAt[b] = i; if (i < n) b += Buffer.byteLength(text[i]!, 'utf8'); }
  u.bytes = bytes; u.byteAt = byteAt; u.charAt = charAt;
  return u;
}

/** add the words starting at s: the dictionary's, and unknown words when none or when the category always asks */
function addCandidates(text: string, s: number, u: Utf8, p: LatticeParts, nodes: Nodes): void {
  const from = nodes.n;
  for (const w of dictionaryWords(text, s, u, p)) for (const t of w.tokens) nodes.add(s, s + w.length, t, false);
  const info = p.chars.raw(text.charCodeAt(s));
  if (nodes.n > from && !invokes(info)) return;
  const unknowns = p.unknownTokens(p.chars.names[defaultTypeOf(info)] ?? 'DEFAULT');
  const type = typeOf(info);
  let groupEnd = -1;
  if (groups(info)) {
    let e = s + 1;
    while (e < text.length && p.chars.kindOf(type, text.charCodeAt(e))) e++;
    if (e - s <= MAX_GROUP) for (const t of unknowns) nodes.add(s, e, t, true);
    groupEnd = e;
  }
  const length = lengthOf(info);
  for (let i = 1; i <= length; i++) {
    const e = s + i;
    if (e > text.length) break;
    if (e !== groupEnd) for (const t of unknowns) nodes.add(s, e, t, true);
    if (e >= text.length || !p.chars.kindOf(type, text.charCodeAt(e))) break;
  }
  if (nodes.n === from) for (const t of unknowns) nodes.add(s, s + 1, t, true);
}

/** the dictionary words starting at s (no key holds whitespace: the search stops at the eojeol's end), remembered */
function dictionaryWords(text: string, s: number, u: Utf8, p: LatticeParts): DictWord[] {
  let e = text.indexOf(' ', s);
  if (e < 0) e = text.length;
  const key = text.slice(s, e);
  let words = p.words.get(key);
  if (words) return words;
  words = [];
  const found = words;
  const { bytes, byteAt, charAt } = utf8Of(u);
  p.dic.prefixSearch(bytes!, byteAt![s]!, byteAt![e]!, (endByte, value) => {
    const end = charAt![endByte]!;
    if (end < 0) return; // a key ending inside a character cannot happen with UTF-8 keys; kept safe
    found.push({ length: end - s, tokens: Array.from({ length: value & 0xff }, (_, k) => p.dic.token((value >>> 8) + k)) });
  });
  if (p.words.size >= MAX_MEMO) p.words.delete(p.words.keys().next().value!);
  p.words.set(key, words);
  return words;
}
