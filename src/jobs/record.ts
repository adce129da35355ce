// The stored shape of a job (both repositories keep exactly this; the engine owns its rules).
import type { Family } from './families.js';

export type JobStatus = 'processing' | 'completed' | 'failed';

export interface JobRecord {
  id: string;
  family: Family;
  owner?: string; // API key id
  accessKeyHash: string;
  /** the access key sealed with the installation key, to rebuild result URLs (see sealed-keys.ts) */
  sealedAccessKey?: string;
  status: JobStatus;
  /** 0..1 */
  progress: number;
  createdAt: number;
  updatedAt: number;
  completedAt?: number;
  ttlMs: number;
  /** set when the job finishes: completedAt + ttlMs */
  expiresAt?: number;
  /** expired: blobs deleted, result dropped, kept to answer 410 */
  tombstone?: boolean;
  estimatedCost?: number;
  actualCost?: number;
  /** family data set at creation (no personal data, no image bytes) */
  meta: Record<string, unknown>;
  /** JSON result of a completed job (as read: stored sealed, see sealedResult) */
  result?: Record<string, unknown>;
  /** the result as stored: sealed with the installation key (it may hold personal data), dropped at expiry */
  sealedResult?: Uint8Array;
  /** blob ids by name (e.g. { image: 'txt2img_…/image' }) */
  blobs?: Record<string, string>;
  /** the blobs are sealed with the installation key (ID card images) */
  sealedBlobs?: boolean;
  /** field: the request field a refusal names (as in the error shape of a direct answer) */
  error?: { code: string; message: string; field?: string };
  tenant?: string;
}
