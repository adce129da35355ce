// The print store's seam: what the print routes (api/composite.ts, api/print-admin.ts) use, one interface for both
// deployments. PrintStore (./store.ts) keeps it in this node's LMDB; PgPrintStore (./store-pg.ts) in the fleet's
// PostgreSQL. Which one runs is chosen once, in ./open.ts. The rules (ad selection, the ledger entry, replay or
// conflict of a job_id, refund or fail) live in ./select.ts and are used by both, so the modes cannot drift.
import type { AdMode, Advertiser, Album, Application, CreativeVersion, Impression, LedgerEntry } from './types.js';

export type SelectOutcome =
  | { kind: 'album_not_found' }
  | { kind: 'conflict'; existing: Impression }
  // claim: this request's hold on a print still composing (the last request to select it holds it); see refund
  | { kind: 'replay'; impression: Impression; claim: string }
  | { kind: 'new'; impression: Impression; claim: string };

export interface SelectRequest {
  job_id: string;
  album_id: string;
  at: number;
  key_id?: string;
  /** false when the request turned the ad off (settings.ad.show false) */
  want_ad: boolean;
}

export interface ImpressionQuery {
  album_id?: string;
  advertiser_id?: string;
  /** ms epoch, inclusive */
  from?: number;
  /** ms epoch, exclusive */
  to?: number;
  limit: number;
  cursor?: string;
}

export type CreativeInput = { bytes: Buffer; format: CreativeVersion['format']; width: number; height: number };
export type AlbumInput = { id?: string; name: string; ad_mode: AdMode; fixed_application_id?: string; advertiser_ids?: string[]; settings?: Record<string, unknown> };
export type AlbumPatch = Partial<Pick<Album, 'name' | 'ad_mode' | 'fixed_application_id' | 'advertiser_ids' | 'settings'>>;
export type TopUpResult = { advertiser: Advertiser; entry: LedgerEntry } | 'not_found' | 'negative';

export interface PrintRepo {
  album(id: string): Promise<Album | undefined>;
  createAlbum(a: AlbumInput, now: number): Promise<Album | 'exists'>;
  updateAlbum(id: string, patch: AlbumPatch, now: number): Promise<Album | undefined>;
  listAlbums(): Promise<Album[]>;

  advertiser(id: string): Promise<Advertiser | undefined>;
  createAdvertiser(a: { name: string; unit_points: number; active?: boolean; initial_points?: number; reason?: string }, now: number): Promise<Advertiser>;
  updateAdvertiser(id: string, patch: { name?: string; unit_points?: number; active?: boolean }, now: number): Promise<Advertiser | undefined>;
  /** in creation order (the default round-robin order) */
  listAdvertisers(): Promise<Advertiser[]>;
  /** add (or, negative, remove) points with a reason; a balance never goes below zero */
  topUp(id: string, points: number, reason: string, now: number): Promise<TopUpResult>;
  ledgerOf(id: string, opts?: { limit?: number; after?: number }): Promise<LedgerEntry[]>;
  /** sum of the advertiser's ledger deltas (always equals its balance) */
  ledgerSum(id: string): Promise<{ sum: number; entries: number }>;

  application(id: string): Promise<Application | undefined>;
  createApplication(a: { advertiser_id: string; title: string; album_ids: string[] }, creative: CreativeInput, now: number): Promise<Application | 'advertiser_not_found'>;
  addVersion(appId: string, c: CreativeInput, now: number): Promise<{ app: Application; version: CreativeVersion } | undefined>;
  decide(appId: string, version: number, status: 'approved' | 'rejected', reason: string | undefined, now: number): Promise<Application | 'not_found' | 'no_version'>;
  listApplications(advertiserId?: string): Promise<Application[]>;
  creative(appId: string, version: number): Promise<Buffer | undefined>;

  /** Decide a print's ad and charge it in one transaction (job_id: charged once; a repeat replays the first). */
  selectAndCharge(req: SelectRequest): Promise<SelectOutcome>;
  /**
   * composition failed: points back (ledger entry), impression refunded (or failed without an ad). With `claim`
   * (from selectAndCharge), only while that claim still holds the print: a repeat of the job_id that took it over
   * since is finishing it, and a refund now would refuse its sheet and have the resend charged a second time.
   */
  refund(jobId: string, reason: string, now: number, claim?: string): Promise<Impression | undefined>;
  /** the sheet is stored: printed; undefined when the print is no longer composing (refunded after its lease) */
  markPrinted(jobId: string, image: NonNullable<Impression['image']>): Promise<Impression | undefined>;
  /** refund prints whose composer is gone (embedded: at start, every composing print; shared: expired leases) */
  recoverInterrupted(now: number): Promise<number>;
  impression(jobId: string): Promise<Impression | undefined>;
  /** in time order, filtered by album, advertiser and time range; opaque cursor for the next page */
  queryImpressions(q: ImpressionQuery): Promise<{ items: Impression[]; next_cursor?: string }>;
}
