// --help on every command prints its help, exits 0 and does nothing else (no store opened, no import, no sync).
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/sejong.js', import.meta.url));

const cases: Array<[string[], RegExp]> = [
  [['--help'], /Commands:[\s\S]*serve[\s\S]*keys[\s\S]*law[\s\S]*docs tables/],
  [['serve', '--help'], /Usage: sejong serve/],
  [['keys', '--help'], /Usage: sejong keys/],
  [['keys', 'create', '--help'], /Usage: sejong keys/],
  [['law', '--help'], /sejong law import/],
  [['law', 'import', '--help'], /sejong law import/],
  [['law', 'import', 'nowhere', '--help'], /sejong law import/],
  [['law', 'sync', '--help'], /sejong law sync/],
  [['law', 'stats', '-h'], /sejong law stats/],
  [['docs', '--help'], /Usage: sejong docs tables/],
];

for (const [args, help] of cases) {
  t.test(`sejong ${args.join(' ')}`, async (t) => {
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-help-')), 'data');
    // an unreachable law.go.kr: a sync that ran anyway would fail and exit 1
    const env = { ...process.env, SEJONG_DATA_DIR: dataDir, SEJONG_LAW_OC: 'x', SEJONG_LAW_API_URL: 'http://127.0.0.1:9' };
    const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env, timeout: 60_000 });
    t.equal(r.status, 0, r.stderr);
    t.match(r.stdout, help);
    t.equal(fs.existsSync(dataDir), false, 'no store was opened');
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });
}

// Enumerated from the help texts themselves: every command of the top-level help (and every command of the program
// is listed there), then every subcommand its own help names, each with --help and -h: help on stdout, exit 0,
// nothing else (in-process, with the data dir, a database and law.go.kr all pointing nowhere).
t.test('every command and subcommand the help lists answers --help and -h, and nothing else', async (t) => {
  const { main, COMMANDS } = await import('../../src/main.js');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-help-all-'));
  const dataDir = path.join(root, 'data');
  const saved = { ...process.env };
  Object.assign(process.env, { SEJONG_DATA_DIR: dataDir, SEJONG_LAW_OC: 'x', SEJONG_LAW_API_URL: 'http://127.0.0.1:9', SEJONG_DATABASE_URL: 'postgres://127.0.0.1:9/none', SEJONG_REDIS_URL: 'redis://127.0.0.1:9' });
  t.teardown(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    fs.rmSync(root, { recursive: true, force: true });
  });
  const capture = async (args: string[]) => {
    let out = '';
    let err = '';
    const w = process.stdout.write.bind(process.stdout);
    const e = process.stderr.write.bind(process.stderr);
    (process.stdout as { write: unknown }).write = (s: string) => ((out += s), true);
    (process.stderr as { write: unknown }).write = (s: string) => ((err += s), true);
    try {
      return { code: await main(args), out, err };
    } finally {
      (process.stdout as { write: unknown }).write = w;
      (process.stderr as { write: unknown }).write = e;
    }
  };
  const top = await capture(['--help']);
  t.equal(top.code, 0);
  const listed = top.out.split('Commands:')[1]!.split('\n\n')[0]!.split('\n').map((l) => l.trim().split(/\s+/)[0]).filter(Boolean);
  t.same([...listed].sort(), Object.keys(COMMANDS).sort(), 'the top-level help lists every command, and only those');
  t.same((await capture(['-h'])).out, top.out);
  t.same((await capture(['help'])).out, top.out);

  const tried: string[] = [];
  for (const cmd of listed) {
    const help = await capture([cmd, '--help']);
    t.equal(help.code, 0, `${cmd} --help exits 0`);
    t.match(help.out, new RegExp(`sejong ${cmd}`), `${cmd} --help prints its usage`);
    // subcommands: "Usage: sejong keys <create|list|…>", or lines "sejong law import …", "sejong docs tables"
    const subs = new Set<string>();
    for (const m of help.out.matchAll(new RegExp(`sejong ${cmd} <([a-z|]+)>`, 'g'))) for (const s of m[1]!.split('|')) subs.add(s);
    for (const m of help.out.matchAll(new RegExp(`sejong ${cmd} ([a-z][a-z-]*)`, 'g'))) subs.add(m[1]!);
    if (cmd === 'law') subs.add('import --git');
    for (const sub of ['', ...subs]) {
      for (const flag of ['--help', '-h']) {
        const args = [cmd, ...sub.split(' ').filter(Boolean), flag];
        const r = await capture(args);
        tried.push(args.join(' '));
        t.equal(r.code, 0, `sejong ${args.join(' ')} exits 0 (${r.err.trim()})`);
        t.equal(r.out, help.out, `sejong ${args.join(' ')} prints the ${cmd} help`);
      }
    }
  }
  t.equal(fs.existsSync(dataDir), false, 'no store was opened by any of them');
  for (const c of ['keys create --help', 'keys list -h', 'keys update --help', 'keys revoke -h', 'law import --help', 'law sync -h', 'law stats --help', 'law import --git -h', 'db migrate -h', 'db status --help', 'docs tables -h', 'serve --help']) t.ok(tried.includes(c), `tried: sejong ${c}`);
});
