// The announced legal REST API (X-API-Key): current statute text, amendments since a date, old/new article comparison.
import { z } from 'zod';
import { defineRoute, reply, type Ctx, type RouteDef } from '../server/types.js';
import { ApiError, invalid } from '../domain/errors.js';
import { form } from '../server/validate.js';
import { getLaw as lawStore } from '../law/service.js';
import { entry, metaOf } from '../law/tools.js';
import { lookupDoc, tableTitle } from '../law/tools/common.js';
import { diffVersions, DiffError } from '../law/tools/diff.js';
import { articleLabel, isYmd } from '../law/normalize.js';
import type { LawStore } from '../law/store.js';
import type { DocRec } from '../law/parse.js';
import { ToolError } from '../law/tools.js';
import { getArticleAsOf } from '../law/history/asof.js';
import { enforcementsBetween } from '../law/history/versions.js';
import { ok } from './schemas/common.js';
import { amendments as amendmentsAnswer, enforcements as enforcementsAnswer, lawDiff, lawText } from './schemas/law.js';

const ymd = z.string();

function date(field: string, v: string | undefined, required: boolean): string | undefined {
  if (v === undefined || v === '') {
    if (required) throw invalid(field, 'a date written YYYYMMDD (e.g. 20260301)', undefined);
    return undefined;
  }
  if (!isYmd(v)) throw invalid(field, 'a real date written YYYYMMDD (e.g. 20260301)', v);
  return v;
}

/** By id, exact name (e.g. /api/v1/laws/근로기준법) or known abbreviation, as the MCP tools accept. */
function findDoc(law: LawStore, id: string): DocRec {
  const d = lookupDoc(law, id);
  if (!d) throw new ApiError('NOT_FOUND', `No statute or administrative rule with id or name "${id.slice(0, 40)}"`, { field: 'law_id' });
  return d;
}

function etagged(ctx: Ctx, tag: string, body: unknown) {
  const etag = `"${tag}"`;
  const headers = { etag, 'cache-control': 'private, max-age=60' };
  if (ctx.headers['if-none-match'] === etag) return reply.make({ status: 304, headers, body: '' });
  return reply.json(body, 200, headers);
}

const oneQuery = z.object({ date: ymd.optional() }).strict();

/** ?date=YYYYMMDD: the version in force that day (by 시행일자), with the as_of block. */
function getOneAsOf(ctx: Ctx<unknown, z.infer<typeof oneQuery>>, law: LawStore, d: DocRec, day: string) {
  try {
    const now = ctx.services.clock.now();
    const r = getArticleAsOf({ law, now }, d, day, {}) as { as_of: { version: { mst: string } }; articles: unknown[] };
    const meta = { ...metaOf(d, now), ...(r.as_of.version as object) };
    return etagged(ctx, `law-${d.id}-${day}-${r.as_of.version.mst}-${law.info().index_gen}`, { success: true, entity_type: d.entity_type, as_of: r.as_of, meta, articles: r.articles });
  } catch (e) {
    if (e instanceof ToolError) throw new ApiError(e.code, e.message, { field: 'date' });
    throw e;
  }
}

function getOne(ctx: Ctx<unknown, z.infer<typeof oneQuery>>) {
  const law = lawStore(ctx.services);
  const d = findDoc(law, ctx.params.law_id!);
  const day = date('date', ctx.query.date, false);
  if (day) return getOneAsOf(ctx, law, d, day);
  const articles = law.articles(d.id).map((a) => ({
    no: a.no, label: articleLabel(a.no), title: a.title, content: a.content, enforcement_date: a.enforcement_date ?? d.enforcement_date,
    ...(a.chapter ? { chapter: a.chapter } : {}), ...(a.deleted ? { deleted: true } : {}),
  }));
  const tables = d.tables.map((t) => ({ table_no: t.table_no, kind: t.kind, title: tableTitle(t.title, t.kind, t.table_no, law, d.id), structured: Boolean(t.has_body), ...(t.pdf_url ? { pdf_url: t.pdf_url } : {}) }));
  return etagged(ctx, `law-${d.id}-${d.mst ?? d.promulgation_no ?? ''}-${d.enforcement_date ?? ''}-${law.info().index_gen}`, { success: true, entity_type: d.entity_type, meta: metaOf(d, ctx.services.clock.now()), articles, tables });
}

const amendQuery = z.object({ since: ymd.optional(), limit: form.int(1, 500).optional(), cursor: z.string().max(300).optional() }).strict();

function amendments(ctx: Ctx<unknown, z.infer<typeof amendQuery>>) {
  const law = lawStore(ctx.services);
  const since = date('since', ctx.query.since, true)!;
  const limit = ctx.query.limit ?? 100;
  let after: { d: string; id: string } | null = null;
  if (ctx.query.cursor) {
    try {
      const c = JSON.parse(Buffer.from(ctx.query.cursor, 'base64url').toString('utf8')) as { d: string; id: string; s: string };
      if (c.s !== since || typeof c.d !== 'string' || typeof c.id !== 'string') throw new Error('mismatch');
      after = { d: c.d, id: c.id };
    } catch {
      throw invalid('cursor', 'the next_cursor of a previous page for the same since', ctx.query.cursor);
    }
  }
  const key = (d: DocRec) => d.promulgation_date ?? '';
  const list = law.catalog
    .filter((d) => d.entity_type === 'law' && key(d) >= since)
    .sort((a, b) => key(a).localeCompare(key(b)) || a.id.localeCompare(b.id));
  const start = after ? list.findIndex((d) => key(d) > after!.d || (key(d) === after!.d && d.id > after!.id)) : 0;
  const from = start < 0 ? list.length : start;
  const page = list.slice(from, from + limit);
  const now = ctx.services.clock.now();
  // every version promulgated since (git history, history index, sync), not only the current one
  const since8 = since;
  const results = page.map((d) => {
    const revs = (law.hist.get(d.id) ?? []).filter((r) => (r.promulgation_date ?? '') >= since8);
    return { ...entry(d, now), promulgation_date: d.promulgation_date, promulgation_no: d.promulgation_no, mst: d.mst, revisions_since: Math.max(1, revs.length), versions: revs.map((r) => ({ promulgation_date: r.promulgation_date, promulgation_no: r.promulgation_no, enforcement_date: r.enforcement_date, mst: r.mst, revision_type: r.revision_type })) };
  });
  const info = law.info();
  const out: Record<string, unknown> = { success: true, since, as_of: info.corpus_date, last_sync: info.last_sync, total: list.length, results };
  if (from + limit < list.length) {
    const last = page[page.length - 1]!;
    out.next_cursor = Buffer.from(JSON.stringify({ s: since, d: key(last), id: last.id })).toString('base64url');
  }
  return out;
}

const diffQuery = z.object({ from: ymd.optional(), to: ymd.optional(), basis: z.enum(['promulgation', 'enforcement']).optional() }).strict();

function diff(ctx: Ctx<unknown, z.infer<typeof diffQuery>>) {
  const law = lawStore(ctx.services);
  const from = date('from', ctx.query.from, true)!;
  const to = date('to', ctx.query.to, true)!;
  if (from > to) throw invalid('from', `a date not after to (${to})`, from);
  const basis = ctx.query.basis ?? 'promulgation';
  const d = findDoc(law, ctx.params.law_id!);
  try {
    return { success: true, ...diffVersions(law, d, from, to, basis) };
  } catch (e) {
    if (e instanceof DiffError) throw new ApiError('INVALID_REQUEST', e.message, { field: e.field, details: { available_versions: e.available } });
    throw e;
  }
}

const enfQuery = z.object({ after: ymd.optional(), before: ymd.optional(), limit: form.int(1, 1000).optional() }).strict();

/** Versions (statutes) taking effect after `after` and on or before `before` (default after + 1 year). */
function enforcements(ctx: Ctx<unknown, z.infer<typeof enfQuery>>) {
  const law = lawStore(ctx.services);
  const after = date('after', ctx.query.after, true)!;
  const before = date('before', ctx.query.before, false) ?? `${Number(after.slice(0, 4)) + 1}${after.slice(4)}`;
  if (before <= after) throw invalid('before', `a date after after (${after})`, before);
  const { total, results } = enforcementsBetween(law, after, before, ctx.query.limit ?? 200);
  return { success: true, after, before, total, results };
}

export const routes: RouteDef[] = [
  defineRoute({ method: 'GET', path: '/api/v1/laws/:law_id', auth: 'key', summary: 'Current statute or rule: meta, every article, annex list (ETag / If-None-Match); date=YYYYMMDD: the version in force that day', tags: ['law'], query: oneQuery, responses: { ...ok('the statute', lawText), 304: { description: 'not modified (If-None-Match)' } }, handler: getOne }),
  defineRoute({ method: 'GET', path: '/api/v1/amendments', auth: 'key', summary: 'Statutes promulgated on or after since=YYYYMMDD (incremental; oldest first; cursor)', tags: ['law'], query: amendQuery, responses: ok('a page of amended statutes', amendmentsAnswer), handler: amendments }),
  defineRoute({ method: 'GET', path: '/api/v1/laws/:law_id/diff', auth: 'key', summary: 'Old/new comparison per article between the versions of from and to (YYYYMMDD; basis=promulgation (default) or enforcement)', tags: ['law'], query: diffQuery, responses: ok('the changes per article', lawDiff), handler: diff }),
  defineRoute({ method: 'GET', path: '/api/v1/enforcements', auth: 'key', summary: 'Statute versions taking effect after after=YYYYMMDD, up to before=YYYYMMDD (default one year)', tags: ['law'], query: enfQuery, responses: ok('statute versions taking effect', enforcementsAnswer), handler: enforcements }),
];
