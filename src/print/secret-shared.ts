// The print signing secret (derives result-image keys) shared by every node of a fleet: one row of the
// installation table. The first node to start creates it (INSERT … ON CONFLICT DO NOTHING); every node then reads
// the row back, so all nodes sign and verify result URLs with the same key.
import crypto from 'node:crypto';
import type { Pg } from '../shared/pg.js';
import { installationValue } from '../shared/installation.js';

const NAME = 'print-image-key-secret';

export async function sharedPrintSecret(pg: Pg): Promise<Buffer> {
  const v = await installationValue(pg, NAME, () => crypto.randomBytes(32));
  if (v.length !== 32) throw new Error(`installation row ${NAME} does not hold a 32-byte secret`);
  return v;
}
