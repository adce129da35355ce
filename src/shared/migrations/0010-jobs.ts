// Job records of shared mode (src/jobs/repo-pg.ts). The record itself is the msgpack of JobRecord (the same shape
// the embedded store keeps, result sealed); the columns beside it are the indexes the engine queries by.
export const sql = `
create table jobs (
  id text primary key,
  family text not null,
  owner text,
  access_key_hash text not null unique,
  status text not null check (status in ('processing', 'completed', 'failed')),
  created_at bigint not null,
  updated_at bigint not null,
  -- when the sweeper must next look at it: expiresAt of a finished job, the forget time of a tombstone
  sweep_at bigint,
  record bytea not null
);
create index jobs_by_owner on jobs (owner, created_at desc, id desc) where owner is not null;
create index jobs_processing on jobs (updated_at) where status = 'processing';
create index jobs_sweep on jobs (sweep_at) where sweep_at is not null;
`;
