// Runs the enhancement tasks in-process (no pool, no server): prepare → every tile → finish, as the orchestrator does.
import enhancePrepare from '../../src/tasks/enhance-prepare.js';
import enhanceTile from '../../src/tasks/enhance-tile.js';
import enhanceFinish from '../../src/tasks/enhance-finish.js';
import type { PrivacyRegion, TileOptions } from '../../src/tasks/lib/tiling.js';

export async function enhanceDirect(image: Buffer, regions: PrivacyRegion[] = [], tile?: Partial<TileOptions>) {
  const p = await enhancePrepare({ image: new Uint8Array(image), regions, tile });
  const original = p.original.slice();
  const tiles = p.tiles.map((t) => enhanceTile({ ...t, params: p.estimate.params }).data);
  const f = await enhanceFinish({ width: p.width, height: p.height, original: p.original, plan: p.plan, tiles, regionRects: p.regionRects, returnRaw: true });
  return { prepared: p, original, tiles, ...f };
}
