// Noise words of plain questions (issue #15, noise20): the words of spoken Korean that are not the question's subject
// and that the bigram index matches all over the statute book (vocab20 found them pulling the ranking to unrelated
// articles: 안에서, 싶은데, 형이, 적이). General Korean rules and word lists written from the grammar (connective
// endings, bound nouns, demonstratives), not keyed to any question or law. Query side only. Measured and left out
// (bench/RESULTS.md noise20): an infinitive with its auxiliary verb (잡아 오면, 등록해 둘), a noun with 인데
// (걱정인데 → 걱정), situation adverbs (때문에, 올해, 누구나, 직접).

/** bound nouns, demonstratives and place words of spoken questions (after particles and endings are stripped) */
export const FILLERS = new Set([
  '안에서', '안에', '쪽', '쪽에서', '그건', '그게', '그래', '그래도', '이래', '이래도', '이런', '저런', '그런', '건', '게', '데',
  '적', '번에', '번씩', '제', '다', '법으', '법으로', '쯤', '번',
]);

/** 2-syllable words ending in 이 after a closed syllable that are nouns themselves, not a noun with the particle 이 */
const I_NOUNS = new Set(['길이', '높이', '깊이', '넓이', '놀이', '먹이', '굳이', '일이', '물이']);

/** a one-syllable noun with the subject particle 이 (형이, 적이, 팔이, 날이): the particle follows a closed syllable */
export function oneSyllableI(w: string): boolean {
  if (w.length !== 2 || w[1] !== '이' || I_NOUNS.has(w)) return false;
  const c = w.charCodeAt(0) - 0xac00;
  return c >= 0 && c < 11172 && c % 28 !== 0;
}

/** connective and adnominal predicate endings of spoken questions (싶은데, 닫던데, 넘어져서, 있는지, 놨다길래) */
export function spokenPredicate(w: string): boolean {
  // documents named …서 (허가서, 인가서, 평가서) are nouns
  return w.length >= 2 && /(은데|던데|길래|는지|[아어여해져워꿔눠가와봐줘쳐려내혀겨]서)$/.test(w) && !/(인데|허가서|인가서|평가서)$/.test(w);
}
