// regulate-kr administrative-rule Markdown and its annex files.
import { normDate, normText } from '../normalize.js';
import { parseBoxTables } from '../boxtable.js';
import { splitFrontmatter, str } from './frontmatter.js';
import { cleanAnnexText, contentOf } from './structure.js';
import type { Article, DocRec, ParsedDoc, TableRec } from './types.js';

// 제15조(…), 제15조의2(…) and the 편-numbered 제1-2조(…), 제1-2조의3(…) of 금융투자업규정, 외국환거래규정 …
const ADM_ART = /^제\s*(\d+)(?:-(\d+))?\s*조(?:\s*의\s*(\d+))?\s*\(([^)]*)\)\s*(.*)$/;
const ADM_CHAP = /^제\d+(장|절|관|편)(?:\s|$)/;

export function parseAdmrulMd(text: string, relPath: string | null): ParsedDoc {
  const { fm, body } = splitFrontmatter(text);
  // invalid YAML titles with ': ' are kept whole by parseYamlSubset (first ': ' splits key from value)
  const name = normText(str(fm['제목']) || (relPath ? relPath.split('/').slice(-2, -1)[0] ?? '' : ''));
  const ministry = str(fm['소관부처']);
  const articles: Article[] = [];
  let chapter = '';
  let cur: { no: string; title: string; lines: Array<{ indent: number; text: string }>; chapter: string } | null = null;
  const flush = () => {
    if (!cur) return;
    const lines = cur.lines.filter((l) => l.text);
    const art: Article = { no: cur.no, title: cur.title, content: contentOf(lines) };
    if (cur.chapter) art.chapter = cur.chapter;
    if (/^삭제/.test(lines[0]?.text ?? '') && lines.length === 1) art.deleted = true;
    articles.push(art);
    cur = null;
  };
  const cites = new Set<string>();
  let inAddenda = false;
  for (const raw of body.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const t0 = line.trim();
    if (!t0 || t0.startsWith('# ')) continue;
    const indent = line.length - line.trimStart().length;
    if (indent === 0 && /^부\s*칙/.test(t0)) { flush(); inAddenda = true; continue; }
    if (inAddenda) continue;
    const am = indent === 0 ? ADM_ART.exec(t0) : null;
    if (am) {
      flush();
      cur = { no: [am[1], am[2], am[3]].filter(Boolean).map(Number).join('-'), title: normText(am[4]!), lines: [], chapter };
      if (am[5]!.trim()) cur.lines.push({ indent: 0, text: am[5]!.trim() });
      for (const m of t0.matchAll(/「([^」]{2,80})」/g)) cites.add(m[1]!);
      continue;
    }
    if (indent === 0 && ADM_CHAP.test(t0) && t0.length < 60) { flush(); chapter = normText(t0); continue; }
    if (!cur) continue;
    for (const m of t0.matchAll(/「([^」]{2,80})」/g)) cites.add(m[1]!);
    cur.lines.push({ indent: indent >= 4 ? 4 : indent >= 1 && /^[가-힣](?:의\d+)?\./.test(t0) ? 4 : indent >= 1 ? 2 : 0, text: t0 });
  }
  flush();
  // a body without articles (notices, designations, guidelines): addressable numbered sections instead
  if (!articles.length) articles.push(...sectionsOf(body));
  const doc: DocRec = {
    id: str(fm['admRulSeq']),
    entity_type: 'admrul',
    name,
    law_type: str(fm['행정규칙구분']) || '고시',
    category: 'admrul',
    ministries: ministry ? [ministry] : [],
    enforcement_date: normDate(str(fm['시행일자'])),
    promulgation_date: null,
    promulgation_no: str(fm['발령번호']) || null,
    mst: null,
    revision_type: null,
    article_count: articles.filter((a) => !a.deleted).length,
    path: relPath ? relPath.replace(/^kr\//, '').replace(/\.md$/, '') : null,
    family: null,
    source_url: str(fm['출처']) || null,
    tables: [],
    cites: [...cites],
    source: 'admrul',
  };
  return { doc, articles, tables: [] };
}

/** `# [별표 2의2] 제목(제14조의2 관련)` annex files of regulate-kr. */
export function parseAnnexMd(text: string, fileName: string): TableRec {
  const base = fileName.replace(/\.md$/, '');
  const km = /^(별표|별지|기타)(\d+)(?:(?:의|-)(\d+))?$/.exec(base);
  const kind = km?.[1] ?? '별표';
  const no = km ? (km[3] ? `${Number(km[2])}-${Number(km[3])}` : String(Number(km[2]))) : base;
  const first = text.split('\n', 1)[0] ?? '';
  const tm = /^#\s*\[[^\]]*\]\s*(.*)$/.exec(first);
  const title = normText(tm?.[1] ?? first.replace(/^#\s*/, ''));
  const body = text.slice(first.length + 1);
  return { table_no: no, kind, title, text: cleanAnnexText(body), tables: parseBoxTables(body), has_body: true };
}

const SECTION_HEAD = /^(?:(\d{1,2})|([ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩⅪⅫ]+|[IVX]{1,4}))\s*[.)]\s*(\S.*)$/;
const SECTION_MAX = 3000;

/**
 * Sections of a rule body that has no 제N조 articles: at top-level numbered headings ("1. 목적", "Ⅱ. 지정 사유")
 * when the body has at least two of them, else fixed-size parts; sections longer than SECTION_MAX characters are cut
 * at line ends. Sections are numbered 1, 2, 3 … (stable for one text) and titled by their heading.
 */
export function sectionsOf(body: string): Article[] {
  const lines = body.split('\n').map((l) => l.replace(/\r$/, '')).filter((l) => {
    const t = l.trim().replace(/\u3000/g, '');
    return t && !t.startsWith('# ') && !/^<\/?img\b/.test(t) && t !== '---';
  });
  const heads = lines.map((l) => (l.length - l.trimStart().length <= 1 ? SECTION_HEAD.exec(l.trim()) : null));
  const parts: Array<{ title: string; lines: string[] }> = [];
  if (heads.filter(Boolean).length >= 2) {
    let cur: { title: string; lines: string[] } | null = null;
    lines.forEach((l, i) => {
      const h = heads[i];
      if (h || !cur) { cur = { title: h ? normText(h[3]!).replace(/\s*:.*$/, '').slice(0, 60) : '', lines: [] }; parts.push(cur); }
      cur.lines.push(l.trim());
    });
  } else parts.push({ title: '', lines: lines.map((l) => l.trim()) });
  const out: Article[] = [];
  for (const p of parts) {
    let buf: string[] = [], size = 0, k = 0;
    const push = () => {
      if (!buf.length) return;
      const title = p.title ? (k ? `${p.title} (${k + 1})` : p.title) : `본문 ${out.length + 1}`;
      out.push({ no: String(out.length + 1), title, content: buf.join('\n') });
      buf = []; size = 0; k++;
    };
    for (const l of p.lines) {
      if (size + l.length > SECTION_MAX && buf.length) push();
      buf.push(l); size += l.length + 1;
    }
    push();
  }
  return out;
}
