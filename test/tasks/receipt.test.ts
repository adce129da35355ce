import t from 'tap';
import sharp from 'sharp';
import receipt from '../../src/tasks/receipt.js';
import { pngHeader } from '../../src/tasks/lib/png1.js';
import { receiptScene } from '../helpers/images.js';

t.test('receipt: deskew error, crop to the paper, 1-bit 300-dpi output', async (t) => {
  for (const angle of [12, -30, 40]) {
    const s = await receiptScene({ angle, shading: 0.5 });
    const r = await receipt({ image: s.jpeg });
    t.ok(r.paperFound, `paper found (${angle}°)`);
    t.ok(Math.abs(r.angle - angle) <= 0.5, `deskew error ${Math.abs(r.angle - angle).toFixed(2)}° <= 0.5° (true ${angle}, found ${r.angle})`);
    t.same(pngHeader(r.png), { width: 945, height: r.height, bitDepth: 1, colourType: 0 });
    // the paper is 480x900: the crop keeps its aspect ratio within 3%
    const ratio = r.cropBox[3] / r.cropBox[2];
    t.ok(Math.abs(ratio - 900 / 480) / (900 / 480) < 0.03, `crop aspect ${ratio.toFixed(3)} vs ${(900 / 480).toFixed(3)}`);
    // lighting evened out: the paper is white almost everywhere (ink is a small share), no shaded corner left black
    const { data, info } = await sharp(r.png).greyscale().raw().toBuffer({ resolveWithObject: true });
    let black = 0;
    for (let i = 0; i < data.length; i++) if (data[i]! < 128) black++;
    t.ok(black / data.length < 0.12 && black / data.length > 0.005, `ink share ${(black / data.length * 100).toFixed(1)}%`);
    // bottom-right quarter (darkest shading) is mostly white
    let brBlack = 0, brN = 0;
    for (let y = Math.floor(info.height * 0.8); y < info.height; y++) for (let x = Math.floor(info.width * 0.6); x < info.width; x++) { brN++; if (data[y * info.width + x]! < 128) brBlack++; }
    t.ok(brBlack / brN < 0.05, `shaded corner is clean (${(brBlack / brN * 100).toFixed(1)}% black)`);
    t.equal(r.threshold.method, 'sauvola');
    t.same(Object.keys(r.timings_ms), ['check', 'decode', 'findPaper', 'skew', 'deskewCrop', 'resize', 'flatten', 'threshold', 'despeckle', 'encode'], 'one timing per pipeline step, in order');
  }
});

t.test('receipt: on a light table (paper not separable) the text sets angle and crop; commas survive', async (t) => {
  const s = await receiptScene({ angle: -25, table: 200, shading: 0.4 });
  const r = await receipt({ image: s.jpeg });
  t.equal(r.angleSource, 'text');
  t.ok(Math.abs(r.angle - -25) <= 0.5, `deskew error ${Math.abs(r.angle + 25).toFixed(2)}°`);
  // cropped to the text, not the whole rotated frame (the text block is ~440 px wide; the rotated frame ~1380)
  t.ok(r.cropBox[2] < 0.6 * s.width, `crop width ${r.cropBox[2]} of ${s.width}`);
  // small dark components (commas, dots) are kept: count components of 5..60 px
  const { data, info } = await sharp(r.png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const seen = new Uint8Array(data.length);
  let small = 0;
  for (let i = 0; i < data.length; i++) {
    if (data[i]! >= 128 || seen[i]) continue;
    let n = 0;
    const st = [i];
    seen[i] = 1;
    while (st.length) {
      const j = st.pop()!;
      n++;
      const x = j % info.width, y = (j - x) / info.width;
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const xx = x + dx!, yy = y + dy!;
        if (xx < 0 || yy < 0 || xx >= info.width || yy >= info.height) continue;
        const k = yy * info.width + xx;
        if (data[k]! < 128 && !seen[k]) { seen[k] = 1; st.push(k); }
      }
    }
    if (n >= 5 && n <= 60) small++;
  }
  t.ok(small >= 20, `${small} small marks (commas, dots, hyphens) kept`);
});

t.test('receipt: a photo that is all paper is deskewed from the text lines', async (t) => {
  const s = await receiptScene({ angle: 0, shading: 0.2 });
  // crop inside the paper, then rotate by 7 degrees with white fill
  const inner = await sharp(s.jpeg).extract({ left: Math.round(s.width / 2 - 200), top: Math.round(s.height / 2 - 380), width: 400, height: 700 }).rotate(7, { background: '#f7f5ef' }).jpeg().toBuffer();
  const r = await receipt({ image: inner });
  t.equal(r.paperFound, false);
  t.equal(r.angleSource, 'text');
  t.ok(Math.abs(r.angle - 7) <= 0.5, `deskew error ${Math.abs(r.angle - 7).toFixed(2)}°`);
});
