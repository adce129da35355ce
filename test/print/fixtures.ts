// Test images made on the fly: an AI picture (gradient with blocks), a signature PNG with transparent
// background, and ad creatives in distinct solid colours (so that pixel checks can find them).
import sharp from 'sharp';

export async function aiPicture(w = 1024, h = 1024): Promise<Buffer> {
  const data = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      data[i] = 40 + Math.round((150 * x) / w);
      data[i + 1] = 90 + Math.round((100 * y) / h);
      data[i + 2] = 200;
    }
  }
  return sharp(data, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

/** A dark-red scribble on a transparent 600x200 pad. */
export async function signaturePng(): Promise<Buffer> {
  const w = 600, h = 200;
  const data = Buffer.alloc(w * h * 4);
  for (let x = 60; x < 540; x++) {
    const yc = 100 + Math.round(50 * Math.sin(x / 30));
    for (let dy = -5; dy <= 5; dy++) {
      const i = ((yc + dy) * w + x) * 4;
      data[i] = 150; data[i + 1] = 10; data[i + 2] = 20; data[i + 3] = 255;
    }
  }
  return sharp(data, { raw: { width: w, height: h, channels: 4 } }).png().toBuffer();
}

export async function solid(w: number, h: number, rgb: [number, number, number], format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const s = sharp({ create: { width: w, height: h, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } });
  return format === 'png' ? s.png().toBuffer() : s.jpeg({ quality: 95 }).toBuffer();
}
