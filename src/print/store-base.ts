// The LMDB databases of the print/advertising store (opened once per PrintStore) and the id scheme. The LMDB
// implementation of the print store's interface (./repo.ts; the PostgreSQL one is ./store-pg.ts) is split by
// concern into a class chain: PrintDbs -> AdvertiserLedger (./store-ledger.ts) -> PrintCatalog
// (./store-catalog.ts: albums, ad applications and creatives) -> PrintStore (./store.ts: selection and charge,
// impressions). Import PrintStore from ./store.ts.
import crypto from 'node:crypto';
import type { Database } from 'lmdb';
import type { Store } from '../store/env.js';
import type { Advertiser, Album, Application, Impression, LedgerEntry } from './types.js';

export { newId } from './records.js';

export type IdxKey = Array<string | number>;

export class PrintDbs {
  readonly albums: Database<Album, string>;
  readonly advertisers: Database<Advertiser, string>;
  readonly ledger: Database<LedgerEntry, [string, number]>;
  readonly applications: Database<Application, string>;
  readonly appsByAdvertiser: Database<null, [string, string]>;
  readonly creatives: Database<Buffer, string>;
  readonly impressions: Database<Impression, string>;
  readonly impByTime: Database<null, IdxKey>;
  readonly impByAlbum: Database<null, IdxKey>;
  readonly impByAdvertiser: Database<null, IdxKey>;
  readonly cursors: Database<string, string>;
  /** job_ids selected (and maybe charged) whose sheet is not stored yet → the claim of the request composing it */
  readonly composing: Database<string | null, string>;
  readonly meta: Database<unknown, string>;

  constructor(protected readonly store: Store) {
    this.albums = store.db('print-albums');
    this.advertisers = store.db('print-advertisers');
    this.ledger = store.db('print-ledger');
    this.applications = store.db('print-applications');
    this.appsByAdvertiser = store.db('print-apps-by-advertiser');
    this.creatives = store.db('print-creatives', { encoding: 'binary' });
    this.impressions = store.db('print-impressions');
    this.impByTime = store.db('print-imp-by-time');
    this.impByAlbum = store.db('print-imp-by-album');
    this.impByAdvertiser = store.db('print-imp-by-advertiser');
    this.cursors = store.db('print-rr-cursor');
    this.composing = store.db('print-composing');
    this.meta = store.db('print-meta');
  }

  // ---------------------------------------------------------------- reads (async: the shared store reads PostgreSQL)

  async album(id: string): Promise<Album | undefined> {
    return this.albums.get(id);
  }

  async advertiser(id: string): Promise<Advertiser | undefined> {
    return this.advertisers.get(id);
  }

  async application(id: string): Promise<Application | undefined> {
    return this.applications.get(id);
  }

  /** A per-installation secret (random, created once) used to derive result-image keys. */
  async secret(): Promise<Buffer> {
    const have = this.meta.get('image-key-secret') as Buffer | Uint8Array | undefined;
    if (have) return Buffer.from(have);
    let out: Buffer | undefined;
    await this.store.transaction(() => {
      const again = this.meta.get('image-key-secret') as Buffer | Uint8Array | undefined;
      if (again) out = Buffer.from(again);
      else {
        out = crypto.randomBytes(32);
        this.meta.put('image-key-secret', out);
      }
    });
    return out!;
  }
}
