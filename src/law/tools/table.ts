// get_table: an annex (별표) or form (별지) as structured JSON.
import { z } from 'zod';
import { parseTableNo } from '../normalize.js';
import { bytes, fitCount, PAGE_BYTES } from './bound.js';
import { decodeCursor, encodeCursor, fingerprint, tableTitle, findDoc, lawIdSchema, ToolError, type ToolCtx } from './common.js';

// ---------- get_table ----------

export const getTableSchema = z.object({
  law_id: lawIdSchema,
  table_no: z.union([z.string().min(1, 'table_no is required').max(30), z.number().int().nonnegative()], { error: 'table_no must be an annex number like "1", "2-2" or "별지 1"' }).describe('Annex/form number: 1, "2-2" (별표 2의2), "별표 3", "별지 1" (forms). Without a kind, 별표 is tried first'),
  cursor: z.string().max(500).optional().describe('next_cursor of the previous page (long annexes come in pages of about 20 KB)'),
}).strict();

type Grid = { columns?: number; rows: unknown[][] } & Record<string, unknown>;

/** A long annex in pages: text in line-aligned chunks, then table rows; each page about PAGE_BYTES. */
function pageOf(base: Record<string, unknown>, text: string | null, tables: Grid[], fp: string, cursor: string | undefined) {
  const parts: Array<{ text: string } | { table: number; from: number; rows: unknown[][] }> = [];
  let buf = '';
  for (const line of (text ?? '').split('\n')) {
    if (buf && bytes(buf + line) > PAGE_BYTES / 2) { parts.push({ text: buf }); buf = ''; }
    buf += (buf ? '\n' : '') + line;
  }
  if (buf) parts.push({ text: buf });
  tables.forEach((tb, i) => {
    let from = 0;
    while (from < tb.rows.length) {
      const n = fitCount(tb.rows.slice(from), PAGE_BYTES / 2);
      parts.push({ table: i, from, rows: tb.rows.slice(from, from + n) });
      from += n;
    }
  });
  let start = cursor ? Number(decodeCursor(cursor, fp).o) || 0 : 0;
  start = Math.min(start, parts.length);
  const n = fitCount(parts.slice(start));
  const page = parts.slice(start, start + n);
  const pageText = page.filter((x): x is { text: string } => 'text' in x).map((x) => x.text).join('\n');
  const pageTables = page.filter((x): x is { table: number; from: number; rows: unknown[][] } => 'table' in x)
    .map((x) => ({ ...tables[x.table]!, rows: x.rows, table_index: x.table, row_offset: x.from, rows_total: tables[x.table]!.rows.length }));
  const out: Record<string, unknown> = { ...base, text: pageText || null, tables: pageTables, part: start + 1, parts_total: parts.length };
  if (start + n < parts.length) {
    out.next_cursor = encodeCursor({ f: fp, o: start + n });
    out.note = `long annex: parts ${start + 1}-${start + n} of ${parts.length} (text first, then table rows with table_index and row_offset); call get_table again with the same law_id and table_no and cursor = next_cursor for the rest`;
  }
  return out;
}

export function getTable(ctx: ToolCtx, args: z.infer<typeof getTableSchema>) {
  const { law } = ctx;
  const d = findDoc(law, args.law_id);
  const p = parseTableNo(String(args.table_no));
  if (!p) throw new ToolError(`table_no must be an annex number like "1", "2-2" (별표 2의2) or "별지 1" but received "${args.table_no}"`, 'table_no');
  const kinds = p.kind ? [p.kind] : ['별표', '별지', '기타', '서식', '별첨'];
  for (const k of kinds) {
    const t = law.tables.get([d.id, `${k}:${p.no}`]);
    if (t) {
      const base = { law_id: d.id, law_name: d.name, table_no: t.table_no, kind: t.kind, title: tableTitle(t.title, t.kind, t.table_no, law, d.id), ...(t.file_url ? { file_url: t.file_url } : {}), ...(t.pdf_url ? { pdf_url: t.pdf_url } : {}) };
      const whole = { ...base, text: t.text, tables: t.tables };
      if (!args.cursor && bytes(whole) <= PAGE_BYTES) return whole;
      return pageOf(base, t.text, (t.tables ?? []) as unknown as Grid[], fingerprint(['get_table', d.id, k, p.no]), args.cursor);
    }
    const ref = d.tables.find((x) => x.kind === k && x.table_no === p.no);
    if (ref) {
      return { law_id: d.id, law_name: d.name, table_no: ref.table_no, kind: ref.kind, title: tableTitle(ref.title, ref.kind, ref.table_no, law, d.id), text: null, tables: [], note: 'The annex body is not in the corpus (only its link); open pdf_url for the content.', ...(ref.file_url ? { file_url: ref.file_url } : {}), ...(ref.pdf_url ? { pdf_url: ref.pdf_url } : {}) };
    }
  }
  const avail = d.tables.map((t) => `${t.kind} ${t.table_no}`);
  throw new ToolError(`${d.name} has no annex ${p.kind ?? ''}${p.no}.${avail.length ? ` Available: ${avail.slice(0, 30).join(', ')}` : ' It has no annexes.'}`, 'table_no', 'NOT_FOUND');
}
