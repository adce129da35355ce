// Albums, ad applications and their versioned creatives.
import { AdvertiserLedger } from './store-ledger.js';
import { newId } from './store-base.js';
import { approvedVersion } from './select.js';
import type { AdMode, Album, Application, CreativeVersion } from './types.js';

export class PrintCatalog extends AdvertiserLedger {
  // ---------------------------------------------------------------- albums

  async createAlbum(a: { id?: string; name: string; ad_mode: AdMode; fixed_application_id?: string; advertiser_ids?: string[]; settings?: Record<string, unknown> }, now: number): Promise<Album | 'exists'> {
    const album: Album = {
      id: a.id ?? newId('alb_', now),
      name: a.name,
      ad_mode: a.ad_mode,
      fixed_application_id: a.fixed_application_id,
      advertiser_ids: [...new Set(a.advertiser_ids ?? [])],
      ...(a.settings ? { settings: a.settings } : {}),
      created_at: now,
      updated_at: now,
    };
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

  async updateAlbum(id: string, patch: Partial<Pick<Album, 'name' | 'ad_mode' | 'fixed_application_id' | 'advertiser_ids' | 'settings'>>, now: number): Promise<Album | undefined> {
    let out: Album | undefined;
    await this.store.transaction(() => {
      const a = this.albums.get(id);
      if (!a) return;
      for (const [k, v] of Object.entries(patch)) if (v !== undefined) (a as unknown as Record<string, unknown>)[k] = v;
      if (patch.fixed_application_id === null) delete a.fixed_application_id;
      if (patch.settings === null) delete a.settings;
      a.advertiser_ids = [...new Set(a.advertiser_ids)];
      a.updated_at = now;
      this.albums.put(id, a);
      out = a;
    });
    return out;
  }

  async listAlbums(): Promise<Album[]> {
    return [...this.albums.getRange()].map((e) => e.value);
  }

  // ---------------------------------------------------------------- applications and creatives

  async createApplication(a: { advertiser_id: string; title: string; album_ids: string[] }, creative: { bytes: Buffer; format: CreativeVersion['format']; width: number; height: number }, now: number): Promise<Application | 'advertiser_not_found'> {
    const app: Application = { id: newId('app_', now), advertiser_id: a.advertiser_id, title: a.title, album_ids: a.album_ids, versions: [], created_at: now, updated_at: now };
    let missing = false;
    await this.store.transaction(() => {
      if (!this.advertisers.get(a.advertiser_id)) {
        missing = true;
        return;
      }
      this.pushVersion(app, creative, now);
      this.appsByAdvertiser.put([a.advertiser_id, app.id], null);
    });
    return missing ? 'advertiser_not_found' : app;
  }

  protected pushVersion(app: Application, c: { bytes: Buffer; format: CreativeVersion['format']; width: number; height: number }, now: number): CreativeVersion {
    const v: CreativeVersion = { version: app.versions.length + 1, status: 'pending', format: c.format, width: c.width, height: c.height, bytes: c.bytes.length, uploaded_at: now };
    app.versions.push(v);
    app.updated_at = now;
    this.creatives.put(`${app.id}/${v.version}`, c.bytes);
    this.applications.put(app.id, app);
    return v;
  }

  async addVersion(appId: string, c: { bytes: Buffer; format: CreativeVersion['format']; width: number; height: number }, now: number): Promise<{ app: Application; version: CreativeVersion } | undefined> {
    let out: { app: Application; version: CreativeVersion } | undefined;
    await this.store.transaction(() => {
      const app = this.applications.get(appId);
      if (!app) return;
      const version = this.pushVersion(app, c, now);
      out = { app, version };
    });
    return out;
  }

  async decide(appId: string, version: number, status: 'approved' | 'rejected', reason: string | undefined, now: number): Promise<Application | 'not_found' | 'no_version'> {
    let out: Application | 'not_found' | 'no_version' = 'not_found';
    await this.store.transaction(() => {
      const app = this.applications.get(appId);
      if (!app) return;
      const v = app.versions.find((x) => x.version === version);
      if (!v) {
        out = 'no_version';
        return;
      }
      v.status = status;
      v.decided_at = now;
      if (reason !== undefined) v.decision_reason = reason;
      else delete v.decision_reason;
      app.updated_at = now;
      this.applications.put(appId, app);
      out = app;
    });
    return out;
  }

  async listApplications(advertiserId?: string): Promise<Application[]> {
    if (advertiserId) {
      const out: Application[] = [];
      for (const key of this.appsByAdvertiser.getKeys({ start: [advertiserId, ''], end: [advertiserId, '\uffff'] })) {
        const a = this.applications.get((key as [string, string])[1]);
        if (a) out.push(a);
      }
      return out;
    }
    return [...this.applications.getRange()].map((e) => e.value);
  }

  async creative(appId: string, version: number): Promise<Buffer | undefined> {
    return this.creatives.get(`${appId}/${version}`);
  }

  /** The latest approved version of an application, if any. */
  static approved(app: Application): CreativeVersion | undefined {
    return approvedVersion(app);
  }

  /** The creative an advertiser runs in an album: among its applications for that album with an approved
   * version, the one approved most recently. */
  protected creativeFor(advertiserId: string, albumId: string): { app: Application; version: CreativeVersion } | undefined {
    let best: { app: Application; version: CreativeVersion } | undefined;
    for (const key of this.appsByAdvertiser.getKeys({ start: [advertiserId, ''], end: [advertiserId, '\uffff'] })) {
      const app = this.applications.get((key as [string, string])[1]);
      if (!app || (app.album_ids.length > 0 && !app.album_ids.includes(albumId))) continue;
      const v = PrintCatalog.approved(app);
      if (v && (!best || (v.decided_at ?? 0) > (best.version.decided_at ?? 0))) best = { app, version: v };
    }
    return best;
  }
}
