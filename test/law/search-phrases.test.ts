// The phrase lookup of query analysis (src/law/search/phrase-index.ts): the pairs whose key occurs in a text, in the
// list's order, exactly as a filter with a substring search per pair would answer. Pure functions: no corpus needed.
import t from 'tap';
import { phrasesIn } from '../../src/law/search/phrase-index.js';
import { CORE, phrases } from '../../src/law/search/vocabulary.js';
import { nameKey } from '../../src/law/normalize.js';

t.test('answers the pairs whose key occurs in the text, in list order, short keys included', async (t) => {
  const list: Array<[string, string]> = [['쉬는시간', '휴게시간'], ['a', 'A'], ['쉬는', '휴게'], ['불을지르', '방화'], ['시간', '기간'], ['', 'empty']];
  t.same(phrasesIn(list, '쉬는시간에불을지르면'), [['쉬는시간', '휴게시간'], ['쉬는', '휴게'], ['불을지르', '방화'], ['시간', '기간'], ['', 'empty']]);
  t.same(phrasesIn(list, 'abc'), [['a', 'A'], ['', 'empty']]);
  t.same(phrasesIn(list, ''), [['', 'empty']]);
  // a key met twice in the text is answered once
  t.same(phrasesIn(list, '시간시간'), [['시간', '기간'], ['', 'empty']]);
});

t.test('equals a filter over the vocabularies for texts built from their own keys', async (t) => {
  const keys = [...CORE, ...phrases()].map(([k]) => k);
  let n = 0;
  for (let i = 0; i < keys.length; i++) {
    // a key inside a sentence, two keys written together, a key cut short
    for (const text of [nameKey(`회사에서 ${keys[i]}했어요`), nameKey(keys[i]! + keys[(i * 7 + 3) % keys.length]!), keys[i]!.slice(0, -1)]) {
      for (const list of [CORE, phrases()]) {
        t.same(phrasesIn(list, text), list.filter(([k]) => text.includes(k)), text);
        n++;
      }
    }
  }
  t.ok(n > 3000, `${n} texts compared`);
});
