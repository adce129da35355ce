// get_relations: the statute family (law → decree → rule), the administrative rules citing it, and 「」 citations.
import { z } from 'zod';
import type { LawStore } from '../store.js';
import type { Category, DocRec } from '../parse.js';
import { nameKey } from '../normalize.js';
import { cacheOf, findDoc, lawIdSchema, status, type ToolCtx } from './common.js';

// ---------- get_relations ----------

export const getRelationsSchema = z.object({ law_id: lawIdSchema }).strict();

interface RelIndex { version: number; citedBy: Map<string, string[]>; byFamily: Map<string, DocRec[]> }
const relCaches = new WeakMap<LawStore, Map<string, RelIndex>>();

function relIndex(law: LawStore): RelIndex {
  const relCache = cacheOf(relCaches, law);
  const c = relCache.get('x');
  if (c && c.version === law.version) return c;
  const m = new Map<string, string[]>();
  for (const d of law.catalog) {
    for (const name of d.cites) {
      const t = law.resolveName(name);
      if (!t || t.id === d.id) continue;
      const l = m.get(t.id);
      if (l) l.push(d.id);
      else m.set(t.id, [d.id]);
    }
  }
  const byFamily = new Map<string, DocRec[]>();
  for (const d of law.catalog) {
    if (d.entity_type !== 'law') continue;
    for (const k of new Set([`n:${nameKey(familyBase(d.name))}`, ...(d.family ? [`f:${d.family}`] : [])])) {
      const l = byFamily.get(k);
      if (l) l.push(d);
      else byFamily.set(k, [d]);
    }
  }
  const idx = { version: law.version, citedBy: m, byFamily };
  relCache.set('x', idx);
  return idx;
}

function citedByMap(law: LawStore): Map<string, string[]> {
  return relIndex(law).citedBy;
}

function familyBase(name: string): string {
  return name.replace(/\s*(시행령|시행규칙)$/, '');
}

export function getRelations(ctx: ToolCtx, args: z.infer<typeof getRelationsSchema>) {
  const { law, now } = ctx;
  const d = findDoc(law, args.law_id);
  const short = (x: DocRec) => {
    const e = x.entity_type === 'law' ? { law_id: x.id, law_name: x.name, law_type: x.law_type, category: x.category } : { admrul_id: x.id, admrul_name: x.name, admrul_type: x.law_type, ministry: x.ministries.join(', ') };
    return { entity_type: x.entity_type, ...e, ...(x.repealed ? { repealed: true, status: 'repealed' } : {}) };
  };
  // the statute family (law → decree → rule): same legalize-kr directory, or the name without 시행령/시행규칙
  let anchor: DocRec | undefined = d;
  if (d.entity_type === 'admrul') {
    anchor = d.cites.map((c) => law.resolveName(c)).find((x) => x && x.entity_type === 'law');
  }
  let family: DocRec[] = [];
  if (anchor) {
    const byFamily = relIndex(law).byFamily;
    family = [...new Set([...(byFamily.get(`n:${nameKey(familyBase(anchor.name))}`) ?? []), ...(anchor.family ? byFamily.get(`f:${anchor.family}`) ?? [] : [])])];
  }
  const pick = (c: Category) => family.filter((x) => x.category === c).sort((a, b) => Number(Boolean(a.repealed)) - Number(Boolean(b.repealed)) || (b.promulgation_date ?? '').localeCompare(a.promulgation_date ?? ''));
  const lawTier = pick('law'), decree = pick('decree'), rule = pick('rule');
  const citedBy = citedByMap(law).get(d.id) ?? [];
  const familyIds = new Set(family.map((x) => x.id));
  const rulesFor = new Set<string>();
  const m = citedByMap(law);
  for (const fid of d.entity_type === 'law' ? familyIds : new Set<string>()) for (const r of m.get(fid) ?? []) if (law.get(r)?.entity_type === 'admrul') rulesFor.add(r);
  const adm = [...rulesFor].map((id) => law.get(id)!).filter(Boolean).sort((a, b) => a.name.localeCompare(b.name, 'ko'));
  const cites = [...new Set(d.cites.map((c) => law.resolveName(c)).filter((x): x is DocRec => Boolean(x) && x!.id !== d.id))];
  const citers = citedBy.map((id) => law.get(id)!).filter((x) => x && !familyIds.has(x.id) && x.entity_type === 'law');
  let parent: DocRec | undefined;
  if (d.entity_type === 'admrul') parent = anchor;
  else if (d.category === 'decree') parent = lawTier[0];
  else if (d.category === 'rule') parent = decree[0] ?? lawTier[0];
  const children = d.entity_type === 'admrul' ? [] : d.category === 'law' ? [...decree, ...rule] : d.category === 'decree' ? rule : [];
  const cap = 50;
  return {
    ...short(d),
    status: d.entity_type === 'law' ? status(d, now) : undefined,
    hierarchy: {
      law: lawTier.map(short),
      decree: decree.map(short),
      rule: rule.map(short),
      admin_rules: adm.slice(0, cap).map(short),
      admin_rules_total: adm.length,
    },
    parent: parent ? short(parent) : null,
    children: children.map(short),
    cites: cites.slice(0, cap).map(short),
    cites_total: cites.length,
    cited_by: citers.slice(0, cap).map(short),
    cited_by_total: citers.length,
    note: 'entries marked repealed: true are repealed (폐지) instruments; hierarchy: the statute family law → decree (시행령) → rule (시행규칙) and the administrative rules that cite any of them; cites/cited_by: statutes named in 「」 in the text',
  };
}
