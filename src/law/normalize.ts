// Korean text normalisation, tokens and character bigrams for the statute search index.

/** Middle dots (U+00B7 ·, U+318D ㆍ, U+30FB ・, U+2027 ‧, U+FF65 ･) all become U+318D ㆍ, as legalize-kr writes titles. */
const DOTS = /[\u00B7\u30FB\u2027\uFF65\u2219\u22C5\u119E]/g;
const ALL_DOTS = /[\u00B7\u30FB\u2027\uFF65\u2219\u22C5\u119E\u318D]/g;

/** NFKC (full-width forms → ASCII; NFKC would turn ㆍ U+318D into U+119E, so dots are mapped after it), one kind of middle dot, collapsed whitespace. */
export function normText(s: string): string {
  return s.normalize('NFKC').replace(DOTS, 'ㆍ').replace(/\s+/g, ' ').trim();
}

/** the two UTF-16 units of s at i as one number: equal iff the two characters are (the name index's and the phrase
 * index's bucket of a key by its first two characters) */
export const pairCode = (s: string, i = 0): number => s.charCodeAt(i) * 65536 + s.charCodeAt(i + 1);

/** Key for matching names: no spaces, no middle dots or other punctuation, NFKC, lower-case Latin. */
export function nameKey(s: string): string {
  return keyChars(s.normalize('NFKC').toLowerCase(), false);
}

/** nameKeyLines(s).join('\n') without the split and the join (the article titles of a document as one string) */
export function nameKeyText(s: string): string {
  return keyChars(s.normalize('NFKC').toLowerCase(), true);
}

/** nameKey of every line of s (one pass over the whole text instead of one per line: the article titles of a
 * document, read for title evidence). Same keys as s.split('\n').map(nameKey). */
export function nameKeyLines(s: string): string[] {
  return nameKeyText(s).split('\n');
}

/** per UTF-16 unit of the BMP: 1 = kept in a name key (a letter or number, not a middle dot); made on first use */
let KEY_CHAR: Uint8Array | null = null;
function keyCharTable(): Uint8Array {
  const t = new Uint8Array(65536);
  const ln = /[\p{L}\p{N}]/u;
  for (let c = 0; c < 65536; c++) if ((c < 0xd800 || c > 0xdfff) && ln.test(String.fromCharCode(c))) t[c] = 1;
  for (const d of '\u00B7\u30FB\u2027\uFF65\u2219\u22C5\u119E\u318D') t[d.charCodeAt(0)] = 0;
  return t;
}

/**
 * s without the characters a name key drops (all but letters and numbers, middle dots too; '\n' kept when asked),
 * as `s.replace(ALL_DOTS, '').replace(/[^\p{L}\p{N}]+/gu, '')` answers it, by a table instead of the Unicode
 * property regex (which took ~0.7 µs a character: a document's article titles cost 0.4 ms). A string with a
 * surrogate (a character beyond the BMP) takes the regex.
 */
function keyChars(s: string, keepNewline: boolean): string {
  const keep = (KEY_CHAR ??= keyCharTable());
  let out = '', start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (keep[c] === 1 || (c === 10 && keepNewline)) continue;
    if (c >= 0xd800 && c <= 0xdfff) return s.replace(ALL_DOTS, '').replace(keepNewline ? /[^\p{L}\p{N}\n]+/gu : /[^\p{L}\p{N}]+/gu, '');
    if (i > start) out += s.slice(start, i);
    start = i + 1;
  }
  return start === 0 ? s : out + s.slice(start);
}

/** Trailing particles (josa) and a few endings stripped from a token when enough of the word is left. */
const JOSA = ['에서는', '으로서', '으로써', '에게서', '에서', '에게', '으로', '부터', '까지', '이나', '라도', '마다', '은', '는', '이', '가', '을', '를', '의', '에', '와', '과', '로', '도', '만'];

export function stripJosa(tok: string): string {
  for (const j of JOSA) {
    if (tok.length - j.length >= 2 && tok.endsWith(j)) return tok.slice(0, tok.length - j.length);
  }
  return tok;
}

const TOKEN = /[\p{L}\p{N}]+/gu;

/** Word tokens (NFKC, lower case, josa stripped). */
export function tokens(s: string): string[] {
  const out: string[] = [];
  const t = s.normalize('NFKC').toLowerCase();
  for (const m of t.matchAll(TOKEN)) out.push(stripJosa(m[0]));
  return out;
}

/** UTF-16 code unit → compact word-character index (0 = separator); upper-case ASCII folds to lower. Fits 15 bits. */
const CODE = new Uint16Array(65536);
(() => {
  let k = 1;
  for (let c = 0xac00; c <= 0xd7a3; c++) CODE[c] = k++;
  for (let c = 48; c <= 57; c++) CODE[c] = k++;
  for (let c = 97; c <= 122; c++) { CODE[c] = k; CODE[c - 32] = k; k++; }
  for (let c = 0x3131; c <= 0x318c; c++) if (c !== 0x318d) CODE[c] = k++;
  for (let c = 0x4e00; c <= 0x9fff; c++) CODE[c] = k++;
})();
const JOSA_CODES = JOSA.map((j) => [...j].map((ch) => ch.charCodeAt(0)));
const JOSA_LAST = new Set(JOSA_CODES.map((j) => j[j.length - 1]!));

/** Term ids of a text: character bigrams within each token (josa stripped), a unigram for 1-char tokens.
 *  A term id is a*32768+b of the compact indices (a small integer). Hot path: no regex, no allocation. */
export function termIds(s: string, into: number[] = []): number[] {
  if (/[\uff00-\uffef]/.test(s)) s = s.normalize('NFKC');
  const n = s.length;
  let i = 0;
  while (i < n) {
    if (CODE[s.charCodeAt(i)] === 0) { i++; continue; }
    let j = i + 1;
    while (j < n && CODE[s.charCodeAt(j)] !== 0) j++;
    let end = j;
    if (end - i >= 3 && JOSA_LAST.has(s.charCodeAt(end - 1))) {
      for (const jc of JOSA_CODES) {
        const L = jc.length;
        if (end - i - L < 2) continue;
        let ok = true;
        for (let k = 0; k < L; k++) if (s.charCodeAt(end - L + k) !== jc[k]) { ok = false; break; }
        if (ok) { end -= L; break; }
      }
    }
    if (end - i === 1) into.push(CODE[s.charCodeAt(i)]! * 32768);
    else for (let k = i; k + 1 < end; k++) into.push(CODE[s.charCodeAt(k)]! * 32768 + CODE[s.charCodeAt(k + 1)]!);
    i = j;
  }
  return into;
}

/** Bigrams of a name key (used by the in-memory name index). */
export function bigrams(key: string): string[] {
  if (key.length < 2) return key ? [key] : [];
  const out: string[] = [];
  for (let i = 0; i + 1 < key.length; i++) out.push(key.slice(i, i + 2));
  return out;
}

/** "15", "15-2", "제15조의2", "15의2", "제 15 조" → canonical "15" / "15-2"; null when not an article number. */
export function parseArticleNo(s: string): string | null {
  const t = s.normalize('NFKC').replace(/\s+/g, '');
  // 편-numbered rules (금융투자업규정): 제1-2조의3 → "1-2-3"
  const r = /^(?:제)?(\d+)-(\d+)(?:조)?(?:(?:의|-)(\d+))(?:조)?$/.exec(t);
  if (r) return `${Number(r[1])}-${Number(r[2])}-${Number(r[3])}`;
  let m = /^(?:제)?(\d+)(?:조)?(?:(?:의|-|_|\.)(\d+))?(?:조)?$/.exec(t);
  if (!m) m = /^제(\d+)조의(\d+)$/.exec(t);
  if (!m) return null;
  const main = String(Number(m[1]));
  return m[2] ? `${main}-${Number(m[2])}` : main;
}

/** "15-2" → "제15조의2" */
export function articleLabel(no: string): string {
  const [a, b, c] = no.split('-');
  if (c) return `제${a}-${b}조의${c}`;
  return b ? `제${a}조의${b}` : `제${a}조`;
}

/** Sort key of an article number ("15-2" → 15.002). */
export function articleOrder(no: string): number {
  const [a, b, c] = no.split('-');
  return Number(a) + (b ? Number(b) / 1000 : 0) + (c ? Number(c) / 1e6 : 0);
}

/** Annex number: "1", "별표 1", "별표2의2", "2-2", "0002-02", "별지 3", "서식1" → { kind, no } with no like "2" / "2-2". */
export function parseTableNo(s: string): { kind: string | null; no: string } | null {
  const t = s.normalize('NFKC').replace(/[\s\[\]<>]+/g, '');
  const m = /^(별표|별지|서식|기타|별첨)?(?:제)?(\d+)(?:호)?(?:(?:의|-|_)(\d+))?(?:서식)?$/.exec(t);
  if (!m) return null;
  const main = String(Number(m[2]));
  const branch = m[3] && Number(m[3]) > 0 ? `-${Number(m[3])}` : '';
  const kind = m[1] === '서식' ? '별지' : m[1] ?? null;
  return { kind, no: main + branch };
}

/** "2026-03-10", "2026.3.10", "20260310" → "20260310"; null when malformed or not a real date. */
export function normDate(s: unknown): string | null {
  if (s === null || s === undefined) return null;
  const t = String(s).trim();
  let m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(t);
  if (!m) m = /^(\d{4})\.\s*(\d{1,2})\.\s*(\d{1,2})\.?$/.exec(t);
  if (!m) return null;
  const y = m[1]!, mo = m[2]!.padStart(2, '0'), d = m[3]!.padStart(2, '0');
  return `${y}${mo}${d}`;
}

/** Strict YYYYMMDD check: a real calendar date (9999-01-01 style placeholders allowed). */
export function isYmd(s: string): boolean {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (!m) return false;
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const dim = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= dim;
}

/** Today in Korea (UTC+9) as YYYYMMDD. */
export function kstToday(nowMs: number): string {
  const d = new Date(nowMs + 9 * 3600_000);
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** Display width of a string in a fixed-width layout where Hangul and other wide forms take 2 columns. */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += charWidth(ch.codePointAt(0)!);
  return w;
}

export function charWidth(cp: number): number {
  if (
    (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x2500 && cp <= 0x257f) || (cp >= 0x3000 && cp <= 0x33ff) || (cp >= 0x2460 && cp <= 0x24ff) || (cp >= 0x25a0 && cp <= 0x26ff) ||
    // East Asian ambiguous forms, full width in the Korean fixed-width layout of the annexes
    cp === 0xa7 || cp === 0xa8 || cp === 0xb0 || cp === 0xb1 || cp === 0xb4 || cp === 0xb6 || cp === 0xb7 || cp === 0xd7 || cp === 0xf7 ||
    (cp >= 0x2010 && cp <= 0x2027) || (cp >= 0x2030 && cp <= 0x203b) || (cp >= 0x2100 && cp <= 0x22ff)
  ) return 2;
  return 1;
}
