// get_changelog: statutes and rules promulgated on a date.
import { z } from 'zod';
import { kstToday } from '../normalize.js';
import { checkDate, dateSchema, type ToolCtx } from './common.js';

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
