// get_law / get_article / GET /api/v1/laws/{id} with `date`: the text as in force on that day (by 시행일자).
import { paragraphsOf, type DocRec } from '../parse.js';
import { parseBoxTables } from '../boxtable.js';
import { articleLabel, articleOrder, isYmd, parseArticleNo } from '../normalize.js';
import { metaOf, ToolError, type ToolCtx } from '../tools/common.js';
import { asOfBlock, versionInForce, type Art, type InForce } from './versions.js';

export function checkAsOfDate(date: string): void {
  if (!isYmd(date)) throw new ToolError(`date must be a real date written YYYYMMDD (e.g. 20240101) but received "${date}"`, 'date');
}

/** The version in force on `date`, or a NOT_FOUND tool error naming the first enforcement date. */
export function inForceOrThrow(ctx: ToolCtx, d: DocRec, date: string): InForce {
  checkAsOfDate(date);
  if (d.entity_type !== 'law') throw new ToolError(`date is supported for statutes only; ${d.name} is an administrative rule`, 'date');
  const f = versionInForce(ctx.law, d, date);
  if (!f.version) {
    const first = f.versions.map((v) => v.enforcement_date ?? v.promulgation_date ?? '').sort()[0];
    throw new ToolError(`no stored version of ${d.name} was in force on ${date}${first ? `; the earliest stored version takes effect on ${first}` : ''}`, 'date', 'NOT_FOUND');
  }
  return f;
}

function artOut(a: Art, enforcement: string | null, full: boolean): Record<string, unknown> {
  const o: Record<string, unknown> = { no: a.no, label: articleLabel(a.no), title: a.title, content: a.content, enforcement_date: enforcement };
  if (/^삭제\s*(<[^>]*>)?\s*$/.test(a.content.trim())) o.deleted = true;
  if (full) {
    o.paragraphs = paragraphsOf(a.content);
    if (/[\u2500-\u257f]/.test(a.content)) o.tables = parseBoxTables(a.content);
  }
  return o;
}

function versionMeta(ctx: ToolCtx, d: DocRec, f: InForce, date: string): Record<string, unknown> {
  const v = f.version!;
  const m = metaOf(d, ctx.now);
  Object.assign(m, { law_name: v.law_name || d.name, mst: v.mst, promulgation_date: v.promulgation_date, promulgation_no: v.promulgation_no, enforcement_date: v.enforcement_date, revision_type: v.revision_type, status: 'in_force' });
  delete m.revision_type_inferred;
  void date;
  return m;
}

export function getLawAsOf(ctx: ToolCtx, d: DocRec, date: string, inc: string): Record<string, unknown> {
  const f = inForceOrThrow(ctx, d, date);
  const out: Record<string, unknown> = { entity_type: d.entity_type, as_of: asOfBlock(date, f) };
  if (inc === 'meta' || inc === 'all') out.meta = versionMeta(ctx, d, f, date);
  if (inc === 'articles' || inc === 'all') {
    out.articles = f.version!.load().map((a) => {
      const preview = a.content.replace(/\s+/g, ' ').slice(0, 80);
      const o: Record<string, unknown> = { no: a.no, title: a.title, preview: preview.length === 80 ? preview + '…' : preview };
      if (/^삭제\s*(<[^>]*>)?\s*$/.test(a.content.trim())) o.deleted = true;
      return o;
    });
  }
  if (inc === 'tables' || inc === 'all') {
    out.tables = d.tables.map((t) => ({ table_no: t.table_no, kind: t.kind, title: t.title, structured: Boolean(t.has_body), ...(t.pdf_url ? { pdf_url: t.pdf_url } : {}) }));
    out.tables_note = 'annex list of the current version';
  }
  return out;
}

export function getArticleAsOf(ctx: ToolCtx, d: DocRec, date: string, args: { article_no?: string; range?: [string, string] }): Record<string, unknown> {
  const f = inForceOrThrow(ctx, d, date);
  const v = f.version!;
  const base = { law_id: d.id, law_name: v.law_name || d.name, entity_type: d.entity_type, as_of: asOfBlock(date, f) };
  if (args.article_no !== undefined) {
    const no = parseArticleNo(args.article_no);
    if (!no) throw new ToolError(`article_no must be an article number like "15" or "15-2" (제15조의2) but received "${args.article_no}"`, 'article_no');
    const a = v.one(no);
    if (!a) throw new ToolError(`${d.name} as in force on ${date} (MST ${v.mst}, 시행 ${v.enforcement_date}) has no article ${no} (${articleLabel(no)})`, 'article_no', 'NOT_FOUND');
    return { ...base, article: artOut(a, v.enforcement_date, true) };
  }
  let arts = v.load();
  if (args.range) {
    const lo = articleOrder(args.range[0]), hi = articleOrder(args.range[1]);
    arts = arts.filter((a) => { const o = articleOrder(a.no); return o >= lo && o <= hi; });
  }
  return { ...base, count: arts.length, articles: arts.map((a) => artOut(a, v.enforcement_date, false)) };
}
