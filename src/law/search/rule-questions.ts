// Questions that ask what an administrative rule fixes (issue 15): a standard (…기준이 있나요), an amount, a rate or
// a limit (얼마까지, 한도, 요율, 수수료율), points (몇 점); not 얼마나 (how long, how often: any kind of question) and not
// hours (몇 시간: working time is set by the statutes themselves). The 고시/훈령/예규 are where these figures live; the parent 법률
// only empowers them. For such a question the parent-law prior of rank.ts is relaxed (search.ts rank, switch
// ruleStandard). Hand-written Korean patterns, not keyed to any question or rule.

const STANDARD = /기준|얼마(?!나)|몇(점|퍼센트|%|배|원|만원)|점수|한도|금액|요율|수수료율|비율|상한|하한/;

/** the query (white space removed) asks for a figure or a standard a rule sets */
export function asksForStandard(query: string): boolean {
  return STANDARD.test(query.replace(/\s+/g, ''));
}

/** the prior of a rule when the question asks for a standard: its own prior p moved toward the best statute prior top
 *  by the share w (0: p, 1: top) */
export function standardPrior(p: number, top: number, w: number): number {
  return top > p ? p ** (1 - w) * top ** w : p;
}
