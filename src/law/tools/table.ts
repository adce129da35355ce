// get_table: an annex (별표) or form (별지) as structured JSON.
import { z } from 'zod';
import { parseTableNo } from '../normalize.js';
import { tableTitle, findDoc, lawIdSchema, ToolError, type ToolCtx } from './common.js';

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
      return { law_id: d.id, law_name: d.name, table_no: t.table_no, kind: t.kind, title: tableTitle(t.title, t.kind, t.table_no, law, d.id), text: t.text, tables: t.tables, ...(t.file_url ? { file_url: t.file_url } : {}), ...(t.pdf_url ? { pdf_url: t.pdf_url } : {}) };
    }
    const ref = d.tables.find((x) => x.kind === k && x.table_no === p.no);
    if (ref) {
      return { law_id: d.id, law_name: d.name, table_no: ref.table_no, kind: ref.kind, title: tableTitle(ref.title, ref.kind, ref.table_no, law, d.id), text: null, tables: [], note: 'The annex body is not in the corpus (only its link); open pdf_url for the content.', ...(ref.file_url ? { file_url: ref.file_url } : {}), ...(ref.pdf_url ? { pdf_url: ref.pdf_url } : {}) };
    }
  }
  const avail = d.tables.map((t) => `${t.kind} ${t.table_no}`);
  throw new ToolError(`${d.name} has no annex ${p.kind ?? ''}${p.no}.${avail.length ? ` Available: ${avail.slice(0, 30).join(', ')}` : ' It has no annexes.'}`, 'table_no', 'NOT_FOUND');
}
