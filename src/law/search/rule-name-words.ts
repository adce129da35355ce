// A plain question's own long word written whole in an administrative rule's name (vocab23): 층간소음 in 층간소음
// 피해사례 조사ㆍ상담 등의 절차 및 방법에 관한 규정, 근골격계 in 근골격계부담작업의 범위 …에 관한 고시. Such a rule is
// named by its subject as rank.ts namesRuleSubject reads it for keyword queries (there: a part of five syllables or
// more); a plain question's mapped terms are left out (영상정보처리기기 names many rules), its own words only.
import { nameKey } from '../normalize.js';

/** the question's own words (AnalysedQuery.core) of at least minLen characters, as name keys */
export function longOwnWords(core: string, minLen: number): string[] {
  return core.split(/\s+/).filter((w) => w.length >= minLen).map(nameKey);
}

/** the rule's name holds one of the words whole */
export function ruleNameHolds(name: string, words: string[]): boolean {
  if (!words.length) return false;
  const key = nameKey(name);
  return words.some((w) => key.includes(w));
}
