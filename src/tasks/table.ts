// The task table: every pool task by name. `pool.run(name, input)` takes the input type of the module's default
// export and answers its output type (TaskInput / TaskOutput below); the worker loads a module on its first use
// through the loader here (lazy: a worker never loads tasks it does not run). Add a task: its module, then a line.
export const TASKS = {
  'ai-mark': () => import('./ai-mark.js'),
  'analyze-preprocess': () => import('./analyze-preprocess.js'),
  'chroma-key': () => import('./chroma-key.js'),
  composite: () => import('./composite.js'),
  'composite-probe': () => import('./composite-probe.js'),
  contour: () => import('./contour.js'),
  'ekyc-ocr': () => import('./ekyc-ocr.js'),
  'ekyc-verify-faces': () => import('./ekyc-verify-faces.js'),
  'ekyc-verify-ocr': () => import('./ekyc-verify-ocr.js'),
  'enhance-doctype': () => import('./enhance-doctype.js'),
  'enhance-finish': () => import('./enhance-finish.js'),
  'enhance-prepare': () => import('./enhance-prepare.js'),
  'enhance-tile': () => import('./enhance-tile.js'),
  'face-compare': () => import('./face-compare.js'),
  'face-detect': () => import('./face-detect.js'),
  'image-info': () => import('./image-info.js'),
  'image-normalize': () => import('./image-normalize.js'),
  liveness: () => import('./liveness.js'),
  'models-ready': () => import('./models-ready.js'),
  'models-trim': () => import('./models-trim.js'),
  mosaic: () => import('./mosaic.js'),
  perspective: () => import('./perspective.js'),
  'pool-selftest': () => import('./pool-selftest.js'),
  'qr-generate': () => import('./qr-generate.js'),
  'qr-recognize': () => import('./qr-recognize.js'),
  quality: () => import('./quality.js'),
  receipt: () => import('./receipt.js'),
  'studio-detect': () => import('./studio-detect.js'),
  'studio-makeup': () => import('./studio-makeup.js'),
  'studio-reshape': () => import('./studio-reshape.js'),
  'studio-skin': () => import('./studio-skin.js'),
} satisfies Record<string, () => Promise<{ default: (input: never) => unknown }>>;

export type TaskName = keyof typeof TASKS;
type TaskFn<N extends TaskName> = Awaited<ReturnType<(typeof TASKS)[N]>>['default'];
/** what `pool.run(name, …)` takes */
export type TaskInput<N extends TaskName> = Parameters<TaskFn<N>>[0];
/** what `pool.run(name, …)` answers */
export type TaskOutput<N extends TaskName> = Awaited<ReturnType<TaskFn<N>>>;

export const isTaskName = (name: string): name is TaskName => Object.hasOwn(TASKS, name);
