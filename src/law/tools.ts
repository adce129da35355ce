// The eight legal-information tools as plain functions over the LawStore, with their zod input schemas and descriptions.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { LawStore, Revision } from './store.js';
import { paragraphsOf, type Category, type DocRec } from './parse.js';
import { parseBoxTables } from './boxtable.js';
import { articleLabel, articleOrder, isYmd, kstToday, nameKey, parseArticleNo, parseTableNo } from './normalize.js';

/** A tool failure with a message meant for the agent (becomes an MCP tool result with isError). */
export class ToolError extends Error {
  constructor(message: string, readonly field?: string, readonly code: 'INVALID_REQUEST' | 'NOT_FOUND' = 'INVALID_REQUEST') {
    super(message);
  }
}

export interface ToolCtx { law: LawStore; now: number }

// ---------- shared vocab ----------

const TYPE_VALUES = ['all', 'law', 'decree', 'rule', 'admrul', 'statute', 'enforcement_decree', 'enforcement_rule', 'administrative_rule', 'enforcement decree', 'enforcement rule', 'administrative rule', '법률', '시행령', '시행규칙', '행정규칙'] as const;
const TYPE_MAP: Record<string, Category | 'all'> = {
  all: 'all', law: 'law', statute: 'law', 법률: 'law', decree: 'decree', enforcement_decree: 'decree', 시행령: 'decree',
  rule: 'rule', enforcement_rule: 'rule', 시행규칙: 'rule', admrul: 'admrul', administrative_rule: 'admrul', 행정규칙: 'admrul',
  'enforcement decree': 'decree', 'enforcement rule': 'rule', 'administrative rule': 'admrul',
};
const SUBTYPE_MAP: Record<string, string> = { notice: '고시', directive: '훈령', established_rule: '예규', guideline: '지침', public_notice: '공고' };

const typeSchema = z.enum(TYPE_VALUES, { error: `type must be one of ${TYPE_VALUES.join(', ')} (default all)` });
const dateSchema = (name: string) => z.string().regex(/^\d{8}$/, `${name} must be a date written YYYYMMDD, e.g. 20260310`);
const lawIdSchema = z.string().min(1, 'law_id is required').max(200).describe('Statute id (법령ID, 6 digits, e.g. "001706" for 민법) or administrative-rule id (admrul_id, 13 digits); an exact statute name is also accepted');

function categories(type: string | undefined): Set<Category> | null {
  const t = TYPE_MAP[type ?? 'all'];
  if (!t) throw new ToolError(`type must be one of ${TYPE_VALUES.join(', ')} but received "${type}"`, 'type');
  return t === 'all' ? null : new Set([t]);
}

function status(d: DocRec, now: number): 'in_force' | 'not_yet_in_force' | 'repealed' {
  if (d.repealed) return 'repealed';
  return d.enforcement_date && d.enforcement_date > kstToday(now) ? 'not_yet_in_force' : 'in_force';
}

/** A statute or rule entry as the spec lists it (plus category and status). */
export function entry(d: DocRec, now: number): Record<string, unknown> {
  if (d.entity_type === 'admrul') {
    return { entity_type: 'admrul', admrul_id: d.id, admrul_name: d.name, admrul_type: d.law_type, ministry: d.ministries.join(', '), enforcement_date: d.enforcement_date, article_count: d.article_count };
  }
  return {
    entity_type: 'law', law_id: d.id, law_name: d.name, law_type: d.law_type, category: d.category, ministry: d.ministries.join(', '),
    enforcement_date: d.enforcement_date, revision_type: d.revision_type, article_count: d.article_count, status: status(d, now),
  };
}

function findDoc(law: LawStore, id: string): DocRec {
  const t = id.trim();
  let d = law.get(t) ?? (/^\d{1,6}$/.test(t) ? law.get(t.padStart(6, '0')) : undefined);
  if (!d && !/^\d+$/.test(t)) d = law.resolveName(t);
  if (!d) throw new ToolError(`No statute or rule with law_id "${id}". Use search_laws to find the id (statutes: 6-digit 법령ID, rules: 13-digit admrul_id).`, 'law_id', 'NOT_FOUND');
  return d;
}

// ---------- cursors ----------

function fingerprint(o: unknown): string {
  return createHash('sha1').update(JSON.stringify(o)).digest('base64url').slice(0, 8);
}
function encodeCursor(c: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}
function decodeCursor(s: string, fp: string): Record<string, unknown> {
  try {
    const c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (c && typeof c === 'object' && c.f === fp) return c;
  } catch { /* fall through */ }
  throw new ToolError('cursor is not valid for these parameters: pass the next_cursor of the previous page unchanged, with the same other parameters', 'cursor');
}

function checkLimit(limit: unknown, def: number, max: number): number {
  if (limit === undefined || limit === null) return def;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > max) {
    throw new ToolError(`limit must be an integer from 1 to ${max} (default ${def}) but received ${JSON.stringify(limit)}`, 'limit');
  }
  return limit;
}

// ---------- search_laws ----------

export const searchSchema = z.object({
  query: z.string().min(1, 'query must be a non-empty string').max(200, 'query must be at most 200 characters').describe('Search text: a statute or rule name, an abbreviation (개인정보법, 근기법), a ministry, words of an article, optionally with an article (민법 제750조)'),
  type: typeSchema.optional().describe('all (default), law (법률), decree (시행령), rule (시행규칙), admrul (행정규칙)'),
  ministry: z.string().max(100).optional().describe('Responsible ministry filter (substring, e.g. 보건복지부)'),
  limit: z.number().int('limit must be an integer').min(1, 'limit must be at least 1').max(100, 'limit must be at most 100 (default 20)').optional().describe('Results per page: default 20, maximum 100'),
  cursor: z.string().max(500).optional().describe('next_cursor of the previous page'),
}).strict();

// result caches per store (WeakMap: several stores may live in one process, e.g. tests)
const searchCaches = new WeakMap<LawStore, Map<string, { version: number; hits: ReturnType<LawStore['search']['query']> }>>();
const cacheOf = <T>(wm: WeakMap<LawStore, Map<string, T>>, law: LawStore): Map<string, T> => {
  let m = wm.get(law);
  if (!m) { m = new Map(); wm.set(law, m); }
  return m;
};

export function searchLaws(ctx: ToolCtx, args: z.infer<typeof searchSchema>) {
  const { law, now } = ctx;
  const query = (args.query ?? '').trim();
  if (!query) throw new ToolError('query must be a non-empty string', 'query');
  const limit = checkLimit(args.limit, 20, 100);
  const cats = categories(args.type);
  const ministry = args.ministry?.trim() ? nameKey(args.ministry) : null;
  const fp = fingerprint([query, args.type ?? 'all', ministry]);
  const offset = args.cursor ? Number(decodeCursor(args.cursor, fp).o) : 0;
  // an article reference in the query (제750조, 제15조의2, 750조) names an article of the found statute
  const am = /제?\s*(\d+)\s*조(?:\s*의\s*(\d+))?/.exec(query);
  const ref = am ? (am[2] ? `${Number(am[1])}-${Number(am[2])}` : String(Number(am[1]))) : null;
  const rest = am ? (query.slice(0, am.index) + ' ' + query.slice(am.index + am[0].length)).trim() : query;
  const key = fp;
  const searchCache = cacheOf(searchCaches, law);
  let cached = searchCache.get(key);
  if (!cached || cached.version !== law.version) {
    cached = { version: law.version, hits: law.search.query(rest || query, { categories: cats, ministry }, ref) };
    if (searchCache.size > 500) searchCache.clear();
    searchCache.set(key, cached);
  }
  const hits = cached.hits;
  const page = hits.slice(offset, offset + limit);
  const results = page.map((h) => {
    const e = entry(h.doc, now);
    e.match = h.match;
    const arts = h.ref !== undefined ? [h.ref] : h.seqs;
    if (arts.length) e.articles = arts.map((s) => law.articleHead(h.doc.id, s)).filter(Boolean);
    return e;
  });
  const out: Record<string, unknown> = { total: hits.total ?? hits.length, results };
  if (offset + limit < hits.length) out.next_cursor = encodeCursor({ f: fp, o: offset + limit });
  return out;
}

// ---------- list_laws ----------

export const listSchema = z.object({
  type: typeSchema.optional().describe('all (default), law, decree, rule, admrul (Korean 법률/시행령/시행규칙/행정규칙 also accepted)'),
  subtype: z.string().max(50).optional().describe('Administrative-rule subtype: 고시 (notice), 훈령 (directive), 예규 (established_rule), 지침 (guideline), …; implies type admrul'),
  ministry: z.string().max(100).optional().describe('Ministry name (substring match)'),
  sort: z.enum(['name', 'date'], { error: 'sort must be "name" (default) or "date"' }).optional().describe('name (default, 가나다 order) or date (newest promulgation/enforcement first)'),
  limit: z.number().int('limit must be an integer').min(1, 'limit must be at least 1').max(500, 'limit must be at most 500 (default 50)').optional().describe('Default 50, maximum 500'),
  cursor: z.string().max(500).optional().describe('next_cursor of the previous page'),
}).strict();

const listCaches = new WeakMap<LawStore, Map<string, { version: number; docs: DocRec[] }>>();

export function listLaws(ctx: ToolCtx, args: z.infer<typeof listSchema>) {
  const { law, now } = ctx;
  const limit = checkLimit(args.limit, 50, 500);
  let cats = categories(args.type);
  const sort = args.sort ?? 'name';
  if (sort !== 'name' && sort !== 'date') throw new ToolError(`sort must be "name" or "date" but received "${sort}"`, 'sort');
  const subtype = args.subtype?.trim() ? (SUBTYPE_MAP[args.subtype.trim()] ?? args.subtype.trim()) : null;
  if (subtype) {
    if (cats && !cats.has('admrul')) throw new ToolError('subtype applies to administrative rules only: use type admrul or all', 'subtype');
    cats = new Set(['admrul']);
  }
  const ministry = args.ministry?.trim() ? nameKey(args.ministry) : null;
  const fp = fingerprint([args.type ?? 'all', subtype, ministry, sort]);
  const listCache = cacheOf(listCaches, law);
  let cached = listCache.get(fp);
  if (!cached || cached.version !== law.version) {
    const docs = law.catalog.filter((d) => (!cats || cats.has(d.category)) && (!subtype || d.law_type === subtype) && (!ministry || d.ministries.some((m) => nameKey(m).includes(ministry))));
    const dkey = (d: DocRec) => d.promulgation_date ?? d.enforcement_date ?? '';
    if (sort === 'name') docs.sort((a, b) => a.name.localeCompare(b.name, 'ko') || a.id.localeCompare(b.id));
    else docs.sort((a, b) => dkey(b).localeCompare(dkey(a)) || a.id.localeCompare(b.id));
    cached = { version: law.version, docs };
    if (listCache.size > 200) listCache.clear();
    listCache.set(fp, cached);
  }
  const docs = cached.docs;
  let start = 0;
  if (args.cursor) {
    const c = decodeCursor(args.cursor, fp);
    // keyset: continue after the last id shown (stable when documents are added or removed elsewhere)
    const i = docs.findIndex((d) => d.id === c.id);
    start = i >= 0 ? i + 1 : Math.min(Number(c.o) || 0, docs.length);
  }
  const page = docs.slice(start, start + limit);
  const out: Record<string, unknown> = { total: docs.length, results: page.map((d) => entry(d, now)) };
  if (start + limit < docs.length) out.next_cursor = encodeCursor({ f: fp, id: page[page.length - 1]!.id, o: start + limit });
  return out;
}

// ---------- get_law ----------

export const getLawSchema = z.object({
  law_id: lawIdSchema,
  include: z.enum(['meta', 'articles', 'tables', 'all'], { error: 'include must be one of meta, articles, tables, all (default all)' }).optional().describe('meta, articles, tables or all (default)'),
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

// ---------- get_article ----------

export const getArticleSchema = z.object({
  law_id: lawIdSchema,
  article_no: z.string().max(30).optional().describe('Article number: "15" (제15조), "15-2" (제15조의2); 제15조의2 is accepted too. Omit (with no range) for all articles'),
  range: z.string().max(60).optional().describe('Articles first-last inclusive, e.g. "1-5", "15-2-20" (제15조의2 to 제20조), "3~7"'),
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
  if (args.article_no !== undefined) {
    const no = parseArticleNo(args.article_no);
    if (!no) throw new ToolError(`article_no must be an article number like "15" or "15-2" (제15조의2) but received "${args.article_no}"`, 'article_no');
    const seq = law.articleSeq(d.id, no) ?? -1;
    if (seq < 0) {
      const toc = law.tocOf(d.id);
      const near = toc.filter((t) => Math.floor(articleOrder(t.no)) === Math.floor(articleOrder(no))).map((t) => t.no);
      throw new ToolError(`${d.name} has no article ${no} (${articleLabel(no)}); it has ${toc.length} articles${toc.length ? `, ${toc[0]!.no} to ${toc[toc.length - 1]!.no}` : ''}${near.length ? `; nearby: ${near.join(', ')}` : ''}`, 'article_no', 'NOT_FOUND');
    }
    return { ...base, article: articleOut(law, d, seq, true) };
  }
  const toc = law.tocOf(d.id);
  let seqs = toc.map((_, i) => i);
  if (args.range !== undefined) {
    const [a, b] = parseRange(args.range);
    const lo = articleOrder(a), hi = articleOrder(b);
    seqs = seqs.filter((i) => { const o = articleOrder(toc[i]!.no); return o >= lo && o <= hi; });
  }
  const articles = seqs.map((i) => articleOut(law, d, i, false)).filter(Boolean);
  return { ...base, count: articles.length, articles };
}

// ---------- get_table ----------

export const getTableSchema = z.object({
  law_id: lawIdSchema,
  table_no: z.string().min(1, 'table_no is required').max(30).describe('Annex/form number: "1", "2-2" (별표 2의2), "별표 3", "별지 1" (forms). Without a kind, 별표 is tried first'),
}).strict();

export function getTable(ctx: ToolCtx, args: z.infer<typeof getTableSchema>) {
  const { law } = ctx;
  const d = findDoc(law, args.law_id);
  const p = parseTableNo(args.table_no);
  if (!p) throw new ToolError(`table_no must be an annex number like "1", "2-2" (별표 2의2) or "별지 1" but received "${args.table_no}"`, 'table_no');
  const kinds = p.kind ? [p.kind] : ['별표', '별지', '기타', '서식', '별첨'];
  for (const k of kinds) {
    const t = law.tables.get([d.id, `${k}:${p.no}`]);
    if (t) {
      return { law_id: d.id, law_name: d.name, table_no: t.table_no, kind: t.kind, title: t.title, text: t.text, tables: t.tables, ...(t.file_url ? { file_url: t.file_url } : {}), ...(t.pdf_url ? { pdf_url: t.pdf_url } : {}) };
    }
    const ref = d.tables.find((x) => x.kind === k && x.table_no === p.no);
    if (ref) {
      return { law_id: d.id, law_name: d.name, table_no: ref.table_no, kind: ref.kind, title: ref.title, text: null, tables: [], note: 'The annex body is not in the corpus (only its link); open pdf_url for the content.', ...(ref.file_url ? { file_url: ref.file_url } : {}), ...(ref.pdf_url ? { pdf_url: ref.pdf_url } : {}) };
    }
  }
  const avail = d.tables.map((t) => `${t.kind} ${t.table_no}`);
  throw new ToolError(`${d.name} has no annex ${p.kind ?? ''}${p.no}.${avail.length ? ` Available: ${avail.slice(0, 30).join(', ')}` : ' It has no annexes.'}`, 'table_no', 'NOT_FOUND');
}

// ---------- get_relations ----------

export const getRelationsSchema = z.object({ law_id: lawIdSchema }).strict();

interface RelIndex { version: number; citedBy: Map<string, string[]>; byFamily: Map<string, DocRec[]> }
const relCaches = new WeakMap<LawStore, Map<string, RelIndex>>();

function relIndex(law: LawStore): RelIndex {
  const relCache = cacheOf(relCaches, law);
  const c = relCache.get('x');
  if (c && c.version === law.version) return c;
  const m = new Map<string, string[]>();
  for (const d of law.catalog) {
    for (const name of d.cites) {
      const t = law.resolveName(name);
      if (!t || t.id === d.id) continue;
      const l = m.get(t.id);
      if (l) l.push(d.id);
      else m.set(t.id, [d.id]);
    }
  }
  const byFamily = new Map<string, DocRec[]>();
  for (const d of law.catalog) {
    if (d.entity_type !== 'law') continue;
    for (const k of new Set([`n:${nameKey(familyBase(d.name))}`, ...(d.family ? [`f:${d.family}`] : [])])) {
      const l = byFamily.get(k);
      if (l) l.push(d);
      else byFamily.set(k, [d]);
    }
  }
  const idx = { version: law.version, citedBy: m, byFamily };
  relCache.set('x', idx);
  return idx;
}

function citedByMap(law: LawStore): Map<string, string[]> {
  return relIndex(law).citedBy;
}

function familyBase(name: string): string {
  return name.replace(/\s*(시행령|시행규칙)$/, '');
}

export function getRelations(ctx: ToolCtx, args: z.infer<typeof getRelationsSchema>) {
  const { law, now } = ctx;
  const d = findDoc(law, args.law_id);
  const short = (x: DocRec) => {
    const e = x.entity_type === 'law' ? { law_id: x.id, law_name: x.name, law_type: x.law_type, category: x.category } : { admrul_id: x.id, admrul_name: x.name, admrul_type: x.law_type, ministry: x.ministries.join(', ') };
    return { entity_type: x.entity_type, ...e };
  };
  // the statute family (law → decree → rule): same legalize-kr directory, or the name without 시행령/시행규칙
  let anchor: DocRec | undefined = d;
  if (d.entity_type === 'admrul') {
    anchor = d.cites.map((c) => law.resolveName(c)).find((x) => x && x.entity_type === 'law');
  }
  let family: DocRec[] = [];
  if (anchor) {
    const byFamily = relIndex(law).byFamily;
    family = [...new Set([...(byFamily.get(`n:${nameKey(familyBase(anchor.name))}`) ?? []), ...(anchor.family ? byFamily.get(`f:${anchor.family}`) ?? [] : [])])];
  }
  const pick = (c: Category) => family.filter((x) => x.category === c).sort((a, b) => Number(Boolean(a.repealed)) - Number(Boolean(b.repealed)) || (b.promulgation_date ?? '').localeCompare(a.promulgation_date ?? ''));
  const lawTier = pick('law'), decree = pick('decree'), rule = pick('rule');
  const citedBy = citedByMap(law).get(d.id) ?? [];
  const familyIds = new Set(family.map((x) => x.id));
  const rulesFor = new Set<string>();
  const m = citedByMap(law);
  for (const fid of d.entity_type === 'law' ? familyIds : new Set<string>()) for (const r of m.get(fid) ?? []) if (law.get(r)?.entity_type === 'admrul') rulesFor.add(r);
  const adm = [...rulesFor].map((id) => law.get(id)!).filter(Boolean).sort((a, b) => a.name.localeCompare(b.name, 'ko'));
  const cites = [...new Set(d.cites.map((c) => law.resolveName(c)).filter((x): x is DocRec => Boolean(x) && x!.id !== d.id))];
  const citers = citedBy.map((id) => law.get(id)!).filter((x) => x && !familyIds.has(x.id) && x.entity_type === 'law');
  let parent: DocRec | undefined;
  if (d.entity_type === 'admrul') parent = anchor;
  else if (d.category === 'decree') parent = lawTier[0];
  else if (d.category === 'rule') parent = decree[0] ?? lawTier[0];
  const children = d.entity_type === 'admrul' ? [] : d.category === 'law' ? [...decree, ...rule] : d.category === 'decree' ? rule : [];
  const cap = 50;
  return {
    ...short(d),
    status: d.entity_type === 'law' ? status(d, now) : undefined,
    hierarchy: {
      law: lawTier.map(short),
      decree: decree.map(short),
      rule: rule.map(short),
      admin_rules: adm.slice(0, cap).map(short),
      admin_rules_total: adm.length,
    },
    parent: parent ? short(parent) : null,
    children: children.map(short),
    cites: cites.slice(0, cap).map(short),
    cites_total: cites.length,
    cited_by: citers.slice(0, cap).map(short),
    cited_by_total: citers.length,
    note: 'hierarchy: the statute family law → decree (시행령) → rule (시행규칙) and the administrative rules that cite any of them; cites/cited_by: statutes named in 「」 in the text',
  };
}

// ---------- get_history ----------

export const getHistorySchema = z.object({
  law_id: lawIdSchema,
  from_date: dateSchema('from_date').optional().describe('Earliest promulgation date, YYYYMMDD (inclusive)'),
  to_date: dateSchema('to_date').optional().describe('Latest promulgation date, YYYYMMDD (inclusive)'),
}).strict();

function checkDate(v: string | undefined, field: string): string | undefined {
  if (v === undefined) return undefined;
  if (!isYmd(v)) throw new ToolError(`${field} must be a real date written YYYYMMDD (e.g. 20260310) but received "${v}"`, field);
  return v;
}

export function revisionsOf(law: LawStore, d: DocRec): Revision[] {
  const list = law.hist.get(d.id) ?? [];
  if (d.entity_type === 'law' && d.mst && !list.some((r) => r.mst === d.mst)) {
    list.unshift({ promulgation_date: d.promulgation_date, promulgation_no: d.promulgation_no, enforcement_date: d.enforcement_date, mst: d.mst, revision_type: d.revision_type, law_name: d.name, law_type: d.law_type, has_text: true });
  }
  for (const r of list) if (r.mst && r.mst === d.mst) r.has_text = true;
  return list;
}

export function getHistory(ctx: ToolCtx, args: z.infer<typeof getHistorySchema>) {
  const { law } = ctx;
  const from = checkDate(args.from_date, 'from_date');
  const to = checkDate(args.to_date, 'to_date');
  if (from && to && from > to) throw new ToolError(`from_date ${from} is after to_date ${to}`, 'from_date');
  const d = findDoc(law, args.law_id);
  const all = revisionsOf(law, d);
  const revs = all.filter((r) => (!from || (r.promulgation_date ?? '') >= from) && (!to || (r.promulgation_date ?? '') <= to));
  return {
    law_id: d.id, law_name: d.name, entity_type: d.entity_type, from_date: from ?? null, to_date: to ?? null, total: revs.length, total_all_dates: all.length,
    revisions: revs.map((r) => ({ promulgation_date: r.promulgation_date, promulgation_no: r.promulgation_no, enforcement_date: r.enforcement_date, revision_type: r.revision_type, mst: r.mst, current: r.mst === d.mst, text_available: r.has_text, ...(r.law_name && r.law_name !== d.name ? { law_name: r.law_name } : {}) })),
    note: 'newest first; dates are promulgation (공포) dates; text_available revisions can be compared with GET /api/v1/laws/{law_id}/diff',
  };
}

// ---------- get_changelog ----------

export const getChangelogSchema = z.object({
  date: dateSchema('date').optional().describe('YYYYMMDD; default today (Korea time)'),
}).strict();

export function getChangelog(ctx: ToolCtx, args: z.infer<typeof getChangelogSchema>) {
  const { law, now } = ctx;
  const date = checkDate(args.date, 'date') ?? kstToday(now);
  const list = law.chg.get(date) ?? [];
  const out: Record<string, unknown> = {
    date, total: list.length,
    changes: list.map((c) => ({ entity_type: c.entity_type, law_id: c.law_id, law_name: c.law_name, law_type: c.law_type, revision_type: c.revision_type, ministry: c.ministry, promulgation_no: c.promulgation_no, mst: c.mst, in_corpus: Boolean(c.law_id && law.get(c.law_id)) })),
  };
  if (!list.length) {
    let prev: string | null = null, next: string | null = null;
    // lmdb-js reverse ranges run from start down to end
    for (const k of law.chg.getKeys({ start: date, end: '0', reverse: true, limit: 2 })) if (String(k) < date) { prev = String(k); break; }
    for (const k of law.chg.getKeys({ start: date, limit: 2 })) if (String(k) > date) { next = String(k); break; }
    out.nearest_dates = { before: prev, after: next && next !== date ? next : null };
  }
  return out;
}

// ---------- the tool table ----------

export interface ToolDef {
  name: string;
  description: string;
  schema: z.ZodObject<any>;
  run: (ctx: ToolCtx, args: any) => unknown;
}

export const TOOLS: ToolDef[] = [
  {
    name: 'search_laws',
    description: 'Search Korean statutes (법률/시행령/시행규칙) and administrative rules (행정규칙) by keyword: names, abbreviations (개인정보법 → 개인정보 보호법), ministries and article text (character-bigram BM25). An article in the query (민법 제750조) is resolved. Returns {total, results:[entry], next_cursor?}; a statute entry has entity_type "law", law_id, law_name, law_type, category (law|decree|rule), ministry, enforcement_date (YYYYMMDD), revision_type, article_count, status (in_force|not_yet_in_force|repealed); a rule entry has entity_type "admrul", admrul_id, admrul_name, admrul_type, ministry, enforcement_date. Each result also has match (name|abbreviation|text|ministry) and articles [{no,title}] (the named or best-matching articles; read them with get_article).',
    schema: searchSchema,
    run: searchLaws,
  },
  {
    name: 'list_laws',
    description: 'List statutes and administrative rules with filters (type, subtype, ministry), sorted by name (default) or date (newest first). Returns {total, results:[entry], next_cursor?} with the same entries as search_laws.',
    schema: listSchema,
    run: listLaws,
  },
  {
    name: 'get_law',
    description: 'Basic information, article list and annex/form list of one statute or rule. Returns {entity_type, meta:{…entry, promulgation_date, promulgation_no, mst, abbreviation?, source_url}, articles:[{no, title, preview, deleted?}], tables:[{table_no, kind (별표|별지|기타), title, structured (true when get_table gives its text and cells), pdf_url?}]}. Article numbers: "15", "15-2" = 제15조의2.',
    schema: getLawSchema,
    run: getLaw,
  },
  {
    name: 'get_article',
    description: 'Article text. With article_no: {law_id, law_name, article:{no, label (제15조의2), title, content (full text; 항 start with ①…, 호 are indented 2 spaces, 목 4), enforcement_date, chapter, paragraphs:[{no?, text, items:[{no, text, sub:[{no, text}]}]}], deleted?, tables? (box-drawing tables inside the article, parsed like get_table)}}. With range or without both: {law_id, law_name, count, articles:[…same without paragraphs]}.',
    schema: getArticleSchema,
    run: getArticle,
  },
  {
    name: 'get_table',
    description: 'An annex (별표) or form (별지) as structured JSON, not an image: {law_id, law_name, table_no, kind, title, text (the annex as plain text), tables:[{columns, rows:[[{text, col, row, colspan?, rowspan?}]]}] (box-drawing tables parsed into cells; spans say how many grid columns/rows a cell covers), pdf_url?}. When only the link is known, text is null and note says so.',
    schema: getTableSchema,
    run: getTable,
  },
  {
    name: 'get_relations',
    description: 'Relations of a statute or rule: {hierarchy:{law:[…], decree:[…], rule:[…], admin_rules:[…], admin_rules_total}, parent, children, cites (statutes named in its text), cited_by (statutes naming it)}; entries are short ({entity_type, law_id, law_name, law_type, category} or the admrul fields). For an administrative rule, parent is the statute it implements.',
    schema: getRelationsSchema,
    run: getRelations,
  },
  {
    name: 'get_history',
    description: 'Revision history between optional promulgation dates (YYYYMMDD): {law_id, law_name, total, revisions:[{promulgation_date, promulgation_no, enforcement_date, revision_type (제정|일부개정|전부개정|타법개정|폐지…), mst, current, text_available}]}, newest first.',
    schema: getHistorySchema,
    run: getHistory,
  },
  {
    name: 'get_changelog',
    description: 'Statutes and rules changed (promulgated) on a date, YYYYMMDD, default today in Korea: {date, total, changes:[{entity_type, law_id, law_name, law_type, revision_type, ministry, promulgation_no, mst, in_corpus}], nearest_dates?:{before, after} when the date has no changes}.',
    schema: getChangelogSchema,
    run: getChangelog,
  },
];
