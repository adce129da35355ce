// `sejong db migrate|status`: the shared-mode schema (PostgreSQL named by SEJONG_DATABASE_URL).
import { loadConfig } from '../config.js';
import { Pg } from '../shared/pg.js';
import { loadMigrations, migrate } from '../shared/migrate.js';
import { Progress } from '../domain/progress.js';

const HELP = `Usage: sejong db <migrate|status>

  migrate   apply every schema migration not yet applied (under an advisory lock; safe to run on many nodes)
  status    list the migrations and whether each is applied

Needs SEJONG_DATABASE_URL (shared mode). Every node also applies missing migrations when it starts.
`;

export async function run(args: string[]): Promise<number> {
  const [sub] = args;
  if (!sub || args.includes('--help') || args.includes('-h')) {
    process.stdout.write(HELP);
    return sub ? 0 : 2;
  }
  if (sub !== 'migrate' && sub !== 'status') {
    process.stderr.write(`Unknown subcommand "${sub}".\n\n${HELP}`);
    return 2;
  }
  const config = loadConfig();
  if (!config.databaseUrl) {
    process.stderr.write('sejong db needs SEJONG_DATABASE_URL (shared mode); the embedded LMDB mode has no schema to migrate\n');
    return 78;
  }
  const db = await Pg.connect(config.databaseUrl, config.engineConnectMs, 2);
  try {
    if (sub === 'migrate') {
      const progress = new Progress('db migrate').start();
      let applied;
      try {
        applied = await migrate(db, undefined, progress.update);
      } finally {
        progress.stop();
      }
      process.stdout.write(JSON.stringify({ applied: applied.map((m) => `${m.id}-${m.name}`) }) + '\n');
      return 0;
    }
    const rows = (await db.query<{ id: number }>('select id from schema_migrations').catch(() => ({ rows: [] as Array<{ id: number }> }))).rows;
    const done = new Set(rows.map((r) => r.id));
    for (const m of await loadMigrations()) process.stdout.write(`${String(m.id).padStart(4, '0')}-${m.name}\t${done.has(m.id) ? 'applied' : 'pending'}\n`);
    return 0;
  } finally {
    await db.close();
  }
}
