// The daily refresh of a configured legalize-kr clone (SEJONG_LAW_GIT) by the in-server timer, driven by a ManualClock:
// nothing before the sync hour, pull + import at the hour, once a day, the next day's new commits the day after.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';
import { historyOf } from '../../src/law/history/db.js';
import { scheduleGitSync } from '../../src/law/history/daily.js';
import { TestRepo, sampleVersions } from './git-fixture.js';
import { skipFileWithoutShared } from '../helpers/shared.js';

await skipFileWithoutShared('law-corpus', 'sample', 'history');

const origin = new TestRepo();
const versions = sampleVersions(['kr/개인정보보호법/법률.md']);
for (const e of versions.slice(0, 3)) origin.commitVersion(e);
const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-clone-'));
execFileSync('git', ['clone', '-q', origin.dir, clone]);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-hsync-'));
const store = new Store(dataDir);
const law = openLaw(store);
law.reload();
t.teardown(async () => { await store.close(); for (const d of [clone, dataDir]) fs.rmSync(d, { recursive: true, force: true }); origin.remove(); });

const local = (y: number, m: number, d: number, h: number) => new Date(y, m - 1, d, h, 0, 0).getTime();
const clock = new ManualClock(local(2026, 11, 20, 1));
const logs: object[] = [];
const services = { config: { lawGit: clone, lawSyncHour: 4 }, clock, log: { info: (o: object) => logs.push(o), error: (o: object) => logs.push(o) }, ext: {} };
const until = async (cond: () => boolean) => { for (let i = 0; i < 2400 && !cond(); i++) await new Promise((r) => setTimeout(r, 25)); };
const state = () => historyOf(law).state();

t.test('daily timer: at the sync hour, once a day, pull + incremental import', async (t) => {
  const stop = scheduleGitSync(services, law, 20);
  t.teardown(stop);
  await new Promise((r) => setTimeout(r, 200));
  t.equal(state().last_commit, null, 'nothing before the hour');
  clock.set(local(2026, 11, 20, 4));
  await until(() => logs.length === 1);
  t.equal(state().last_commit, origin.git('rev-parse', 'HEAD'));
  t.equal((law.sys.get('git') as { updated_at: string }).updated_at, new Date(clock.now()).toISOString(), 'the import time is on the injected clock');
  t.equal(historyOf(law).versions('011357').length, 3);
  t.equal(law.get('011357')?.mst, versions[2]!.법령MST);
  // new commits upstream: not picked up again the same day
  for (const e of versions.slice(3, 6)) origin.commitVersion(e);
  await new Promise((r) => setTimeout(r, 200));
  t.equal(historyOf(law).versions('011357').length, 3);
  clock.set(local(2026, 11, 21, 4));
  await until(() => logs.length === 2);
  t.equal(historyOf(law).versions('011357').length, 6);
  t.equal(state().last_commit, origin.git('rev-parse', 'HEAD'));
  t.equal(law.get('011357')?.mst, versions[5]!.법령MST);
  t.equal(logs.filter((l: any) => l.msg === 'law git sync done').length, 2);
  t.same(logs.filter((l: any) => l.msg === 'law git sync done').map((l: any) => [l.commits, l.pulled]), [[3, true], [3, true]]);
});
