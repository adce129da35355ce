// Studio result URLs carry the job's access key (spec: /api/v1/studio/image?key=<accessKey>). The job engine stores
// only the key's hash, so the key is kept sealed (AES-256-GCM with a server key kept in LMDB) in the job's meta to
// rebuild the URL on later status polls made with the API key.
import crypto from 'node:crypto';
import type { Services } from '../services.js';
import { ApiError } from '../server/errors.js';

const SLOT = 'studioSealKey';

export async function initSeal(services: Services): Promise<void> {
  if (services.ext[SLOT]) return;
  const db = services.store.db<Buffer, string>('studio-secrets', { encoding: 'binary' });
  let k = db.get('seal-key');
  if (!k) {
    await db.put('seal-key', crypto.randomBytes(32));
    k = db.get('seal-key')!;
  }
  services.ext[SLOT] = Buffer.from(k);
}

function key(services: Services): Buffer {
  const k = services.ext[SLOT] as Buffer | undefined;
  if (!k) throw new ApiError('INTERNAL_ERROR', 'studio module not started');
  return k;
}

export function seal(services: Services, plain: string): string {
  const iv = crypto.randomBytes(12);
  const c = crypto.createCipheriv('aes-256-gcm', key(services), iv);
  const enc = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), enc]).toString('base64url');
}

export function unseal(services: Services, sealed: unknown): string | undefined {
  if (typeof sealed !== 'string') return undefined;
  try {
    const b = Buffer.from(sealed, 'base64url');
    const d = crypto.createDecipheriv('aes-256-gcm', key(services), b.subarray(0, 12));
    d.setAuthTag(b.subarray(12, 28));
    return Buffer.concat([d.update(b.subarray(28)), d.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
