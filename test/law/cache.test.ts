// ByteCache (src/law/cache.ts): least recently used out first, bounded by estimated bytes and by entries.
import t from 'tap';
import { ByteCache, stringBytes } from '../../src/law/cache.js';
import { snippetOf } from '../../src/law/search/rank.js';

t.test('evicts the least recently used entries until a new one fits the byte budget', async (t) => {
  const c = new ByteCache<string, number>(100);
  c.set('a', 1, 40);
  c.set('b', 2, 40);
  t.equal(c.get('a'), 1); // a is now the most recently used
  c.set('c', 3, 40); // 120 > 100: b goes, not a
  t.equal(c.get('b'), undefined);
  t.equal(c.get('a'), 1);
  t.equal(c.get('c'), 3);
  t.equal(c.size, 2);
  t.equal(c.bytes, 80);
});

t.test('an entry used again soon after it was last moved or set keeps its place near the end; older ones move', async (t) => {
  const c = new ByteCache<number, number>(1e9, 8);
  for (let i = 0; i < 8; i++) c.set(i, i, 1);
  // 0 was appended 8 appends ago (more than a quarter of the 8 entries): it moves to the end, 1 is now the oldest
  t.equal(c.get(0), 0);
  c.set(8, 8, 1);
  t.equal(c.peek(1), undefined, 'the least recently used went');
  t.equal(c.peek(0), 0);
  // 8 was appended just now: read again it stays in place (among the last two), and still outlives the older ones
  t.equal(c.get(8), 8);
  for (let i = 9; i < 14; i++) c.set(i, i, 1);
  t.same([2, 3, 4, 5, 6].map((k) => c.peek(k)), [undefined, undefined, undefined, undefined, undefined]);
  t.same([7, 0, 8].map((k) => c.peek(k)), [7, 0, 8]);
  t.equal(c.size, 8);
});

t.test('peek answers a value without making it the most recently used', async (t) => {
  const c = new ByteCache<string, number>(100);
  c.set('a', 1, 40);
  c.set('b', 2, 40);
  t.equal(c.peek('a'), 1);
  t.equal(c.peek('x'), undefined);
  c.set('c', 3, 40); // a is still the least recently used: it goes
  t.equal(c.peek('a'), undefined);
  t.equal(c.peek('b'), 2);
  t.equal(c.peek('c'), 3);
});

t.test('replacing a key counts its new size only; an entry over the whole budget is not kept', async (t) => {
  const c = new ByteCache<string, string | null>(100);
  c.set('a', 'x', 30);
  c.set('a', 'y', 50);
  t.equal(c.bytes, 50);
  t.equal(c.get('a'), 'y');
  c.set('n', null, 10); // null is a value (a posting that does not exist), not a miss
  t.equal(c.get('n'), null);
  c.set('big', 'z', 101);
  t.equal(c.get('big'), undefined);
  t.equal(c.get('a'), 'y', 'an entry too large to keep evicts nothing');
  t.equal(c.size, 2);
  t.equal(c.bytes, 60);
});

t.test('bounded by entries too; clear empties it', async (t) => {
  const c = new ByteCache<number, number>(1e9, 3);
  for (let i = 0; i < 5; i++) c.set(i, i, 1);
  t.same([c.get(0), c.get(1), c.get(2), c.get(3), c.get(4)], [undefined, undefined, 2, 3, 4]);
  c.clear();
  t.equal(c.size, 0);
  t.equal(c.bytes, 0);
  t.equal(stringBytes('근로기준법'), 26);
  t.equal(stringBytes(null), 0);
});

t.test('a snippet is the same text as before, 80 characters around the first word found', async (t) => {
  const content = '가'.repeat(100) + ' 손해를  배상할\n책임이 있다 ' + '나'.repeat(100);
  const s = snippetOf({ no: '750', title: '불법행위', content } as never, ['배상']);
  const text = content.replace(/\s+/g, ' ').trim();
  const at = text.indexOf('배상') - 30;
  t.equal(s, '…' + text.slice(at, at + 80) + '…');
  t.equal(snippetOf({ no: '1', title: '', content: '짧은 조문' } as never, ['없음']), '짧은 조문');
});
