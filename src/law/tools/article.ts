// get_article: one article with its 항/호/목 structure, a range of articles, or all of them.
import { z } from 'zod';
import type { LawStore } from '../store.js';
import { paragraphsOf, type DocRec } from '../parse.js';
import { parseBoxTables } from '../boxtable.js';
import { articleLabel, articleOrder, parseArticleNo } from '../normalize.js';
import { articleNoSchema, checkArticleNo, dateSchema, decodeCursor, encodeCursor, findDoc, fingerprint, lawIdSchema, ToolError, type ToolCtx } from './common.js';
import { bytes, PAGE_BYTES } from './bound.js';
import { getArticleAsOf } from '../history/asof.js';

// ---------- get_article ----------

export const getArticleSchema = z.object({
  law_id: lawIdSchema,
  article_no: articleNoSchema.optional().describe('Article number: 15 or "15" (제15조), "15-2" (제15조의2); "제15조의2" and "15조의2" are accepted too. Omit (with no range) for all articles'),
  range: z.string().max(60).optional().describe('Articles first-last inclusive, e.g. "1-5", "15-2-20" (제15조의2 to 제20조), "3~7"'),
  date: dateSchema('date').optional().describe('YYYYMMDD: the text in force on that day (by enforcement date 시행일자); default the latest promulgated'),
  cursor: z.string().max(500).optional().describe('next_cursor of the previous page (several articles come in pages of about 20 KB)'),
}).strict();

function parseRange(r: string): [string, string] {
  const t = r.normalize('NFKC').replace(/\s+/g, '');
  const bad = () => new ToolError(`range must be first-last article numbers like "1-5" or "15-2-20" (제15조의2 to 제20조) but received "${r}"`, 'range');
  if (t.includes('~')) {
    const [a, b, ...more] = t.split('~');
    const pa = parseArticleNo(a ?? ''), pb = parseArticleNo(b ?? '');
    if (more.length || !pa || !pb) throw bad();
    return [pa, pb];
  }
  const parts = t.split('-');
  for (let k = 1; k < parts.length; k++) {
    const pa = parseArticleNo(parts.slice(0, k).join('-')), pb = parseArticleNo(parts.slice(k).join('-'));
    if (pa && pb && articleOrder(pa) <= articleOrder(pb)) return [pa, pb];
  }
  throw bad();
}

function articleOut(law: LawStore, d: DocRec, seq: number, full: boolean): Record<string, unknown> | null {
  const a = law.arts.get([d.id, seq]);
  if (!a) return null;
  const o: Record<string, unknown> = { no: a.no, label: articleLabel(a.no), title: a.title, content: a.content, enforcement_date: a.enforcement_date ?? d.enforcement_date };
  if (a.chapter) o.chapter = a.chapter;
  if (a.deleted) o.deleted = true;
  if (full) {
    o.paragraphs = paragraphsOf(a.content);
    if (/[\u2500-\u257f]/.test(a.content)) o.tables = parseBoxTables(a.content);
  }
  return o;
}

export function getArticle(ctx: ToolCtx, args: z.infer<typeof getArticleSchema>) {
  const { law } = ctx;
  const d = findDoc(law, args.law_id);
  const base = { law_id: d.id, law_name: d.name, entity_type: d.entity_type };
  if (args.article_no !== undefined && args.range !== undefined) throw new ToolError('give either article_no or range, not both', 'range');
  if (args.date !== undefined) return getArticleAsOf(ctx, d, String(args.date), { article_no: args.article_no === undefined ? undefined : String(args.article_no), range: args.range === undefined ? undefined : parseRange(args.range) });
  if (args.article_no !== undefined) {
    const no = checkArticleNo(args.article_no);
    const seq = law.articleSeq(d.id, no) ?? -1;
    if (seq < 0) {
      const toc = law.tocOf(d.id);
      const near = toc.filter((t) => Math.floor(articleOrder(t.no)) === Math.floor(articleOrder(no))).map((t) => t.no);
      throw new ToolError(`${d.name} has no article ${no} (${articleLabel(no)}); it has ${toc.length} articles${toc.length ? `, ${toc[0]!.no} to ${toc[toc.length - 1]!.no}` : ''}${near.length ? `; nearby: ${near.join(', ')}` : ''}`, 'article_no', 'NOT_FOUND');
    }
    const article = articleOut(law, d, seq, true)!;
    // a very long article: the structured copies (paragraphs, tables) go first, the text itself stays whole when it can
    if (bytes(article) > PAGE_BYTES) {
      delete article.paragraphs;
      delete article.tables;
      article.note = 'paragraphs and tables are left out of this long article to keep the answer under 50 KB; content has the full text';
    }
    return { ...base, article };
  }
  const toc = law.tocOf(d.id);
  let seqs = toc.map((_, i) => i);
  if (args.range !== undefined) {
    const [a, b] = parseRange(args.range);
    const lo = articleOrder(a), hi = articleOrder(b);
    seqs = seqs.filter((i) => { const o = articleOrder(toc[i]!.no); return o >= lo && o <= hi; });
  }
  const fp = fingerprint(['get_article', d.id, args.range ?? null]);
  const start = args.cursor ? Number(decodeCursor(args.cursor, fp).o) || 0 : 0;
  const articles: Array<Record<string, unknown>> = [];
  let used = 0, i = start;
  for (; i < seqs.length; i++) {
    const o = articleOut(law, d, seqs[i]!, false);
    if (!o) continue;
    const b = bytes(o) + 1;
    if (articles.length && used + b > PAGE_BYTES) break;
    used += b;
    articles.push(o);
  }
  const out: Record<string, unknown> = { ...base, total: seqs.length, count: articles.length, offset: start, articles };
  if (i < seqs.length) {
    out.next_cursor = encodeCursor({ f: fp, o: i });
    out.note = `articles ${start + 1}-${i} of ${seqs.length} shown (pages of about 20 KB); call get_article again with the same law_id${args.range ? ' and range' : ''} and cursor = next_cursor for the rest`;
  }
  return out;
}
