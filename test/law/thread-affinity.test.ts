// With SEJONG_LAW_CPUS=spare-one the law worker threads keep off the first CPU the process may use (an MCP burst
// leaves the event loop a CPU of its own); `any`, the default, leaves them every CPU. The pure parts (cpu lists, the
// choice) are checked everywhere; the threads' real affinity through a server on Linux (/proc).
import t from 'tap';
import fs from 'node:fs';
import { lawCpusOf, parseCpuList } from '../../src/law/thread-affinity.js';
import { startTestServer } from '../helpers/server.js';
import { sampleDataDir } from './fixture.js';
import { skipFileWithoutShared } from '../helpers/shared.js';
import { callArticle, lawThreadIds } from '../helpers/law-threads.js';

t.test('cpu lists as the kernel writes them', async (t) => {
  t.same(parseCpuList('0-1'), [0, 1]);
  t.same(parseCpuList('0-3,8,10-11\n'), [0, 1, 2, 3, 8, 10, 11]);
  t.same(parseCpuList('5'), [5]);
  t.same(parseCpuList(''), []);
});

t.test('spare-one keeps all but the first CPU; any, or a single CPU, keeps them all', async (t) => {
  t.same(lawCpusOf([0, 1], 'spare-one'), [1]);
  t.same(lawCpusOf([2, 3, 6, 7], 'spare-one'), [3, 6, 7]);
  t.equal(lawCpusOf([4], 'spare-one'), null);
  t.equal(lawCpusOf([0, 1, 2], 'any'), null);
});

t.test('without taskset the thread keeps every CPU and says why', { skip: process.platform !== 'linux' && 'Linux only (/proc)' }, async (t) => {
  // a worker thread (pinOwnThread narrows the calling thread: never the test's own) whose PATH finds no taskset
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const fs = require('node:fs');
    import('tsx/esm/api').then(({ register }) => { register(); return import(workerData.url); }).then(async ({ pinOwnThread }) => {
      const r = await pinOwnThread('spare-one');
      const cpus = /^Cpus_allowed_list:\\s*(.+)$/m.exec(fs.readFileSync('/proc/thread-self/status', 'latin1'))[1];
      parentPort.postMessage({ err: r instanceof Error ? r.message : null, kept: r instanceof Error ? null : r, cpus });
    });`;
  const { Worker } = await import('node:worker_threads');
  const url = new URL('../../src/law/thread-affinity.ts', import.meta.url).href;
  const w = new Worker(code, { eval: true, workerData: { url }, env: { ...process.env, PATH: '/nonexistent' } });
  const m = await new Promise<{ err: string | null; kept: number[] | null; cpus: string }>((r) => w.once('message', r));
  await w.terminate();
  const all = parseCpuList(/^Cpus_allowed_list:\s*(.+)$/m.exec(fs.readFileSync('/proc/self/status', 'latin1'))![1]!);
  if (all.length < 2) {
    t.same([m.err, m.kept], [null, null], 'one CPU: nothing to do, no error');
    return;
  }
  t.match(m.err, /^taskset failed: /, 'the reason comes back');
  t.same(parseCpuList(m.cpus), all, 'the thread still has every CPU');
});

await skipFileWithoutShared('law-corpus', 'sample');

const allowed = (tid: string) => parseCpuList(/^Cpus_allowed_list:\s*(.+)$/m.exec(fs.readFileSync(`/proc/self/task/${tid}/status`, 'latin1'))![1]!);

/** this process's threads named sejong-law, with their CPUs */
const lawThreads = (): number[][] => lawThreadIds().map(allowed);

const mine = allowed(String(process.pid));
for (const [where, cpus] of [['worker', 'spare-one'], ['main', 'spare-one'], ['worker', undefined]] as const) {
  t.test(`SEJONG_MCP_THREAD=${where} SEJONG_LAW_CPUS=${cpus ?? '(default)'}: the law thread's CPUs`, { skip: process.platform !== 'linux' ? 'Linux only (/proc, taskset)' : mine.length < 2 && 'one CPU: nothing to spare' }, async (t) => {
    const srv = await startTestServer({ dataDir: await sampleDataDir(), env: { SEJONG_LAW_WORKERS: '1', ...(cpus ? { SEJONG_LAW_CPUS: cpus } : {}), SEJONG_MCP_THREAD: where } });
    t.teardown(() => srv.close());
    t.equal(await callArticle(srv), '750', 'the tool ran in the law thread');
    // taskset runs asynchronously after the thread starts: wait (bounded) for the thread to report its new CPUs
    let seen = lawThreads();
    for (let i = 0; i < 100 && cpus === 'spare-one' && seen[0]?.length === mine.length; i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = lawThreads();
    }
    t.same(seen, [cpus === 'spare-one' ? mine.slice(1) : mine], cpus === 'spare-one' ? 'one law thread, off the first CPU' : 'by default one law thread, on every CPU');
    t.same(allowed(String(process.pid)), mine, 'the event loop keeps every CPU');
  });
}
