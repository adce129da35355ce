// The articles of the same instrument that an article's text cites (article25, issue #15): a statute states a duty or
// a right once and its other articles point at it (제56조에 따른 개발행위허가, 제29조에 따른 안전보건교육, 제37조에 따른
// 업무상의 재해) — a procedure, a committee, a penalty or an exception holds the question's words because it cites the
// article that regulates them. Hand-written because the citation grammar of Korean statutes is fixed and small: 제N조
// or 제N조의M, read from the text as the article choice compares it (titles.ts bodyText: white space and 「」 out).

/** 제N조 / 제N조의M not preceded by an instrument's name (…법 제5조, 「민법」 제5조, 「…에 관한 법률」 제3조, 영 제3조,
 *  …규칙 제2조, …규정 / 고시 / 예규 / 지침 / 조례 제4조: another instrument's article), except the instrument's own
 *  name for itself (이 법 제5조, 이 영 제3조, 이 규칙 제2조, 이 고시 제4조 …: the compared text has no spaces, so
 *  이법제5조). Lookbehinds, not consumed characters: 제7조제8조 (the text without its commas) is two. */
const CITATION = /(?:(?<=이(?:법|영|법률|규칙|규정|고시|훈령|예규|지침))|(?<![법령칙영률]|규정|고시|예규|지침|조례))제(\d+)조(?:의(\d+))?/g;

/** the numbers ("56", "76-2") of the articles of the same instrument a compared text cites, once each, in order */
export function citedNumbers(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(CITATION)) out.add(m[2] ? `${m[1]}-${m[2]}` : m[1]!);
  return [...out];
}
