// Pool task: face reshape, jawSlim (the apply stage; detect is studio-detect). Algorithm: src/tasks/lib/studio-warp.ts.
import { studioTask } from './lib/studio-pipeline.js';
import { jawSlimWarp } from './lib/studio-warp.js';

export interface ReshapeParams {
  jawSlim: number;
}

export default studioTask<ReshapeParams>((img, lm, p) => jawSlimWarp(img, lm, typeof p.jawSlim === 'number' ? Math.min(1, Math.max(0, p.jawSlim)) : 0));
