// get_history: the revision history of a statute or rule between promulgation dates.
import { z } from 'zod';
import type { LawStore, Revision } from '../store.js';
import type { DocRec } from '../parse.js';
import { checkDate, dateSchema, findDoc, lawIdSchema, ToolError, type ToolCtx } from './common.js';

// ---------- get_history ----------

export const getHistorySchema = z.object({
  law_id: lawIdSchema,
  from_date: dateSchema('from_date').optional().describe('Earliest promulgation date, YYYYMMDD (inclusive)'),
  to_date: dateSchema('to_date').optional().describe('Latest promulgation date, YYYYMMDD (inclusive)'),
}).strict();

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
