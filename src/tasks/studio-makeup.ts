// Pool task: makeup, lips and blush (the apply stage; detect is studio-detect). Algorithm: src/tasks/lib/studio-makeup.ts.
import { studioTask } from './lib/studio-pipeline.js';
import { makeup, STYLES, type MakeupParams, type MakeupStyle } from './lib/studio-makeup.js';

const isStyle = (v: unknown): v is MakeupStyle => typeof v === 'string' && Object.hasOwn(STYLES, v);
const c01 = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);

export default studioTask<MakeupParams>((img, lm, p) =>
  makeup(img, lm, { lipStrength: c01(p.lipStrength), blushStrength: c01(p.blushStrength), style: isStyle(p.style) ? p.style : 'natural' }),
);
