// Versions of a statute from every source (git history, stored older texts, the current text) and the version in
// force on a date: among the versions whose 시행일자 (enforcement date) is on or before the date, the newest
// promulgated one. Versions promulgated by that date but not yet in force are reported as pending.
import type { LawStore } from '../store.js';
import type { DocRec } from '../parse.js';
import { articleLabel, articleOrder } from '../normalize.js';
import { historyOf } from './db.js';

export interface Art { no: string; title: string; content: string }

export interface AnyVersion {
  mst: string | null;
  promulgation_date: string | null;
  promulgation_no: string | null;
  enforcement_date: string | null;
  revision_type: string | null;
  law_name: string;
  current: boolean;
  source: 'git' | 'stored' | 'current';
  commit?: string;
  load: () => Art[];
  one: (no: string) => Art | undefined;
}

/** Every version with text, oldest promulgation first (deduplicated by MST; the current text wins). */
export function allVersions(law: LawStore, d: DocRec): AnyVersion[] {
  const h = historyOf(law);
  const byKey = new Map<string, AnyVersion>();
  const k = (v: { mst: string | null; promulgation_date: string | null }) => v.mst ?? `d${v.promulgation_date}`;
  for (const { value } of law.vers.getRange({ start: [d.id, ''], end: [d.id, '\uffff'] })) {
    const arts = value.articles;
    byKey.set(k(value), { mst: value.mst, promulgation_date: value.promulgation_date, promulgation_no: null, enforcement_date: value.enforcement_date, revision_type: value.revision_type, law_name: value.law_name, current: false, source: 'stored', load: () => arts, one: (no) => arts.find((a) => a.no === no) });
  }
  for (const g of h.versions(d.id)) {
    byKey.set(k(g), { mst: g.mst, promulgation_date: g.promulgation_date, promulgation_no: g.promulgation_no, enforcement_date: g.enforcement_date, revision_type: g.revision_type, law_name: g.law_name, current: false, source: 'git', commit: g.commit, load: () => h.articlesOf(g), one: (no) => h.articleOf(g, no) });
  }
  const prev = d.mst ? byKey.get(d.mst) : undefined;
  byKey.set(d.mst ?? `d${d.promulgation_date}`, {
    mst: d.mst, promulgation_date: d.promulgation_date, promulgation_no: d.promulgation_no, enforcement_date: d.enforcement_date, revision_type: d.revision_type ?? prev?.revision_type ?? null,
    law_name: d.name, current: true, source: 'current', commit: prev?.commit,
    load: () => law.articles(d.id).map((a) => ({ no: a.no, title: a.title, content: a.content })),
    one: (no) => { const s = law.articleSeq(d.id, no); const a = s === undefined ? undefined : law.arts.get([d.id, s]); return a ? { no: a.no, title: a.title, content: a.content } : undefined; },
  });
  const revs = law.hist.get(d.id) ?? [];
  const out = [...byKey.values()];
  for (const v of out) {
    const r = v.mst ? revs.find((x) => x.mst === v.mst) : undefined;
    if (r) { v.revision_type ??= r.revision_type; v.promulgation_no ??= r.promulgation_no; }
  }
  return out.sort(byPromulgation);
}

const byPromulgation = (a: AnyVersion, b: AnyVersion) => (a.promulgation_date ?? '').localeCompare(b.promulgation_date ?? '') || Number(a.mst ?? 0) - Number(b.mst ?? 0);
const enf = (v: AnyVersion) => v.enforcement_date ?? v.promulgation_date ?? '';

export interface InForce { version: AnyVersion | null; pending: AnyVersion[]; versions: AnyVersion[] }

/** The version in force on `date` (YYYYMMDD) by enforcement date, and those promulgated by then but not yet in force. */
export function versionInForce(law: LawStore, d: DocRec, date: string, basis: 'enforcement' | 'promulgation' = 'enforcement'): InForce {
  const versions = allVersions(law, d);
  const when = basis === 'enforcement' ? enf : (v: AnyVersion) => v.promulgation_date ?? '';
  const inForce = versions.filter((v) => when(v) <= date);
  const version = inForce[inForce.length - 1] ?? null;
  const pending = basis === 'enforcement' ? versions.filter((v) => (v.promulgation_date ?? '') <= date && enf(v) > date) : [];
  return { version, pending, versions };
}

export function versionInfo(v: AnyVersion): Record<string, unknown> {
  return { mst: v.mst, promulgation_date: v.promulgation_date, promulgation_no: v.promulgation_no, enforcement_date: v.enforcement_date, revision_type: v.revision_type, current: v.current, ...(v.law_name ? { law_name: v.law_name } : {}) };
}

/** The `as_of` block of an answer: the date, the chosen version, pending versions. */
export function asOfBlock(date: string, f: InForce): Record<string, unknown> {
  return {
    date, basis: 'enforcement_date (시행일자)', version: f.version ? versionInfo(f.version) : null,
    later_version_pending: f.pending.length > 0,
    pending: f.pending.map(versionInfo),
    note: 'the newest promulgated version whose enforcement date is on or before the date; provisions of a version with their own later enforcement dates (부칙) are not split out',
  };
}

/** Article-by-article comparison: added, removed, changed (whitespace and layout ignored). */
export function diffArticles(oldArts: Art[], newArts: Art[]): { summary: { added: number; removed: number; changed: number; unchanged: number }; changes: Array<Record<string, unknown>> } {
  const norm = (s: string) => s.replace(/\s+/g, '');
  const oldA = new Map(oldArts.map((x) => [x.no, x]));
  const newA = new Map(newArts.map((x) => [x.no, x]));
  const nos = [...new Set([...oldA.keys(), ...newA.keys()])].sort((x, y) => articleOrder(x) - articleOrder(y));
  const changes: Array<Record<string, unknown>> = [];
  const summary = { added: 0, removed: 0, changed: 0, unchanged: 0 };
  for (const no of nos) {
    const o = oldA.get(no), n = newA.get(no);
    if (o && n) {
      if (o.title === n.title && (o.content === n.content || norm(o.content) === norm(n.content))) { summary.unchanged++; continue; }
      summary.changed++;
      changes.push({ no, label: articleLabel(no), change: 'changed', old_title: o.title, new_title: n.title, old: o.content, new: n.content });
    } else if (n) { summary.added++; changes.push({ no, label: articleLabel(no), change: 'added', new_title: n.title, new: n.content }); }
    else if (o) { summary.removed++; changes.push({ no, label: articleLabel(no), change: 'removed', old_title: o.title, old: o.content }); }
  }
  return { summary, changes };
}

export interface Enforcement { enforcement_date: string; law_id: string; law_name: string; law_type: string | null; mst: string | null; promulgation_date: string | null; promulgation_no: string | null; revision_type: string | null; current: boolean }

/** Versions taking effect after `after` and on or before `before` (YYYYMMDD), by enforcement date. */
export function enforcementsBetween(law: LawStore, after: string, before: string, limit: number): { total: number; results: Enforcement[] } {
  const h = historyOf(law);
  const results: Enforcement[] = [];
  const seen = new Set<string>();
  let total = 0;
  const add = (e: Enforcement) => {
    const k = `${e.law_id}|${e.mst}`;
    if (seen.has(k)) return;
    seen.add(k);
    total++;
    if (results.length < limit) results.push(e);
  };
  const all: Enforcement[] = [];
  for (const { key, value } of h.enf.getRange({ start: [after + '\u0000', '', ''], end: [before + '\u0000', '', ''] })) {
    const [date, id, k] = key as [string, string, string];
    if (date <= after || date > before) continue;
    const m = h.meta.get([id, value, k]);
    const doc = law.get(id);
    if (m) all.push({ enforcement_date: date, law_id: id, law_name: m.law_name, law_type: m.law_type, mst: m.mst, promulgation_date: m.promulgation_date, promulgation_no: m.promulgation_no, revision_type: m.revision_type, current: Boolean(doc && doc.mst === m.mst) });
  }
  // documents without git history: their current version
  for (const d of law.catalog) {
    if (d.entity_type !== 'law' || !d.enforcement_date || d.enforcement_date <= after || d.enforcement_date > before) continue;
    all.push({ enforcement_date: d.enforcement_date, law_id: d.id, law_name: d.name, law_type: d.law_type, mst: d.mst, promulgation_date: d.promulgation_date, promulgation_no: d.promulgation_no, revision_type: d.revision_type, current: true });
  }
  all.sort((a, b) => a.enforcement_date.localeCompare(b.enforcement_date) || a.law_name.localeCompare(b.law_name));
  for (const e of all) add(e);
  return { total, results };
}
