// e-KYC verification audit records (api/ekyc.ts writes one per verification): masked values only, no images.
// The interface and its embedded LMDB implementation; verifications-pg.ts is the shared-mode one (start.ts picks).
import type { Store } from './env.js';
import type { IdCardType } from '../tasks/ekyc-verify-ocr.js';

export interface VerificationRecord {
  id: string;
  at: string;
  keyId?: string;
  idCardType: IdCardType;
  overallPassed: boolean;
  failureReasons: string[];
  ocr: { nameMasked: string; birthYear: string; idNumberMasked: string; confidence: number; mrzValid?: boolean };
  faceMatch: { similarity: number; threshold: number; passed: boolean; idFaceDetected: boolean; selfieFaceDetected: boolean };
  liveness: { score: number; threshold: number; passed: boolean; faceDetected: boolean };
  processingTimeMs: number;
}

export interface VerificationStore {
  put(record: VerificationRecord): Promise<void>;
  get(id: string): Promise<VerificationRecord | undefined>;
}

export class LmdbVerificationStore implements VerificationStore {
  constructor(private readonly store: Store) {}
  private get db() {
    return this.store.db<VerificationRecord, string>('ekyc-verifications');
  }
  async put(record: VerificationRecord): Promise<void> {
    await this.db.put(record.id, record);
  }
  async get(id: string): Promise<VerificationRecord | undefined> {
    return this.db.get(id);
  }
}
