// A data dir with the shared sample imported, built once per machine (under a lock) and copied for each test server.
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';
import { Importer } from '../../src/law/import.js';
import { REPO, shared } from '../helpers/shared.js';

export const SAMPLE = shared('law-corpus', 'sample');
// bump when the store layout or the parsers change
const LAYOUT = 'v6'; // v4: the law in its own environment, <data>/law (law/open.ts lawEnv); v5: the index's side file of long values; v6: the derived name tables stored with the generation

/** A copy of the imported sample in a fresh temp dir, removed when the test process exits. */
export async function sampleDataDir(paths: string[] = [SAMPLE]): Promise<string> {
  const missing = paths.filter((p) => !fs.existsSync(p)).map((p) => path.relative(REPO, p));
  if (missing.length) throw new Error(`needs ${missing.join(', ')} (the shared test data beside the repository), which is absent`);
  const src = path.join(path.dirname(new URL(import.meta.url).pathname), '../../src/law');
  const stamp = fs.readdirSync(src).map((f) => fs.statSync(path.join(src, f)).mtimeMs).join(',');
  const tag = createHash('sha1').update(paths.join('|') + LAYOUT + stamp).digest('hex').slice(0, 16);
  const cache = path.join(os.tmpdir(), `sejong-law-fixture-${tag}`);
  const lock = cache + '.lock';
  for (let i = 0; !fs.existsSync(path.join(cache, 'ready')); i++) {
    try {
      fs.mkdirSync(lock);
    } catch {
      if (i > 1200) throw new Error('timed out waiting for the law fixture lock ' + lock);
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      if (!fs.existsSync(path.join(cache, 'ready'))) {
        fs.rmSync(cache, { recursive: true, force: true });
        const store = new Store(cache);
        const law = openLaw(store);
        law.reload();
        await new Importer(law).run(paths);
        await store.close();
        fs.writeFileSync(path.join(cache, 'ready'), new Date().toISOString());
      }
    } finally {
      fs.rmdirSync(lock);
    }
  }
  // drop fixture builds of older sources (their tag no longer matches)
  for (const f of fs.readdirSync(os.tmpdir())) {
    if (f.startsWith('sejong-law-fixture-') && !f.startsWith(path.basename(cache)) && !f.endsWith('.lock')) {
      try { if (Date.now() - fs.statSync(path.join(os.tmpdir(), f)).mtimeMs > 600_000) fs.rmSync(path.join(os.tmpdir(), f), { recursive: true, force: true }); } catch { /* another process */ }
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-law-test-'));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  for (const f of fs.readdirSync(cache)) if (f !== 'ready') fs.cpSync(path.join(cache, f), path.join(dir, f), { recursive: true });
  return dir;
}

/** the law store in dir opened as another process sees it (a law worker, the server after an import or a sync),
 *  closed at the test's end */
export function reopenedLaw(t: { teardown(fn: () => void): void }, dir: string): ReturnType<typeof openLaw> {
  const store = new Store(dir);
  t.teardown(() => store.close());
  const law = openLaw(store);
  law.reload();
  return law;
}
