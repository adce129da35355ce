// Daily refresh of a configured legalize-kr clone (SEJONG_LAW_GIT): `git pull --ff-only`, then the new commits are
// imported (GitImporter reads only the commits after the last one seen). Run by the in-server timer once a day at
// SEJONG_LAW_SYNC_HOUR (local; 3 when the law.go.kr sync is off), checked against the injected clock.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Config } from '../../config.js';
import type { Clock } from '../../clock.js';
import type { LawStore } from '../store.js';
import { GitImporter, type GitImportStats } from './git-import.js';

const run = promisify(execFile);

export interface GitSyncDeps {
  config: Pick<Config, 'lawGit' | 'lawSyncHour'>;
  clock: Clock;
  log: { info: (o: object) => void; error: (o: object) => void };
  ext: { lawGitStop?: () => void };
}

/** Pull the clone (when it has a remote) and import its new commits. */
export async function gitSync(law: LawStore, repo: string, now: () => number = Date.now): Promise<GitImportStats & { pulled: boolean; pull_error?: string }> {
  let pulled = false, pullError: string | undefined;
  const remotes = (await run('git', ['-C', repo, 'remote'])).stdout.trim();
  if (remotes) {
    try { await run('git', ['-C', repo, 'pull', '--ff-only', '-q'], { timeout: 10 * 60_000 }); pulled = true; } catch (e) { pullError = (e as Error).message.slice(0, 300); }
  }
  const st = await new GitImporter(law, undefined, { now }).run(repo);
  return { ...st, pulled, ...(pullError ? { pull_error: pullError } : {}) };
}

/** The daily timer: every `everyMs` it checks the clock; at the sync hour, once per day, it runs gitSync. */
export function scheduleGitSync(services: GitSyncDeps, law: LawStore, everyMs = 10 * 60_000): () => void {
  const hour = services.config.lawSyncHour >= 0 ? services.config.lawSyncHour : 3;
  let running = false;
  let lastDay = '';
  const tick = async () => {
    const now = new Date(services.clock.now());
    const day = `${now.getFullYear()}-${now.getMonth() + 1}-${now.getDate()}`;
    if (running || now.getHours() !== hour || lastDay === day) return;
    running = true;
    try {
      const r = await gitSync(law, services.config.lawGit, () => services.clock.now());
      lastDay = day;
      services.log.info({ msg: 'law git sync done', commits: r.commits, versions: r.versions, docs_updated: r.docs_updated, pulled: r.pulled, pull_error: r.pull_error, errors: r.errors.length, ms: r.ms });
    } catch (e) {
      services.log.error({ msg: 'law git sync failed', err: (e as Error).message });
    } finally {
      running = false;
    }
  };
  const t = setInterval(() => void tick(), everyMs);
  t.unref();
  const prev = services.ext.lawGitStop;
  prev?.();
  const stop = () => clearInterval(t);
  services.ext.lawGitStop = stop;
  return stop;
}
