// e-KYC verification audit records of shared mode (src/store/verifications-pg.ts): masked values only, no images.
export const sql = `
create table ekyc_verifications (
  id text primary key,
  key_id text,
  at timestamptz not null,
  record jsonb not null
);
create index ekyc_verifications_by_key on ekyc_verifications (key_id, at) where key_id is not null;
`;
