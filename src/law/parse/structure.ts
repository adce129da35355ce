// Article text shaping shared by the parsers: the 항/호/목 structure, stored content lines, annex text.
import type { Item, Paragraph } from './types.js';

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

export function contentOf(lines: Array<{ indent: number; text: string }>): string {
  return lines.map((l) => ' '.repeat(Math.min(l.indent, 4)) + l.text).join('\n');
}

export function cleanAnnexText(s: string): string {
  return s.split('\n').map((l) => l.replace(/\s+$/, '')).join('\n').replace(/\n{3,}/g, '\n\n').trim();
}
