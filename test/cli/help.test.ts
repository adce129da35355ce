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
