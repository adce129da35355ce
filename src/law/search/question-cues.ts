// Question-type cues for the article chosen inside a law (issue #15): a plain question says what kind of answer it
// wants in words the statutes do not use in the wanted article (몇 년마다 → 유효기간, 얼마까지 → 보험금의 계산,
// 해도 되나요 → …의 금지 / 제한, 허락을 받아야 → …승인). Each kind maps to the words that the titles of articles
// giving that kind of answer hold across the statute book (a period: 기간, 기한; an amount: 금액, 한도, 계산; a
// permission question: 금지, 제한, 허가, 승인; who may: 자격, …권자; liability: 책임, 면책, 배상). Hand-written
// rules because no analyser of Korean question intent runs offline here; they are general Korean, not keyed to
// any question or law. The cues only weigh in the choice of the article inside a document, never in its rank.

/** a kind of question: its pattern on the question (white space removed) and the title words of its answers */
const KINDS: Array<[RegExp, string[]]> = [
  // how long, how often, by when
  [/몇(년|개월|달|일|주|시간)|며칠|언제까지|얼마동안|얼마나오래|마다|기간|기한/, ['기간', '기한', '시효']],
  // how much, up to what amount or share
  [/얼마|몇(퍼센트|%|배|원|만원)|금액|한도|최대|최고/, ['금액', '한도', '계산', '산정', '상한']],
  // may I / is it allowed / is it an offence
  [/[가-힣]도(되|돼|괜찮)|걸리나요|문제가?(되|돼|없)|괜찮|불법|처벌/, ['금지', '제한', '허가', '승인', '준수사항']],
  // must I get leave (허락 → …승인): a permit, not a report (…신고 is another regime)
  [/허가|허락|승인/, ['허가', '승인']],
  // who may, who decides
  [/누가|누구/, ['자격', '권자', '결정']],
  // who pays, who is liable
  [/책임|물어|변상/, ['책임', '면책', '배상', '보상']],
  // undoing a contract or an act
  [/취소|없던일|무르|물러|마음이바뀌|환불|해지/, ['철회', '해제', '해지', '취소']],
];

/** the title words of the answers a plain question asks for (empty when no kind is recognised) */
export function questionCues(question: string): string[] {
  const q = question.replace(/\s+/g, '');
  const out = new Set<string>();
  // a cue the question writes itself is already its evidence (괴롭히면 신고할 수 있나요: 신고 is no kind of answer)
  for (const [re, words] of KINDS) if (re.test(q)) for (const w of words) if (!q.includes(w)) out.add(w);
  return [...out];
}
