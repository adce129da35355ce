// The name matcher of law search (src/law/search/name-index.ts) on a small catalogue: a one-character query is
// matched against the names holding that character (and the instruments of the ministry of that name) only, with the
// hits, scores and order of trying every name of the catalogue. Pure: no corpus needed.
import t from 'tap';
import { NameIndex } from '../../src/law/search/name-index.js';
import { nameScore } from '../../src/law/search/names.js';
import { bigrams, nameKey } from '../../src/law/normalize.js';
import type { DocRec } from '../../src/law/parse.js';

const doc = (id: string, name: string, ministries: string[] = [], category = 'law') => ({ id, name, ministries, category, repealed: false }) as unknown as DocRec;
const catalog = [
  doc('a', '집회 및 시위에 관한 법률', ['경찰청']),
  doc('b', '주택법', ['국토교통부']),
  doc('c', '집', ['국토교통부']),
  doc('d', '건축법', ['국토교통부']),
  doc('e', '공동주택관리법', ['국토교통부']),
  doc('f', '집합건물의 소유 및 관리에 관한 법률', ['법무부']),
  doc('g', '사무 처리 규정', ['청'], 'admrul'),
  doc('h', '청원법', ['행정안전부']),
];
const ix = new NameIndex(catalog);
const none = new Map<string, string>();
const all = () => true;
const row = (h: { doc: DocRec; score: number; match: string }) => `${h.doc.id} ${h.score.toFixed(3)} ${h.match}`;
// (a name equal to the query or of its ministry is answered a second time at the end, as when every name was tried:
// the search puts a repeated hit in the first one's place)
const found = (q: string, allow: (d: DocRec) => boolean = all) => [...new Set(ix.match(q, q, false, none, allow).map(row))];

/** every name tried in catalogue order (what the matcher did for a one-character query before) */
const everyName = (q: string, allow: (d: DocRec) => boolean = all) => catalog.flatMap((d) => {
  if (!allow(d)) return [];
  const nk = nameKey(d.name);
  let { s, match } = nameScore({ name: d.name, nk, nbSize: new Set(bigrams(nk)).size, common: 0 }, { query: q, qk: q, qkj: q, qb: new Set(), fullKey: null, named: false });
  if (!s && d.ministries.map(nameKey).includes(q)) { s = 30; match = 'ministry'; }
  return s ? [row({ doc: d, score: s, match })] : [];
});

t.test('one character: the names holding it, in catalogue order, scored as when every name was tried', async (t) => {
  // 집 itself, the names starting with it (a prefix short of half the name), in catalogue order
  t.same(found('집').map((r) => r.split(' ')[0]), ['a', 'c', 'f']);
  t.equal(found('집')[1], 'c 100.000 name');
  // 주 inside 주택법 and 공동주택관리법: a fragment inside other words (12) or the name's start
  t.same(found('주').map((r) => r.split(' ')[0]), ['b', 'e']);
  t.equal(found('주')[1], 'e 12.000 name');
  t.same(found('뷁'), []);
  for (const q of ['집', '주', '법', '청', '관', '뷁']) t.same(found(q), everyName(q), q);
});

t.test('one character naming a ministry: its instruments and the names holding it, once each, in catalogue order', async (t) => {
  t.same(found('청').map((r) => r.split(' ')[0]), ['g', 'h']);
  t.equal(found('청')[0], 'g 30.000 ministry');
  t.same(found('청', (d) => d.category === 'admrul'), everyName('청', (d) => d.category === 'admrul'));
  t.same(found('청', (d) => d.category === 'admrul').map((r) => r.split(' ')[0]), ['g']);
});

// the bigrams are held as int codes in flat runs (rss26); the values below are what the matcher with a Set of bigram
// strings per name answered on this catalogue
t.test('several characters: the names sharing the query\'s bigrams, their overlap, the abbreviation and the ministry', async (t) => {
  const abbr = new Map([['집합건물법', '집합건물의 소유 및 관리에 관한 법률']]);
  const with_ = (q: string) => ix.match(q, q, false, abbr, all).map(row);
  // the shared-bigram overlap (dice of 관리·리에·에관·관한·한법·법률 with each name's distinct bigrams)
  t.same(with_('관리에 관한 법률'), ['f 44.667 name', 'a 28.000 name']);
  t.same(with_('공동주택 관리'), ['e 78.571 name']);
  t.same(with_('주택'), ['b 76.667 name', 'e 12.000 name']);
  t.same(with_('시위'), ['a 42.000 name']);
  t.same(with_('집합건물법'), ['f 95.000 abbreviation']);
  t.same(with_('국토교통부'), ['b 30.000 ministry', 'c 30.000 ministry', 'd 30.000 ministry', 'e 30.000 ministry']);
  t.same(with_('집회 시위 법률'), []);
  t.same(with_('ab'), []);
});
