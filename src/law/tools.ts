// The legal-information tools (the spec's eight plus verify_citation and compare_versions) as plain functions over the LawStore, with their zod input schemas and descriptions.
// The tools live in tools/ by concern; this module is the tool table and re-exports what other modules import.
import { z } from 'zod';
import { ToolError, type ToolCtx } from './tools/common.js';
import { getArticle, getArticleSchema } from './tools/article.js';
import { getChangelog, getChangelogSchema } from './tools/changelog.js';
import { getHistory, getHistorySchema } from './tools/history.js';
import { getLaw, getLawSchema } from './tools/law.js';
import { getRelations, getRelationsSchema } from './tools/relations.js';
import { listLaws, listSchema, searchLaws, searchSchema } from './tools/search.js';
import { getTable, getTableSchema } from './tools/table.js';
import { verifyCitation, verifyCitationSchema } from './tools/citation.js';
import { compareVersions, compareVersionsSchema } from './tools/diff.js';

export { entry, ToolError, type ToolCtx } from './tools/common.js';
export * from './tools/search.js';
export * from './tools/law.js';
export * from './tools/article.js';
export * from './tools/table.js';
export * from './tools/relations.js';
export * from './tools/history.js';
export * from './tools/changelog.js';
export * from './tools/citation.js';
export * from './tools/diff.js';

// ---------- the tool table ----------

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  /** the answer's shape (loose: the fields an agent relies on), sent as outputSchema; answers carry structuredContent */
  output: z.ZodObject<any>;
  schema: z.ZodObject<any>;
  run: (ctx: ToolCtx, args: any) => unknown;
}

export const TOOLS: ToolDef[] = [
  {
    name: 'search_laws',
    title: 'Search statutes and rules',
    output: z.looseObject({ total: z.number().int(), results: z.array(z.looseObject({ entity_type: z.enum(['law', 'admrul']) })), next_cursor: z.string().optional() }),
    description: 'Search Korean statutes (법률/시행령/시행규칙) and administrative rules (행정규칙) by keyword: names, abbreviations (개인정보법 → 개인정보 보호법), ministries and article text (character-bigram BM25). An article in the query (민법 제750조) is resolved. Returns {total, results:[entry], next_cursor?}; a statute entry has entity_type "law", law_id, law_name, law_type, category (law|decree|rule), ministry, enforcement_date (YYYYMMDD), revision_type, article_count, status (in_force|not_yet_in_force|repealed); a rule entry has entity_type "admrul", admrul_id, admrul_name, admrul_type, ministry, enforcement_date. Each result also has match (name|abbreviation|text|ministry) and articles [{no,title}] (the named or best-matching articles; read them with get_article).',
    schema: searchSchema,
    run: searchLaws,
  },
  {
    name: 'list_laws',
    title: 'List statutes and rules',
    output: z.looseObject({ total: z.number().int(), results: z.array(z.looseObject({ entity_type: z.enum(['law', 'admrul']) })), next_cursor: z.string().optional() }),
    description: 'List statutes and administrative rules with filters (type, subtype, ministry), sorted by name (default) or date (newest first). Returns {total, results:[entry], next_cursor?} with the same entries as search_laws.',
    schema: listSchema,
    run: listLaws,
  },
  {
    name: 'get_law',
    title: 'Statute or rule: meta, articles, annexes',
    output: z.looseObject({ entity_type: z.enum(['law', 'admrul']), meta: z.looseObject({}).optional(), articles: z.array(z.looseObject({ no: z.string() })).optional(), tables: z.array(z.looseObject({})).optional(), next_cursor: z.string().optional() }),
    description: 'Basic information, article list and annex/form list of one statute or rule. Returns {entity_type, meta:{…entry, promulgation_date, promulgation_no, mst, abbreviation?, source_url}, articles:[{no, title, preview, deleted?}], tables:[{table_no, kind (별표|별지|기타), title, structured (true when get_table gives its text and cells), pdf_url?}]}. Article numbers: "15", "15-2" = 제15조의2.',
    schema: getLawSchema,
    run: getLaw,
  },
  {
    name: 'get_article',
    title: 'Article text',
    output: z.looseObject({ law_id: z.string(), law_name: z.string(), article: z.looseObject({ no: z.string(), content: z.string() }).optional(), articles: z.array(z.looseObject({ no: z.string() })).optional(), next_cursor: z.string().optional() }),
    description: 'Article text. With article_no: {law_id, law_name, article:{no, label (제15조의2), title, content (full text; 항 start with ①…, 호 are indented 2 spaces, 목 4), enforcement_date, chapter, paragraphs:[{no?, text, items:[{no, text, sub:[{no, text}]}]}], deleted?, tables? (box-drawing tables inside the article, parsed like get_table)}}. With range or without both: {law_id, law_name, count, articles:[…same without paragraphs]}.',
    schema: getArticleSchema,
    run: getArticle,
  },
  {
    name: 'get_table',
    title: 'Annex or form as structured data',
    output: z.looseObject({ law_id: z.string(), law_name: z.string(), table_no: z.string(), kind: z.string(), title: z.string().nullable() }),
    description: 'An annex (별표) or form (별지) as structured JSON, not an image: {law_id, law_name, table_no, kind, title, text (the annex as plain text), tables:[{columns, rows:[[{text, col, row, colspan?, rowspan?}]]}] (box-drawing tables parsed into cells; spans say how many grid columns/rows a cell covers), pdf_url?}. When only the link is known, text is null and note says so.',
    schema: getTableSchema,
    run: getTable,
  },
  {
    name: 'get_relations',
    title: 'Statute family and citations',
    output: z.looseObject({ entity_type: z.enum(['law', 'admrul']), hierarchy: z.looseObject({}), parent: z.looseObject({}).nullable(), children: z.array(z.looseObject({})) }),
    description: 'Relations of a statute or rule: {hierarchy:{law:[…], decree:[…], rule:[…], admin_rules:[…], admin_rules_total}, parent, children, cites (statutes named in its text), cited_by (statutes naming it)}; entries are short ({entity_type, law_id, law_name, law_type, category} or the admrul fields). For an administrative rule, parent is the statute it implements.',
    schema: getRelationsSchema,
    run: getRelations,
  },
  {
    name: 'get_history',
    title: 'Revision history',
    output: z.looseObject({ law_id: z.string(), law_name: z.string(), total: z.number().int(), revisions: z.array(z.looseObject({})) }),
    description: 'Revision history between optional promulgation dates (YYYYMMDD): {law_id, law_name, total, revisions:[{promulgation_date, promulgation_no, enforcement_date, revision_type (제정|일부개정|전부개정|타법개정|폐지…), mst, current, text_available}]}, newest first.',
    schema: getHistorySchema,
    run: getHistory,
  },
  {
    name: 'get_changelog',
    title: 'Changes promulgated on a date',
    output: z.looseObject({ date: z.string(), total: z.number().int(), changes: z.array(z.looseObject({})) }),
    description: 'Statutes and rules changed (promulgated) on a date, YYYYMMDD, default today in Korea: {date, total, changes:[{entity_type, law_id, law_name, law_type, revision_type, ministry, promulgation_no, mst, in_corpus}], nearest_dates?:{before, after} when the date has no changes}.',
    schema: getChangelogSchema,
    run: getChangelog,
  },
  {
    name: 'verify_citation',
    title: 'Verify a legal citation',
    output: z.looseObject({ citation: z.string(), valid: z.boolean(), exists: z.boolean(), in_force: z.boolean(), problem: z.string().optional(), canonical: z.string().optional(), text: z.string().optional() }),
    description: 'Check a citation such as "근로기준법 제60조 제2항" (name or abbreviation, article with 의 branch, optional 항 and 호): {citation, parsed:{law_name, article_no, paragraph, item}, valid (exists and in force), exists, in_force, status (in_force|not_yet_in_force|repealed), law:{entry}, canonical ("근로기준법 제60조 제2항"), article:{no, label, title, enforcement_date, deleted?}, text (the cited article, paragraph or item), problem? (what is wrong), suggestions? (similar names when the statute is unknown)}.',
    schema: verifyCitationSchema,
    run: verifyCitation,
  },
  {
    name: 'compare_versions',
    title: 'Compare two versions (old/new)',
    output: z.looseObject({ law_id: z.string(), law_name: z.string(), same_version: z.boolean(), summary: z.looseObject({ added: z.number(), removed: z.number(), changed: z.number(), unchanged: z.number() }), changes: z.array(z.looseObject({ no: z.string(), change: z.enum(['added', 'removed', 'changed']) })), next_cursor: z.string().optional() }),
    description: 'Old/new comparison (신구대조) of a statute between the versions promulgated on or before two dates (YYYYMMDD; to defaults to today; basis "enforcement": the versions in force (시행일자) on them), as GET /api/v1/laws/{law_id}/diff: {law_id, law_name, from:{date, promulgation_date, enforcement_date, revision_type, current}, to:{…}, same_version, summary:{added, removed, changed, unchanged}, changes:[{no, label, change (added|removed|changed), old_title?, new_title?, old?, new?}], versions_with_text, next_cursor? (long comparisons are paged)}. get_history lists the revisions; text_available ones can be compared.',
    schema: compareVersionsSchema,
    run: compareVersions,
  },
];

/** Run the tool named `name` (ToolError for a name that is not one): the one lookup every thread that runs tools uses. */
export function runTool(name: string, ctx: ToolCtx, args: unknown): unknown {
  const t = TOOLS.find((x) => x.name === name);
  if (!t) throw new ToolError(`unknown tool ${name}`);
  return t.run(ctx, args);
}
