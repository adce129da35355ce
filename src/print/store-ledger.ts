// Advertisers and their exact points ledger: every balance change is one ledger entry written with the new balance
// in the same transaction (writeEntry), so balance == sum(ledger deltas) at every commit.
import { PrintDbs } from './store-base.js';
import { byCreation, ledgerEntry, newAdvertiser, patchAdvertiser, topUpKind } from './records.js';
import type { TopUpResult } from './repo.js';
import type { Advertiser, LedgerEntry, LedgerKind } from './types.js';

export class AdvertiserLedger extends PrintDbs {
  // ---------------------------------------------------------------- advertisers and ledger

  async createAdvertiser(a: { name: string; unit_points: number; active?: boolean; initial_points?: number; reason?: string }, now: number): Promise<Advertiser> {
    const adv = newAdvertiser(a, now);
    await this.store.transaction(() => {
      this.advertisers.put(adv.id, adv);
      if (a.initial_points) this.writeEntry(adv, 'top_up', a.initial_points, a.reason ?? 'initial points', now, {});
    });
    return this.advertisers.get(adv.id)!;
  }

  async updateAdvertiser(id: string, patch: { name?: string; unit_points?: number; active?: boolean }, now: number): Promise<Advertiser | undefined> {
    let out: Advertiser | undefined;
    await this.store.transaction(() => {
      const a = this.advertisers.get(id);
      if (!a) return;
      out = patchAdvertiser(a, patch, now);
      this.advertisers.put(id, out);
    });
    return out;
  }

  /** Advertisers in creation order (the default round-robin order). */
  async listAdvertisers(): Promise<Advertiser[]> {
    return this.listAdvertisersSync();
  }

  protected listAdvertisersSync(): Advertiser[] {
    return [...this.advertisers.getRange()].map((e) => e.value).sort(byCreation);
  }

  /** Inside a transaction: write one ledger entry and the new balance. */
  protected writeEntry(adv: Advertiser, kind: LedgerKind, delta: number, reason: string, at: number, ref: { job_id?: string; album_id?: string }): LedgerEntry {
    const e = ledgerEntry(adv, kind, delta, reason, at, ref);
    this.ledger.put([adv.id, adv.ledger_seq], e);
    this.advertisers.put(adv.id, adv);
    return e;
  }

  /** Add (or, with a negative amount, remove) points with a reason. A balance never goes below zero. */
  async topUp(id: string, points: number, reason: string, now: number): Promise<TopUpResult> {
    let out: TopUpResult = 'not_found';
    await this.store.transaction(() => {
      const a = this.advertisers.get(id);
      if (!a) return;
      const kind = topUpKind(a, points);
      if (kind === 'negative') {
        out = kind;
        return;
      }
      const entry = this.writeEntry(a, kind, points, reason, now, {});
      out = { advertiser: a, entry };
    });
    return out;
  }

  async ledgerOf(id: string, opts: { limit?: number; after?: number } = {}): Promise<LedgerEntry[]> {
    const out: LedgerEntry[] = [];
    for (const { value } of this.ledger.getRange({ start: [id, (opts.after ?? 0) + 1], end: [id, Number.MAX_SAFE_INTEGER] })) {
      out.push(value);
      if (opts.limit && out.length >= opts.limit) break;
    }
    return out;
  }

  /** Sum of all ledger deltas of an advertiser (must equal its balance). */
  async ledgerSum(id: string): Promise<{ sum: number; entries: number }> {
    let sum = 0;
    let entries = 0;
    for (const { value } of this.ledger.getRange({ start: [id, 0], end: [id, Number.MAX_SAFE_INTEGER] })) {
      sum += value.delta;
      entries++;
    }
    return { sum, entries };
  }
}
