// The law worker threads run at SEJONG_LAW_WORKER_NICE above the event loop (Linux: niceness is per thread), so an
// MCP burst cannot take a core from /health and the status polls; both hosts of the tools are checked: the MCP law
// worker (SEJONG_MCP_THREAD=worker, the default) and the Piscina law pool (SEJONG_MCP_THREAD=main).
import t from 'tap';
import os from 'node:os';
import { startTestServer } from '../helpers/server.js';
import { sampleDataDir } from './fixture.js';
import { skipFileWithoutShared } from '../helpers/shared.js';
import { callArticle, lawThreadIds } from '../helpers/law-threads.js';

await skipFileWithoutShared('law-corpus', 'sample');

/** this process's threads named sejong-law, with their niceness */
const lawThreads = (): number[] => lawThreadIds().map((tid) => os.getPriority(Number(tid)));

for (const where of ['worker', 'main'] as const) {
  t.test(`SEJONG_MCP_THREAD=${where}: the law thread runs at the event loop's niceness + 4`, { skip: process.platform !== 'linux' && 'Linux only (/proc, per-thread niceness)' }, async (t) => {
    const main = os.getPriority();
    const srv = await startTestServer({ dataDir: await sampleDataDir(), env: { SEJONG_LAW_WORKERS: '1', SEJONG_LAW_WORKER_NICE: '4', SEJONG_MCP_THREAD: where } });
    t.teardown(() => srv.close());
    t.equal(await callArticle(srv), '750', 'the tool ran in the law thread');
    t.same(lawThreads(), [Math.min(19, main + 4)], 'one law thread, at niceness main + 4');
    t.equal(os.getPriority(), main, 'the event loop keeps its niceness');
  });
}
