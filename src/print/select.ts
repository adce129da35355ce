// The print's ad selection rule, in one place for both stores: given a synchronous view of the catalog (LMDB reads
// inside its write transaction; in shared mode, rows loaded and locked inside the PostgreSQL transaction), decide
// which advertiser (if any) a print carries and why the others were passed over. Persistence (charge, ledger
// entry, impression, cursor) stays with the store.
import type { Advertiser, Album, Application, CreativeVersion, Impression } from './types.js';

export interface SelectView {
  advertiser(id: string): Advertiser | undefined;
  application(id: string): Application | undefined;
  /** every advertiser id in creation order (an album without its own list runs them all) */
  allAdvertiserIds(): string[];
  /** the creative an advertiser runs in an album (latest approved among its applications for it) */
  creativeFor(advertiserId: string, albumId: string): { app: Application; version: CreativeVersion } | undefined;
  /** the advertiser last chosen in this album (round-robin cursor) */
  cursor(albumId: string): string | undefined;
}

export interface Selection {
  selected_reason: string;
  skipped: Array<{ advertiser_id: string; reason: string }>;
  chosen?: { adv: Advertiser; app: Application; version: CreativeVersion };
}

/** The latest approved version of an application, if any. */
export function approvedVersion(app: Application): CreativeVersion | undefined {
  let best: CreativeVersion | undefined;
  for (const v of app.versions) if (v.status === 'approved' && (!best || v.version > best.version)) best = v;
  return best;
}

export function selectAd(view: SelectView, album: Album, wantAd: boolean): Selection {
  const skipped: Selection['skipped'] = [];
  let chosen: Selection['chosen'];
  const check = (adv: Advertiser | undefined, id: string, creative?: { app: Application; version: CreativeVersion }): boolean => {
    if (!adv) {
      skipped.push({ advertiser_id: id, reason: 'unknown advertiser' });
      return false;
    }
    if (!adv.active) {
      skipped.push({ advertiser_id: id, reason: 'inactive' });
      return false;
    }
    const c = creative ?? view.creativeFor(adv.id, album.id);
    if (!c) {
      skipped.push({ advertiser_id: id, reason: 'no approved ad application for this album' });
      return false;
    }
    if (adv.balance < adv.unit_points) {
      skipped.push({ advertiser_id: id, reason: `insufficient balance (${adv.balance} < ${adv.unit_points})` });
      return false;
    }
    chosen = { adv, app: c.app, version: c.version };
    return true;
  };
  let reason: string;
  if (!wantAd) reason = 'ad_disabled_by_request';
  else if (album.ad_mode === 'none') reason = 'album_ad_mode_none';
  else if (album.ad_mode === 'fixed') {
    const app = album.fixed_application_id ? view.application(album.fixed_application_id) : undefined;
    const v = app ? approvedVersion(app) : undefined;
    if (!app) reason = 'fixed_application_missing';
    else if (!v) reason = 'fixed_application_not_approved';
    else if (check(view.advertiser(app.advertiser_id), app.advertiser_id, { app, version: v })) reason = 'fixed';
    else reason = 'fixed_advertiser_not_eligible';
  } else {
    const ids = album.advertiser_ids.length ? album.advertiser_ids : view.allAdvertiserIds();
    if (ids.length === 0) reason = 'no_advertisers';
    else {
      const last = view.cursor(album.id);
      const at = last === undefined ? -1 : ids.indexOf(last);
      for (let k = 1; k <= ids.length; k++) {
        const id = ids[(at + k + ids.length) % ids.length]!;
        if (check(view.advertiser(id), id)) break;
      }
      reason = chosen ? 'round_robin' : 'no_eligible_advertiser';
    }
  }
  return { selected_reason: reason, skipped, chosen };
}

/** The impression record of a selection (status composing; charged fields when an ad was chosen). */
export function impressionOf(req: { job_id: string; album_id: string; at: number; key_id?: string }, sel: Selection, balanceAfter?: number): Impression {
  const imp: Impression = { job_id: req.job_id, album_id: req.album_id, at: req.at, status: 'composing', unit_points: 0, selected_reason: sel.selected_reason, key_id: req.key_id };
  if (sel.skipped.length) imp.skipped = sel.skipped;
  if (sel.chosen && balanceAfter !== undefined) {
    imp.advertiser_id = sel.chosen.adv.id;
    imp.application_id = sel.chosen.app.id;
    imp.version = sel.chosen.version.version;
    imp.unit_points = sel.chosen.adv.unit_points;
    imp.balance_before = balanceAfter + sel.chosen.adv.unit_points;
    imp.balance_after = balanceAfter;
  }
  return imp;
}
