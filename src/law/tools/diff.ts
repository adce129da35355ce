// compare_versions (MCP) and GET /api/v1/laws/{id}/diff (REST): the old/new comparison per article between the
// stored versions in force on two dates.
import { z } from 'zod';
import type { LawStore, VersionRec } from '../store.js';
import type { DocRec } from '../parse.js';
import { articleLabel, articleOrder } from '../normalize.js';
import { checkDate, dateSchema, decodeCursor, encodeCursor, findDoc, fingerprint, lawIdSchema, ToolError, type ToolCtx } from './common.js';
import { revisionsOf } from './history.js';
import { fitCount, PAGE_BYTES, bytes } from './bound.js';

interface TextVersion { promulgation_date: string; enforcement_date: string | null; mst: string | null; revision_type: string | null; current: boolean; load: () => VersionRec['articles'] }

/** A diff request that cannot be answered: field and the dates of the versions with text. */
export class DiffError extends ToolError {
  constructor(message: string, field: string, readonly available: string[]) {
    super(message, field);
  }
}

function textVersions(law: LawStore, d: DocRec): TextVersion[] {
  const out: TextVersion[] = [];
  for (const { value } of law.vers.getRange({ start: [d.id, ''], end: [d.id, '\uffff'] })) {
    if (value.mst && value.mst === d.mst) continue;
    out.push({ promulgation_date: value.promulgation_date ?? '', enforcement_date: value.enforcement_date, mst: value.mst, revision_type: value.revision_type, current: false, load: () => value.articles });
  }
  out.push({
    promulgation_date: d.promulgation_date ?? '', enforcement_date: d.enforcement_date, mst: d.mst, revision_type: d.revision_type, current: true,
    load: () => law.articles(d.id).map((a) => ({ no: a.no, title: a.title, content: a.content })),
  });
  const revs = revisionsOf(law, d);
  for (const v of out) v.revision_type ??= revs.find((r) => r.mst && r.mst === v.mst)?.revision_type ?? null;
  return out.sort((a, b) => a.promulgation_date.localeCompare(b.promulgation_date) || Number(a.mst ?? 0) - Number(b.mst ?? 0));
}

/** The per-article comparison of d between the versions promulgated on or before from and to (YYYYMMDD, from ≤ to). */
export function diffVersions(law: LawStore, d: DocRec, from: string, to: string) {
  const versions = textVersions(law, d);
  const at = (day: string) => [...versions].reverse().find((v) => v.promulgation_date <= day);
  const a = at(from), b = at(to);
  const avail = versions.map((v) => v.promulgation_date);
  if (!a) throw new DiffError(`No stored text of ${d.name} on or before ${from}; versions with text: ${avail.join(', ')}`, 'from', avail);
  if (!b) throw new DiffError(`No stored text of ${d.name} on or before ${to}; versions with text: ${avail.join(', ')}`, 'to', avail);
  // whitespace and layout differ between sources (Markdown vs law.go.kr XML): compare without it
  const norm = (s: string) => s.replace(/\s+/g, '');
  const oldA = new Map(a.load().map((x) => [x.no, x]));
  const newA = new Map(b.load().map((x) => [x.no, x]));
  const nos = [...new Set([...oldA.keys(), ...newA.keys()])].sort((x, y) => articleOrder(x) - articleOrder(y));
  const changes: Array<Record<string, unknown>> = [];
  let unchanged = 0;
  for (const no of nos) {
    const o = oldA.get(no), n = newA.get(no);
    if (o && n) {
      if (norm(o.content) === norm(n.content) && o.title === n.title) { unchanged++; continue; }
      changes.push({ no, label: articleLabel(no), change: 'changed', old_title: o.title, new_title: n.title, old: o.content, new: n.content });
    } else if (n) changes.push({ no, label: articleLabel(no), change: 'added', new_title: n.title, new: n.content });
    else if (o) changes.push({ no, label: articleLabel(no), change: 'removed', old_title: o.title, old: o.content });
  }
  const ver = (v: TextVersion, day: string) => ({ date: day, promulgation_date: v.promulgation_date, enforcement_date: v.enforcement_date, mst: v.mst, revision_type: v.revision_type, current: v.current });
  const summary = { added: changes.filter((c) => c.change === 'added').length, removed: changes.filter((c) => c.change === 'removed').length, changed: changes.filter((c) => c.change === 'changed').length, unchanged };
  return { law_id: d.id, law_name: d.name, from: ver(a, from), to: ver(b, to), same_version: a === b, summary, changes, versions_with_text: avail };
}

// ---------- compare_versions ----------

export const compareVersionsSchema = z.object({
  law_id: lawIdSchema,
  from: dateSchema('from').describe('The older date, YYYYMMDD: the version promulgated on or before it'),
  to: dateSchema('to').optional().describe('The newer date, YYYYMMDD (default today): the version promulgated on or before it'),
  cursor: z.string().max(500).optional().describe('next_cursor of the previous page (long comparisons come in pages of about 20 KB)'),
}).strict();

export function compareVersions(ctx: ToolCtx, args: z.infer<typeof compareVersionsSchema>) {
  const { law, now } = ctx;
  const from = checkDate(args.from, 'from')!;
  const to = checkDate(args.to, 'to') ?? new Date(now + 9 * 3600_000).toISOString().slice(0, 10).replace(/-/g, '');
  if (from > to) throw new ToolError(`from ${from} is after to ${to}`, 'from');
  const d = findDoc(law, args.law_id);
  const r = diffVersions(law, d, from, to);
  const fp = fingerprint(['compare_versions', d.id, from, to]);
  const start = args.cursor ? Number(decodeCursor(args.cursor, fp).o) || 0 : 0;
  const rest = r.changes.slice(start);
  const n = rest.length ? fitCount(rest, PAGE_BYTES - bytes({ ...r, changes: [] })) : 0;
  const out: Record<string, unknown> = { ...r, changes_total: r.changes.length, changes_offset: start, changes: rest.slice(0, n) };
  if (start + n < r.changes.length) {
    out.next_cursor = encodeCursor({ f: fp, o: start + n });
    out.note = `changes ${start + 1}-${start + n} of ${r.changes.length} shown; call compare_versions again with the same law_id, from, to and cursor = next_cursor for the rest`;
  }
  return out;
}
