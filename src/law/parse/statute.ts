// legalize-kr statute Markdown: articles, annex links, 「」 citations, the revision kind guessed from 부칙, history subjects.
import { normDate, normText } from '../normalize.js';
import { splitFrontmatter, str } from './frontmatter.js';
import { contentOf } from './structure.js';
import { categoryOf, type Article, type DocRec, type ParsedDoc, type TableRef } from './types.js';

const ART_HEAD = /^#####\s+제(\d+)조(?:의(\d+))?\s*(?:\((.*)\))?\s*$/;

export function parseStatuteMd(text: string, relPath: string | null): ParsedDoc {
  const { fm, body } = splitFrontmatter(text);
  const name = normText(str(fm['제목']));
  const lawType = str(fm['법령구분']);
  const pathNoExt = relPath ? relPath.replace(/^kr\//, '').replace(/\.md$/, '') : null;
  const family = pathNoExt && pathNoExt.includes('/') ? pathNoExt.slice(0, pathNoExt.lastIndexOf('/')) : null;
  const fileKind = pathNoExt ? pathNoExt.slice(pathNoExt.lastIndexOf('/') + 1).replace(/\(.*\)$/, '') : null;
  const ministries = (Array.isArray(fm['소관부처']) ? (fm['소관부처'] as unknown[]).map(str) : str(fm['소관부처']) ? [str(fm['소관부처'])] : []).filter(Boolean);
  const tables: TableRef[] = [];
  for (const a of (Array.isArray(fm['첨부파일']) ? fm['첨부파일'] : []) as Array<Record<string, string>>) {
    if (typeof a !== 'object') continue;
    const no = String(Number(a['별표번호'] ?? '0'));
    const br = Number(a['별표가지번호'] ?? '0');
    tables.push({ table_no: br > 0 ? `${no}-${br}` : no, kind: a['별표구분'] || '별표', title: normText(a['제목'] ?? ''), file_url: a['파일링크'] || undefined, pdf_url: a['PDF링크'] || undefined, has_body: false });
  }
  const articles: Article[] = [];
  const chapters: string[] = ['', '', '', ''];
  let cur: { no: string; title: string; lines: Array<{ indent: number; text: string }>; chapter: string } | null = null;
  const flush = () => {
    if (!cur) return;
    while (cur.lines.length && !cur.lines[cur.lines.length - 1]!.text) cur.lines.pop();
    const lines = cur.lines.filter((l) => l.text);
    const joined = lines.map((l) => l.text).join(' ');
    const art: Article = { no: cur.no, title: cur.title, content: contentOf(lines) };
    if (cur.chapter) art.chapter = cur.chapter;
    if (!cur.title && /^삭제\s*(<[^>]*>)?\s*$/.test(joined)) art.deleted = true;
    else if (/^삭제\s*<[^>]*>$/.test(joined)) art.deleted = true;
    articles.push(art);
    cur = null;
  };
  let inAddenda = false;
  const cites = new Set<string>();
  const addendaHeads: Array<{ by: string | null; no: string; date: string | null }> = [];
  for (const raw of body.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('#')) {
      const am = ART_HEAD.exec(line);
      if (am && !inAddenda) {
        flush();
        cur = { no: am[2] ? `${Number(am[1])}-${Number(am[2])}` : String(Number(am[1])), title: normText(am[3] ?? ''), lines: [], chapter: chapters.filter(Boolean).join(' > ') };
        continue;
      }
      const hm = /^(#{1,4})\s+(.*)$/.exec(line);
      if (hm) {
        const level = hm[1]!.length, t = normText(hm[2]!);
        if (/^부칙/.test(t)) { flush(); inAddenda = true; continue; }
        if (level === 1 && !/^제\d+편/.test(t)) continue; // the title
        flush();
        const lv = level === 1 ? 0 : level - 1; // 편 0, 장 1, 절 2, 관 3
        chapters[lv] = t;
        for (let k = lv + 1; k < 4; k++) chapters[k] = '';
        continue;
      }
    }
    if (inAddenda) {
      const am2 = /^부칙\s*(\(([^)]*)\))?\s*<\s*(?:[^>]*?제)?\s*(\d+)호\s*,\s*([\d.\s]+)>/.exec(line.trim());
      if (am2) addendaHeads.push({ by: am2[2] ?? null, no: am2[3]!, date: normDate(am2[4]!.replace(/\s+/g, '').replace(/\.$/, '')) });
      continue;
    }
    if (!cur) continue;
    if (!line.trim()) continue;
    const indent = line.length - line.trimStart().length;
    let t = line.trim().replace(/\\([.\\*_#-])/g, '$1');
    t = t.replace(/^\*\*([①-⑳㉑-㉟㊱-㊿])\*\*\s*/, '$1 ');
    for (const m of t.matchAll(/「([^」]{2,80})」/g)) cites.add(m[1]!);
    cur.lines.push({ indent, text: t });
  }
  flush();
  const doc: DocRec = {
    id: str(fm['법령ID']).padStart(6, '0'),
    entity_type: 'law',
    name,
    law_type: lawType,
    category: categoryOf(lawType, fileKind),
    ministries,
    enforcement_date: normDate(str(fm['시행일자'])),
    promulgation_date: normDate(str(fm['공포일자'])),
    promulgation_no: str(fm['공포번호']) || null,
    mst: str(fm['법령MST']) || null,
    revision_type: null,
    article_count: articles.filter((a) => !a.deleted).length,
    path: pathNoExt,
    family,
    source_url: str(fm['출처']) || null,
    tables,
    cites: [...cites],
    source: 'md',
  };
  if (articles.length === 1 && articles[0]!.no === '0') doc.repealed = true;
  doc.revision_type = inferRevisionType(addendaHeads, doc.promulgation_no, doc.repealed);
  if (doc.revision_type) doc.revision_inferred = true;
  return { doc, articles, tables: [] };
}

/**
 * legalize-kr Markdown has no 제개정구분; infer it from the 부칙 headers: the addendum of this promulgation
 * (same 공포번호) names another law in parentheses → 타법개정; it is the only addendum → 제정; otherwise 일부개정.
 * History, changelog, XML and sync data replace the guess when they name the kind.
 */
export function inferRevisionType(heads: Array<{ by: string | null; no: string; date: string | null }>, promNo: string | null, repealed?: boolean): string | null {
  if (repealed) return '폐지';
  if (!heads.length || !promNo) return null;
  const n = String(Number(promNo));
  const own = heads.filter((h) => String(Number(h.no)) === n);
  if (!own.length) return null;
  if (own.some((h) => h.by)) return '타법개정';
  if (heads.length === own.length) return '제정';
  return '일부개정';
}

/** Subject "법률: 민법 (일부개정)" → parts. */
export function parseSubject(subject: string): { law_type: string | null; name: string | null; revision_type: string | null } {
  const m = /^([^:]+):\s*(.*?)(?:\s*\(([^()]*)\))?\s*$/.exec(subject);
  if (!m) return { law_type: null, name: null, revision_type: null };
  return { law_type: m[1]!.trim(), name: normText(m[2]!), revision_type: m[3]?.trim() || null };
}
