// Pool task: skin retouch (the apply stage; detect is studio-detect). Algorithm: src/tasks/lib/studio-skin.ts.
import { studioTask } from './lib/studio-pipeline.js';
import { skinRetouch, type SkinParams } from './lib/studio-skin.js';

const c01 = (v: unknown, d: number): number => (typeof v === 'number' && Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : d);

export default studioTask<SkinParams>((img, lm, p) =>
  skinRetouch(img, lm, { strength: c01(p.strength, 1), bronzer: c01(p.bronzer, 0), eyeBrighten: c01(p.eyeBrighten, 0), contour: c01(p.contour, 0) }),
);
