// Result blobs of shared mode (src/store/blobs-pg.ts): bytea, not large objects (see blobs-pg.ts for why).
export const sql = `
create table blobs (
  id text primary key,
  content_type text not null,
  size integer not null,
  created_at bigint not null,
  expires_at bigint,
  job_id text,
  bytes bytea not null
);
-- results are PNG/JPEG/WebP, already compressed: store them out of line without trying pglz on them
alter table blobs alter column bytes set storage external;
create index blobs_expiry on blobs (expires_at) where expires_at is not null;
`;
