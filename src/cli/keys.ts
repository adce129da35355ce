// `sejong keys create|list|update|revoke`: the admin API's key management, straight on the store.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openEngines, closeEngines } from '../shared/engines.js';
import { KeyStore, type Keys } from '../auth/keys.js';
import { SharedKeyStore } from '../auth/keys-shared.js';

const HELP = `Usage: sejong keys <create|list|update|revoke> [options]

  create --name NAME [--per-minute N] [--per-day N] [--admin]   prints the new key once (JSON)
  list                                                          all keys (no secrets)
  update ID [--name NAME] [--per-minute N] [--per-day N]        change name or limits
  revoke ID                                                     revoked keys get 401 at once

Works on the store in SEJONG_DATA_DIR (LMDB allows the server and the CLI at once), or in shared mode
(SEJONG_DATABASE_URL + SEJONG_REDIS_URL) on PostgreSQL, announcing the change to every node through Redis.
`;

const posInt = (v: string | undefined, name: string): number | undefined => {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new Error(`--${name} expects a positive integer, got "${v}"`);
  return Number(v);
};

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || args.includes('--help') || args.includes('-h')) {
    process.stdout.write(HELP);
    return sub ? 0 : 2;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { name: { type: 'string' }, 'per-minute': { type: 'string' }, 'per-day': { type: 'string' }, admin: { type: 'boolean' } },
    });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const config = loadConfig();
  // the same store the server uses: LMDB in SEJONG_DATA_DIR, or PostgreSQL (and Redis to tell the nodes) in shared mode
  const engines = await openEngines(config);
  const keys: Keys = engines.mode === 'shared' ? await SharedKeyStore.open(engines.pg, engines.redis, 3_600_000) : new KeyStore(engines.store);
  const out = (x: unknown) => process.stdout.write(JSON.stringify(x, null, 2) + '\n');
  try {
    switch (sub) {
      case 'create': {
        if (!values.name) throw new Error('--name is required');
        const { record, key } = await keys.create({
          name: values.name, admin: values.admin, now: Date.now(),
          rateLimitPerMinute: posInt(values['per-minute'], 'per-minute'), rateLimitPerDay: posInt(values['per-day'], 'per-day'),
        });
        out({ ...record, key, rateLimitPerMinute: record.rateLimitPerMinute ?? config.rateLimitPerMinute, rateLimitPerDay: record.rateLimitPerDay ?? config.rateLimitPerDay });
        return 0;
      }
      case 'list':
        out(keys.list());
        return 0;
      case 'update': {
        const id = positionals[0];
        if (!id) throw new Error('update needs a key id');
        const r = await keys.update(id, {
          ...(values.name ? { name: values.name } : {}),
          ...(values['per-minute'] ? { rateLimitPerMinute: posInt(values['per-minute'], 'per-minute') } : {}),
          ...(values['per-day'] ? { rateLimitPerDay: posInt(values['per-day'], 'per-day') } : {}),
        });
        if (!r) throw new Error(`no active key ${id}`);
        out(r);
        return 0;
      }
      case 'revoke': {
        const id = positionals[0];
        if (!id) throw new Error('revoke needs a key id');
        const r = await keys.revoke(id, Date.now());
        if (!r) throw new Error(`no key ${id}`);
        out(r);
        return 0;
      }
      default:
        process.stderr.write(`Unknown keys command "${sub}".\n\n${HELP}`);
        return 2;
    }
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 1;
  } finally {
    keys.close?.();
    await closeEngines(engines);
  }
}
