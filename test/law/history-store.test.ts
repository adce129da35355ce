// The history text store: line deltas round-trip, article-number runs round-trip, and every stored version of the
// sample's statutes reads back exactly the articles the parser gives for that version's file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';
import { parseStatuteMd } from '../../src/law/parse.js';
import { GitImporter } from '../../src/law/history/git-import.js';
import { KEYFRAME, decodeNos, encodeNos, historyOf } from '../../src/law/history/db.js';
import { applyDelta, lineDelta } from '../../src/law/history/delta.js';
import { SectionParser, articleDigest } from '../../src/law/history/sections.js';
import { TestRepo, sampleVersions } from './git-fixture.js';
import { SAMPLE } from './fixture.js';
import { needsShared } from '../helpers/shared.js';

/** the tests that read law-corpus/sample/history skip, saying so, when it is absent */
const HISTORY_NEEDED = needsShared('law-corpus', 'sample', 'history');

t.test('line delta: copies, new lines, a changed middle, reordering, empty texts', async (t) => {
  const prev = '① 이 법은 2020년 1월 1일부터 시행한다.\n② 제1항에도 불구하고 다음 각 호의 사항은 그러하지 아니하다.\n1. 가\n2. 나';
  const cases = [
    prev,
    prev.replace('2020년 1월 1일', '2021년 3월 2일') + ' <개정 2021. 3. 2.>',
    prev + '\n3. 다',
    '새 조문\n' + prev.split('\n').reverse().join('\n'),
    '',
    '삭제 <2024. 1. 1.>',
  ];
  for (const c of cases) t.equal(applyDelta(prev, lineDelta(prev, c)), c);
  t.equal(applyDelta('', lineDelta('', prev)), prev);
  const small = lineDelta(prev, prev.replace('2020년 1월 1일', '2021년 3월 2일'));
  t.equal(small.filter((o) => typeof o === 'string').length, 0, 'a changed line is kept as a prefix/suffix edit of the old one');
  t.ok(JSON.stringify(small).length < 60, `delta ${JSON.stringify(small)}`);
});

t.test('article numbers: runs written a~b and read back', async (t) => {
  const nos = ['1', '2', '3', '4', '4-2', '5', '6', '8', '10', '11', '12', '0'];
  t.equal(encodeNos(nos), '1~4,4-2,5,6,8,10~12,0');
  t.same(decodeNos(encodeNos(nos)), nos);
  t.same(decodeNos(encodeNos([])), []);
});

/** The articles as the writer thread gets them: title and content decoded from the entry's bytes, the digest checked. */
function entriesAsArticles(p: ReturnType<SectionParser['parseEntries']>): { doc: typeof p.doc; articles: Array<{ no: string; title: string; content: string }> } {
  const articles = p.entries.map((e) => {
    const a = { no: e.a.no, title: e.bytes.toString('utf8', 0, e.tl), content: e.bytes.toString('utf8', e.tl) };
    if (e.d !== articleDigest(a.title, a.content)) throw new Error(`article ${a.no}: digest does not match its bytes`);
    return a;
  });
  return { doc: p.doc, articles };
}

t.test('section parser: the same articles and metadata as parseStatuteMd, unchanged sections reused', HISTORY_NEEDED, async (t) => {
  const sp = new SectionParser();
  const versions = sampleVersions(['kr/개인정보보호법/법률.md', 'kr/민법/법률.md']);
  for (const e of versions) {
    const buf = fs.readFileSync(path.join(SAMPLE, 'history', e.file!));
    const want = parseStatuteMd(buf.toString('utf8'), e.path);
    const got = entriesAsArticles(sp.parseEntries(buf, e.path));
    t.same(got.articles, want.articles.map((a) => ({ no: a.no, title: a.title, content: a.content })), `${e.path} ${e.법령MST}`);
    for (const k of ['id', 'name', 'law_type', 'mst', 'promulgation_date', 'promulgation_no', 'enforcement_date', 'ministries'] as const) t.same(got.doc[k], want.doc[k], k);
  }
  t.ok(sp.hits > sp.misses, `sections reused ${sp.hits}, parsed ${sp.misses}`);
  // a file without frontmatter, a heading at the first byte, CRLF lines, 편/장 headings and 부칙
  const odd = Buffer.from('##### 제1조(목적)\r\n이 법은 목적을 정한다.\r\n# 제1편 총칙\n## 제1장 통칙\n##### 제2조의2 (정의)\n① 가\n  1. 나\n\n## 부칙\n##### 제1조(시행일)\n공포한 날부터\n');
  t.same(entriesAsArticles(new SectionParser().parseEntries(odd, 'kr/x/법률.md')).articles, parseStatuteMd(odd.toString('utf8'), 'kr/x/법률.md').articles.map((a) => ({ no: a.no, title: a.title, content: a.content })));
});

t.test('every version reads back the parser\'s articles (keyframes, deltas, titles)', HISTORY_NEEDED, async (t) => {
  const files = ['kr/개인정보보호법/법률.md', 'kr/민법/법률.md'];
  const versions = sampleVersions(files);
  const repo = new TestRepo();
  t.teardown(() => repo.remove());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-hstore-'));
  const store = new Store(dir);
  t.teardown(async () => { await store.close(); fs.rmSync(dir, { recursive: true, force: true }); });
  const law = openLaw(store);
  law.reload();
  // two runs: the second continues the chains written by the first (read back from the store)
  for (const e of versions.slice(0, 7)) repo.commitVersion(e);
  const st1 = await new GitImporter(law, () => {}, { buildIndex: false }).run(repo.dir);
  for (const e of versions.slice(7)) repo.commitVersion(e);
  const st2 = await new GitImporter(law, () => {}, { buildIndex: false }).run(repo.dir);
  t.equal(st1.versions + st2.versions, versions.length);
  const st = { new_texts: st1.new_texts + st2.new_texts };
  const h = historyOf(law);
  let checked = 0, deep = 0;
  for (const e of versions) {
    const p = parseStatuteMd(fs.readFileSync(path.join(SAMPLE, 'history', e.file!), 'utf8'), e.path);
    const v = h.versions(p.doc.id).find((x) => x.mst === p.doc.mst)!;
    t.ok(v, `version ${p.doc.mst} stored`);
    const want = p.articles.map((a) => ({ no: a.no, title: a.title, content: a.content }));
    t.same(h.articlesOf(v), want, `${p.doc.name} ${p.doc.mst}: all articles`);
    for (const a of want.filter((_, i) => i % 25 === 0)) t.same(h.articleOf(v, a.no), a);
    checked++;
  }
  for (const { key } of h.texts.getRange({})) if ((key as [string, string, number])[2] >= KEYFRAME) deep++;
  t.equal(checked, versions.length);
  const refs = versions.reduce((s, e) => s + parseStatuteMd(fs.readFileSync(path.join(SAMPLE, 'history', e.file!), 'utf8'), e.path).articles.length, 0);
  t.ok(st.new_texts < refs / 2, `${st.new_texts} texts stored for ${refs} article versions`);
  t.comment(`chain entries past the first keyframe: ${deep}`);
});
