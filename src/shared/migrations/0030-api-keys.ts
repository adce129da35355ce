// API keys of shared mode: the record as JSON, looked up by the SHA-256 of the clear key (never stored).
export const sql = `
create table api_keys (
  id text primary key,
  hash text not null unique,
  rec jsonb not null,
  updated_at timestamptz not null default now()
);
`;
