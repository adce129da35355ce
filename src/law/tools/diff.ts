// compare_versions (MCP) and GET /api/v1/laws/{id}/diff (REST): the old/new comparison per article between the
// stored versions in force on two dates.
import { z } from 'zod';
import type { LawStore } from '../store.js';
import type { DocRec } from '../parse.js';
import { checkDate, dateSchema, decodeCursor, encodeCursor, findDoc, fingerprint, lawIdSchema, ToolError, type ToolCtx } from './common.js';
import { diffArticles, versionInForce, type AnyVersion } from '../history/versions.js';
import { fitCount, PAGE_BYTES, bytes } from './bound.js';

/** A diff request that cannot be answered: field and the dates of the versions with text. */
export class DiffError extends ToolError {
  constructor(message: string, field: string, readonly available: string[]) {
    super(message, field);
  }
}

/** The per-article comparison of d between the versions of from and to (YYYYMMDD, from ≤ to): by default the versions
 * promulgated on or before each date; basis "enforcement": the versions in force (시행일자) on each date. All stored
 * versions count (git history, history folder, older XML, sync-replaced texts, the current text). */
export function diffVersions(law: LawStore, d: DocRec, from: string, to: string, basis: 'promulgation' | 'enforcement' = 'promulgation') {
  const fa = versionInForce(law, d, from, basis), fb = versionInForce(law, d, to, basis);
  const a = fa.version, b = fb.version;
  const avail = fa.versions.map((v) => v.promulgation_date ?? '');
  const what = basis === 'enforcement' ? 'in force' : 'promulgated';
  if (!a) throw new DiffError(`No stored text of ${d.name} ${what} on or before ${from}; versions with text: ${avail.join(', ')}`, 'from', avail);
  if (!b) throw new DiffError(`No stored text of ${d.name} ${what} on or before ${to}; versions with text: ${avail.join(', ')}`, 'to', avail);
  const same = a.mst === b.mst && a.promulgation_date === b.promulgation_date;
  const { summary, changes } = same ? { summary: { added: 0, removed: 0, changed: 0, unchanged: a.load().length }, changes: [] } : diffArticles(a.load(), b.load());
  const ver = (v: AnyVersion, day: string) => ({ date: day, promulgation_date: v.promulgation_date, promulgation_no: v.promulgation_no, enforcement_date: v.enforcement_date, mst: v.mst, revision_type: v.revision_type, current: v.current });
  return { law_id: d.id, law_name: d.name, basis, from: ver(a, from), to: ver(b, to), same_version: same, summary, changes, versions_with_text: avail };
}

// ---------- compare_versions ----------

export const compareVersionsSchema = z.object({
  law_id: lawIdSchema,
  from: dateSchema('from').describe('The older date, YYYYMMDD: the version promulgated on or before it'),
  to: dateSchema('to').optional().describe('The newer date, YYYYMMDD (default today): the version promulgated on or before it'),
  cursor: z.string().max(500).optional().describe('next_cursor of the previous page (long comparisons come in pages of about 20 KB)'),
  basis: z.enum(['promulgation', 'enforcement'], { error: 'basis must be promulgation (default) or enforcement' }).optional().describe('promulgation (default): the versions promulgated on or before the dates; enforcement: the versions in force (시행일자) on them'),
}).strict();

export function compareVersions(ctx: ToolCtx, args: z.infer<typeof compareVersionsSchema>) {
  const { law, now } = ctx;
  const from = checkDate(args.from, 'from')!;
  const to = checkDate(args.to, 'to') ?? new Date(now + 9 * 3600_000).toISOString().slice(0, 10).replace(/-/g, '');
  if (from > to) throw new ToolError(`from ${from} is after to ${to}`, 'from');
  const d = findDoc(law, args.law_id);
  const r = diffVersions(law, d, from, to, args.basis);
  const fp = fingerprint(['compare_versions', d.id, from, to, args.basis ?? 'promulgation']);
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
