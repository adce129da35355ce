// MeCab's lattice and Viterbi search over one text (MeCab tokenizer.cpp / viterbi.cpp, with mecab-ko's left-space
// penalty): every dictionary word starting at each position, unknown words by character category, the cheapest path
// of word costs plus connection costs. Hand-written with the reader (dictionary.ts says why).
import type { CharProperty } from './char-property.js';
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
  cost: number;
  prev: LatticeNode | null;
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

/** the best path through text (whitespace between words, not inside them), first word first */
export function viterbi(text: string, p: LatticeParts): LatticeNode[] {
  const n = text.length;
  const bytes = Buffer.from(text, 'utf8');
  const byteAt = new Int32Array(n + 1);
  const charAt = new Int32Array(bytes.length + 1).fill(-1);
  for (let i = 0, b = 0; i <= n; i++) { byteAt[i] = b; charAt[b] = i; if (i < n) b += Buffer.byteLength(text[i]!, 'utf8'); }
  const spaceMask = categoryMask(p.chars, 'SPACE');
  const ends: LatticeNode[][] = Array.from({ length: n + 1 }, () => []);
  ends[0]!.push({ start: 0, end: 0, token: BOS_TOKEN, unknown: false, spaceBefore: false, cost: 0, prev: null });
  const memo = bestLeft(p.matrix.rsize);
  for (let pos = 0; pos < n; pos++) {
    if (ends[pos]!.length === 0) continue;
    let s = pos;
    while (s < n && p.chars.kindOf(spaceMask, text.charCodeAt(s))) s++;
    if (s === n) { ends[n]!.push(...ends[pos]!); continue; }
    // every word starting at s joins the same left nodes: the best of them is found once per connection id
    memo.round++;
    for (const node of candidates(text, s, bytes, byteAt, charAt, p)) {
      node.spaceBefore = s > pos;
      connect(node, ends[pos]!, p, memo);
      ends[node.end]!.push(node);
    }
  }
  const eos: LatticeNode = { start: n, end: n, token: BOS_TOKEN, unknown: false, spaceBefore: false, cost: 0, prev: null };
  memo.round++;
  connect(eos, ends[n]!, p, memo);
  const path: LatticeNode[] = [];
  for (let x = eos.prev; x && x.prev; x = x.prev) path.push(x);
  return path.reverse();
}

/**
 * The best left node per right connection id (lcAttr) for the left nodes of one position (speed23): the words
 * starting there share their connection ids (a surface's readings of one part of speech, the prefixes 가, 가방 …),
 * and the minimum over the left nodes, first one on a tie, is the same for each; a round number marks what is valid.
 */
interface BestLeft { round: number; seen: Uint32Array; cost: Float64Array; prev: (LatticeNode | null)[] }
let shared: BestLeft | null = null;

function bestLeft(rsize: number): BestLeft {
  if (!shared || shared.seen.length < rsize) shared = { round: 0, seen: new Uint32Array(rsize), cost: new Float64Array(rsize), prev: new Array<LatticeNode | null>(rsize).fill(null) };
  return shared;
}

function connect(node: LatticeNode, left: LatticeNode[], p: LatticeParts, memo: BestLeft): void {
  const lc = node.token.lcAttr;
  let best: number, prev: LatticeNode | null;
  if (memo.seen[lc] === memo.round) { best = memo.cost[lc]!; prev = memo.prev[lc]!; }
  else {
    const row = p.matrix.row(lc);
    best = Infinity; prev = null;
    for (let i = 0; i < left.length; i++) {
      const l = left[i]!;
      const c = l.cost + row[l.token.rcAttr]!;
      if (c < best) { best = c; prev = l; }
    }
    memo.seen[lc] = memo.round; memo.cost[lc] = best; memo.prev[lc] = prev;
  }
  node.cost = best + node.token.wcost + (node.spaceBefore ? p.spacePenalty.get(node.token.posid) ?? 0 : 0);
  node.prev = prev;
}

function categoryMask(chars: CharProperty, name: string): number {
  const i = chars.names.indexOf(name);
  return i < 0 ? 0 : 1 << i;
}

/** the words starting at s: the dictionary's, and unknown words when none or when the category always asks */
function candidates(text: string, s: number, bytes: Buffer, byteAt: Int32Array, charAt: Int32Array, p: LatticeParts): LatticeNode[] {
  const out: LatticeNode[] = [];
  const node = (end: number, token: Token, unknown: boolean): LatticeNode => ({ start: s, end, token, unknown, spaceBefore: false, cost: 0, prev: null });
  for (const w of dictionaryWords(text, s, bytes, byteAt, charAt, p)) for (const t of w.tokens) out.push(node(s + w.length, t, false));
  const info = p.chars.info(text.charCodeAt(s));
  if (out.length > 0 && !info.invoke) return out;
  const unknowns = p.unknownTokens(p.chars.names[info.defaultType] ?? 'DEFAULT');
  const add = (end: number): void => { for (const t of unknowns) out.push(node(end, t, true)); };
  let groupEnd = -1;
  if (info.group) {
    let e = s + 1;
    while (e < text.length && p.chars.kindOf(info.type, text.charCodeAt(e))) e++;
    if (e - s <= MAX_GROUP) add(e);
    groupEnd = e;
  }
  for (let i = 1; i <= info.length; i++) {
    const e = s + i;
    if (e > text.length) break;
    if (e !== groupEnd) add(e);
    if (e >= text.length || !p.chars.kindOf(info.type, text.charCodeAt(e))) break;
  }
  if (out.length === 0) add(s + 1);
  return out;
}

/** the dictionary words starting at s (no key holds whitespace: the search stops at the eojeol's end), remembered */
function dictionaryWords(text: string, s: number, bytes: Buffer, byteAt: Int32Array, charAt: Int32Array, p: LatticeParts): DictWord[] {
  let e = text.indexOf(' ', s);
  if (e < 0) e = text.length;
  const key = text.slice(s, e);
  let words = p.words.get(key);
  if (words) return words;
  words = [];
  const found = words;
  p.dic.prefixSearch(bytes, byteAt[s]!, byteAt[e]!, (endByte, value) => {
    const end = charAt[endByte]!;
    if (end < 0) return; // a key ending inside a character cannot happen with UTF-8 keys; kept safe
    found.push({ length: end - s, tokens: Array.from({ length: value & 0xff }, (_, k) => p.dic.token((value >>> 8) + k)) });
  });
  if (p.words.size >= MAX_MEMO) p.words.delete(p.words.keys().next().value!);
  p.words.set(key, words);
  return words;
}
