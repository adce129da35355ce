// Albums, ad applications and their versioned creatives (LMDB). The record rules are in ./records.ts.
import { AdvertiserLedger } from './store-ledger.js';
import { bestCreative, decideVersion, newAlbum, newApplication, patchAlbum, pushVersion } from './records.js';
import type { AlbumInput, AlbumPatch, CreativeInput } from './repo.js';
import type { Album, Application, CreativeVersion } from './types.js';

export class PrintCatalog extends AdvertiserLedger {
  // ---------------------------------------------------------------- albums

  async createAlbum(a: AlbumInput, now: number): Promise<Album | 'exists'> {
    const album = newAlbum(a, now);
    let exists = false;
    await this.store.transaction(() => {
      if (this.albums.get(album.id)) {
        exists = true;
        return;
      }
      this.albums.put(album.id, album);
    });
    return exists ? 'exists' : album;
  }

  async updateAlbum(id: string, patch: AlbumPatch, now: number): Promise<Album | undefined> {
    let out: Album | undefined;
    await this.store.transaction(() => {
      const a = this.albums.get(id);
      if (!a) return;
      out = patchAlbum(a, patch, now);
      this.albums.put(id, out);
    });
    return out;
  }

  async listAlbums(): Promise<Album[]> {
    return [...this.albums.getRange()].map((e) => e.value);
  }

  // ---------------------------------------------------------------- applications and creatives

  async createApplication(a: { advertiser_id: string; title: string; album_ids: string[] }, creative: CreativeInput, now: number): Promise<Application | 'advertiser_not_found'> {
    const app = newApplication(a, now);
    let missing = false;
    await this.store.transaction(() => {
      if (!this.advertisers.get(a.advertiser_id)) {
        missing = true;
        return;
      }
      this.storeVersion(app, creative, now);
      this.appsByAdvertiser.put([a.advertiser_id, app.id], null);
    });
    return missing ? 'advertiser_not_found' : app;
  }

  protected storeVersion(app: Application, c: CreativeInput, now: number): CreativeVersion {
    const v = pushVersion(app, c, now);
    this.creatives.put(`${app.id}/${v.version}`, c.bytes);
    this.applications.put(app.id, app);
    return v;
  }

  async addVersion(appId: string, c: CreativeInput, now: number): Promise<{ app: Application; version: CreativeVersion } | undefined> {
    let out: { app: Application; version: CreativeVersion } | undefined;
    await this.store.transaction(() => {
      const app = this.applications.get(appId);
      if (!app) return;
      const version = this.storeVersion(app, c, now);
      out = { app, version };
    });
    return out;
  }

  async decide(appId: string, version: number, status: 'approved' | 'rejected', reason: string | undefined, now: number): Promise<Application | 'not_found' | 'no_version'> {
    let out: Application | 'not_found' | 'no_version' = 'not_found';
    await this.store.transaction(() => {
      const app = this.applications.get(appId);
      if (!app) return;
      out = decideVersion(app, version, status, reason, now);
      if (out !== 'no_version') this.applications.put(appId, out);
    });
    return out;
  }

  async listApplications(advertiserId?: string): Promise<Application[]> {
    if (advertiserId) return this.appsOf(advertiserId);
    return [...this.applications.getRange()].map((e) => e.value);
  }

  private appsOf(advertiserId: string): Application[] {
    const out: Application[] = [];
    for (const key of this.appsByAdvertiser.getKeys({ start: [advertiserId, ''], end: [advertiserId, '\uffff'] })) {
      const a = this.applications.get((key as [string, string])[1]);
      if (a) out.push(a);
    }
    return out;
  }

  async creative(appId: string, version: number): Promise<Buffer | undefined> {
    return this.creatives.get(`${appId}/${version}`);
  }

  /** The creative an advertiser runs in an album (./records.ts bestCreative). */
  protected creativeFor(advertiserId: string, albumId: string): { app: Application; version: CreativeVersion } | undefined {
    return bestCreative(this.appsOf(advertiserId), albumId);
  }
}
