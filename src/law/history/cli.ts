// `sejong law import --git <repo> [--limit N]`.
import fs from 'node:fs';
import type { Config } from '../../config.js';
import { Store } from '../../store/env.js';
import { openLaw } from '../open.js';
import { Progress } from '../../domain/progress.js';
import { GitImporter } from './git-import.js';

export async function runGitImport(config: Config, args: string[]): Promise<number> {
  const i = args.indexOf('--git');
  const repo = args[i + 1];
  const li = args.indexOf('--limit');
  const limit = li >= 0 ? Number(args[li + 1]) : undefined;
  if (!repo || repo.startsWith('-') || !fs.existsSync(repo)) { process.stderr.write(`sejong law import --git: give the path of a legalize-kr git clone (received ${repo ?? 'nothing'})\n`); return 2; }
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) { process.stderr.write('sejong law import --git: --limit takes a positive number of commits\n'); return 2; }
  const store = new Store(config.dataPath);
  const progress = new Progress('law import --git').start();
  try {
    const law = openLaw(store);
    law.reload();
    const st = await new GitImporter(law, progress.update, { limit }).run(repo);
    progress.stop();
    process.stdout.write(`git import ${st.from?.slice(0, 10) ?? 'start'}..${st.to.slice(0, 10)} in ${(st.ms / 1000).toFixed(1)} s: ${st.commits} commits, ${st.versions} versions, ${st.new_texts} new article texts (${st.new_text_bytes} bytes), ${st.docs_updated} current documents updated, skipped ${st.skipped}${st.index ? `; index rebuilt in ${(st.index.ms / 1000).toFixed(1)} s` : ''}\n`);
    for (const e of st.errors.slice(0, 20)) process.stderr.write(`warning: ${e}\n`);
    return 0;
  } catch (e) {
    progress.stop();
    process.stderr.write(`sejong law import --git failed: ${(e as Error).message}\n`);
    return 1;
  } finally {
    progress.stop();
    await store.close();
  }
}
