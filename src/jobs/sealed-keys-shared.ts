// Shared mode: every node must seal and unseal with the same key (a job accepted on node A is run on node B, a
// callback armed on A is delivered by B). The key comes from SEJONG_SEAL_KEY_FILE when the operator ships one to
// every node (kept apart from the database: a database backup alone then holds nothing readable); otherwise the
// first node generates it and keeps it in PostgreSQL's installation table, where every node reads it (simpler to
// run; the database then guards the key too). docs/privacy.md and docs/scale-out.md.
import crypto from 'node:crypto';
import type { Pg } from '../shared/pg.js';
import { installationValue } from '../shared/installation.js';
import { keyFromFile, Sealer } from './sealed-keys.js';

export async function sharedSealer(pg: Pg, keyFile: string): Promise<Sealer> {
  if (keyFile) return new Sealer(keyFromFile(keyFile));
  const key = await installationValue(pg, 'seal-key', () => crypto.randomBytes(32));
  if (key.length !== 32) throw new Error('the installation table holds no 32-byte seal-key');
  return new Sealer(key);
}
