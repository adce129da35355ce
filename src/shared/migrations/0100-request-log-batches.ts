// The shared request log as one row per key and flush (src/usage/request-log-pg.ts): `entries` is the flush's
// entries of that key as the byte slab the node wrote them into (src/usage/entry-slab.ts, the value the embedded
// store keeps per batch), `first_time` / `last_time` the oldest and newest entry's time. One row per request (0060's
// `request_log`: a jsonb row and two b-tree entries each) cost PostgreSQL 12–15 µs of CPU per request, a slab
// 0.9–1.4 µs (bench/request-log-pg-shapes.ts, front24 in bench/RESULTS.md).
// Ids come from request_log's sequence, so a batch and a row of the old table never share an id: the cursor
// (time, id, position) orders both. Rows of `request_log` (written before this migration, or by a node of an older
// release during a rolling upgrade) stay where they are and are read as batches of one entry until retention
// deletes them; the table is not written by this release.
export const sql = `
create table request_log_batch (
  id bigint primary key default nextval('request_log_id_seq'),
  key_id text not null,
  first_time bigint not null,
  last_time bigint not null,
  entries bytea not null,
  check (first_time <= last_time)
);
create index request_log_batch_key_time on request_log_batch (key_id, last_time desc, id desc);
create index request_log_batch_time on request_log_batch (last_time);
`;
