// verify_citation: is a citation such as "근로기준법 제60조 제2항" real, in force, and what does it say.
import { z } from 'zod';
import { paragraphsOf } from '../parse.js';
import { articleLabel } from '../normalize.js';
import { entry, lookupDoc, status, ToolError, type ToolCtx } from './common.js';

export const verifyCitationSchema = z.object({
  citation: z.string().min(1, 'citation must be a non-empty string').max(300, 'citation must be at most 300 characters')
    .describe('A citation: statute or rule name (or id, or abbreviation) with an article and optionally a paragraph and item, e.g. "근로기준법 제60조 제2항", "「민법」 제750조", "개인정보 보호법 제15조의2 제1항 제3호"'),
}).strict();

const CIRCLED = '①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳㉑㉒㉓㉔㉕㉖㉗㉘㉙㉚㉛㉜㉝㉞㉟㊱㊲㊳㊴㊵㊶㊷㊸㊹㊺㊻㊼㊽㊾㊿';

/** "근로기준법 제60조의2 제2항 제3호" → name, article "60-2", paragraph 2, item "3" */
export function parseCitation(s: string): { name: string; article: string | null; paragraph: number | null; item: string | null } {
  const t = s.normalize('NFKC').replace(/\s+/g, ' ').trim();
  const am = /제?\s*(\d+)\s*조(?:\s*의\s*(\d+))?/.exec(t);
  const name = (am ? t.slice(0, am.index) : t).replace(/[「」『』"“”]/g, '').replace(/\s*(?:의|에서|에)$/, '').trim();
  const tail = am ? t.slice(am.index + am[0].length) : '';
  const pm = /제?\s*(\d+)\s*항/.exec(tail);
  const im = /제?\s*(\d+(?:\s*의\s*\d+)?)\s*호/.exec(tail);
  return {
    name,
    article: am ? (am[2] ? `${Number(am[1])}-${Number(am[2])}` : String(Number(am[1]))) : null,
    paragraph: pm ? Number(pm[1]) : null,
    item: im ? im[1]!.replace(/\s+/g, '') : null,
  };
}

export function verifyCitation(ctx: ToolCtx, args: z.infer<typeof verifyCitationSchema>) {
  const { law, now } = ctx;
  const c = parseCitation(args.citation);
  if (!c.name) throw new ToolError(`citation must name a statute or rule before the article, e.g. "근로기준법 제60조", but received "${args.citation}"`, 'citation');
  const parsed = { law_name: c.name, article_no: c.article, paragraph: c.paragraph, item: c.item };
  const d = lookupDoc(law, c.name);
  if (!d) {
    const hits = law.search.query(c.name, {}, null).slice(0, 3);
    return { citation: args.citation, parsed, valid: false, exists: false, in_force: false, problem: `no statute or rule named "${c.name}"`, suggestions: hits.map((h) => entry(h.doc, now)) };
  }
  const st = d.entity_type === 'law' ? status(d, now) : d.repealed ? 'repealed' : 'in_force';
  const base = { citation: args.citation, parsed, law: entry(d, now), status: st };
  if (!c.article) {
    return { ...base, valid: st !== 'repealed', exists: true, in_force: st === 'in_force', canonical: d.name, ...(st === 'repealed' ? { problem: `${d.name} is repealed` } : {}) };
  }
  const seq = law.articleSeq(d.id, c.article);
  const a = seq === undefined ? undefined : law.arts.get([d.id, seq]);
  if (!a) {
    const toc = law.tocOf(d.id);
    return { ...base, valid: false, exists: false, in_force: false, problem: `${d.name} has no ${articleLabel(c.article)}; it has ${toc.length} articles${toc.length ? `, ${toc[0]!.no} to ${toc[toc.length - 1]!.no}` : ''}` };
  }
  let canonical = `${d.name} ${articleLabel(c.article)}`;
  const art = { no: a.no, label: articleLabel(a.no), title: a.title, enforcement_date: a.enforcement_date ?? d.enforcement_date, ...(a.deleted ? { deleted: true } : {}) };
  let text = a.content;
  let problem: string | undefined;
  if (c.paragraph !== null) {
    const paras = paragraphsOf(a.content);
    const numbered = paras.filter((p) => p.no);
    const p = numbered.find((x) => CIRCLED.indexOf(x.no!) + 1 === c.paragraph) ?? (c.paragraph === 1 && !numbered.length ? paras[0] : undefined);
    if (!p) problem = `${canonical} has no paragraph ${c.paragraph} (제${c.paragraph}항); it has ${numbered.length || (paras.length ? 1 : 0)}`;
    else {
      canonical += ` 제${c.paragraph}항`;
      text = `${p.no ?? ''}${p.no ? ' ' : ''}${p.text}`;
      if (c.item !== null) {
        const it = (p.items ?? []).find((x) => x.no === c.item);
        if (!it) problem = `${canonical} has no item ${c.item} (제${c.item}호); it has ${(p.items ?? []).length}`;
        else { canonical += ` 제${c.item}호`; text = `${it.no}. ${it.text}${(it.sub ?? []).map((s) => `\n  ${s.no}. ${s.text}`).join('')}`; }
      } else if (p.items?.length) text += '\n' + p.items.map((x) => `  ${x.no}. ${x.text}`).join('\n');
    }
  } else if (c.item !== null) {
    const it = paragraphsOf(a.content).flatMap((p) => p.items ?? []).find((x) => x.no === c.item);
    if (!it) problem = `${canonical} has no item ${c.item} (제${c.item}호)`;
    else { canonical += ` 제${c.item}호`; text = `${it.no}. ${it.text}`; }
  }
  if (!problem && a.deleted) problem = `${canonical} is deleted (삭제)`;
  if (!problem && st === 'repealed') problem = `${d.name} is repealed`;
  const exists = !problem || Boolean(a.deleted) || st === 'repealed';
  return {
    ...base, valid: !problem, exists, in_force: !problem && st === 'in_force',
    ...(st === 'not_yet_in_force' ? { note: `${d.name} in this version takes effect on ${d.enforcement_date}` } : {}),
    ...(problem ? { problem } : {}),
    canonical, article: art, text: text.length > 8000 ? text.slice(0, 8000) + '…' : text,
  };
}
