// A job engine over either repository, for tests that run once per storage mode: embedded (LMDB in a temp dir)
// or shared (a fresh database on the process's private PostgreSQL, migrated). `another()` opens a second engine on
// the same records (another node of a fleet: same database, same installation sealer).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Store } from '../../src/store/env.js';
import { LmdbBlobStore, type BlobStore } from '../../src/store/blobs.js';
import { PgBlobStore } from '../../src/store/blobs-pg.js';
import { JobEngine } from '../../src/jobs/engine.js';
import { LmdbJobRepo } from '../../src/jobs/repo-lmdb.js';
import { PgJobRepo } from '../../src/jobs/repo-pg.js';
import type { JobRepo } from '../../src/jobs/repo.js';
import { Sealer } from '../../src/jobs/sealed-keys.js';
import { ManualClock } from '../../src/clock.js';
import { Pg } from '../../src/shared/pg.js';
import { migrate } from '../../src/shared/migrate.js';
import { enginesMissing, sharedPostgres } from './engines.js';

export type Mode = 'embedded' | 'shared';
export const MODES: Mode[] = ['embedded', 'shared'];

/** why a mode cannot run here (tap skip message), or false */
export const modeSkip = (mode: Mode): string | false => (mode === 'shared' ? enginesMissing() ?? false : false);

export interface JobsHarness {
  mode: Mode;
  dir: string;
  store: Store;
  clock: ManualClock;
  repo: JobRepo;
  blobs: BlobStore;
  jobs: JobEngine;
  pg?: Pg;
  /** a second engine (another node) on the same records, with its own clock */
  another(): Promise<JobsHarness>;
  close(): Promise<void>;
}

export async function openJobs(mode: Mode, opts: { dir?: string; tombstoneMs?: number; databaseUrl?: string; sealer?: Sealer } = {}): Promise<JobsHarness> {
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-jobs-'));
  const store = new Store(dir);
  const clock = new ManualClock();
  const sealer = opts.sealer ?? new Sealer(store);
  let pg: Pg | undefined;
  let repo: JobRepo;
  let blobs: BlobStore;
  let databaseUrl = opts.databaseUrl;
  if (mode === 'shared') {
    databaseUrl ??= await (await sharedPostgres()).database();
    pg = await Pg.connect(databaseUrl, 5000);
    await migrate(pg);
    repo = new PgJobRepo(pg);
    blobs = new PgBlobStore(pg);
  } else {
    repo = new LmdbJobRepo(store);
    blobs = new LmdbBlobStore(store);
  }
  const jobs = new JobEngine({ repo, sealer }, blobs, clock, opts.tombstoneMs ?? 86400_000);
  return {
    mode, dir, store, clock, repo, blobs, jobs, pg,
    another: () => {
      if (mode !== 'shared') throw new Error('another node needs shared mode');
      return openJobs(mode, { tombstoneMs: opts.tombstoneMs, databaseUrl, sealer });
    },
    async close() {
      await pg?.close();
      await store.close();
    },
  };
}
