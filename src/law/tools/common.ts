// Shared by the legal-information tools: ToolError, the type vocabulary and schemas, entries, id lookup, cursors, limits, per-store caches.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { LawStore } from '../store.js';
import type { Category, DocRec } from '../parse.js';
import { isYmd, kstToday, parseArticleNo } from '../normalize.js';

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
export const SUBTYPE_MAP: Record<string, string> = { notice: '고시', directive: '훈령', established_rule: '예규', guideline: '지침', public_notice: '공고' };

export const typeSchema = z.enum(TYPE_VALUES, { error: `type must be one of ${TYPE_VALUES.join(', ')} (default all)` });
/** A date as YYYYMMDD text or number; 2026-03-10, 2026.03.10 and 2026/03/10 are accepted too (checkDate normalises). */
export const dateSchema = (name: string) => z.union([z.string().max(20), z.number().int()], { error: `${name} must be a date written YYYYMMDD, e.g. 20260310` });
export const lawIdSchema = z.union([z.string().min(1, 'law_id is required').max(200), z.number().int().nonnegative()], { error: 'law_id must be a statute id, rule id or exact name' })
  .describe('Statute id (법령ID, 6 digits, e.g. "001706" for 민법) or administrative-rule id (admrul_id, 13 digits); an exact statute or rule name (민법, 근로기준법) or a common abbreviation (근기법) is accepted too');
/** An article number as text ("60", "제60조", "60조의2", "60-2", "제60조의2") or a number (60). */
export const articleNoSchema = z.union([z.string().max(30), z.number().int().positive()], { error: 'article_no must be an article number like 60, "60-2" or "제60조의2"' });

export function categories(type: string | undefined): Set<Category> | null {
  const t = TYPE_MAP[type ?? 'all'];
  if (!t) throw new ToolError(`type must be one of ${TYPE_VALUES.join(', ')} but received "${type}"`, 'type');
  return t === 'all' ? null : new Set([t]);
}

export function status(d: DocRec, now: number): 'in_force' | 'not_yet_in_force' | 'repealed' {
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

/** A statute or rule by id (6-digit 법령ID, padded when shorter; 13-digit admrul_id), exact name or known abbreviation. */
export function lookupDoc(law: LawStore, id: string | number): DocRec | undefined {
  const t = String(id).normalize('NFKC').trim().replace(/^「(.*)」$/, '$1');
  let d = law.get(t) ?? (/^\d{1,6}$/.test(t) ? law.get(t.padStart(6, '0')) : undefined);
  if (!d && !/^\d+$/.test(t)) {
    d = law.resolveName(t);
    const full = d ? undefined : law.search.fullNameOf(t);
    if (full) d = law.resolveName(full);
  }
  return d;
}

export function findDoc(law: LawStore, id: string | number): DocRec {
  const d = lookupDoc(law, id);
  if (!d) throw new ToolError(`No statute or rule with law_id "${id}". Use search_laws to find the id (statutes: 6-digit 법령ID, rules: 13-digit admrul_id).`, 'law_id', 'NOT_FOUND');
  return d;
}

// ---------- cursors ----------

export function fingerprint(o: unknown): string {
  return createHash('sha1').update(JSON.stringify(o)).digest('base64url').slice(0, 8);
}
export function encodeCursor(c: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}
export function decodeCursor(s: string, fp: string): Record<string, unknown> {
  try {
    const c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (c && typeof c === 'object' && c.f === fp) return c;
  } catch { /* fall through */ }
  throw new ToolError('cursor is not valid for these parameters: pass the next_cursor of the previous page unchanged, with the same other parameters', 'cursor');
}

export function checkLimit(limit: unknown, def: number, max: number): number {
  if (limit === undefined || limit === null) return def;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > max) {
    throw new ToolError(`limit must be an integer from 1 to ${max} (default ${def}) but received ${JSON.stringify(limit)}`, 'limit');
  }
  return limit;
}

export const cacheOf = <T>(wm: WeakMap<LawStore, Map<string, T>>, law: LawStore): Map<string, T> => {
  let m = wm.get(law);
  if (!m) { m = new Map(); wm.set(law, m); }
  return m;
};

export function checkDate(v: string | number | undefined, field: string): string | undefined {
  if (v === undefined) return undefined;
  const t = String(v).trim();
  const m = /^(\d{4})[-./ ]?(\d{1,2})[-./ ]?(\d{1,2})\.?$/.exec(t);
  const ymd = m && (t.length === 8 || /[-./ ]/.test(t)) ? `${m[1]}${m[2]!.padStart(2, '0')}${m[3]!.padStart(2, '0')}` : t;
  if (!isYmd(ymd)) throw new ToolError(`${field} must be a real date written YYYYMMDD (e.g. 20260310) but received ${JSON.stringify(v)}`, field);
  return ymd;
}

/** An article number argument ("60", 60, "제60조의2", "60조의2", "60-2") as the store writes it ("60", "60-2"). */
export function checkArticleNo(v: string | number, field = 'article_no'): string {
  const no = parseArticleNo(String(v));
  if (!no) throw new ToolError(`${field} must be an article number like 60, "60-2" or "제60조의2" but received ${JSON.stringify(v)}`, field);
  return no;
}

const BOX = /[\u2500-\u257f]+/g;

/**
 * An annex/form title as text. Forms parsed from box drawings carry a frame line (┏━━┓) as title: then the first
 * text line inside the form (e.g. "전자금융업 영위 예비허가 신청서") is the title; "별지 3" when there is none.
 */
export function tableTitle(title: string | null | undefined, kind: string, no: string, law?: LawStore, docId?: string): string {
  const clean = (x: string) => x.replace(BOX, ' ').replace(/\s+/g, ' ').trim();
  const t = clean(title ?? '');
  if (t) return t;
  const text = law && docId ? law.tables.get([docId, `${kind}:${no}`])?.text : undefined;
  for (const line of (text ?? '').split('\n').slice(0, 12)) {
    const l = clean(line);
    if (l && !/^<[^>]*>$/.test(l) && /[가-힣A-Za-z]/.test(l)) return l.slice(0, 120);
  }
  return `${kind} ${no.replace('-', '의')}`;
}

/** The meta block of a statute or rule (get_law, the REST law answer, as-of answers). */
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
