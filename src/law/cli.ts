// `sejong law import <path>…`, `sejong law sync`, `sejong law --help`.
import fs from 'node:fs';
import { loadConfig } from '../config.js';
import { Progress } from '../domain/progress.js';
import { systemClock } from '../clock.js';
import { Store } from '../store/env.js';
import { openLaw } from './open.js';
import { Importer } from './import.js';

const HELP = `sejong law: the statute corpus of the legal-information server (MCP tools at /mcp/sse)

  sejong law import <path>…   load corpus parts into the store at SEJONG_DATA_DIR; each path may be
                              a legalize-kr statute tree (directory, e.g. sample/statutes, or full/statutes.tar.gz),
                              a regulate-kr admin-rule tree (sample/admrul, full/admrul.tar.gz), the history
                              folder (sample/history), the changelog (sample/changelog), law.go.kr API responses
                              (sample/lawgo-api) or the whole sample folder. The kind is detected per file.
                              Re-import is idempotent. The search index is rebuilt at the end.
  sejong law import --git <repo> [--limit N]
                              every version of every statute from a legalize-kr git clone (the git command, no
                              network); a re-run reads only the commits after the last one imported
  sejong law sync [--since YYYYMMDD]
                              pull statutes promulgated since the last sync from the law.go.kr Open API
                              (SEJONG_LAW_OC, SEJONG_LAW_REFERER, SEJONG_LAW_API_URL); also runs daily at
                              SEJONG_LAW_SYNC_HOUR inside the server
  sejong law stats            counts and dates of the stored corpus
  sejong law reindex          rebuild the search index and what it derives from the corpus (declared short names,
                              spelled-name stems) from the stored documents, without importing: once for a store
                              built before these were stored (docs/law.md), whose law threads otherwise derive them
                              at every open
  sejong law move-env         a data dir of the older layout (the law inside the main data.mdb): move the law into
                              its own environment, <data>/law with 1 KiB pages (less of the file stays mapped in
                              the server's RSS; docs/law.md), copying the stored bytes (no re-import). Server stopped.
  sejong law --help           this text

Stop the server first or run the command against its data dir while it is idle (LMDB allows concurrent
readers); a running server sees the store's info record change within 15 s and reloads the catalogue and index.
`;

export async function run(args: string[]): Promise<number> {
  const [cmd, ...rest] = args;
  // --help anywhere prints the help and does nothing else (never an import or a sync)
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help' || rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(HELP);
    return cmd ? 0 : 2;
  }
  const config = loadConfig();
  if (cmd === 'import' && rest.includes('--git')) {
    const { runGitImport } = await import('./history/cli.js');
    return runGitImport(config, rest);
  }
  if (cmd === 'import') {
    const paths = rest.filter((a) => !a.startsWith('-'));
    if (!paths.length) { process.stderr.write('sejong law import: give at least one path (see sejong law --help)\n'); return 2; }
    const missing = paths.filter((p) => !fs.existsSync(p));
    if (missing.length) { process.stderr.write(`sejong law import: not found: ${missing.join(', ')}\n`); return 2; }
    const store = new Store(config.dataPath);
    const progress = new Progress('law import').start();
    try {
      const law = openLaw(store);
      law.reload();
      const st = await new Importer(law, progress.update).run(paths);
      progress.stop();
      process.stdout.write(
        `imported in ${(st.ms / 1000).toFixed(1)} s: ${st.statutes} statutes, ${st.admin_rules} administrative rules, ${st.articles} articles, ` +
        `${st.annexes} annex files, ${st.xml_laws} law.go.kr XML, ${st.versions} history versions, ${st.revisions} revisions, ${st.changelog_entries} changelog entries` +
        `${st.index ? `; index: ${st.index.docs} articles, ${st.index.terms} terms, ${st.index.postings} postings in ${(st.index.ms / 1000).toFixed(1)} s` : ''}` +
        `; store now holds ${law.catalog.length} documents; skipped ${st.skipped}\n`,
      );
      for (const e of st.errors.slice(0, 20)) process.stderr.write(`warning: ${e}\n`);
      if (st.errors.length > 20) process.stderr.write(`… and ${st.errors.length - 20} more warnings\n`);
      return 0;
    } finally {
      progress.stop();
      await store.close();
    }
  }
  if (cmd === 'sync') {
    const i = rest.indexOf('--since');
    const since = i >= 0 ? rest[i + 1] : undefined;
    if (since !== undefined && !/^\d{8}$/.test(since)) { process.stderr.write('sejong law sync: --since takes a date YYYYMMDD\n'); return 2; }
    const store = new Store(config.dataPath);
    const progress = new Progress('law sync').start();
    try {
      const law = openLaw(store);
      law.reload();
      const { syncLaw } = await import('./sync.js');
      const r = await syncLaw(config, law, { now: systemClock.now(), since, progress: (m) => progress.note(m), step: progress.update });
      progress.stop();
      process.stdout.write(`sync ${r.since}…${r.until}: ${r.listed} listed, ${r.added} added, ${r.updated} updated, ${r.unchanged} unchanged in ${(r.ms / 1000).toFixed(1)} s\n`);
      for (const e of r.errors) process.stderr.write(`error: ${e}\n`);
      return r.errors.length ? 1 : 0;
    } catch (e) {
      progress.stop();
      process.stderr.write(`sejong law sync failed: ${(e as Error).message}\n`);
      return 1;
    } finally {
      progress.stop();
      await store.close();
    }
  }
  if (cmd === 'move-env') {
    const store = new Store(config.dataPath);
    try {
      const { moveLawEnv } = await import('./move-env.js');
      const r = await moveLawEnv(store, (name, n) => process.stdout.write(`${name}: ${n} entries\n`));
      process.stdout.write(`moved ${r.databases.length} databases, ${r.entries} entries, into ${config.dataPath}/law\n`);
      return 0;
    } catch (e) {
      process.stderr.write(`sejong law move-env: ${(e as Error).message}\n`);
      return 1;
    } finally {
      await store.close();
    }
  }
  if (cmd === 'reindex') {
    const store = new Store(config.dataPath);
    const progress = new Progress('law reindex').start();
    try {
      const law = openLaw(store);
      law.reload();
      const st = await law.rebuildIndex((d, n) => progress.update('index', d, n));
      law.reload();
      progress.stop();
      process.stdout.write(`reindexed: generation ${law.indexGen()}, ${st.docs} articles, ${st.terms} terms in ${(st.ms / 1000).toFixed(1)} s; ${law.derivedNames()?.declared.length ?? 0} declared short names\n`);
      return 0;
    } finally {
      progress.stop();
      await store.close();
    }
  }
  if (cmd === 'stats') {
    const store = new Store(config.dataPath);
    try {
      const law = openLaw(store);
      law.reload();
      const statutes = law.catalog.filter((d) => d.entity_type === 'law').length;
      process.stdout.write(JSON.stringify({ statutes, admin_rules: law.catalog.length - statutes, articles: law.catalog.reduce((s, d) => s + d.article_count, 0), indexed_articles: law.indexedArticles(), ...law.info() }, null, 2) + '\n');
      return 0;
    } finally {
      await store.close();
    }
  }
  process.stderr.write(`sejong law: unknown command "${cmd}" (see sejong law --help)\n`);
  return 2;
}
