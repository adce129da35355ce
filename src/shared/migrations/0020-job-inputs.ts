// The inputs of queued jobs (shared mode, src/jobs/queue-bullmq.ts): the runner's JSON and byte buffers, sealed with
// the installation key (they may be ID-card images), kept until the job ends so that any node can run it again.
export const sql = `
create table job_inputs (
  job_id text primary key,
  runner text not null,
  sealed bytea not null,
  created_at timestamptz not null default now()
);
create index job_inputs_created on job_inputs (created_at);
`;
