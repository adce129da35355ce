// get_law: metadata, article list and annex list of one statute or rule.
import { z } from 'zod';
import type { DocRec } from '../parse.js';
import { dateSchema, entry, findDoc, lawIdSchema, type ToolCtx } from './common.js';
import { getLawAsOf } from '../history/asof.js';

// ---------- get_law ----------

export const getLawSchema = z.object({
  law_id: lawIdSchema,
  include: z.enum(['meta', 'articles', 'tables', 'all'], { error: 'include must be one of meta, articles, tables, all (default all)' }).optional().describe('meta, articles, tables or all (default)'),
  date: dateSchema('date').optional().describe('YYYYMMDD: the version in force on that day (by enforcement date 시행일자); default the latest promulgated'),
}).strict();

export function metaOf(d: DocRec, now: number): Record<string, unknown> {
  const m = entry(d, now);
  if (d.entity_type === 'law') {
    Object.assign(m, { promulgation_date: d.promulgation_date, promulgation_no: d.promulgation_no, mst: d.mst });
    if (d.abbreviation) m.abbreviation = d.abbreviation;
    if (d.revision_inferred) m.revision_type_inferred = true;
  } else m.issuance_no = d.promulgation_no;
  if (d.source_url) m.source_url = d.source_url;
  return m;
}

export function getLaw(ctx: ToolCtx, args: z.infer<typeof getLawSchema>) {
  const { law, now } = ctx;
  const d = findDoc(law, args.law_id);
  const inc = args.include ?? 'all';
  if (args.date !== undefined) return getLawAsOf(ctx, d, args.date, inc);
  const out: Record<string, unknown> = { entity_type: d.entity_type };
  if (inc === 'meta' || inc === 'all') out.meta = metaOf(d, now);
  if (inc === 'articles' || inc === 'all') {
    out.articles = law.tocOf(d.id).map((t) => (t.deleted ? { no: t.no, title: t.title, preview: t.preview, deleted: true } : { no: t.no, title: t.title, preview: t.preview }));
  }
  if (inc === 'tables' || inc === 'all') {
    out.tables = d.tables.map((t) => ({ table_no: t.table_no, kind: t.kind, title: t.title, structured: Boolean(t.has_body), ...(t.pdf_url ? { pdf_url: t.pdf_url } : {}) }));
  }
  return out;
}
