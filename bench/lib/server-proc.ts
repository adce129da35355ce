// A sejong test server in its own process, so a benchmark's load generator never shares an event loop with it.
//   child:  node --import tsx bench/lib/server-proc.ts '<json TestServerOptions>'  → prints one JSON line
//           {url, apiKey, pid} when listening; closes on SIGTERM or when stdin ends.
//   parent: spawnServer(opts) → { url, apiKey, pid, req(), close() }
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestServerOptions } from '../../test/helpers/server.js';

export interface ServerProc {
  url: string;
  apiKey: string;
  pid: number;
  req(pathname: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

const self = fileURLToPath(import.meta.url);

export async function spawnServer(opts: TestServerOptions, nodeArgs: string[] = []): Promise<ServerProc> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, self, JSON.stringify(opts)], {
    cwd: path.resolve(path.dirname(self), '../..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const info = await new Promise<{ url: string; apiKey: string; pid: number }>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)) as { url: string; apiKey: string; pid: number });
    });
    child.once('exit', (code) => reject(new Error(`server process exited (${code}) before listening`)));
  });
  return {
    ...info,
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
        child.once('exit', () => resolve());
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
  process.stdin.resume();
  process.stdout.write(JSON.stringify({ url: s.url, apiKey: s.apiKey, pid: process.pid }) + '\n');
}
