// Records of the print/advertising domain, as stored in LMDB (msgpack). Points are integers.

export const AD_MODES = ['none', 'fixed', 'selected'] as const;
export type AdMode = (typeof AD_MODES)[number];

export interface Album {
  id: string;
  name: string;
  /** print setting for advertisers */
  ad_mode: AdMode;
  /** ad_mode fixed: the application whose latest approved version is printed (its advertiser is charged) */
  fixed_application_id?: string;
  /** ad_mode selected: the advertisers taking part, in round-robin order; empty = every active advertiser (creation order) */
  advertiser_ids: string[];
  /** default sheet settings of the album (same shape as the request's settings; the request's values win) */
  settings?: Record<string, unknown>;
  created_at: number;
  updated_at: number;
}

export interface Advertiser {
  id: string;
  name: string;
  /** points deducted per printed ad */
  unit_points: number;
  /** current balance; always equals the sum of its ledger entries */
  balance: number;
  active: boolean;
  /** number of ledger entries written (the last entry's seq) */
  ledger_seq: number;
  created_at: number;
  updated_at: number;
}

export type LedgerKind = 'top_up' | 'adjustment' | 'charge' | 'refund';

export interface LedgerEntry {
  advertiser_id: string;
  seq: number;
  at: number;
  kind: LedgerKind;
  /** signed points */
  delta: number;
  balance_after: number;
  reason: string;
  job_id?: string;
  album_id?: string;
}

export type VersionStatus = 'pending' | 'approved' | 'rejected';

export interface CreativeVersion {
  version: number;
  status: VersionStatus;
  format: 'jpeg' | 'png' | 'webp';
  width: number;
  height: number;
  bytes: number;
  uploaded_at: number;
  decided_at?: number;
  decision_reason?: string;
}

export interface Application {
  id: string;
  advertiser_id: string;
  title: string;
  /** albums this application may run in; empty = any album */
  album_ids: string[];
  versions: CreativeVersion[];
  created_at: number;
  updated_at: number;
}

/** composing: selected (and charged when it carries an ad), sheet not stored yet; printed: sheet stored;
 * refunded: composition failed after the charge and the points went back; failed: composition failed, no ad. */
export type ImpressionStatus = 'composing' | 'printed' | 'refunded' | 'failed';

export interface Impression {
  job_id: string;
  album_id: string;
  at: number;
  status: ImpressionStatus;
  advertiser_id?: string;
  application_id?: string;
  version?: number;
  unit_points: number;
  balance_before?: number;
  balance_after?: number;
  selected_reason: string;
  /** API key that printed */
  key_id?: string;
  /** set once the sheet is stored */
  image?: { width: number; height: number; format: 'jpeg' | 'png'; bytes: number; expires_at: number; request_hash: string; applied: Record<string, boolean> };
  /** advertisers passed over for this print and why (for the operator) */
  skipped?: Array<{ advertiser_id: string; reason: string }>;
}
