// Numbered schema migrations for shared mode, applied at start (and by `sejong db migrate`) under a PostgreSQL
// advisory lock, so that nodes starting together apply each one exactly once.
// A migration is a module `migrations/NNNN-name.ts` exporting `sql` (one or more statements); it runs in one
// transaction and is recorded in schema_migrations. Never edit an applied migration: add the next number.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Pg } from './pg.js';

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK = 0x5e_10_96; // pg_advisory_lock key of sejong's migrations

export async function loadMigrations(): Promise<Migration[]> {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const files = fs.readdirSync(dir).filter((f) => /^\d{4}-[a-z0-9-]+\.[tj]s$/.test(f) && f.endsWith(ext)).sort();
  const out: Migration[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as { sql: string };
    out.push({ id: Number(f.slice(0, 4)), name: f.slice(5).replace(/\.[tj]s$/, ''), sql: mod.sql });
  }
  const ids = out.map((m) => m.id);
  if (new Set(ids).size !== ids.length) throw new Error(`two migrations share a number: ${ids.join(', ')}`);
  return out;
}

/** Apply every migration not yet applied; returns the ones applied now (in order). `step` hears where it is
 * (`sejong db migrate` shows it as progress). */
export async function migrate(db: Pg, migrations?: Migration[], step?: (stage: string, done: number, total?: number) => void): Promise<Migration[]> {
  const all = migrations ?? (await loadMigrations());
  const c = await db.pool.connect();
  const applied: Migration[] = [];
  try {
    step?.('waiting for the migration lock', 0);
    await c.query('select pg_advisory_lock($1)', [LOCK]);
    await c.query('create table if not exists schema_migrations (id int primary key, name text not null, applied_at timestamptz not null default now())');
    const done = new Set((await c.query<{ id: number }>('select id from schema_migrations')).rows.map((r) => r.id));
    for (const [i, m] of all.entries()) {
      if (done.has(m.id)) continue;
      step?.(`migration ${String(m.id).padStart(4, '0')}-${m.name}`, i, all.length);
      await c.query('begin');
      try {
        await c.query(m.sql);
        await c.query('insert into schema_migrations (id, name) values ($1, $2)', [m.id, m.name]);
        await c.query('commit');
      } catch (e) {
        await c.query('rollback').catch(() => undefined);
        throw new Error(`migration ${m.id}-${m.name} failed: ${(e as Error).message}`);
      }
      applied.push(m);
    }
    step?.('migrations', all.length, all.length);
  } finally {
    await c.query('select pg_advisory_unlock($1)', [LOCK]).catch(() => undefined);
    c.release();
  }
  return applied;
}
