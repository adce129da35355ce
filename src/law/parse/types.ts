// The records the parsers produce (documents, articles, annexes) and the statute category.
import type { ParsedTable } from '../boxtable.js';

export type Category = 'law' | 'decree' | 'rule' | 'admrul';

export interface Item { no: string; text: string; sub?: Item[] }
export interface Paragraph { no?: string; text: string; items?: Item[] }

export interface Article {
  /** canonical number: "15", "15-2" */
  no: string;
  title: string;
  /** full text: paragraphs, items (2-space indent) and sub-items (4-space indent) on their own lines */
  content: string;
  /** filled on read (paragraphsOf(content)); not stored */
  paragraphs?: Paragraph[];
  chapter?: string;
  deleted?: boolean;
  enforcement_date?: string;
}

export interface TableRef {
  table_no: string; // "1", "2-2"
  kind: string; // 별표 | 별지 | 기타 | 서식
  title: string;
  file_url?: string;
  pdf_url?: string;
  has_body?: boolean;
}

export interface TableRec extends TableRef {
  text: string;
  tables: ParsedTable[];
}

export interface DocRec {
  id: string; // 법령ID or admRulSeq
  entity_type: 'law' | 'admrul';
  name: string;
  /** 법령구분 (법률, 대통령령, 국토교통부령 …) or 행정규칙구분 (고시, 훈령 …) */
  law_type: string;
  category: Category;
  ministries: string[];
  enforcement_date: string | null;
  promulgation_date: string | null;
  promulgation_no: string | null;
  mst: string | null;
  revision_type: string | null;
  article_count: number;
  /** corpus path without kr/ and .md (statutes: family/kind), for family relations */
  path: string | null;
  family: string | null;
  abbreviation?: string | null;
  source_url?: string | null;
  tables: TableRef[];
  /** names cited in 「」 (nameKey-normalised at finalise time) */
  cites: string[];
  repealed?: boolean;
  /** revision_type was guessed from the 부칙 headers (replaced by history/changelog/XML/sync data) */
  revision_inferred?: boolean;
  /** where this record came from (md, admrul, xml, sync) */
  source: string;
}

export interface ParsedDoc {
  doc: DocRec;
  articles: Article[];
  tables: TableRec[];
}

// ---------- categories ----------

export function categoryOf(lawType: string, fileKind?: string | null): Category {
  if (fileKind === '시행령') return 'decree';
  if (fileKind === '시행규칙') return 'rule';
  if (lawType === '법률' || lawType === '헌법') return 'law';
  if (lawType === '대통령령') return 'decree';
  return 'rule';
}
