// Success answers of the legal REST API (src/api/law-rest.ts). The statute records inside (meta, articles, versions,
// changes) come from the law store and the MCP tools (src/law/); they are described as open objects here, the
// envelopes exactly.
import { z } from 'zod';

const record = (description: string) => z.looseObject({}).describe(description);
const ymd = z.string().describe('YYYYMMDD');

export const lawText = z.strictObject({
  success: z.literal(true),
  entity_type: z.string().describe('law, or an administrative rule'),
  as_of: record('with ?date=: the version in force that day').optional(),
  meta: record('id, name, kind, ministry, promulgation and enforcement dates, mst …'),
  articles: z.array(record('no, label, title, content, enforcement_date, chapter?, deleted?')),
  tables: z.array(z.looseObject({ table_no: z.unknown(), kind: z.unknown(), title: z.unknown(), structured: z.boolean() })).optional().describe('annexes (without ?date=)'),
});

export const amendments = z.strictObject({
  success: z.literal(true), since: ymd, as_of: z.string().nullable().describe('date of the corpus'), last_sync: z.string().nullable(),
  total: z.number().int(),
  results: z.array(record('the statute with promulgation_date, promulgation_no, mst, revisions_since and versions[]')),
  next_cursor: z.string().optional(),
});

export const lawDiff = z.strictObject({
  success: z.literal(true), law_id: z.string(), law_name: z.string(), basis: z.enum(['promulgation', 'enforcement']),
  from: record('the older version'), to: record('the newer version'), same_version: z.boolean(),
  summary: z.unknown().describe('counts of added, removed and changed articles'),
  changes: z.array(record('one article: old and new text')),
  versions_with_text: z.unknown(),
});

export const enforcements = z.strictObject({
  success: z.literal(true), after: ymd, before: ymd, total: z.number().int(),
  results: z.array(record('a statute version taking effect in the range')),
});
