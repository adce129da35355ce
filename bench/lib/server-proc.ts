// A sejong test server in its own process, so a benchmark's load generator never shares an event loop with it.
//   child:  node --import tsx bench/lib/server-proc.ts '<json TestServerOptions>'  → prints one JSON line
//           {url, apiKey, pid} when listening; closes on SIGTERM or when stdin ends. It also measures its own
//           event-loop delay (perf_hooks, 1 ms resolution): a line "eld" on stdin answers {"eld": {...}} with the
//           p50/p99/max (ms) since the last "eld" and starts a new histogram.
//   parent: spawnServer(opts, nodeArgs, { log, code }) → { url, apiKey, pid, req(), loopDelay(), close() }; other lines
//           the child writes to stdout (e.g. --trace-gc) go to `log` when given; `code` is another checkout of sejong
//           (its own bench/lib/server-proc.ts and sources) for side-by-side runs of two trees.
import fs from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestServerOptions } from '../../test/helpers/server.js';

export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

export interface ServerProc {
  url: string;
  apiKey: string;
  pid: number;
  req(pathname: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** the server's own event-loop delay (ms) since the previous call (or start); starts a new histogram */
  loopDelay(): Promise<LoopDelay>;
  close(): Promise<void>;
}

const self = fileURLToPath(import.meta.url);

export async function spawnServer(opts: TestServerOptions, nodeArgs: string[] = [], io: { log?: string; code?: string } = {}): Promise<ServerProc> {
  const root = io.code ? path.resolve(io.code) : path.resolve(path.dirname(self), '../..');
  const entry = io.code ? path.join(root, 'bench/lib/server-proc.ts') : self;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, entry, JSON.stringify(opts)], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const log = io.log ? fs.createWriteStream(io.log) : undefined;
  const waiting: Array<(v: LoopDelay) => void> = [];
  const info = await new Promise<{ url: string; apiKey: string; pid: number }>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith('{"url"')) resolve(JSON.parse(line) as { url: string; apiKey: string; pid: number });
        else if (line.startsWith('{"eld"')) waiting.shift()?.((JSON.parse(line) as { eld: LoopDelay }).eld);
        else log?.write(line + '\n');
      }
    });
    child.once('exit', (code) => reject(new Error(`server process exited (${code}) before listening`)));
  });
  return {
    ...info,
    loopDelay: () =>
      new Promise<LoopDelay>((resolve) => {
        waiting.push(resolve);
        child.stdin!.write('eld\n');
      }),
    req(pathname, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('x-api-key')) headers.set('x-api-key', info.apiKey);
      let body = init.body;
      if (init.json !== undefined) {
        body = JSON.stringify(init.json);
        headers.set('content-type', 'application/json');
      }
      return fetch(info.url + pathname, { ...init, headers, body });
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => {
          log?.end();
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

if (process.argv[1] === self) {
  const { startTestServer } = await import('../../test/helpers/server.js');
  const s = await startTestServer(JSON.parse(process.argv[2] ?? '{}') as TestServerOptions);
  let closing = false;
  const stop = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    await s.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.stdin.on('end', () => void stop());
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  let eld = monitorEventLoopDelay({ resolution: 1 });
  eld.enable();
  let line = '';
  process.stdin.on('data', (d: Buffer) => {
    line += d.toString();
    for (let nl = line.indexOf('\n'); nl >= 0; nl = line.indexOf('\n')) {
      if (line.slice(0, nl) === 'eld') {
        const ms = (ns: number): number => Math.round(ns / 1e4) / 100;
        process.stdout.write(JSON.stringify({ eld: { p50: ms(eld.percentile(50)), p99: ms(eld.percentile(99)), max: ms(eld.max) } }) + '\n');
        eld.disable();
        eld = monitorEventLoopDelay({ resolution: 1 });
        eld.enable();
      }
      line = line.slice(nl + 1);
    }
  });
  process.stdout.write(JSON.stringify({ url: s.url, apiKey: s.apiKey, pid: process.pid }) + '\n');
}
