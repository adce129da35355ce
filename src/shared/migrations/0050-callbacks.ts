// The completion-callback outbox (src/providers/callback-repo-pg.ts). Times are epoch milliseconds of the
// nodes' clocks. A row is claimed for one attempt by one node (claimed_by, lease_until); a node that dies
// mid-attempt leaves the lease to run out, and any node takes the row again.
export const sql = `
create table callbacks (
  id text primary key,
  job_id text not null,
  url text not null,
  type text not null,
  state text not null check (state in ('waiting', 'pending', 'delivered', 'failed')),
  sealed_meta bytea,
  body text,
  created_at bigint not null,
  armed_at bigint,
  give_up_at bigint,
  next_at bigint,
  attempts int not null default 0,
  last_status int,
  last_error text,
  done_at bigint,
  claimed_by text,
  lease_until bigint
);
create index callbacks_by_job on callbacks (job_id, created_at);
create index callbacks_due on callbacks (next_at) where state = 'pending';
create index callbacks_waiting on callbacks (created_at) where state = 'waiting';
create index callbacks_done on callbacks (done_at) where state in ('delivered', 'failed');
`;
