// The short names the corpus itself declares (issue 15), derived from the documents at every index build (import,
// sync): an instrument that cites a statute often writes 「고위공직자범죄수사처 설치 및 운영에 관한 법률」(이하
// "공수처법"이라 한다); those short names are the ones lawyers and the ministries use. The build hands every stored
// article to a DeclaredCollector; the kept table is stored with the generation (LawStore.rebuildIndex, the side file)
// and read at open. Until session 14 the table was generated from the full corpus by a bench script and committed
// (src/law/search/declared-abbreviations.ts): stale at the first sync, and wrong for any other corpus.
// Hand-written rules (no library knows Korean statute short names).
import type { DocRec } from '../parse.js';
import { nameKey } from '../normalize.js';
import { ABBREVIATIONS } from './names.js';
import { usableShortName, type Declared } from './declared-names.js';

/** a declaration: 「full name」 (이하 "short법"이라 한다), the quotes straight or curly, 이라/라 */
const DECL = /「([^」]{2,100})」\s*\(이하\s*["“”]([가-힣ㆍ·]{2,15}법)["“”]\s*(?:이)?라\s*한다/g;

/** a short name left out, and why (the diag prints them) */
export type Dropped = [short: string, fulls: string, instruments: number, why: string];

/** Collects the declarations of the articles it is shown (one index build). */
export class DeclaredCollector {
  /** short name → full name key → the documents declaring it */
  private seen = new Map<string, Map<string, Set<string>>>();
  /** full name key → the name as written */
  private names = new Map<string, string>();
  articles = 0;

  visit(docId: string, content: string): void {
    this.articles++;
    // most articles declare nothing: the regex only runs where 이하 is written
    if (!content.includes('이하')) return;
    for (const m of content.matchAll(DECL)) {
      const full = nameKey(m[1]!), short = m[2]!.replace(/[ㆍ·]/g, '');
      this.names.set(full, m[1]!);
      let by = this.seen.get(short);
      if (!by) this.seen.set(short, (by = new Map()));
      let docs = by.get(full);
      if (!docs) by.set(full, (docs = new Set()));
      docs.add(docId);
    }
  }

  /**
   * The declared short names kept for this store: those naming one current 법률 of it, not themselves a name, not in
   * the built-in table, whose stem is in no more than two statutes' names, and that read as the statute's short name
   * (usableShortName). byName: the store's name key → documents, preferred first.
   */
  table(byName: Map<string, DocRec[]>): { kept: Declared[]; dropped: Dropped[] } {
    const lawNames = [...byName.entries()].filter(([, l]) => l[0]!.category === 'law' && !l[0]!.repealed).map(([k]) => k);
    const builtIn = new Map(Object.entries(ABBREVIATIONS).map(([k, v]) => [nameKey(k), nameKey(v)]));
    const kept: Declared[] = [], dropped: Dropped[] = [];
    for (const [short, by] of [...this.seen].sort((a, b) => a[0].localeCompare(b[0]))) {
      const fulls = [...by.keys()];
      // the names declared that are current 법률 of the store (an old name or a misspelt one names none)
      const laws = [...new Set(fulls.map((f) => byName.get(f)?.[0]).filter((d) => d && d.category === 'law' && !d.repealed))];
      const doc = laws[0], k = nameKey(short), stem = k.replace(/법$/, '');
      const n = [...by.values()].reduce((s, d) => s + d.size, 0);
      const why = laws.length > 1 ? `declared for ${laws.length} statutes`
        : !doc ? 'not a current 법률 of the store'
        : byName.has(k) ? 'itself a name'
        : builtIn.has(k) ? (builtIn.get(k) === nameKey(doc.name) ? 'in the table' : `the table says ${builtIn.get(k)}`)
        : lawNames.filter((x) => x.includes(stem)).length > 2 ? 'generic (its stem is in the names of more than 2 statutes)'
        : usableShortName(short, doc.name) ? '' : 'generic (a tail of the name, or not its syllables in order)';
      if (why) dropped.push([short, fulls.map((f) => this.names.get(f)).join(' | '), n, why]);
      else kept.push([short, doc!.name, n]);
    }
    return { kept, dropped };
  }
}
