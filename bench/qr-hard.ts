// QR on hard photos: the same seeded set (test/helpers/qr-hard.ts: perspective, blur, low contrast, damage, small
// modules, combined, the photo-like kinds, and test/helpers/qr-camera.ts's everyday bad phone photo) read by zxing-wasm alone (one call, tryHarder/rotate/invert/downscale,
// after a sharp decode), by jsQR, and by our qr-recognize task (zxing + prepared variants + the grid reader), in the
// same run; decodes per kind and time. `--ranges` measures several seed ranges in one run, each its own table:
// 1:8 is the set the earlier rounds tuned on, 3000:12 a later measuring range no round tuned on (tuning used 2000+);
// session 11 (qr23) tuned on 5000..5023 and measured on 3000:12 and 7000:16. Session 18 (qr27) added the kinds of
// test/helpers/qr-more.ts (logo, cylinder, mirrored, screen, low-jpeg) after the camera kind.
// Run: nice -n 19 npm run bench -- qr-hard [--per-kind 20] [--seed 1] [--ranges 1:8,3000:12] [--warm 1]
//      [--jsqr 0 (skip jsQR: slow on scenes)] [--budget k (grid reader's CPU budget, × zxing's first pass)] [--per-mpx m] [--max-mpx m] [--floor ms]
import { loadavg } from 'node:os';
import sharp from 'sharp';
import jsQRmod from 'jsqr';
import { readBarcodes } from 'zxing-wasm/reader';
import { hardQrSet, photoQrSet, QR_KINDS, QR_PHOTO_KINDS } from '../test/helpers/qr-hard.js';
import { cameraQrSet } from '../test/helpers/qr-camera.js';
import { moreQrSet, QR_MORE_KINDS } from '../test/helpers/qr-more.js';
import qrRecognize, { zxingReady, BASE_OPTIONS, GRID_BUDGET } from '../src/tasks/qr-recognize.js';
import { table } from './lib/load.js';
import { warmQr } from './lib/qr-warm.js';

const jsQR = ((jsQRmod as unknown as { default?: unknown }).default ?? jsQRmod) as unknown as (d: Uint8ClampedArray, w: number, h: number) => { data: string } | null;
const argv = process.argv;
const str = (name: string): string | undefined => { const i = argv.indexOf(`--${name}`); return i > 0 ? argv[i + 1] : undefined; };
const arg = (name: string, def: number): number => Number(str(name) ?? def);
const JSQR = arg('jsqr', 1) !== 0;
// --budget k: the grid reader's CPU budget as k × zxing's first pass (default: the task's own)
GRID_BUDGET.perFirst = arg('budget', GRID_BUDGET.perFirst);
GRID_BUDGET.perMpx = arg('per-mpx', GRID_BUDGET.perMpx);
// --floor ms: the budget's floor (CPU ms; small frames of a code alone get this)
GRID_BUDGET.floorMs = arg('floor', GRID_BUDGET.floorMs);
// --max-mpx m: the frame size (Mpx) past which the per-Mpx budget stops growing
GRID_BUDGET.maxMpx = arg('max-mpx', GRID_BUDGET.maxMpx);
const ranges = (str('ranges') ?? `${arg('seed', 1)}:${arg('per-kind', 20)}`).split(',').map((r) => r.split(':').map(Number) as [number, number]);
const cpu = (c: NodeJS.CpuUsage): number => { const u = process.cpuUsage(c); return (u.user + u.system) / 1000; };
const load = (): string => loadavg().map((v) => v.toFixed(1)).join(' ');
type Row = { n: number; zxing: number; jsqr: number; ours: number; methods: Record<string, number> };

async function measure(SEED: number, PER: number): Promise<void> {
  const set: { kind: string; data: string; bytes: Buffer }[] = [...(await hardQrSet(PER, SEED)), ...(await photoQrSet(PER, SEED)), ...(await cameraQrSet(PER, SEED)), ...(await moreQrSet(PER, SEED))];
  const per: Record<string, Row> = {};
  let tZ = 0, tO = 0, tJ = 0, cZ = 0, cO = 0;
  const load0 = load();
  for (const s of set) {
    const row = (per[s.kind] ??= { n: 0, zxing: 0, jsqr: 0, ours: 0, methods: {} });
    row.n++;
    let t0 = performance.now();
    let c0 = process.cpuUsage();
    const { data, info } = await sharp(s.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const px = new Uint8ClampedArray(data.buffer, data.byteOffset, data.length);
    const z = await readBarcodes({ data: px, width: info.width, height: info.height } as never, BASE_OPTIONS);
    tZ += performance.now() - t0;
    cZ += cpu(c0);
    if (z.some((r) => r.isValid && r.text === s.data)) row.zxing++;
    t0 = performance.now();
    c0 = process.cpuUsage();
    const o = await qrRecognize({ image: s.bytes });
    tO += performance.now() - t0;
    cO += cpu(c0);
    if (o.success && o.data === s.data) { row.ours++; row.methods[o.method!] = (row.methods[o.method!] ?? 0) + 1; }
    if (!JSQR) continue;
    t0 = performance.now();
    if (jsQR(px, info.width, info.height)?.data === s.data) row.jsqr++;
    tJ += performance.now() - t0;
  }
  const rows = [...QR_KINDS, ...QR_PHOTO_KINDS, 'camera', ...QR_MORE_KINDS, 'all'].map((k) => {
    const r = k === 'all'
      ? Object.values(per).reduce((a, b) => ({ n: a.n + b.n, zxing: a.zxing + b.zxing, jsqr: a.jsqr + b.jsqr, ours: a.ours + b.ours, methods: Object.fromEntries([...new Set([...Object.keys(a.methods), ...Object.keys(b.methods)])].map((m) => [m, (a.methods[m] ?? 0) + (b.methods[m] ?? 0)])) }))
      : per[k]!;
    return { kind: k, images: r.n, 'zxing-wasm alone': r.zxing, jsQR: JSQR ? r.jsqr : '–', ours: r.ours, 'ours by method': Object.entries(r.methods).map(([m, c]) => `${m} ${c}`).join(', ') };
  });
  const all = rows[rows.length - 1]!;
  console.log(`\n### QR on hard photos: ${set.length} images (${PER} per kind, seeds ${SEED}..${SEED + PER - 1}); grid budget ${GRID_BUDGET.perFirst}× / ${GRID_BUDGET.floorMs} ms / ${GRID_BUDGET.perMpx} ms per Mpx up to ${GRID_BUDGET.maxMpx} Mpx; load average ${load0} → ${load()}\n`);
  console.log(table(rows));
  console.log(`\ndecodes: zxing alone ${all['zxing-wasm alone']}, ours ${all.ours} (${(((all.ours as number) / Math.max(1, all['zxing-wasm alone'] as number) - 1) * 100).toFixed(1)} % more), jsQR ${all.jsQR}`);
  console.log(`CPU time for the set (process.cpuUsage, all threads): zxing alone ${cZ.toFixed(0)} ms, ours ${cO.toFixed(0)} ms (${(cO / cZ).toFixed(2)}×)`);
  console.log(`time for the set: zxing alone ${tZ.toFixed(0)} ms, ours ${tO.toFixed(0)} ms (${(tO / tZ).toFixed(2)}×), jsQR ${tJ.toFixed(0)} ms (decode excluded)`);
}

await zxingReady();
await warmQr(arg('warm', 1));
for (const [seed, per] of ranges) await measure(seed, per);
