// law.go.kr XML (lawService.do?target=law).
import { normDate, normText } from '../normalize.js';
import { parseBoxTables } from '../boxtable.js';
import { cleanAnnexText, contentOf } from './structure.js';
import { categoryOf, type Article, type DocRec, type ParsedDoc, type TableRec } from './types.js';

function cdata(s: string | undefined): string {
  if (!s) return '';
  if (!s.includes('<![CDATA[')) return decodeXml(s.trim());
  let out = '';
  for (const m of s.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>/g)) out += m[1];
  return out;
}
function decodeXml(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}
function tag(xml: string, name: string): string | undefined {
  const re = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`);
  return re.exec(xml)?.[1];
}
function tags(xml: string, name: string): string[] {
  const re = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`, 'g');
  return [...xml.matchAll(re)].map((m) => m[1]!);
}

export interface XmlLaw extends ParsedDoc {
  addenda: string[];
}

export function parseLawXml(xml: string): XmlLaw {
  const info = tag(xml, '기본정보') ?? '';
  const get = (n: string) => cdata(tag(info, n)).trim();
  const name = normText(get('법령명_한글'));
  const lawType = get('법종구분');
  const ministries = [get('소관부처')].filter(Boolean);
  const articles: Article[] = [];
  let chapter = '';
  for (const unit of tags(tag(xml, '조문') ?? '', '조문단위')) {
    const kind = cdata(tag(unit, '조문여부'));
    const content = cdata(tag(unit, '조문내용')).replace(/\r/g, '');
    if (kind === '전문') { chapter = normText(content); continue; }
    const no = cdata(tag(unit, '조문번호'));
    const br = cdata(tag(unit, '조문가지번호'));
    const artNo = br && Number(br) > 0 ? `${Number(no)}-${Number(br)}` : String(Number(no));
    const title = normText(cdata(tag(unit, '조문제목')));
    const lines: Array<{ indent: number; text: string }> = [];
    const head = content.replace(/^제\d+조(?:의\d+)?\s*(?:\([^)]*\))?\s*/, '').trim();
    if (head) lines.push({ indent: 0, text: head });
    for (const hang of tags(unit, '항')) {
      const hc = cdata(tag(hang.replace(/<호>[\s\S]*$/, ''), '항내용')).trim();
      if (hc) lines.push({ indent: 0, text: hc.replace(/\s+/g, ' ') });
      for (const ho of tags(hang, '호')) {
        const t = cdata(tag(ho.replace(/<목>[\s\S]*$/, ''), '호내용')).trim().replace(/^(\d+(?:의\d+)?\.)\s+/, '$1 ');
        if (t) lines.push({ indent: 2, text: t.replace(/\s+/g, ' ') });
        for (const mok of tags(ho, '목')) {
          const mt = cdata(tag(mok, '목내용')).trim().replace(/^([가-힣]\.)\s+/, '$1 ');
          for (const ml of mt.split('\n')) if (ml.trim()) lines.push({ indent: 4, text: ml.trim().replace(/\s+/g, ' ') });
        }
      }
    }
    const enf = normDate(cdata(tag(unit, '조문시행일자')));
    const art: Article = { no: artNo, title, content: contentOf(lines) };
    if (chapter) art.chapter = chapter;
    if (enf) art.enforcement_date = enf;
    if (/^삭제/.test(head) && lines.length === 1) art.deleted = true;
    articles.push(art);
  }
  const tables: TableRec[] = [];
  for (const unit of tags(tag(xml, '별표') ?? '', '별표단위')) {
    const no = String(Number(cdata(tag(unit, '별표번호')) || '0'));
    const br = Number(cdata(tag(unit, '별표가지번호')) || '0');
    const body = cdata(tag(unit, '별표내용')).replace(/\r/g, '');
    const link = cdata(tag(unit, '별표서식파일링크'));
    const pdf = cdata(tag(unit, '별표서식PDF파일링크'));
    tables.push({
      table_no: br > 0 ? `${no}-${br}` : no,
      kind: cdata(tag(unit, '별표구분')) || '별표',
      title: normText(cdata(tag(unit, '별표제목'))),
      file_url: link ? 'https://www.law.go.kr' + link : undefined,
      pdf_url: pdf ? 'https://www.law.go.kr' + pdf : undefined,
      has_body: Boolean(body.trim()),
      text: cleanAnnexText(body),
      tables: parseBoxTables(body),
    });
  }
  const addenda = tags(tag(xml, '부칙') ?? '', '부칙단위').map((u) => cdata(tag(u, '부칙내용')).trim());
  const cites = new Set<string>();
  for (const a of articles) for (const m of a.content.matchAll(/「([^」]{2,80})」/g)) cites.add(m[1]!);
  const doc: DocRec = {
    id: get('법령ID').padStart(6, '0'),
    entity_type: 'law',
    name,
    law_type: lawType,
    category: categoryOf(lawType, /시행령$/.test(name) ? '시행령' : /시행규칙$/.test(name) ? '시행규칙' : null),
    ministries,
    enforcement_date: normDate(get('시행일자')),
    promulgation_date: normDate(get('공포일자')),
    promulgation_no: get('공포번호') || null,
    mst: null,
    revision_type: get('제개정구분') || null,
    article_count: articles.filter((a) => !a.deleted).length,
    path: null,
    family: null,
    abbreviation: normText(get('법령명약칭')) || null,
    tables: tables.map(({ text: _t, tables: _tt, ...ref }) => ref),
    cites: [...cites],
    source: 'xml',
  };
  return { doc, articles, tables, addenda };
}
