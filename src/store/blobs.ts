// Binary result storage (images), with content type and expiry metadata beside the bytes: the interface, and its
// embedded implementation in LMDB. The PostgreSQL one (shared mode) is blobs-pg.ts; start.ts picks one.
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

export interface BlobStore {
  put(id: string, bytes: Buffer | Uint8Array, meta: Omit<BlobMeta, 'size'>): Promise<void>;
  /** The bytes, or undefined when unknown or deleted. Returns a copy safe to keep. */
  get(id: string): Promise<Buffer | undefined>;
  getMeta(id: string): Promise<BlobMeta | undefined>;
  /** Bytes and metadata in one read (one round trip in shared mode). */
  read(id: string): Promise<{ bytes: Buffer; meta: BlobMeta } | undefined>;
  delete(id: string): Promise<void>;
  /** Delete every blob whose expiresAt has passed; returns how many. */
  sweep(now: number): Promise<number>;
}

export const asBuffer = (bytes: Buffer | Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

export class LmdbBlobStore implements BlobStore {
  private readonly data: Database<Buffer, string>;
  private readonly meta: Database<BlobMeta, string>;
  constructor(store: Store) {
    this.data = store.db<Buffer, string>('blobs', { encoding: 'binary' });
    this.meta = store.db<BlobMeta, string>('blob-meta', { cache: true });
  }

  async put(id: string, bytes: Buffer | Uint8Array, meta: Omit<BlobMeta, 'size'>): Promise<void> {
    const buf = asBuffer(bytes);
    await this.data.transaction(() => {
      this.data.put(id, buf);
      this.meta.put(id, { ...meta, size: buf.length });
    });
  }

  async get(id: string): Promise<Buffer | undefined> {
    return this.data.get(id);
  }

  async getMeta(id: string): Promise<BlobMeta | undefined> {
    return this.meta.get(id);
  }

  async read(id: string): Promise<{ bytes: Buffer; meta: BlobMeta } | undefined> {
    const bytes = this.data.get(id);
    const meta = this.meta.get(id);
    return bytes && meta ? { bytes, meta } : undefined;
  }

  async delete(id: string): Promise<void> {
    await this.data.transaction(() => {
      this.data.remove(id);
      this.meta.remove(id);
    });
  }

  async sweep(now: number): Promise<number> {
    const dead: string[] = [];
    for (const { key, value } of this.meta.getRange()) if (value.expiresAt !== undefined && value.expiresAt <= now) dead.push(key);
    for (const id of dead) await this.delete(id);
    return dead.length;
  }
}
