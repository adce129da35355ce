// The second face-embedding model, for comparison with fr_feature (bench/face-calib.ts): dlib's ResNet-34 face
// recognition network (128-d; dlib's "dlib_face_recognition_resnet_model_v1", trained by Davis King, LFW 99.38 %)
// as converted to TF.js weights (uint8-quantised) by face-api.js and shipped in `@vladmandic/face-api@1.7.15` (MIT,
// node_modules/@vladmandic/face-api/model/face_recognition_model*). Run on `@tensorflow/tfjs-core` with the WASM
// backend (its .wasm ships inside `@tensorflow/tfjs-backend-wasm`: nothing downloaded). The forward pass is ported
// from @vladmandic/face-api src/faceRecognitionNet (MIT). Input: dlib's face chip, 150×150, with the five dlib
// points (both eyes' corners, nose base; taken from our 68 landmarks) on dlib's template, padding 0.25.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { similarityTransform, invertAffine, warpAffine, type Raster, type RgbImage, type Point } from '../../src/vision/index.js';
import type { Face } from '../../src/vision/index.js';

const require = createRequire(import.meta.url);
const MODEL_DIR = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
export const DLIB_MODEL = 'dlib-resnet-128@vladmandic-face-api@1.7.15';

/** dlib's 5-point template (get_face_chip_details, interpolation.h): subject's left eye outer, inner corner,
 *  right eye outer, inner corner, nose base, on the unit square before padding. */
const DLIB_TEMPLATE: Point[] = [
  [0.8595674595992, 0.2134981538014],
  [0.6460604764104, 0.2289674387677],
  [0.1205750620789, 0.2137274526848],
  [0.3340850613712, 0.2290642403242],
  [0.4901123135679, 0.6277975316475],
];
/** the same five points in the iBUG 68 scheme */
const IBUG = [45, 42, 36, 39, 33];
const SIZE = 150, PADDING = 0.25;

/** dlib's face chip: a similarity transform of the five points onto the padded template. */
export function dlibChip(img: Raster, landmarks68: Point[]): Raster {
  const dst = DLIB_TEMPLATE.map(([x, y]) => [((PADDING + x) / (2 * PADDING + 1)) * SIZE, ((PADDING + y) / (2 * PADDING + 1)) * SIZE] as Point);
  const m = similarityTransform(IBUG.map((i) => landmarks68[i]!), dst);
  return warpAffine(img, invertAffine(m), SIZE, SIZE);
}

let weights: Promise<tf.NamedTensorMap> | null = null;
async function load(): Promise<tf.NamedTensorMap> {
  const wasmDir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
  setWasmPaths(wasmDir + path.sep);
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false); // one thread, as fr_feature's onnxruntime session
  await tf.setBackend('wasm');
  await tf.ready();
  const manifest = JSON.parse(fs.readFileSync(path.join(MODEL_DIR, 'face_recognition_model-weights_manifest.json'), 'utf8')) as tf.io.WeightsManifestConfig;
  const bin = fs.readFileSync(path.join(MODEL_DIR, 'face_recognition_model.bin'));
  const ab = bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength);
  return tf.io.decodeWeights(ab, manifest.flatMap((g) => g.weights));
}

type T4 = tf.Tensor4D;
function convLayer(w: tf.NamedTensorMap, x: T4, p: string, stride: 1 | 2, relu: boolean): T4 {
  let out: T4 = tf.conv2d(x, w[`${p}/conv/filters`] as T4, stride, stride === 2 ? 'valid' : 'same');
  out = tf.add(out, w[`${p}/conv/bias`]!);
  out = tf.add(tf.mul(out, w[`${p}/scale/weights`]!), w[`${p}/scale/biases`]!);
  return relu ? tf.relu(out) : out;
}
function residual(w: tf.NamedTensorMap, x: T4, p: string): T4 {
  const out = convLayer(w, convLayer(w, x, `${p}/conv1`, 1, true), `${p}/conv2`, 1, false);
  return tf.relu(tf.add<T4>(out, x));
}
function residualDown(w: tf.NamedTensorMap, x: T4, p: string): T4 {
  let out = convLayer(w, convLayer(w, x, `${p}/conv1`, 2, true), `${p}/conv2`, 1, false);
  let pooled: T4 = tf.avgPool(x, 2, 2, 'valid');
  if (pooled.shape[1] !== out.shape[1] || pooled.shape[2] !== out.shape[2]) {
    out = tf.concat([out, tf.zeros([1, 1, out.shape[2], out.shape[3]])], 1);
    out = tf.concat([out, tf.zeros([1, out.shape[1], 1, out.shape[3]])], 2);
  }
  if (pooled.shape[3] !== out.shape[3]) pooled = tf.concat([pooled, tf.zeros(pooled.shape)], 3);
  return tf.relu(tf.add<T4>(pooled, out));
}

const MEAN = [122.782, 117.001, 104.298];
/** dlib's 128-d descriptor of a 150×150 RGB dlib chip, as the network gives it (not normalised: dlib compares
 *  descriptors by Euclidean distance, "same person" below 0.6); `cosine` needs `l2normalise` first. */
export async function dlibEmbedChip(chip: Raster): Promise<Float32Array> {
  const w = await (weights ??= load());
  const px = new Float32Array(SIZE * SIZE * 3);
  for (let i = 0; i < px.length; i++) px[i] = (chip.data[i]! - MEAN[i % 3]!) / 255;
  const v = tf.tidy(() => {
    let x: T4 = convLayer(w, tf.tensor4d(px, [1, SIZE, SIZE, 3]), 'conv32_down', 2, true);
    x = tf.maxPool(x, 3, 2, 'valid');
    for (const b of ['conv32_1', 'conv32_2', 'conv32_3']) x = residual(w, x, b);
    for (const [down, ...rest] of [['conv64_down', 'conv64_1', 'conv64_2', 'conv64_3'], ['conv128_down', 'conv128_1', 'conv128_2'], ['conv256_down', 'conv256_1', 'conv256_2'], ['conv256_down_out']]) {
      x = residualDown(w, x, down!);
      for (const b of rest) x = residual(w, x, b);
    }
    return tf.matMul(tf.mean(x, [1, 2]) as tf.Tensor2D, w.fc as tf.Tensor2D);
  });
  const e = Float32Array.from(await v.data() as Float32Array);
  v.dispose();
  return e;
}

export function l2normalise(e: Float32Array): Float32Array {
  let n = 0;
  for (const x of e) n += x * x;
  n = Math.sqrt(n) || 1;
  return e.map((x) => x / n);
}

/** 1 − Euclidean distance of raw descriptors (dlib's own measure, on a "higher = more alike" scale). */
export function dlibCloseness(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i]! - b[i]!) ** 2;
  return 1 - Math.sqrt(s);
}

export function dlibEmbedFace(img: RgbImage, face: Face): Promise<Float32Array> {
  return dlibEmbedChip(dlibChip(img, face.landmarks));
}
