// The print/advertising state in shared mode (src/print/). Records are jsonb as the LMDB store keeps them; real
// columns only where a constraint or a lock needs one: the advertiser's balance (row-locked by a print's charge,
// never below zero), the ledger's (advertiser_id, seq), the impression's job_id (one charge per job_id) and the
// composing claim (claimed_by, lease_until) so that a node recovers only prints no live node still composes.
// Times are epoch milliseconds of the nodes' clocks.
export const sql = `
create table print_albums (
  id text primary key,
  rec jsonb not null,
  created_at bigint not null
);
create table print_advertisers (
  id text primary key,
  balance bigint not null check (balance >= 0),
  rec jsonb not null,
  created_at bigint not null
);
create table print_ledger (
  advertiser_id text not null references print_advertisers (id),
  seq int not null,
  delta bigint not null,
  rec jsonb not null,
  primary key (advertiser_id, seq)
);
create table print_applications (
  id text primary key,
  advertiser_id text not null references print_advertisers (id),
  rec jsonb not null
);
create index print_applications_by_advertiser on print_applications (advertiser_id, id);
create table print_creatives (
  application_id text not null references print_applications (id),
  version int not null,
  bytes bytea not null,
  primary key (application_id, version)
);
create table print_impressions (
  job_id text primary key,
  album_id text not null,
  advertiser_id text,
  at bigint not null,
  status text not null check (status in ('composing', 'printed', 'refunded', 'failed')),
  rec jsonb not null,
  claimed_by text,
  lease_until bigint
);
create index print_impressions_by_time on print_impressions (at, job_id);
create index print_impressions_by_album on print_impressions (album_id, at, job_id);
create index print_impressions_by_advertiser on print_impressions (advertiser_id, at, job_id) where advertiser_id is not null;
create index print_impressions_composing on print_impressions (lease_until) where status = 'composing';
create table print_cursors (
  album_id text primary key,
  advertiser_id text not null
);
`;
