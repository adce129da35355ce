// Some families must show a result URL that carries the job's access key on every status poll
// (`/api/v1/studio/image?key=<accessKey>`), while the engine stores only the key's hash for checking it.
// The clear key is therefore also kept sealed (AES-256-GCM, a per-installation key in LMDB), readable only here.
import crypto from 'node:crypto';
import type { Store } from '../store/env.js';

export class KeySealer {
  private readonly key: Buffer;
  constructor(store: Store) {
    const db = store.db<Buffer, string>('job-secrets', { encoding: 'binary' });
    let k = db.get('seal-key');
    if (!k) {
      db.putSync('seal-key', crypto.randomBytes(32));
      k = db.get('seal-key')!;
    }
    this.key = Buffer.from(k);
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const c = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const enc = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), enc]).toString('base64url');
  }

  unseal(sealed: unknown): string | undefined {
    if (typeof sealed !== 'string') return undefined;
    try {
      const b = Buffer.from(sealed, 'base64url');
      const d = crypto.createDecipheriv('aes-256-gcm', this.key, b.subarray(0, 12));
      d.setAuthTag(b.subarray(12, 28));
      return Buffer.concat([d.update(b.subarray(28)), d.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
