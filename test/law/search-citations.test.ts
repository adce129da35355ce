// The articles an article's text cites inside its own instrument (src/law/search/article-citations.ts) and how many
// articles of an instrument cite each one (article-bodies.ts citedBy): what the article choice's citation prior reads
// (titles.ts byCitations, switch titleCite).
import t from 'tap';
import { citedNumbers } from '../../src/law/search/article-citations.js';
import { ArticleBodies } from '../../src/law/search/article-bodies.js';
import { bodyText } from '../../src/law/search/titles.js';
import { openLaw } from '../../src/law/open.js';
import { Store } from '../../src/store/env.js';
import { sampleDataDir } from './fixture.js';

t.test('citedNumbers: 제N조 and 제N조의M of the same instrument, once each, in order', async (t) => {
  // 근로기준법 제107조 as the choice compares it (bodyText: white space and commas out): five articles in a row
  t.same(citedNumbers(bodyText('제7조, 제8조, 제9조, 제23조제2항 또는 제40조를 위반한 자는 5년 이하의 징역')), ['7', '8', '9', '23', '40']);
  t.same(citedNumbers(bodyText('제76조의2에 따른 직장 내 괴롭힘, 제76조의3제2항 및 제76조의2')), ['76-2', '76-3']);
  // another instrument's article: after a statute's name (「민법」, …법, 영, …규칙), not counted
  t.same(citedNumbers(bodyText('「민법」 제750조에 따른 손해배상, 법 제5조, 영 제3조, 같은 규칙 제2조 및 제4조')), ['4']);
  t.same(citedNumbers(bodyText('사용자는 근로자에게 정당한 이유 없이 해고하지 못한다.')), []);
  // the instrument naming itself counts; another instrument named by a 법률 / 규정 / 고시 … name does not
  t.same(citedNumbers(bodyText('이 법 제5조, 이 영 제3조의2 및 이 규칙 제9조에 따라')), ['5', '3-2', '9']);
  t.same(citedNumbers(bodyText('「독점규제 및 공정거래에 관한 법률」 제3조, 같은 법률 제4조, 금융투자업규정 제5조, 이 고시 제6조')), ['6']);
});

t.test('citedBy: the articles of an instrument citing each of its articles (the longest laws of the sample)', async (t) => {
  const store = new Store(await sampleDataDir());
  t.teardown(() => store.close());
  const law = openLaw(store);
  law.reload();
  const docs = law.catalog.filter((d) => d.category === 'law').sort((a, b) => law.tocOf(b.id).length - law.tocOf(a.id).length).slice(0, 5);
  t.equal(docs.length, 5);
  const bodies = new ArticleBodies(law);
  let most = 0;
  for (const doc of docs) {
    const deg = bodies.citedBy(doc.id);
    t.equal(deg.length, law.tocOf(doc.id).length, `${doc.name}: one count an article`);
    // each count is the number of other articles whose text cites the article (read here article by article)
    const cited = law.articles(doc.id).map((a) => citedNumbers(bodyText(a.content ?? '')));
    const byHand = law.tocOf(doc.id).map((x, s) => cited.filter((c, i) => i !== s && c.includes(x.no)).length);
    t.same([...deg], byHand, doc.name);
    t.equal(bodies.citedBy(doc.id), deg, 'kept: the same array on the next read');
    most = Math.max(most, ...byHand);
  }
  t.ok(most >= 2, `an article cited ${most} times`);
});
