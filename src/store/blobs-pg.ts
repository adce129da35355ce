// Result blobs in PostgreSQL (shared mode): one row per blob, the bytes in a bytea column.
// Why bytea and not large objects: our blobs are single result images of a few hundred KB to a few MB, written
// once and read whole. bytea rows are deleted with the row (DELETE … WHERE expires_at <= now, one statement, safe
// on every node at once), go through the normal query path in one round trip and live in the table's TOAST store
// (storage external: no pointless compression of PNG/JPEG). Large objects would need lo_create/lo_write/lo_read in
// a transaction per blob (several round trips), leave orphans unless unlinked by hand (vacuumlo), and pay off only
// for streaming or partial reads of very large files, which we never do. Measured: bench/RESULTS.md (blobs).
import type { Pg } from '../shared/pg.js';
import { asBuffer, type BlobMeta, type BlobStore } from './blobs.js';

interface Row {
  content_type: string;
  size: number;
  created_at: number;
  expires_at: number | null;
  job_id: string | null;
}

const metaOf = (r: Row): BlobMeta => ({
  contentType: r.content_type,
  size: r.size,
  createdAt: r.created_at,
  ...(r.expires_at !== null ? { expiresAt: r.expires_at } : {}),
  ...(r.job_id !== null ? { jobId: r.job_id } : {}),
});

export class PgBlobStore implements BlobStore {
  constructor(private readonly pg: Pg) {}

  async put(id: string, bytes: Buffer | Uint8Array, meta: Omit<BlobMeta, 'size'>): Promise<void> {
    const buf = asBuffer(bytes);
    await this.pg.query(
      `insert into blobs (id, content_type, size, created_at, expires_at, job_id, bytes) values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (id) do update set content_type = excluded.content_type, size = excluded.size, created_at = excluded.created_at,
         expires_at = excluded.expires_at, job_id = excluded.job_id, bytes = excluded.bytes`,
      [id, meta.contentType, buf.length, meta.createdAt, meta.expiresAt ?? null, meta.jobId ?? null, buf],
    );
  }

  async get(id: string): Promise<Buffer | undefined> {
    const r = await this.pg.query<{ bytes: Buffer }>('select bytes from blobs where id = $1', [id]);
    return r.rows[0]?.bytes;
  }

  async getMeta(id: string): Promise<BlobMeta | undefined> {
    const r = await this.pg.query<Row>('select content_type, size, created_at, expires_at, job_id from blobs where id = $1', [id]);
    return r.rows[0] && metaOf(r.rows[0]);
  }

  async read(id: string): Promise<{ bytes: Buffer; meta: BlobMeta } | undefined> {
    const r = await this.pg.query<Row & { bytes: Buffer }>('select content_type, size, created_at, expires_at, job_id, bytes from blobs where id = $1', [id]);
    return r.rows[0] && { bytes: r.rows[0].bytes, meta: metaOf(r.rows[0]) };
  }

  async delete(id: string): Promise<void> {
    await this.pg.query('delete from blobs where id = $1', [id]);
  }

  async sweep(now: number): Promise<number> {
    const r = await this.pg.query('delete from blobs where expires_at <= $1', [now]);
    return r.rowCount ?? 0;
  }
}
