// One charge per print attempt, enforced by the database (src/print/store-pg.ts), not only by the advisory lock
// the charge takes on its job_id: a print's ledger rows carry (job_id, kind, attempt) as real columns with a unique
// index, so a job_id is charged at most once and refunded at most once per attempt, whatever the code path. The
// impression counts its attempts: a print refunded (its composition failed) and sent again is attempt 2, charged
// anew. Rows written before this migration are numbered in ledger order.
export const sql = `
alter table print_ledger add column job_id text, add column kind text, add column attempt int;
update print_ledger set job_id = rec->>'job_id', kind = rec->>'kind';
update print_ledger l set attempt = n.a
  from (select advertiser_id, seq, row_number() over (partition by job_id, kind order by seq, advertiser_id) as a
        from print_ledger where job_id is not null) n
  where l.advertiser_id = n.advertiser_id and l.seq = n.seq;
create unique index print_ledger_once on print_ledger (job_id, kind, attempt) where job_id is not null;

alter table print_impressions add column attempt int not null default 1;
update print_impressions i set attempt = m.a
  from (select job_id, max(attempt) as a from print_ledger where kind = 'charge' group by job_id) m
  where i.job_id = m.job_id;
`;
