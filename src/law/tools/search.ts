// search_laws and list_laws: keyword search and filtered listing of statutes and rules, with cursors.
import { z } from 'zod';
import type { LawStore } from '../store.js';
import type { DocRec } from '../parse.js';
import { nameKey } from '../normalize.js';
import { fitCount } from './bound.js';
import { ByteCache } from '../cache.js';
import { categories, checkLimit, decodeCursor, encodeCursor, entry, fingerprint, SUBTYPE_MAP, ToolError, typeSchema, type ToolCtx } from './common.js';

// ---------- search_laws ----------

export const searchSchema = z.object({
  query: z.string().min(1, 'query must be a non-empty string').max(200, 'query must be at most 200 characters').describe('Search text: a statute or rule name, an abbreviation (개인정보법, 근기법), a ministry, words of an article, optionally with an article (민법 제750조)'),
  type: typeSchema.optional().describe('all (default), law (법률), decree (시행령), rule (시행규칙), admrul (행정규칙)'),
  ministry: z.string().max(100).optional().describe('Responsible ministry filter (substring, e.g. 보건복지부)'),
  limit: z.number().int('limit must be an integer').min(1, 'limit must be at least 1').max(100, 'limit must be at most 100 (default 20)').optional().describe('Results per page: default 20, maximum 100'),
  cursor: z.string().max(500).optional().describe('next_cursor of the previous page'),
}).strict();

// result caches per store (WeakMap: several stores may live in one process, e.g. tests), each bounded by bytes
type Hits = ReturnType<LawStore['search']['query']>;
const searchCaches = new WeakMap<LawStore, ByteCache<string, { version: number; hits: Hits }>>();
/** cached search results per store and thread: a full list of 1,000 hits is ~0.2 MB with its page's snippets. 2 MB
 *  (rss26; 8 before): what it serves is the next page of a recent search (a cursor) and a question asked again soon —
 *  the last ≈ 40 searches of the thread; 8 MB held the last ≈ 160, and over the 856 distinct evaluation questions
 *  asked in turn neither size answered one from the cache */
const SEARCH_CACHE_BYTES = 2 * 1024 * 1024;
/** a hit object with its article positions (~200 bytes; measured by bench/law-rss.ts), the snippets of a page's hits
 * (~500 bytes each, read once shown) and the lazy snippet getters of the first 50 */
const hitsBytes = (hits: Hits) => 400 + 200 * hits.length + 3 * 500 * Math.min(hits.length, 20) + 200 * Math.min(hits.length, 50);

/** the search_laws result cache of a store in this thread (entries and bytes: bench/law-rss.ts) */
export function searchCacheOf(law: LawStore): ByteCache<string, { version: number; hits: Hits }> {
  let c = searchCaches.get(law);
  if (!c) { c = new ByteCache(SEARCH_CACHE_BYTES); searchCaches.set(law, c); }
  return c;
}

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
  const searchCache = searchCacheOf(law);
  let cached = searchCache.get(key);
  if (!cached || cached.version !== law.version) {
    cached = { version: law.version, hits: law.search.query(rest || query, { categories: cats, ministry }, ref) };
    searchCache.set(key, cached, hitsBytes(cached.hits));
  }
  const hits = cached.hits;
  const page = hits.slice(offset, offset + limit);
  const results = page.map((h) => {
    const e = entry(h.doc, now);
    e.match = h.match;
    const arts = h.ref !== undefined ? [h.ref] : h.seqs;
    if (arts.length) e.articles = arts.map((s) => law.articleHead(h.doc.id, s)).filter(Boolean);
    // the matching articles with a snippet around the hit (number, title, snippet)
    if (h.matches?.length) e.matches = h.matches;
    return e;
  });
  // a page holds at most about 20 KB (the answer stays under 50 KB); the cursor continues after what was shown
  const n = results.length ? fitCount(results) : 0;
  const out: Record<string, unknown> = { total: hits.total ?? hits.length, results: results.slice(0, n) };
  if (offset + n < hits.length) out.next_cursor = encodeCursor({ f: fp, o: offset + n });
  if (n < results.length) out.note = `${n} of the ${results.length} results asked for fit in one answer (under 50 KB); pass next_cursor for the next ones`;
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

const listCaches = new WeakMap<LawStore, ByteCache<string, { version: number; docs: DocRec[] }>>();

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
  let listCache = listCaches.get(law);
  if (!listCache) { listCache = new ByteCache(4 * 1024 * 1024); listCaches.set(law, listCache); }
  let cached = listCache.get(fp);
  if (!cached || cached.version !== law.version) {
    const docs = law.catalog.filter((d) => (!cats || cats.has(d.category)) && (!subtype || d.law_type === subtype) && (!ministry || d.ministries.some((m) => nameKey(m).includes(ministry))));
    const dkey = (d: DocRec) => d.promulgation_date ?? d.enforcement_date ?? '';
    if (sort === 'name') docs.sort((a, b) => a.name.localeCompare(b.name, 'ko') || a.id.localeCompare(b.id));
    else docs.sort((a, b) => dkey(b).localeCompare(dkey(a)) || a.id.localeCompare(b.id));
    cached = { version: law.version, docs };
    listCache.set(fp, cached, 100 + 8 * docs.length);
  }
  const docs = cached.docs;
  let start = 0;
  if (args.cursor) {
    const c = decodeCursor(args.cursor, fp);
    // keyset: continue after the last id shown (stable when documents are added or removed elsewhere)
    const i = docs.findIndex((d) => d.id === c.id);
    start = i >= 0 ? i + 1 : Math.min(Number(c.o) || 0, docs.length);
  }
  const all = docs.slice(start, start + limit).map((d) => entry(d, now));
  // a page holds at most about 20 KB (the answer stays under 50 KB); the keyset cursor continues after what was shown
  const n = all.length ? fitCount(all) : 0;
  const page = docs.slice(start, start + n);
  const out: Record<string, unknown> = { total: docs.length, results: all.slice(0, n) };
  if (start + n < docs.length) out.next_cursor = encodeCursor({ f: fp, id: page[page.length - 1]!.id, o: start + n });
  if (n < all.length) out.note = `${n} of the ${all.length} entries asked for fit in one answer (under 50 KB); pass next_cursor for the next ones`;
  return out;
}
