// Parsers, normalisation, box tables and the tar.gz importer (small pieces of the shared sample).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import t from 'tap';
import { nameKey, normText, parseArticleNo, parseTableNo, termIds, isYmd, stripJosa } from '../../src/law/normalize.js';
import { parseAdmrulMd, parseAnnexMd, parseLawXml, parseStatuteMd, paragraphsOf, parseYamlSubset } from '../../src/law/parse.js';
import { parseBoxTables } from '../../src/law/boxtable.js';
import { readTar } from '../../src/law/tar.js';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';
import { Importer } from '../../src/law/import.js';
import { SAMPLE } from './fixture.js';
import { needsShared } from '../helpers/shared.js';

/** the tests that read law-corpus/sample skip, saying so, when it is absent */
const SAMPLE_NEEDED = needsShared('law-corpus', 'sample');

t.test('normalisation', async (t) => {
  t.equal(normText('해외농업·산림자원'), '해외농업ㆍ산림자원');
  t.equal(normText('해외농업ㆍ산림자원'), '해외농업ㆍ산림자원');
  t.equal(nameKey('해외농업・산림자원 개발협력법'), nameKey('해외농업ㆍ산림자원개발협력법'));
  t.equal(nameKey('ＡＢＣ　법'), 'abc법');
  t.equal(parseArticleNo('15-2'), '15-2');
  t.equal(parseArticleNo('제15조의2'), '15-2');
  t.equal(parseArticleNo('제 750 조'), '750');
  t.equal(parseArticleNo('0015'), '15');
  t.equal(parseArticleNo('abc'), null);
  t.same(parseTableNo('별표 2의2'), { kind: '별표', no: '2-2' });
  t.same(parseTableNo('3'), { kind: null, no: '3' });
  t.same(parseTableNo('별지 제1호서식'), { kind: '별지', no: '1' });
  t.equal(isYmd('20240229'), true);
  t.equal(isYmd('20230229'), false);
  t.equal(stripJosa('개인정보의'), '개인정보');
  t.equal(stripJosa('법인'), '법인');
  t.same(termIds('손해를 배상'), termIds('손해 배상'));
  t.equal(termIds('개인정보').length, 3);
});

t.test('YAML subset: lists of objects and an unquoted ": " in a title', async (t) => {
  const y = parseYamlSubset("제목: 영구기록물관리기관 표준모델: 기능 및 업무절차\n법령ID: '011357'\n소관부처:\n- 개인정보보호위원회\n첨부파일:\n- 별표번호: '0001'\n  제목: 가\n");
  t.equal(y['제목'], '영구기록물관리기관 표준모델: 기능 및 업무절차');
  t.equal(y['법령ID'], '011357');
  t.same(y['소관부처'], ['개인정보보호위원회']);
  t.same(y['첨부파일'], [{ 별표번호: '0001', 제목: '가' }]);
});

t.test('statute Markdown: articles, 항/호/목, branch and deleted articles, chapters', SAMPLE_NEEDED, async (t) => {
  const p = parseStatuteMd(fs.readFileSync(`${SAMPLE}/statutes/kr/민법/법률.md`, 'utf8'), 'kr/민법/법률.md');
  t.equal(p.doc.id, '001706');
  t.equal(p.doc.category, 'law');
  t.equal(p.doc.family, '민법');
  const a750 = p.articles.find((a) => a.no === '750')!;
  t.equal(a750.chapter, '제3편 채권 > 제5장 불법행위');
  t.ok(p.articles.some((a) => a.deleted));
  t.ok(p.articles.some((a) => a.no.includes('-')));
  const k = parseStatuteMd(fs.readFileSync(`${SAMPLE}/statutes/kr/개인정보보호법/법률.md`, 'utf8'), 'kr/개인정보보호법/법률.md');
  const def = k.articles.find((a) => a.no === '2')!;
  t.notMatch(def.content, /\\\./, 'escaped list markers are unescaped');
  const paras = paragraphsOf(def.content);
  t.equal(paras[0]!.items![0]!.no, '1');
  t.equal(paras[0]!.items![0]!.sub!.length, 3);
  t.ok(paras[0]!.items!.some((i) => i.no === '1의2'));
  const a3 = paragraphsOf(k.articles.find((a) => a.no === '3')!.content);
  t.same(a3.map((x) => x.no), ['①', '②', '③', '④', '⑤', '⑥', '⑦', '⑧']);
  t.equal(k.doc.revision_type, '일부개정');
  t.equal(k.doc.revision_inferred, true);
  const stub = parseStatuteMd(fs.readFileSync(`${SAMPLE}/statutes/kr/근로기준법/법률.md`, 'utf8'), 'kr/근로기준법/법률.md');
  t.equal(stub.doc.repealed, true);
  t.equal(stub.doc.revision_type, '폐지');
});

t.test('admin rule, annex box table, law.go.kr XML', SAMPLE_NEEDED, async (t) => {
  const r = parseAdmrulMd(fs.readFileSync(`${SAMPLE}/admrul/kr/전자금융감독규정/고시.md`, 'utf8'), 'kr/전자금융감독규정/고시.md');
  t.equal(r.doc.id, '2100000274812');
  t.equal(r.doc.ministries[0], '금융위원회');
  t.ok(r.articles.length > 80);
  t.ok(r.doc.cites.includes('전자금융거래법'));
  const an = parseAnnexMd(fs.readFileSync(`${SAMPLE}/admrul/kr/전자금융감독규정/별표2의2.md`, 'utf8'), '별표2의2.md');
  t.equal(an.table_no, '2-2');
  t.equal(an.tables[0]!.columns, 5);
  t.equal(an.tables[0]!.rows[1]![4]!.text, 'IaaS,PaaS,SaaS');
  const x = parseLawXml(fs.readFileSync(`${SAMPLE}/lawgo-api/detail/285051.xml`, 'utf8'));
  t.equal(x.doc.id, '012702');
  t.equal(x.doc.abbreviation, '전공의법 시행령');
  t.equal(x.doc.revision_type, '일부개정');
  t.ok(x.articles.find((a) => a.no === '1-2'));
  // a table whose spacing was collapsed (legalize-kr article text): split at │, rows between rules
  const bd = parseStatuteMd(fs.readFileSync(`${SAMPLE}/statutes/kr/건축법/시행령.md`, 'utf8'), null);
  const tb = parseBoxTables(bd.articles.find((a) => a.no === '3-3')!.content);
  t.same(tb[0]!.rows.map((r) => r.map((c) => c.text)), [['막다른 도로의 길이', '도로의 너비'], ['10미터 미만', '2미터'], ['10미터 이상 35미터 미만', '3미터'], ['35미터 이상', '6미터(도시지역이 아닌 읍ㆍ면지역은 4미터)']]);
  const box = parseBoxTables('┌──┬──┐\n│가│나│\n├──┼──┤\n│다    │\n└──┴──┘');
  t.equal(box[0]!.rows[0]!.length, 2);
});

t.test('tar.gz import: GNU long names, idempotent re-import', SAMPLE_NEEDED, async (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-law-tar-'));
  t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const fam = '개발도상국산림을통한온실가스배출감축및탄소축적증진지원에관한법률';
  fs.mkdirSync(path.join(tmp, 'kr', fam), { recursive: true });
  for (const f of fs.readdirSync(`${SAMPLE}/statutes/kr/${fam}`)) fs.copyFileSync(`${SAMPLE}/statutes/kr/${fam}/${f}`, path.join(tmp, 'kr', fam, f));
  execFileSync('tar', ['--format=gnu', '-czf', path.join(tmp, 'x.tar.gz'), '-C', tmp, 'kr']);
  const names: string[] = [];
  for await (const e of readTar(path.join(tmp, 'x.tar.gz'))) names.push(e.name);
  t.ok(names.some((n) => Buffer.byteLength(n) > 100 && n.endsWith('시행령.md')));
  const store = new Store(path.join(tmp, 'db'));
  t.teardown(() => store.close());
  const law = openLaw(store);
  law.reload();
  const s1 = await new Importer(law).run([path.join(tmp, 'x.tar.gz')]);
  t.equal(s1.statutes, names.length);
  const n1 = law.catalog.length;
  const arts1 = law.catalog.reduce((s, d) => s + d.article_count, 0);
  await new Importer(law).run([path.join(tmp, 'x.tar.gz')]);
  t.equal(law.catalog.length, n1);
  t.equal(law.catalog.reduce((s, d) => s + d.article_count, 0), arts1);
  t.equal(law.search.query('온실가스배출감축', {}, null)[0]?.doc.family, fam);
});

t.test('admin rules sharing one admRulSeq (a regulate-kr quirk) are both kept', async (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-law-dup-'));
  t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const rule = (title: string) => `---\n제목: ${title}\n행정규칙구분: 고시\n소관부처: 해양수산부\n시행일자: "2020-01-01"\n발령번호: "2020-1"\nadmRulSeq: "2100000055770"\n---\n# ${title}\n\n제1조(목적) 이 고시는 ${title}에 관한 사항을 정한다.\n`;
  for (const name of ['가 규정', '나 고시']) {
    fs.mkdirSync(path.join(tmp, 'kr', name), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'kr', name, '고시.md'), rule(name));
  }
  const store = new Store(path.join(tmp, 'db'));
  t.teardown(() => store.close());
  const law = openLaw(store);
  law.reload();
  await new Importer(law).run([path.join(tmp, 'kr')]);
  t.same(law.catalog.map((d) => [d.id, d.name]).sort(), [['2100000055770', '가 규정'], ['2100000055770-2', '나 고시']]);
  await new Importer(law).run([path.join(tmp, 'kr')]);
  t.equal(law.catalog.length, 2);
  t.equal(law.get('2100000055770-2')?.name, '나 고시');
});

t.test('admin rules: 제N-N조 numbering and bodies without articles become numbered sections', async (t) => {
  const fm = (title: string) => `---\n제목: ${title}\n행정규칙구분: 고시\n소관부처: 금융위원회\n시행일자: "2026-01-01"\nadmRulSeq: "2100000999999"\n---\n# ${title}\n\n`;
  const r = parseAdmrulMd(fm('가 규정') + '제1편 총칙\n제1-1조(목적) 이 규정은 시험을 위한 것이다.\n제1-2조(정의) 용어는 다음과 같다.\n  1. "갑"이란 첫째를 말한다.\n제1-2조의2(요건) 요건은 둘이다.\n제2편 영업\n제2-1조(인가) 인가를 받아야 한다.\n', 'kr/가 규정/고시.md');
  t.same(r.articles.map((a) => a.no), ['1-1', '1-2', '1-2-2', '2-1']);
  t.same(r.articles.map((a) => a.title), ['목적', '정의', '요건', '인가']);
  t.equal(r.articles[3]!.chapter, '제2편 영업');
  t.equal(r.doc.article_count, 4);
  t.equal(parseArticleNo('제1-2조의2'), '1-2-2');
  t.equal(parseArticleNo('제1-2조'), '1-2');
  const s = parseAdmrulMd(fm('나 고시') + '1. 고시명 : 나 고시\n<img id="1">\n</img>\n\u3000\n2. 지정 사유\n ㅇ 첫째 사유\n ㅇ 둘째 사유\n3. 재검토 기한 : 3년\n', 'kr/나 고시/고시.md');
  t.same(s.articles.map((a) => [a.no, a.title]), [['1', '고시명'], ['2', '지정 사유'], ['3', '재검토 기한']]);
  t.match(s.articles[1]!.content, /둘째 사유/);
  t.equal(s.doc.article_count, 3);
  // no numbered headings: fixed-size parts of at most 3,000 characters, cut at line ends
  const long = Array.from({ length: 200 }, (_, i) => `본문 줄 ${i} `.repeat(4)).join('\n');
  const p = parseAdmrulMd(fm('다 고시') + long + '\n', 'kr/다 고시/고시.md');
  t.ok(p.articles.length >= 2);
  t.same(p.articles.map((a) => a.no), p.articles.map((_, i) => String(i + 1)));
  t.ok(p.articles.every((a) => a.content.length <= 3000));
  t.equal(p.articles.map((a) => a.content).join('\n').split('\n').length, 200);
});
