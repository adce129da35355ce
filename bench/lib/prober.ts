// A /health prober in its own process, so the figure is the server's answer time and not the load generator's
// own event loop (which parses image answers and builds multipart bodies between the pings).
//   child:  node --import tsx bench/lib/prober.ts <url> <intervalMs>  → pings GET <url> one at a time every
//           intervalMs over one keep-alive connection; on stdin end it prints one JSON line {ms: number[]} and exits
//   parent: startProber(url, intervalMs) → { stop(): Promise<number[]> }
import http from 'node:http';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);

export interface Prober {
  /** stop pinging; the latencies in ms */
  stop(): Promise<number[]>;
}

export async function startProber(url: string, intervalMs = 20): Promise<Prober> {
  const child = spawn(process.execPath, ['--import', 'tsx', self, url, String(intervalMs)], {
    cwd: path.resolve(path.dirname(self), '../..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve()); // "ready"
    child.once('exit', (code) => reject(new Error(`prober exited (${code})`)));
  });
  return {
    stop: () =>
      new Promise<number[]>((resolve) => {
        child.once('exit', () => resolve((JSON.parse(out.slice(out.indexOf('{'))) as { ms: number[] }).ms));
        child.stdin!.end();
      }),
  };
}

if (process.argv[1] === self) {
  const url = new URL(process.argv[2]!);
  const every = Number(process.argv[3] ?? 20);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const ms: number[] = [];
  let stop = false;
  const get = (): Promise<void> =>
    new Promise((resolve, reject) => {
      http.get(url, { agent }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve());
      }).on('error', reject);
    });
  process.stdin.on('end', () => (stop = true));
  process.stdin.resume();
  await get(); // connect
  process.stdout.write('ready\n');
  while (!stop) {
    const a = performance.now();
    await get();
    ms.push(performance.now() - a);
    await new Promise((r) => setTimeout(r, every));
  }
  agent.destroy();
  process.stdout.write(JSON.stringify({ ms }) + '\n');
  process.exit(0);
}
