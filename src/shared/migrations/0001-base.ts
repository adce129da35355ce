// The base of the shared schema: the installation record (one row per setting the fleet must agree on).
export const sql = `
create table installation (
  name text primary key,
  value bytea not null,
  created_at timestamptz not null default now()
);
`;
