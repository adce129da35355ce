// Parsers for the corpus formats: legalize-kr statute Markdown, regulate-kr admin-rule Markdown and annexes, law.go.kr XML.
import { normDate, normText, parseArticleNo } from './normalize.js';
import { parseBoxTables, type ParsedTable } from './boxtable.js';

export type Category = 'law' | 'decree' | 'rule' | 'admrul';

export interface Item { no: string; text: string; sub?: Item[] }
export interface Paragraph { no?: string; text: string; items?: Item[] }

export interface Article {
  /** canonical number: "15", "15-2" */
  no: string;
  title: string;
  /** full text: paragraphs, items (2-space indent) and sub-items (4-space indent) on their own lines */
  content: string;
  /** filled on read (paragraphsOf(content)); not stored */
  paragraphs?: Paragraph[];
  chapter?: string;
  deleted?: boolean;
  enforcement_date?: string;
}

export interface TableRef {
  table_no: string; // "1", "2-2"
  kind: string; // 별표 | 별지 | 기타 | 서식
  title: string;
  file_url?: string;
  pdf_url?: string;
  has_body?: boolean;
}

export interface TableRec extends TableRef {
  text: string;
  tables: ParsedTable[];
}

export interface DocRec {
  id: string; // 법령ID or admRulSeq
  entity_type: 'law' | 'admrul';
  name: string;
  /** 법령구분 (법률, 대통령령, 국토교통부령 …) or 행정규칙구분 (고시, 훈령 …) */
  law_type: string;
  category: Category;
  ministries: string[];
  enforcement_date: string | null;
  promulgation_date: string | null;
  promulgation_no: string | null;
  mst: string | null;
  revision_type: string | null;
  article_count: number;
  /** corpus path without kr/ and .md (statutes: family/kind), for family relations */
  path: string | null;
  family: string | null;
  abbreviation?: string | null;
  source_url?: string | null;
  tables: TableRef[];
  /** names cited in 「」 (nameKey-normalised at finalise time) */
  cites: string[];
  repealed?: boolean;
  /** revision_type was guessed from the 부칙 headers (replaced by history/changelog/XML/sync data) */
  revision_inferred?: boolean;
  /** where this record came from (md, admrul, xml, sync) */
  source: string;
}

export interface ParsedDoc {
  doc: DocRec;
  articles: Article[];
  tables: TableRec[];
}

// ---------- frontmatter (the small YAML subset the corpus uses) ----------

export function splitFrontmatter(text: string): { fm: Record<string, unknown>; body: string } {
  if (!text.startsWith('---')) return { fm: {}, body: text };
  const end = text.indexOf('\n---', 3);
  if (end < 0) return { fm: {}, body: text };
  const yaml = text.slice(text.indexOf('\n') + 1, end);
  const bodyStart = text.indexOf('\n', end + 4);
  return { fm: parseYamlSubset(yaml), body: bodyStart < 0 ? '' : text.slice(bodyStart + 1) };
}

function scalar(v: string): string {
  let t = v.trim();
  if ((t.startsWith("'") && t.endsWith("'") && t.length >= 2)) t = t.slice(1, -1).replace(/''/g, "'");
  else if (t.startsWith('"') && t.endsWith('"') && t.length >= 2) t = t.slice(1, -1).replace(/\\"/g, '"');
  return t;
}

/** key: value, key: [] , key:\n- item, key:\n- a: b\n  c: d. Values with an unquoted ': ' keep everything after the first ': '. */
export function parseYamlSubset(yaml: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const lines = yaml.split(/\r?\n/);
  let curKey: string | null = null;
  let curObj: Record<string, string> | null = null;
  for (const line of lines) {
    if (!line.trim()) continue;
    const top = /^([^\s:-][^:]*):(?:\s(.*))?$/.exec(line);
    if (top && !line.startsWith(' ')) {
      curKey = top[1]!.trim();
      curObj = null;
      const v = top[2]?.trim() ?? '';
      out[curKey] = v === '' ? [] : v === '[]' ? [] : scalar(v);
      continue;
    }
    const li = /^\s*-\s+(.*)$/.exec(line);
    if (li && curKey) {
      const arr = (Array.isArray(out[curKey]) ? out[curKey] : (out[curKey] = [])) as unknown[];
      const kv = /^([^:]+):\s?(.*)$/.exec(li[1]!);
      if (kv && !li[1]!.startsWith("'") && !li[1]!.startsWith('"')) {
        curObj = { [kv[1]!.trim()]: scalar(kv[2]!) };
        arr.push(curObj);
      } else {
        curObj = null;
        arr.push(scalar(li[1]!));
      }
      continue;
    }
    const cont = /^\s+([^:]+):\s?(.*)$/.exec(line);
    if (cont && curObj) curObj[cont[1]!.trim()] = scalar(cont[2]!);
  }
  return out;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : Array.isArray(v) ? '' : String(v));

// ---------- categories ----------

export function categoryOf(lawType: string, fileKind?: string | null): Category {
  if (fileKind === '시행령') return 'decree';
  if (fileKind === '시행규칙') return 'rule';
  if (lawType === '법률' || lawType === '헌법') return 'law';
  if (lawType === '대통령령') return 'decree';
  return 'rule';
}

// ---------- statute Markdown (legalize-kr) ----------

const CIRCLED = '①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳㉑㉒㉓㉔㉕㉖㉗㉘㉙㉚㉛㉜㉝㉞㉟㊱㊲㊳㊴㊵㊶㊷㊸㊹㊺㊻㊼㊽㊾㊿';
const HO_RE = /^(\d+(?:의\d+)?)\.\s*(.*)$/;
const MOK_RE = /^([가-힣](?:의\d+)?)\.\s*(.*)$/;

/** Build the paragraph/item/sub-item structure from body lines (indentation: 0 = paragraph, 2 = 호, 4+ = 목). */
export function structure(lines: Array<{ indent: number; text: string }>): Paragraph[] {
  const paras: Paragraph[] = [];
  let cur: Paragraph | null = null;
  let lastItem: Item | null = null;
  for (const { indent, text } of lines) {
    const first = text[0] ?? '';
    if (CIRCLED.includes(first)) {
      cur = { no: first, text: text.slice(1).trim() };
      paras.push(cur);
      lastItem = null;
      continue;
    }
    const mok = indent >= 4 ? MOK_RE.exec(text) : null;
    if (mok && lastItem) {
      (lastItem.sub ??= []).push({ no: mok[1]!, text: mok[2]! });
      continue;
    }
    const ho = indent >= 1 ? HO_RE.exec(text) : null;
    if (ho) {
      if (!cur) { cur = { text: '' }; paras.push(cur); }
      lastItem = { no: ho[1]!, text: ho[2]! };
      (cur.items ??= []).push(lastItem);
      continue;
    }
    if (indent === 0 || !cur) {
      cur = { text };
      paras.push(cur);
      lastItem = null;
      continue;
    }
    if (lastItem) lastItem.text += '\n' + text;
    else cur.text += (cur.text ? '\n' : '') + text;
  }
  return paras;
}

/** The 항/호/목 structure of an article's content (indentation 0 / 2 / 4, circled numbers start 항). */
export function paragraphsOf(content: string): Paragraph[] {
  return structure(content.split('\n').filter((l) => l.trim()).map((l) => ({ indent: l.length - l.trimStart().length, text: l.trim() })));
}

function contentOf(lines: Array<{ indent: number; text: string }>): string {
  return lines.map((l) => ' '.repeat(Math.min(l.indent, 4)) + l.text).join('\n');
}

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

// ---------- admin rules (regulate-kr) ----------

const ADM_ART = /^제(\d+)조(?:의(\d+))?\s*\(([^)]*)\)\s*(.*)$/;
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
      cur = { no: am[2] ? `${Number(am[1])}-${Number(am[2])}` : String(Number(am[1])), title: normText(am[3]!), lines: [], chapter };
      if (am[4]!.trim()) cur.lines.push({ indent: 0, text: am[4]!.trim() });
      for (const m of t0.matchAll(/「([^」]{2,80})」/g)) cites.add(m[1]!);
      continue;
    }
    if (indent === 0 && ADM_CHAP.test(t0) && t0.length < 60) { flush(); chapter = normText(t0); continue; }
    if (!cur) continue;
    for (const m of t0.matchAll(/「([^」]{2,80})」/g)) cites.add(m[1]!);
    cur.lines.push({ indent: indent >= 4 ? 4 : indent >= 1 && /^[가-힣](?:의\d+)?\./.test(t0) ? 4 : indent >= 1 ? 2 : 0, text: t0 });
  }
  flush();
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

function cleanAnnexText(s: string): string {
  return s.split('\n').map((l) => l.replace(/\s+$/, '')).join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

// ---------- law.go.kr XML (lawService.do?target=law) ----------

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

/** Subject "법률: 민법 (일부개정)" → parts. */
export function parseSubject(subject: string): { law_type: string | null; name: string | null; revision_type: string | null } {
  const m = /^([^:]+):\s*(.*?)(?:\s*\(([^()]*)\))?\s*$/.exec(subject);
  if (!m) return { law_type: null, name: null, revision_type: null };
  return { law_type: m[1]!.trim(), name: normText(m[2]!), revision_type: m[3]?.trim() || null };
}

export { parseArticleNo };
