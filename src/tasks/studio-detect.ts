// Pool task: the detect stage of every studio feature (decode, faces, landmarks); the apply stages are
// studio-skin, studio-reshape and studio-makeup. Algorithm: src/tasks/lib/studio-pipeline.ts.
export { detectStage as default } from './lib/studio-pipeline.js';
