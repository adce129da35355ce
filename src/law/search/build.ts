// Building the article-text index: character bigrams of every live article (title three times, the statute's name
// once), postings per term written to LMDB as a new generation, older generations dropped.
import { termIds } from '../normalize.js';
import type { SearchSource } from './source.js';

/** Build and persist a new index generation from the stored articles; the caller opens it, the store records it. */
export async function buildIndex(law: SearchSource, onProgress?: (done: number, total: number) => void): Promise<{ gen: number; stats: { docs: number; terms: number; postings: number } }> {
  const ids = law.catalog.map((d) => d.id);
  const ownerL: number[] = [], seqL: number[] = [], lenL: number[] = [];
  const terms = new Map<number, { ids: Uint32Array; tfs: Uint8Array; n: number }>();
  const titleL: string[][] = [];
  let N = 0, total = 0, postings = 0;
  const buf: number[] = [];
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
      titles.push(a.deleted ? '' : a.title.replace(/\n/g, ' '));
      if (a.deleted) continue;
      buf.length = 0;
      // the article title is the strongest text evidence: its terms count three times
      termIds(a.title, buf); termIds(a.title, buf); termIds(a.title, buf);
      termIds(a.content, buf);
      for (const t of nameTerms) buf.push(t); // a law's name counts in each of its articles ("민법 불법행위")
      const n = buf.length;
      if (!n) continue;
      const arr = Int32Array.from(buf).sort();
      const docId = N++;
      ownerL.push(o); seqL.push(sq); lenL.push(Math.min(65535, n));
      total += n;
      let i = 0;
      while (i < arr.length) {
        const t = arr[i]!;
        let j = i + 1;
        while (j < arr.length && arr[j] === t) j++;
        let p = terms.get(t);
        if (!p) { p = { ids: new Uint32Array(4), tfs: new Uint8Array(4), n: 0 }; terms.set(t, p); }
        if (p.n === p.ids.length) {
          const ni = new Uint32Array(p.n * 2); ni.set(p.ids); p.ids = ni;
          const nt = new Uint8Array(p.n * 2); nt.set(p.tfs); p.tfs = nt;
        }
        p.ids[p.n] = docId; p.tfs[p.n] = Math.min(255, j - i); p.n++;
        postings++;
        i = j;
      }
    }
    if (onProgress && o % 20 === 0) onProgress(o, ids.length);
  }
  const gen = nextGeneration(law);
  const toBuf = (a: Uint32Array | Uint16Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  let batch: Array<[number, Buffer]> = [];
  let batchBytes = 0;
  const flush = async () => {
    const b = batch;
    batch = [];
    batchBytes = 0;
    await law.transaction(() => { for (const [t, buf] of b) law.idx.put([gen, t], buf); });
  };
  for (const [t, p] of terms) {
    const b = Buffer.allocUnsafe(p.n * 5);
    Buffer.from(p.ids.buffer, 0, p.n * 4).copy(b, 0);
    Buffer.from(p.tfs.buffer, 0, p.n).copy(b, p.n * 4);
    batch.push([t, b]);
    batchBytes += b.length + 32;
    if (batchBytes > 32 * 1024 * 1024) await flush();
  }
  await flush();
  await law.transaction(() => {
    law.idx.put([gen, 'owner'], toBuf(Uint32Array.from(ownerL)));
    law.idx.put([gen, 'seq'], toBuf(Uint32Array.from(seqL)));
    law.idx.put([gen, 'len'], toBuf(Uint16Array.from(lenL)));
    titleL.forEach((ts, o) => law.idx.put([gen, `t${o}`], Buffer.from(ts.join('\n'))));
    law.idx.put([gen, 'meta'], Buffer.from(JSON.stringify({ N, avgdl: N ? total / N : 1, ids })));
  });
  return { gen, stats: { docs: N, terms: terms.size, postings } };
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

/** Remove every stored generation older than gen (after the store has recorded gen). */
export async function dropGenerationsBefore(law: SearchSource, gen: number): Promise<void> {
  const old: Array<[number, number] | [number, string]> = [];
  for (const k of law.idx.getKeys({ start: [0], end: [gen] })) old.push(k as [number, number]);
  for (let i = 0; i < old.length; i += 50000) {
    const part = old.slice(i, i + 50000);
    await law.transaction(() => { for (const k of part) law.idx.remove(k); });
  }
}
