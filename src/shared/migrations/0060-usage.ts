// Request log and spend in shared mode (src/usage/request-log-pg.ts, spend-pg.ts): one log and one spend book for
// the whole fleet. Times are epoch milliseconds of the nodes' clocks; days are UTC YYYY-MM-DD.
export const sql = `
create table request_log (
  id bigserial primary key,
  key_id text not null,
  time bigint not null,
  entry jsonb not null
);
create index request_log_key_time on request_log (key_id, time desc, id desc);
create index request_log_time on request_log (time);

create table spend (
  scope text not null check (scope in ('key', 'tenant')),
  id text not null,
  day text not null,
  jobs int not null,
  cost double precision not null,
  by_family jsonb not null,
  primary key (scope, id, day)
);
`;
