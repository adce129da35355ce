// The reading side of a git import, run in a worker thread (reader-worker.ts): the commit log, the file versions
// (`git cat-file`) and their articles (SectionParser), handed to the writing thread in batches, with every article's
// digest and UTF-8 text in one transferable buffer. Reading and parsing then run on one core while the LMDB writes
// run on the other; an unchanged article costs the writer a digest comparison and no text decoding.
import { CatFile, gitLog, type GitCommit } from './git.js';
import { SectionParser, type SecEntry } from './sections.js';
import type { DocRec } from '../parse.js';

export interface ReadOptions {
  repo: string;
  /** the last commit imported (exclusive); null = from the first */
  since: string | null;
  head: string;
  /** stop after this many commits */
  limit?: number;
  /** only these paths (benchmarks) */
  paths?: string[];
  /** commits per batch */
  batch: number;
}

/** One file version of a batch: its frontmatter record and articles, or why it could not be read. */
export interface ReadFile {
  /** index of its commit in ReadBatch.commits */
  ci: number;
  path: string;
  doc?: DocRec;
  nos?: string[];
  /** articleDigest of each article */
  ds?: string[];
  /** [title bytes, title + content bytes] of each article, flattened */
  lens?: number[];
  /** where the file's first article starts in ReadBatch.buf */
  off?: number;
  error?: string;
}

export interface ReadBatch {
  commits: Array<{ commit: string; subject: string; body: string }>;
  files: ReadFile[];
  /** file changes not imported (outside kr/, deleted, or the same bytes as a version already read) */
  skipped: number;
  buf: Uint8Array;
}

interface Pending { commits: GitCommit[]; jobs: Array<{ ci: number; path: string; blob: Promise<Buffer | null> }>; skipped: number }

/** Batches of parsed file versions, oldest commit first. The next batch's blobs are requested before this one is parsed. */
export async function* readHistory(o: ReadOptions): AsyncGenerator<ReadBatch> {
  const cat = new CatFile(o.repo);
  const sp = new SectionParser();
  const seen = new Set<string>();
  let taken = 0;
  let pending: Pending | null = null;
  try {
    let commits: GitCommit[] = [];
    for await (const c of gitLog(o.repo, o.paths ? null : o.since, o.head, o.paths)) {
      commits.push(c);
      const full = commits.length >= o.batch || (o.limit !== undefined && taken + commits.length >= o.limit);
      if (!full) continue;
      taken += commits.length;
      const next = request(cat, seen, commits);
      commits = [];
      if (pending) yield await parseBatch(sp, pending);
      pending = next;
      if (o.limit !== undefined && taken >= o.limit) break;
    }
    const last = commits.length ? request(cat, seen, commits) : null;
    if (pending) yield await parseBatch(sp, pending);
    if (last) yield await parseBatch(sp, last);
  } finally {
    cat.close();
  }
}

function request(cat: CatFile, seen: Set<string>, commits: GitCommit[]): Pending {
  const p: Pending = { commits, jobs: [], skipped: 0 };
  commits.forEach((c, ci) => {
    for (const [st, path, id] of c.files) {
      if (!path.startsWith('kr/') || !path.endsWith('.md') || st.startsWith('D')) { p.skipped++; continue; }
      const real = /^[0-9a-f]{40}$/.test(id) && !/^0+$/.test(id);
      if (real) {
        if (seen.has(id)) { p.skipped++; continue; } // the same bytes were imported already
        seen.add(id);
      }
      p.jobs.push({ ci, path, blob: cat.blob(real ? id : `${c.commit}:${path}`) });
    }
  });
  return p;
}

async function parseBatch(sp: SectionParser, p: Pending): Promise<ReadBatch> {
  const blobs = await Promise.all(p.jobs.map((j) => j.blob));
  const files: ReadFile[] = [];
  const parts: SecEntry[] = [];
  let size = 0;
  p.jobs.forEach((j, i) => {
    const b = blobs[i];
    if (!b) { files.push({ ci: j.ci, path: j.path, error: 'blob missing' }); return; }
    try {
      const { doc, entries } = sp.parseEntries(b, j.path);
      const lens: number[] = [];
      for (const e of entries) lens.push(e.tl, e.bytes.length);
      files.push({ ci: j.ci, path: j.path, doc, nos: entries.map((e) => e.a.no), ds: entries.map((e) => e.d), lens, off: size });
      for (const e of entries) { parts.push(e); size += e.bytes.length; }
    } catch (e) {
      files.push({ ci: j.ci, path: j.path, error: (e as Error).message });
    }
  });
  const buf = new Uint8Array(new ArrayBuffer(size)); // its own ArrayBuffer: transferred to the writer, not copied
  let at = 0;
  for (const e of parts) { buf.set(e.bytes, at); at += e.bytes.length; }
  return { commits: p.commits.map((c) => ({ commit: c.commit, subject: c.subject, body: c.body })), files, skipped: p.skipped, buf };
}
