// How many times the reconciler (src/jobs/reconcile.ts) queued a job again after the work queue lost it (Redis lost
// its data, or a node stopped mid-run without the job recorded): bounded, then the job is failed with a reason.
export const sql = `
alter table job_inputs add column requeues int not null default 0;
`;
