// Binary result storage (images) in LMDB, with content type and expiry metadata beside the bytes.
import type { Database } from 'lmdb';
import type { Store } from './env.js';

export interface BlobMeta {
  contentType: string;
  size: number;
  createdAt: number;
  /** ms epoch; undefined = kept until deleted */
  expiresAt?: number;
  /** job that owns it, for cleanup */
  jobId?: string;
}

export class BlobStore {
  private readonly data: Database<Buffer, string>;
  private readonly meta: Database<BlobMeta, string>;
  constructor(store: Store) {
    this.data = store.db<Buffer, string>('blobs', { encoding: 'binary' });
    this.meta = store.db<BlobMeta, string>('blob-meta', { cache: true });
  }

  async put(id: string, bytes: Buffer | Uint8Array, meta: Omit<BlobMeta, 'size'>): Promise<void> {
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    await this.data.transaction(() => {
      this.data.put(id, buf);
      this.meta.put(id, { ...meta, size: buf.length });
    });
  }

  /** The bytes, or undefined when unknown or deleted. Returns a copy safe to keep. */
  get(id: string): Buffer | undefined {
    return this.data.get(id);
  }

  getMeta(id: string): BlobMeta | undefined {
    return this.meta.get(id);
  }

  async delete(id: string): Promise<void> {
    await this.data.transaction(() => {
      this.data.remove(id);
      this.meta.remove(id);
    });
  }

  /** Delete every blob whose expiresAt has passed; returns how many. */
  async sweep(now: number): Promise<number> {
    const dead: string[] = [];
    for (const { key, value } of this.meta.getRange()) if (value.expiresAt !== undefined && value.expiresAt <= now) dead.push(key);
    for (const id of dead) await this.delete(id);
    return dead.length;
  }
}
