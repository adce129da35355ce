// A question as searchLaws puts it to the index: the article reference taken out of the text (제750조, 60조의2),
// the type and ministry as filters. The speed and ranking benches call law.search.query with exactly this.
import type { SearchFilters } from '../../src/law/search.js';
import { nameKey } from '../../src/law/normalize.js';
import { categories } from '../../src/law/tools/common.js';
import type { Question } from './evaluate.js';

export interface SearchCall { text: string; filters: SearchFilters; ref: string | null }

export function searchCall(q: Question): SearchCall {
  const query = q.query.trim();
  const am = /제?\s*(\d+)\s*조(?:\s*의\s*(\d+))?/.exec(query);
  const ref = am ? (am[2] ? `${Number(am[1])}-${Number(am[2])}` : String(Number(am[1]))) : null;
  const rest = am ? (query.slice(0, am.index) + ' ' + query.slice(am.index + am[0].length)).trim() : query;
  return { text: rest || query, filters: { categories: categories(q.type), ministry: q.ministry?.trim() ? nameKey(q.ministry) : null }, ref };
}
