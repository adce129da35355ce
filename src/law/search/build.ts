// Building the article-text index: character bigrams of every live article (title three times, the statute's name
// once), postings per term written to LMDB as a new generation, older generations dropped.
import fs from 'node:fs';
import path from 'node:path';
import { termIds } from '../normalize.js';
import type { SearchSource } from './source.js';
import type { Article } from '../parse/types.js';
import { LONG_VALUE_BYTES, LongWriter, longFile } from './long-values.js';

/**
 * Term ids (bigram codes, non-negative and below 2^30) → dense term numbers by open addressing in typed arrays, with
 * per term its postings count and, during one article, its count there. A Map lookup and a growing pair of arrays
 * per term cost a fifth and a third of the build (cache misses on 99k scattered arrays); the postings now go to flat
 * arrays in article order and are placed per term once at the end (a counting sort: the same order, by article).
 */
export class TermTable {
  private keys = new Int32Array(1 << 18).fill(-1);
  private slots = new Int32Array(1 << 18);
  /** 32 − log2(table size): the hash is the high bits of a multiplicative (Fibonacci) hash */
  private shift = 14;
  /** term id by term number, in order of first appearance */
  ids: number[] = [];
  count = new Uint32Array(1 << 17);
  /** the last article (index docId) holding the term, and its count in that article */
  last = new Int32Array(1 << 17).fill(-1);
  tf = new Uint32Array(1 << 17);

  numberOf(t: number): number {
    let mask = this.keys.length - 1, h = Math.imul(t, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const k = this.keys[h]!;
      if (k === t) return this.slots[h]!;
      if (k === -1) break;
      h = (h + 1) & mask;
    }
    const x = this.ids.length;
    this.ids.push(t);
    if (x >= this.count.length) this.growTerms();
    if (this.ids.length * 2 > this.keys.length) { this.rehash(); mask = this.keys.length - 1; h = Math.imul(t, 0x9e3779b1) >>> this.shift; while (this.keys[h] !== -1) h = (h + 1) & mask; }
    this.keys[h] = t; this.slots[h] = x;
    return x;
  }

  private growTerms(): void {
    const n = this.count.length * 2;
    const c = new Uint32Array(n); c.set(this.count); this.count = c;
    const l = new Int32Array(n).fill(-1); l.set(this.last); this.last = l;
    const f = new Uint32Array(n); f.set(this.tf); this.tf = f;
  }

  private rehash(): void {
    const n = this.keys.length * 2, mask = n - 1;
    this.keys = new Int32Array(n).fill(-1); this.slots = new Int32Array(n);
    this.shift--;
    this.ids.forEach((t, x) => {
      if (x === this.ids.length - 1) return; // the term being added: its caller places it
      let h = Math.imul(t, 0x9e3779b1) >>> this.shift;
      while (this.keys[h] !== -1) h = (h + 1) & mask;
      this.keys[h] = t; this.slots[h] = x;
    });
  }
}

/** a growable typed array pair of the postings in article order: term number and the count in the article */
class FlatPostings {
  term = new Int32Array(1 << 20);
  tf = new Uint8Array(1 << 20);
  n = 0;
  push(x: number, tf: number): void {
    if (this.n === this.term.length) {
      const t = new Int32Array(this.n * 2); t.set(this.term); this.term = t;
      const f = new Uint8Array(this.n * 2); f.set(this.tf); this.tf = f;
    }
    this.term[this.n] = x; this.tf[this.n++] = tf;
  }
}

/**
 * Build and persist a new index generation from the stored articles; the caller opens it, the store records it.
 * visit sees every stored article once (deleted ones too), for what else is derived from them in the same pass.
 */
export async function buildIndex(law: SearchSource, onProgress?: (done: number, total: number) => void, visit?: (id: string, a: Article) => void): Promise<{ gen: number; stats: { docs: number; terms: number; postings: number } }> {
  const ids = law.catalog.map((d) => d.id);
  const ownerL: number[] = [], seqL: number[] = [], lenL: number[] = [], artStart: number[] = [0];
  const tt = new TermTable(), flat = new FlatPostings();
  const titleL: string[][] = [];
  let N = 0, total = 0;
  const buf: number[] = [];
  let distinct = new Int32Array(1024);
  for (let o = 0; o < ids.length; o++) {
    // yield now and then: lmdb-js renews its read transaction between turns (one huge synchronous scan fails with MDB_TXN_FULL)
    if (o % 200 === 0) await new Promise((r) => setImmediate(r));
    const id = ids[o]!;
    const doc = law.byId.get(id)!;
    const nameTerms = termIds(doc.name);
    let s = 0;
    const titles: string[] = [];
    titleL.push(titles);
    for (const { value: a } of law.arts.getRange({ start: [id, 0], end: [id, Number.MAX_SAFE_INTEGER] })) {
      const sq = s++;
      visit?.(id, a);
      titles.push(a.deleted ? '' : a.title.replace(/\n/g, ' '));
      if (a.deleted) continue;
      buf.length = 0;
      // the article title is the strongest text evidence: its terms count three times
      termIds(a.title, buf); termIds(a.title, buf); termIds(a.title, buf);
      termIds(a.content, buf);
      for (const t of nameTerms) buf.push(t); // a law's name counts in each of its articles ("민법 불법행위")
      const n = buf.length;
      if (!n) continue;
      const docId = N++;
      ownerL.push(o); seqL.push(sq); lenL.push(Math.min(65535, n));
      total += n;
      // each distinct term of the article once, with its count (capped at 255), in order of first appearance
      if (distinct.length < n) distinct = new Int32Array(n * 2);
      let nd = 0;
      let last = tt.last, tf = tt.tf;
      for (let i = 0; i < n; i++) {
        const x = tt.numberOf(buf[i]!);
        if (tt.last !== last) { last = tt.last; tf = tt.tf; } // the table grew (rare)
        if (last[x] !== docId) { last[x] = docId; tf[x] = 1; distinct[nd++] = x; } else tf[x]!++;
      }
      for (let k = 0; k < nd; k++) { const x = distinct[k]!; flat.push(x, Math.min(255, tt.tf[x]!)); tt.count[x]!++; }
      artStart.push(flat.n);
    }
    if (onProgress && o % 20 === 0) onProgress(o, ids.length);
  }
  const gen = nextGeneration(law);
  // the values longer than a chunk of the map go to the generation's side file (long-values.ts), fsynced before the
  // table pointing into it is committed with the generation's records
  const long = new LongWriter(longFile(law.dir, gen));
  await writePostings(law, gen, tt, flat, artStart, long);
  const titleBufs = titleL.map((ts) => Buffer.from(ts.join('\n')));
  titleBufs.forEach((b, o) => { if (b.length > LONG_VALUE_BYTES) long.put('titles', o, b); });
  long.finish();
  const toBuf = (a: Uint32Array | Uint16Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  await law.transaction(() => {
    law.idx.put([gen, 'long'], Buffer.from(JSON.stringify(long.table)));
    law.idx.put([gen, 'owner'], toBuf(Uint32Array.from(ownerL)));
    law.idx.put([gen, 'seq'], toBuf(Uint32Array.from(seqL)));
    law.idx.put([gen, 'len'], toBuf(Uint16Array.from(lenL)));
    titleBufs.forEach((b, o) => { if (b.length <= LONG_VALUE_BYTES) law.idx.put([gen, `t${o}`], b); });
    law.idx.put([gen, 'meta'], Buffer.from(JSON.stringify({ N, avgdl: N ? total / N : 1, ids })));
  });
  return { gen, stats: { docs: N, terms: tt.ids.length, postings: flat.n } };
}

/** Place the flat postings per term (article order kept) and write each term's list: ids (u32) then counts (u8). */
async function writePostings(law: SearchSource, gen: number, tt: TermTable, flat: FlatPostings, artStart: number[], long: LongWriter): Promise<void> {
  const nTerms = tt.ids.length;
  const at = new Float64Array(nTerms + 1);
  for (let x = 0; x < nTerms; x++) at[x + 1] = at[x]! + tt.count[x]!;
  const cursor = at.slice(0, nTerms);
  const pIds = new Uint32Array(flat.n), pTfs = new Uint8Array(flat.n);
  for (let d = 0; d + 1 < artStart.length; d++) {
    for (let k = artStart[d]!, e = artStart[d + 1]!; k < e; k++) {
      const x = flat.term[k]!, p = cursor[x]!++;
      pIds[p] = d; pTfs[p] = flat.tf[k]!;
    }
  }
  let batch: Array<[number, Buffer]> = [];
  let batchBytes = 0;
  const flush = async () => {
    const b = batch;
    batch = [];
    batchBytes = 0;
    await law.transaction(() => { for (const [t, buf] of b) law.idx.put([gen, t], buf); });
  };
  for (let x = 0; x < nTerms; x++) {
    const from = at[x]!, n = tt.count[x]!;
    const b = Buffer.allocUnsafe(n * 5);
    b.set(new Uint8Array(pIds.buffer, from * 4, n * 4), 0);
    b.set(pTfs.subarray(from, from + n), n * 4);
    if (b.length > LONG_VALUE_BYTES) { long.put('postings', tt.ids[x]!, b); continue; }
    batch.push([tt.ids[x]!, b]);
    batchBytes += b.length + 32;
    if (batchBytes > 32 * 1024 * 1024) await flush();
  }
  await flush();
}

/**
 * The number of a new generation: past the one the store records and past any stored one (a build whose generation
 * was never recorded, cut short by a crash, is not reused: its stale postings would mix with the new ones).
 */
function nextGeneration(law: SearchSource): number {
  let last = law.indexGen() || 0;
  for (const k of law.idx.getKeys({ reverse: true, limit: 1 })) last = Math.max(last, k[0]);
  return last + 1;
}

/** Remove every stored generation older than gen (after the store has recorded gen), with its side file. */
export async function dropGenerationsBefore(law: SearchSource, gen: number): Promise<void> {
  const old: Array<[number, number] | [number, string]> = [];
  for (const k of law.idx.getKeys({ start: [0], end: [gen] })) old.push(k as [number, number]);
  // 5,000 keys a transaction: 50,000 of a full-corpus generation dirtied more pages than LMDB lets one transaction
  // hold with the law env's 1 KiB pages (MDB_TXN_FULL at the first rebuild of a full store: a sync, `law reindex`)
  for (let i = 0; i < old.length; i += 5000) {
    const part = old.slice(i, i + 5000);
    await law.transaction(() => { for (const k of part) law.idx.remove(k); });
  }
  // a thread still searching an older generation reads its file through the descriptor it opened (long-values.ts)
  for (const f of fs.readdirSync(law.dir)) {
    const m = /^idx-(\d+)\.long$/.exec(f);
    if (m && Number(m[1]) < gen) fs.rmSync(path.join(law.dir, f), { force: true });
  }
}
