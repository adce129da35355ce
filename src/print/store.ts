// The print/advertising store in LMDB: albums, advertisers with an exact points ledger, ad applications with
// versioned creatives, impressions and the round-robin cursor per album.
//
// Money rule: every balance change is a ledger entry written in the same LMDB write transaction as the new
// balance, so balance == sum(ledger deltas) at every commit. A print's selection, its deduction, its impression
// record and the album's round-robin cursor commit together in one transaction (selectAndCharge). lmdb-js runs
// transaction callbacks synchronously: nothing inside awaits, and reads inside see the writes made before them.
//
// Split by concern (see ./store-base.ts): this file is the public entry and holds selection and charge, refunds
// and the impression indexes; advertisers and the ledger are in ./store-ledger.ts, albums and ad applications in
// ./store-catalog.ts.
import type { Database } from 'lmdb';
import { PrintCatalog } from './store-catalog.js';
import type { IdxKey } from './store-base.js';
import type { Impression } from './types.js';
import { impressionOf, selectAd, type SelectView } from './select.js';
import { chargeReason, decodeCursor, encodeCursor, newClaim, refundReason, repeatOf, settlement } from './records.js';
import type { ImpressionQuery, PrintRepo, SelectOutcome, SelectRequest } from './repo.js';

export { newId } from './store-base.js';

export type { SelectOutcome, SelectRequest, ImpressionQuery } from './repo.js';

export class PrintStore extends PrintCatalog implements PrintRepo {
  // ---------------------------------------------------------------- selection and charge (one transaction)

  /**
   * Decide the ad of a print and charge it, atomically: idempotency check on job_id, eligibility, round-robin,
   * deduction + ledger entry, impression record and cursor all commit in this one write transaction.
   */
  async selectAndCharge(req: SelectRequest): Promise<SelectOutcome> {
    let out: SelectOutcome = { kind: 'album_not_found' };
    await this.store.transaction(() => {
      out = this.selectAndChargeSync(req);
    });
    return out;
  }

  private selectAndChargeSync(req: SelectRequest): SelectOutcome {
    const prev = this.impressions.get(req.job_id);
    const repeat = repeatOf(prev, req);
    const claim = newClaim();
    if (repeat?.kind === 'replay') {
      // this request now finishes the print: the claim is its (the first request failing must not refund it)
      if (prev!.status === 'composing') this.composing.put(req.job_id, claim);
      return { ...repeat, claim };
    }
    if (repeat) return repeat;
    const album = this.albums.get(req.album_id);
    if (!album) return { kind: 'album_not_found' };
    const view: SelectView = {
      advertiser: (id) => this.advertisers.get(id),
      application: (id) => this.applications.get(id),
      allAdvertiserIds: () => this.listAdvertisersSync().map((a) => a.id),
      creativeFor: (advertiserId, albumId) => this.creativeFor(advertiserId, albumId),
      cursor: (albumId) => this.cursors.get(albumId),
    };
    const sel = selectAd(view, album, req.want_ad);
    let balanceAfter: number | undefined;
    if (sel.chosen) {
      const { adv } = sel.chosen;
      this.writeEntry(adv, 'charge', -adv.unit_points, chargeReason(req.job_id), req.at, { job_id: req.job_id, album_id: album.id });
      balanceAfter = adv.balance;
      if (album.ad_mode === 'selected') this.cursors.put(album.id, adv.id);
    }
    const imp = impressionOf(req, sel, balanceAfter);
    if (prev) this.unindex(prev);
    this.impressions.put(imp.job_id, imp);
    this.index(imp);
    this.composing.put(imp.job_id, claim);
    return { kind: 'new', impression: imp, claim };
  }

  private index(imp: Impression): void {
    this.impByTime.put([imp.at, imp.job_id], null);
    this.impByAlbum.put([imp.album_id, imp.at, imp.job_id], null);
    if (imp.advertiser_id) this.impByAdvertiser.put([imp.advertiser_id, imp.at, imp.job_id], null);
  }

  private unindex(imp: Impression): void {
    this.impByTime.remove([imp.at, imp.job_id]);
    this.impByAlbum.remove([imp.album_id, imp.at, imp.job_id]);
    if (imp.advertiser_id) this.impByAdvertiser.remove([imp.advertiser_id, imp.at, imp.job_id]);
  }

  /** Composition failed: give the points back (ledger entry) and mark the impression; a retry selects anew. With
   * `claim`, only while that request still holds the print (see PrintRepo.refund). */
  async refund(jobId: string, reason: string, now: number, claim?: string): Promise<Impression | undefined> {
    let out: Impression | undefined;
    await this.store.transaction(() => {
      const imp = this.impressions.get(jobId);
      if (!imp || imp.status !== 'composing') return;
      if (claim !== undefined && this.composing.get(jobId) !== claim) return;
      const s = settlement(imp);
      const adv = s.points ? this.advertisers.get(imp.advertiser_id!) : undefined;
      if (adv) this.writeEntry(adv, 'refund', s.points, refundReason(jobId, reason), now, { job_id: jobId, album_id: imp.album_id });
      imp.status = s.status;
      this.impressions.put(jobId, imp);
      this.composing.remove(jobId);
      out = imp;
    });
    return out;
  }

  async markPrinted(jobId: string, image: NonNullable<Impression['image']>): Promise<Impression | undefined> {
    let out: Impression | undefined;
    await this.store.transaction(() => {
      const imp = this.impressions.get(jobId);
      if (!imp || (imp.status !== 'composing' && imp.status !== 'printed')) return;
      imp.status = 'printed';
      imp.image = image;
      this.impressions.put(jobId, imp);
      this.composing.remove(jobId);
      out = imp;
    });
    return out;
  }

  /** On start-up: prints left composing by a stopped server are refunded (their sheet was never delivered). */
  async recoverInterrupted(now: number): Promise<number> {
    const ids = [...this.composing.getKeys()] as string[];
    for (const id of ids) {
      const imp = await this.refund(id, 'the server stopped while this sheet was being composed', now);
      if (!imp) await this.composing.remove(id);
    }
    return ids.length;
  }

  async impression(jobId: string): Promise<Impression | undefined> {
    return this.impressions.get(jobId);
  }

  /** Impressions in time order, filtered by album, advertiser and time range; opaque cursor for the next page. */
  async queryImpressions(q: ImpressionQuery): Promise<{ items: Impression[]; next_cursor?: string }> {
    const from = q.from ?? 0;
    const to = q.to ?? Number.MAX_SAFE_INTEGER;
    let db: Database<null, IdxKey>;
    let prefix: Array<string | number>;
    if (q.advertiser_id) {
      db = this.impByAdvertiser;
      prefix = [q.advertiser_id];
    } else if (q.album_id) {
      db = this.impByAlbum;
      prefix = [q.album_id];
    } else {
      db = this.impByTime;
      prefix = [];
    }
    let start: IdxKey = [...prefix, from];
    let exclusive = false;
    const after = decodeCursor(q.cursor);
    if (after) {
      start = [...prefix, after.at, after.job_id];
      exclusive = true;
    }
    const items: Impression[] = [];
    let next: string | undefined;
    for (const key of db.getKeys({ start, end: [...prefix, to], exclusiveStart: exclusive } as never)) {
      const k = key as IdxKey;
      const jobId = k[k.length - 1] as string;
      const imp = this.impressions.get(jobId);
      if (!imp) continue;
      if (q.album_id && imp.album_id !== q.album_id) continue;
      if (q.advertiser_id && imp.advertiser_id !== q.advertiser_id) continue;
      if (items.length === q.limit) {
        next = encodeCursor(items[items.length - 1]!);
        break;
      }
      items.push(imp);
    }
    return { items, next_cursor: next };
  }
}
