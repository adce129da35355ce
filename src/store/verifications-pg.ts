// e-KYC verification audit records in PostgreSQL (shared mode): one jsonb row each (migration 0012).
import type { Pg } from '../shared/pg.js';
import type { VerificationRecord, VerificationStore } from './verifications.js';

export class PgVerificationStore implements VerificationStore {
  constructor(private readonly pg: Pg) {}
  async put(r: VerificationRecord): Promise<void> {
    await this.pg.query('insert into ekyc_verifications (id, key_id, at, record) values ($1, $2, $3, $4)', [r.id, r.keyId ?? null, r.at, JSON.stringify(r)]);
  }
  async get(id: string): Promise<VerificationRecord | undefined> {
    const r = await this.pg.query<{ record: VerificationRecord }>('select record from ekyc_verifications where id = $1', [id]);
    return r.rows[0]?.record;
  }
}
