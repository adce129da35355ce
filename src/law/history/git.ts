// Reading a git repository with the `git` command: a streamed `git log` of the commits touching kr/ and a
// `git cat-file --batch` process for the file versions (requests pipelined, answers in order). No network.
import { spawn, execFileSync, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface GitCommit {
  commit: string;
  subject: string;
  body: string;
  /** [status letter, path, blob id of the new content (40 hex; zeros when deleted)] of every changed file */
  files: Array<[string, string, string]>;
}

const RS = 0x1e;

/**
 * Commits touching `paths` after `since` (exclusive; null = from the first) up to `head`, oldest first, each with its
 * changed files and their blob ids. `git rev-list --reverse` (no path filter: fast) feeds `git diff-tree --stdin`,
 * which prints only the commits that change something under `paths`, as it goes (`git log --reverse -- kr/` would
 * first walk and diff the whole history: 18 s before the first commit).
 */
export async function* gitLog(repo: string, since: string | null, head = 'HEAD', paths: string[] = ['kr/']): AsyncGenerator<GitCommit> {
  const rl = spawn('git', ['-C', repo, 'rev-list', '--reverse', since ? `${since}..${head}` : head], { stdio: ['ignore', 'pipe', 'pipe'] });
  const dt = spawn('git', ['-C', repo, '-c', 'core.quotepath=off', 'diff-tree', '--stdin', '-r', '--root', '--no-renames', '-z', '--raw', '--no-abbrev', '--format=%x1e%H%x1f%s%x1f%b%x1f', '--', ...paths], { stdio: ['pipe', 'pipe', 'pipe'] });
  rl.stdout.pipe(dt.stdin);
  dt.stdin.on('error', () => {}); // diff-tree ended first (stopped early)
  let err = '';
  rl.stderr.on('data', (b: Buffer) => { err += b.toString(); });
  dt.stderr.on('data', (b: Buffer) => { err += b.toString(); });
  const exited = (p: typeof rl | typeof dt) => new Promise<number>((res) => p.on('close', (c) => res(c ?? 1)));
  const done = Promise.all([exited(rl), exited(dt)]);
  let finished = false;
  try {
    let buf: Buffer = Buffer.alloc(0);
    for await (const chunk of dt.stdout as AsyncIterable<Buffer>) {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      let start = buf.indexOf(RS);
      for (;;) {
        const next = start < 0 ? -1 : buf.indexOf(RS, start + 1);
        if (next < 0) break;
        yield parseRecord(buf.subarray(start + 1, next).toString('utf8'));
        start = next;
      }
      if (start > 0) buf = buf.subarray(start);
    }
    if (buf.length && buf[0] === RS) yield parseRecord(buf.subarray(1).toString('utf8'));
    finished = true;
  } finally {
    if (!finished) { rl.kill(); dt.kill(); } // the reader stopped early (--limit)
  }
  const [c1, c2] = await done;
  if (c1 !== 0 || c2 !== 0) throw new Error(`git rev-list | git diff-tree failed (${c1}, ${c2}): ${err.trim().slice(0, 300)}`);
}

function parseRecord(s: string): GitCommit {
  const [commit = '', subject = '', body = '', rest = ''] = s.split('\x1f');
  // --raw -z: ":<old mode> <new mode> <old blob> <new blob> <status>\0<path>\0" per file
  const toks = rest.split('\0').map((t) => t.trim()).filter(Boolean);
  const files: Array<[string, string, string]> = [];
  for (let i = 0; i + 1 < toks.length; i++) {
    if (!toks[i]!.startsWith(':')) continue;
    const f = toks[i]!.slice(1).split(' ');
    files.push([f[4] ?? '', toks[i + 1]!, f[3] ?? '']);
    i++;
  }
  return { commit: commit.trim(), subject: subject.trim(), body, files };
}

/** `공포일자: 2026-06-05` lines of a commit body as a map. */
export function bodyFields(body: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of body.split('\n')) {
    const m = /^([^\s:]+):\s*(.*?)\s*$/.exec(line);
    if (m && !m[2]!.startsWith('//') && !/^https?:/.test(m[2]!)) out[m[1]!] = m[2]!;
  }
  return out;
}

export function gitHead(repo: string): string {
  return execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
}

/** One `git cat-file --batch` process; blob(spec) resolves with the object's bytes (null when missing). */
export class CatFile {
  private p: ChildProcessWithoutNullStreams;
  private waiting: Array<{ res: (b: Buffer | null) => void; rej: (e: Error) => void }> = [];
  private buf: Buffer = Buffer.alloc(0);
  private need = -1; // bytes of the current object body (+1 newline) still to collect, -1 = reading a header
  private parts: Buffer[] = [];
  private partLen = 0;
  private failed: Error | null = null;

  constructor(repo: string) {
    this.p = spawn('git', ['-C', repo, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.p.stdout.on('data', (b: Buffer) => this.onData(b));
    this.p.on('close', () => this.fail(new Error('git cat-file ended')));
    this.p.on('error', (e) => this.fail(e));
  }

  blob(spec: string): Promise<Buffer | null> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((res, rej) => {
      this.waiting.push({ res, rej });
      this.p.stdin.write(spec + '\n');
    });
  }

  private fail(e: Error): void {
    this.failed ??= e;
    for (const w of this.waiting.splice(0)) w.rej(e);
  }

  private onData(b: Buffer): void {
    if (this.parts.length) {
      // a large object arrives in many chunks: they are kept as a list and joined once (not copied per chunk)
      this.parts.push(b);
      this.partLen += b.length;
      if (this.partLen < this.need) return;
      b = Buffer.concat(this.parts, this.partLen);
      this.parts = [];
      this.partLen = 0;
    }
    this.buf = this.buf.length ? Buffer.concat([this.buf, b]) : b;
    for (;;) {
      if (this.need < 0) {
        const nl = this.buf.indexOf(10);
        if (nl < 0) return;
        const head = this.buf.subarray(0, nl).toString('utf8');
        this.buf = this.buf.subarray(nl + 1);
        if (head.endsWith(' missing') || head.endsWith(' ambiguous')) { this.waiting.shift()?.res(null); continue; }
        const size = Number(head.split(' ')[2]);
        this.need = size + 1;
      }
      if (this.buf.length < this.need) {
        if (this.buf.length) { this.parts = [this.buf]; this.partLen = this.buf.length; this.buf = Buffer.alloc(0); }
        return;
      }
      const body = this.buf.subarray(0, this.need - 1);
      this.buf = this.buf.subarray(this.need);
      this.need = -1;
      this.waiting.shift()?.res(Buffer.from(body));
    }
  }

  close(): void {
    this.p.stdin.end();
  }
}
