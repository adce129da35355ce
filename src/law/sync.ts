// `sejong law sync`: pull statutes promulgated since the last sync from the law.go.kr Open API (lawSearch.do list,
// lawService.do XML per changed version), update meta and articles, keep the replaced text as a version for diffs,
// record the changes in the changelog, rebuild the search index and drop the caches (LawStore.version).
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { LawStore } from './store.js';
import { parseLawXml } from './parse.js';
import { addChanges } from './import.js';
import { kstToday, normDate } from './normalize.js';
import { iso } from '../clock.js';

export interface SyncResult {
  since: string;
  until: string;
  listed: number;
  updated: number;
  added: number;
  unchanged: number;
  errors: string[];
  index_ms?: number;
  ms: number;
}

export class LawApiError extends Error {}

interface SearchItem { mst: string; id: string; name: string; promulgation_date: string | null; revision_type: string | null; law_type: string | null; ministry: string | null; promulgation_no: string | null }

/** lawSearch.do's JSON root: `law` is one item, a list, or missing; numbers come as strings */
interface SearchRoot { law?: Record<string, string> | Array<Record<string, string>>; totalCnt?: string | number }

function asArray<T>(v: T | T[] | undefined | null): T[] {
  if (v === undefined || v === null || (v as unknown) === '') return [];
  return Array.isArray(v) ? v : [v];
}

/** law.go.kr answers errors as HTML pages (often with status 200): turn those into a readable message. */
function htmlError(text: string): string {
  const title = /<title>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
  const body = text.replace(/<script[\s\S]*?<\/script>/gi, '').replace(/<style[\s\S]*?<\/style>/gi, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
  const msg = /(사용자 정보 검증에 실패[^.]*|미신청된 목록\/본문[^.]*|OC[^.]{0,80}|도메인[^.]{0,80}|일일 ?트래픽[^.]{0,60}|페이지를 찾을 수 없[^.]*)/.exec(body)?.[1];
  return [title, msg ?? body.slice(0, 160)].filter(Boolean).join(': ');
}

export class LawGoClient {
  constructor(private readonly cfg: { base: string; oc: string; referer: string; timeoutMs?: number }) {}

  private async get(path: string, params: Record<string, string>): Promise<{ text: string; type: string }> {
    const url = new URL(path, this.cfg.base.endsWith('/') ? this.cfg.base : this.cfg.base + '/');
    url.searchParams.set('OC', this.cfg.oc);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json, application/xml;q=0.9, */*;q=0.1', 'user-agent': 'sejong-law-sync/1.0' };
    if (this.cfg.referer) headers.referer = this.cfg.referer;
    let res: Response;
    try {
      res = await fetch(url, { headers, signal: AbortSignal.timeout(this.cfg.timeoutMs ?? 30_000) });
    } catch (e) {
      throw new LawApiError(`law.go.kr ${path} unreachable: ${(e as Error).message}`);
    }
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    if (!res.ok) throw new LawApiError(`law.go.kr ${path} answered HTTP ${res.status}${/html/i.test(type) || /^\s*</.test(text) ? `: ${htmlError(text)}` : ''}`);
    if (/<html/i.test(text.slice(0, 500))) throw new LawApiError(`law.go.kr ${path} answered an error page: ${htmlError(text)}`);
    return { text, type };
  }

  /** lawSearch.do?target=law&type=JSON, newest promulgation first, between two dates (ancYd). All pages. */
  async listPromulgated(since: string, until: string): Promise<SearchItem[]> {
    const out: SearchItem[] = [];
    for (let page = 1; page < 200; page++) {
      const { text } = await this.get('DRF/lawSearch.do', { target: 'law', type: 'JSON', display: '100', page: String(page), sort: 'ddes', ancYd: `${since}~${until}` });
      let data: { LawSearch?: SearchRoot; lawSearch?: SearchRoot } | null;
      try {
        data = JSON.parse(text);
      } catch {
        throw new LawApiError(`law.go.kr lawSearch.do answered something that is not JSON: ${text.slice(0, 120)}`);
      }
      const root = data?.LawSearch ?? data?.lawSearch;
      if (!root) throw new LawApiError(`law.go.kr lawSearch.do answered JSON without LawSearch: ${text.slice(0, 120)}`);
      // quirks: one result is an object, none is a missing key; every number is a string
      const items = asArray<Record<string, string>>(root.law);
      for (const it of items) {
        out.push({
          mst: String(it['법령일련번호'] ?? '').trim(), id: String(it['법령ID'] ?? '').trim().padStart(6, '0'), name: String(it['법령명한글'] ?? '').trim(),
          promulgation_date: normDate(it['공포일자']), revision_type: it['제개정구분명'] ?? null, law_type: it['법령구분명'] ?? null,
          ministry: it['소관부처명'] ?? null, promulgation_no: it['공포번호'] ?? null,
        });
      }
      const total = Number(root.totalCnt ?? 0);
      if (!items.length || page * 100 >= total) break;
    }
    return out.filter((x) => x.mst && /^\d+$/.test(x.id));
  }

  async lawXml(mst: string): Promise<string> {
    const { text } = await this.get('DRF/lawService.do', { target: 'law', MST: mst, type: 'XML' });
    if (!text.includes('<법령')) {
      throw new LawApiError(`law.go.kr lawService.do MST=${mst} did not return a statute: ${/<Law>([^<]*)<\/Law>/.exec(text)?.[1] ?? text.slice(0, 120)}`);
    }
    return text;
  }
}

export async function syncLaw(config: Config, law: LawStore, opts: { now: number; since?: string; log?: Logger; progress?: (msg: string) => void; step?: (stage: string, done: number, total?: number) => void }): Promise<SyncResult> {
  const t0 = performance.now();
  if (!config.lawOc) throw new LawApiError('SEJONG_LAW_OC is not set: the law.go.kr Open API needs the OC key of a registered account');
  const client = new LawGoClient({ base: config.lawApiUrl, oc: config.lawOc, referer: config.lawReferer });
  const info = law.info();
  const until = kstToday(opts.now);
  const since = opts.since ?? normDate(info.last_sync?.slice(0, 10)) ?? info.corpus_date ?? until;
  const r: SyncResult = { since, until, listed: 0, updated: 0, added: 0, unchanged: 0, errors: [], ms: 0 };
  opts.step?.('listing promulgated statutes', 0);
  const items = await client.listPromulgated(since, until);
  r.listed = items.length;
  // oldest first so that the newest version of an id ends current
  items.sort((a, b) => (a.promulgation_date ?? '').localeCompare(b.promulgation_date ?? '') || Number(a.mst) - Number(b.mst));
  for (const [n, it] of items.entries()) {
    opts.step?.('statutes', n, items.length);
    const old = law.docs.get(it.id);
    if (old && old.mst === it.mst) { r.unchanged++; continue; }
    if (old && (old.promulgation_date ?? '') > (it.promulgation_date ?? '')) { r.unchanged++; continue; }
    let xml: string;
    try {
      xml = await client.lawXml(it.mst);
    } catch (e) {
      r.errors.push((e as Error).message);
      continue;
    }
    const p = parseLawXml(xml);
    p.doc.mst = it.mst;
    p.doc.id = p.doc.id && p.doc.id !== '000000' ? p.doc.id : it.id;
    p.doc.revision_type ??= it.revision_type;
    p.doc.source = 'sync';
    if (old) {
      p.doc.path = old.path;
      p.doc.family = old.family;
      p.doc.abbreviation ??= old.abbreviation;
    }
    const revs = law.hist.get(p.doc.id) ?? [];
    await law.store.transaction(() => {
      if (old) {
        // keep the replaced text as a version so that diff can compare it
        const prevArts = law.articles(old.id).map((a) => ({ no: a.no, title: a.title, content: a.content }));
        law.vers.put([old.id, `${old.promulgation_date}-${old.mst}`], { law_id: old.id, law_name: old.name, promulgation_date: old.promulgation_date, enforcement_date: old.enforcement_date, mst: old.mst, revision_type: old.revision_type, articles: prevArts });
        if (old.mst && !revs.some((x) => x.mst === old.mst)) revs.push({ promulgation_date: old.promulgation_date, promulgation_no: old.promulgation_no, enforcement_date: old.enforcement_date, mst: old.mst, revision_type: old.revision_type, law_name: old.name, law_type: old.law_type, has_text: true });
      }
      law.vers.put([p.doc.id, `${p.doc.promulgation_date}-${it.mst}`], { law_id: p.doc.id, law_name: p.doc.name, promulgation_date: p.doc.promulgation_date, enforcement_date: p.doc.enforcement_date, mst: it.mst, revision_type: p.doc.revision_type, articles: p.articles.map((a) => ({ no: a.no, title: a.title, content: a.content })) });
      const next = revs.filter((x) => x.mst !== it.mst);
      next.push({ promulgation_date: p.doc.promulgation_date, promulgation_no: p.doc.promulgation_no, enforcement_date: p.doc.enforcement_date, mst: it.mst, revision_type: p.doc.revision_type, law_name: p.doc.name, law_type: p.doc.law_type, has_text: true });
      next.sort((a, b) => (b.promulgation_date ?? '').localeCompare(a.promulgation_date ?? ''));
      law.hist.put(p.doc.id, next);
      law.putDoc(p.doc, p.articles, p.tables);
      const date = p.doc.promulgation_date ?? it.promulgation_date ?? until;
      addChanges(law, date, [{ date, law_id: p.doc.id, law_name: p.doc.name, law_type: p.doc.law_type, revision_type: p.doc.revision_type, ministry: p.doc.ministries[0] ?? it.ministry, promulgation_no: p.doc.promulgation_no, mst: it.mst, path: old?.path ?? null, entity_type: 'law', source: 'sync' }]);
    });
    if (old) r.updated++;
    else r.added++;
    opts.progress?.(`${old ? 'updated' : 'added'} ${p.doc.name} (${p.doc.id}, MST ${it.mst})`);
  }
  law.reload();
  opts.step?.('statutes', items.length, items.length);
  if (r.updated || r.added) {
    opts.step?.('search index', 0);
    const st = await law.rebuildIndex((d, t) => opts.step?.('search index', d, t));
    r.index_ms = st.ms;
  }
  law.updateInfo({ last_sync: iso(opts.now), corpus_date: law.newestPromulgation() });
  await law.flushed();
  // reload bumps LawStore.version: the search/list caches keyed on it are dropped at once
  law.reload();
  r.ms = Math.round(performance.now() - t0);
  return r;
}
