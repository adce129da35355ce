import t from 'tap';
import { planTiles, weightAt, regionRect } from '../../src/tasks/lib/tiling.js';
import { parsePrivacyRegions, resolveRegions, defaultRegions, DEFAULT_REGIONS } from '../../src/enhance/privacy.js';
import { isApiError } from '../../src/domain/errors.js';

t.test('the plan covers every pixel, overlaps by at least the overlap, and the weights sum to 1', async (t) => {
  for (const [w, h] of [[1280, 807], [640, 400], [300, 200], [1001, 333]] as const) {
    const plan = planTiles(w, h, { tile: 320, overlap: 32, halo: 9 });
    const cover = new Float64Array(w * h);
    for (const tile of plan.tiles) {
      t.ok(tile.x >= 0 && tile.y >= 0 && tile.x + tile.w <= w && tile.y + tile.h <= h, `tile ${tile.index} inside ${w}x${h}`);
      t.ok(tile.read.x <= tile.x && tile.read.x + tile.read.w >= tile.x + tile.w, 'halo contains the tile');
      for (const side of ['left', 'right', 'top', 'bottom'] as const) if (tile.feather[side] > 0) t.ok(tile.feather[side] >= 32, `overlap ${side} >= 32`);
      for (let dy = 0; dy < tile.h; dy++) for (let dx = 0; dx < tile.w; dx++) cover[(tile.y + dy) * w + tile.x + dx] += weightAt(tile, dx, dy);
    }
    let min = Infinity, max = -Infinity;
    for (const v of cover) { min = Math.min(min, v); max = Math.max(max, v); }
    t.ok(Math.abs(min - 1) < 1e-9 && Math.abs(max - 1) < 1e-9, `${w}x${h}: weights sum to 1 everywhere (min ${min}, max ${max})`);
  }
  const p = planTiles(1280, 807);
  t.equal(p.cols, 5);
  t.equal(p.rows, 3);
  t.equal(p.tiles.length, 15);
  t.equal(planTiles(200, 100).tiles.length, 1, 'a small image is one tile');
});

t.test('regionRect rounds outwards and clips', async (t) => {
  t.same(regionRect({ field: 'a', x: 0.1, y: 0.2, w: 0.3, h: 0.4 }, 100, 50), { x: 10, y: 10, w: 30, h: 20 });
  t.same(regionRect({ field: 'a', x: 0.105, y: 0, w: 0.01, h: 1 }, 100, 50), { x: 10, y: 0, w: 2, h: 50 });
});

const rejects = (t: any, text: string, field: string, re: RegExp) => {
  try {
    parsePrivacyRegions(text);
    t.fail(`accepted ${text}`);
  } catch (e) {
    t.ok(isApiError(e), 'ApiError');
    if (isApiError(e)) {
      t.equal(e.code, 'INVALID_REQUEST');
      t.equal(e.status, 400);
      t.equal(e.field, field, `field of ${text}`);
      t.match(e.message, re);
    }
  }
};

t.test('privacy_regions: malformed or out of range → 400 naming the problem', async (t) => {
  t.same(parsePrivacyRegions('{"regions":[{"field":"jumin_back","x":0.3,"y":0.3,"w":0.3,"h":0.12}]}'), [{ field: 'jumin_back', x: 0.3, y: 0.3, w: 0.3, h: 0.12 }]);
  t.same(parsePrivacyRegions('{"regions":[]}'), []);
  rejects(t, 'not json', 'privacy_regions', /not valid JSON/);
  rejects(t, '[1,2]', 'privacy_regions', /object with a regions array/);
  rejects(t, '{"areas":[]}', 'privacy_regions.areas', /Unknown field/);
  rejects(t, '{"regions":{}}', 'privacy_regions.regions', /Expected an array/);
  rejects(t, '{"regions":[{"x":"0.1","y":0,"w":0.1,"h":0.1}]}', 'privacy_regions.regions[0].x', /Expected a number.*string "0.1"/);
  rejects(t, '{"regions":[{"x":-0.1,"y":0,"w":0.1,"h":0.1}]}', 'privacy_regions.regions[0].x', /-0.1/);
  rejects(t, '{"regions":[{"x":0.1,"y":0,"w":0,"h":0.1}]}', 'privacy_regions.regions[0].w', /> 0/);
  rejects(t, '{"regions":[{"x":0.1,"y":0,"w":1.5,"h":0.1}]}', 'privacy_regions.regions[0].w', /<= 1/);
  rejects(t, '{"regions":[{"x":0.5,"y":0.95,"w":0.1,"h":0.1}]}', 'privacy_regions.regions[0].h', /y \+ h <= 1/);
  rejects(t, '{"regions":[{"x":0.5,"y":0.5,"w":0.1,"h":0.1,"z":1}]}', 'privacy_regions.regions[0].z', /Unknown field/);
  rejects(t, '{"regions":[{"field":"a b","x":0.5,"y":0.5,"w":0.1,"h":0.1}]}', 'privacy_regions.regions[0].field', /name/);
  rejects(t, JSON.stringify({ regions: Array.from({ length: 33 }, () => ({ x: 0, y: 0, w: 0.1, h: 0.1 })) }), 'privacy_regions.regions', /at most 32/);
});

t.test('modes and defaults', async (t) => {
  for (const d of ['jumin', 'alien', 'driver'] as const) {
    t.equal(defaultRegions(d, 'juminMask').length, 1, `${d}: juminMask masks the number tail`);
    t.ok(DEFAULT_REGIONS[d].fullMask.length >= 3, `${d}: fullMask covers the personal fields`);
    for (const r of DEFAULT_REGIONS[d].fullMask.concat(DEFAULT_REGIONS[d].juminMask)) t.ok(r.x >= 0 && r.y >= 0 && r.x + r.w <= 1 && r.y + r.h <= 1, `${d}.${r.field} inside the card`);
  }
  t.same(resolveRegions('jumin', undefined, undefined).mode, 'juminMask', 'default mode');
  t.same(resolveRegions('jumin', 'none', undefined).regions, []);
  const own = [{ field: 'x', x: 0.1, y: 0.1, w: 0.1, h: 0.1 }];
  t.same(resolveRegions('jumin', undefined, own), { mode: 'custom', regions: own });
  t.equal(resolveRegions('jumin', 'fullMask', own).regions.length, DEFAULT_REGIONS.jumin.fullMask.length + 1, 'a mode plus own regions: union');
  t.throws(() => resolveRegions('jumin', 'custom', undefined), /required when privacy_mode is custom/);
  t.throws(() => resolveRegions('jumin', 'none', own), /privacy_mode/);
});
