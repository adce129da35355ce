// A statute version parsed article by article from the raw file bytes, reusing the previous version of the same file:
// the body is cut at the lines parseStatuteMd treats as headings (articles before the first 부칙; 편/장/절/관 headings),
// each article section is hashed as bytes, and only sections not in the previous version are decoded and parsed
// (an amendment changes a few articles of a statute that may have a thousand). Same result as parseStatuteMd.
import { createHash } from 'node:crypto';
import { parseStatuteMd, type DocRec } from '../parse.js';
import { normText } from '../normalize.js';

const ART_HEAD = /^#####\s+제(\d+)조(?:의(\d+))?\s*(?:\((.*)\))?\s*$/;
const HEAD = /^(#{1,4})\s+(.*)$/;
const NL_HASH = Buffer.from('\n#');
const MAX_FILES = 800;

export interface SecArticle { no: string; title: string; content: string }
/** An article with its digest (see articleDigest) and its title and content as UTF-8 (title bytes first, `tl` long). */
export interface SecEntry { a: SecArticle; d: string; bytes: Buffer; tl: number }

/** Identity of an article text: sha256 of title NUL content, 22 base64url characters (the chain writer's key). */
export const articleDigest = (title: string, text: string): string => createHash('sha256').update(title).update('\0').update(text).digest('base64url').slice(0, 22);

export class SectionParser {
  /** file → section hash → article, of the last version parsed (least recently used files dropped) */
  private files = new Map<string, Map<string, SecEntry>>();
  hits = 0;
  misses = 0;

  /** The version's metadata (from the frontmatter; article_count and the inferred revision type are not set) and its
   *  articles, each with its digest and UTF-8 bytes (kept with the section, so an unchanged one costs nothing). */
  parseEntries(buf: Buffer, file: string): { doc: DocRec; entries: SecEntry[] } {
    const bodyStart = bodyOffset(buf);
    const { doc } = parseStatuteMd(buf.toString('utf8', 0, bodyStart), file); // the frontmatter alone
    const prev = this.files.get(file);
    const next = new Map<string, SecEntry>();
    const entries: SecEntry[] = [];
    const cuts = headings(buf, bodyStart);
    for (let i = 0; i < cuts.length; i++) {
      const c = cuts[i]!;
      if (c.kind !== 'art') continue;
      const end = cuts[i + 1]?.at ?? buf.length;
      const sec = buf.subarray(c.at, end);
      const h = createHash('sha1').update(sec).digest('base64');
      let e = prev?.get(h) ?? next.get(h);
      if (e) this.hits++;
      else {
        this.misses++;
        const p = parseStatuteMd(sec.toString('utf8'), null).articles[0];
        e = entryOf(p ? { no: p.no, title: p.title, content: p.content } : { no: '', title: '', content: '' });
      }
      next.set(h, e);
      entries.push(e);
    }
    this.files.delete(file);
    this.files.set(file, next);
    if (this.files.size > MAX_FILES) this.files.delete(this.files.keys().next().value!);
    if (entries.length === 1 && entries[0]!.a.no === '0') doc.repealed = true;
    return { doc, entries };
  }
}

function entryOf(a: SecArticle): SecEntry {
  const t = Buffer.from(a.title, 'utf8');
  return { a, d: articleDigest(a.title, a.content), bytes: Buffer.concat([t, Buffer.from(a.content, 'utf8')]), tl: t.length };
}

/** Byte offset of the body (after the frontmatter), as splitFrontmatter cuts it. */
function bodyOffset(buf: Buffer): number {
  if (buf.toString('latin1', 0, 3) !== '---') return 0;
  const end = buf.indexOf('\n---', 3);
  if (end < 0) return 0;
  const nl = buf.indexOf(10, end + 4);
  return nl < 0 ? buf.length : nl + 1;
}

/** The lines that end an article in parseStatuteMd: article headings (kind art) and section headings, up to 부칙. */
function headings(buf: Buffer, from: number): Array<{ at: number; kind: 'art' | 'head' | 'end' }> {
  const out: Array<{ at: number; kind: 'art' | 'head' | 'end' }> = [];
  let pos = from > 0 ? from - 1 : -1;
  for (;;) {
    let at: number;
    if (pos < 0) { at = buf[0] === 0x23 ? 0 : -1; pos = 0; if (at < 0) continue; }
    else { const i = buf.indexOf(NL_HASH, pos); if (i < 0) break; at = i + 1; }
    const nl = buf.indexOf(10, at);
    const lineEnd = nl < 0 ? buf.length : nl;
    pos = lineEnd;
    const line = buf.toString('utf8', at, lineEnd).replace(/\r$/, '');
    if (ART_HEAD.test(line)) { out.push({ at, kind: 'art' }); continue; }
    const hm = HEAD.exec(line);
    if (!hm) continue;
    const t = normText(hm[2]!);
    if (/^부칙/.test(t)) { out.push({ at, kind: 'end' }); break; }
    if (hm[1]!.length === 1 && !/^제\d+편/.test(t)) continue; // the title: not a cut
    out.push({ at, kind: 'head' });
  }
  return out;
}
