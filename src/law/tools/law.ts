// get_law: metadata, article list and annex list of one statute or rule.
import { z } from 'zod';
import { metaOf, dateSchema, tableTitle, decodeCursor, encodeCursor, findDoc, fingerprint, lawIdSchema, type ToolCtx } from './common.js';
import { bytes, fitCount, PAGE_BYTES } from './bound.js';
import { getLawAsOf } from '../history/asof.js';

export { metaOf };

// ---------- get_law ----------

export const getLawSchema = z.object({
  law_id: lawIdSchema,
  include: z.enum(['meta', 'articles', 'tables', 'all'], { error: 'include must be one of meta, articles, tables, all (default all)' }).optional().describe('meta, articles, tables or all (default)'),
  date: dateSchema('date').optional().describe('YYYYMMDD: the version in force on that day (by enforcement date 시행일자); default the latest promulgated'),
  cursor: z.string().max(500).optional().describe('next_cursor of the previous page (long article and annex lists, e.g. 민법, come in pages of about 20 KB)'),
}).strict();


export function getLaw(ctx: ToolCtx, args: z.infer<typeof getLawSchema>) {
  const { law, now } = ctx;
  const d = findDoc(law, args.law_id);
  const inc = args.include ?? 'all';
  if (args.date !== undefined) return getLawAsOf(ctx, d, String(args.date), inc);
  const out: Record<string, unknown> = { entity_type: d.entity_type };
  const fp = fingerprint(['get_law', d.id, inc]);
  const c = args.cursor ? decodeCursor(args.cursor, fp) : { a: 0, t: 0 };
  let ai = Number(c.a) || 0, ti = Number(c.t) || 0;
  if (inc === 'meta' || inc === 'all') out.meta = metaOf(d, now);
  let budget = PAGE_BYTES - bytes(out);
  const arts = inc === 'articles' || inc === 'all' ? law.tocOf(d.id) : [];
  const tabs = inc === 'tables' || inc === 'all' ? d.tables : [];
  // annexes/forms first (at most a third of the page when articles follow), then articles fill the page
  if (inc === 'tables' || inc === 'all') {
    const items = tabs.slice(ti).map((t) => ({ table_no: t.table_no, kind: t.kind, title: tableTitle(t.title, t.kind, t.table_no, law, d.id), structured: Boolean(t.has_body), ...(t.pdf_url ? { pdf_url: t.pdf_url } : {}) }));
    const n = items.length ? fitCount(items, inc === 'all' && ai < arts.length ? Math.floor(budget / 3) : budget) : 0;
    out.tables = items.slice(0, n);
    out.tables_total = tabs.length;
    budget -= bytes(out.tables);
    ti += n;
  }
  if (inc === 'articles' || inc === 'all') {
    const items = arts.slice(ai).map((t) => (t.deleted ? { no: t.no, title: t.title, preview: t.preview, deleted: true } : { no: t.no, title: t.title, preview: t.preview }));
    const n = items.length && budget > 1000 ? fitCount(items, budget) : 0;
    out.articles = items.slice(0, n);
    out.articles_total = arts.length;
    if (n) out.articles_offset = ai;
    ai += n;
  }
  if (ai < arts.length || ti < tabs.length) {
    out.next_cursor = encodeCursor({ f: fp, a: ai, t: ti });
    out.note = `page ${Number(c.a) || 0 ? 'continued' : '1'}: articles up to ${ai} of ${arts.length}, annexes/forms up to ${ti} of ${tabs.length}; call get_law again with the same law_id and include and cursor = next_cursor for the rest (answers stay under 50 KB)`;
  }
  return out;
}
