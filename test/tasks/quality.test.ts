import t from 'tap';
import sharp from 'sharp';
import quality, { QUALITY } from '../../src/tasks/quality.js';
import { cardScene } from '../helpers/images.js';

t.test('quality: sharp card passes; blur, darkness, glare and small size are named', async (t) => {
  const scene = await cardScene({});
  const good = await quality({ image: scene.jpeg });
  t.ok(good.passed, 'a sharp, well-lit card passes');
  t.equal(good.isBlurry, false);
  t.equal(good.bucketKey, 'sharp-normal');
  t.ok(good.sharpness > 80, `sharpness ${good.sharpness} > 80`);
  t.ok(good.brightness > 40 && good.brightness < 70, `brightness ${good.brightness}`);
  t.same(good.suggestions, []);

  const blurred = await quality({ image: await sharp(scene.jpeg).blur(4).jpeg().toBuffer() });
  t.equal(blurred.isBlurry, true, 'sigma-4 blur is blurry');
  t.equal(blurred.passed, false);
  t.ok(blurred.metrics.laplacianVariance < QUALITY.blurVar);
  t.ok(blurred.sharpness < good.sharpness - 30, `blurred sharpness ${blurred.sharpness} well below ${good.sharpness}`);
  t.match(blurred.bucketKey, /^blurry-/);
  t.ok(blurred.suggestions.some((s) => /blurry/.test(s)));

  const dark = await quality({ image: await sharp(scene.jpeg).linear(0.25, 0).jpeg().toBuffer() });
  t.ok(dark.brightness < QUALITY.minBrightness, `dark brightness ${dark.brightness}`);
  t.equal(dark.passed, false);
  t.match(dark.bucketKey, /-dark$/);
  t.ok(dark.suggestions.some((s) => /too dark/.test(s)));

  // glare: a blown-out ellipse over a fifth of the card
  const { width, height } = scene;
  const glareSvg = Buffer.from(`<svg width="${width}" height="${height}"><ellipse cx="${width / 2}" cy="${height / 2}" rx="${width / 5}" ry="${height / 6}" fill="#ffffff"/></svg>`);
  const glare = await quality({ image: await sharp(scene.jpeg).composite([{ input: glareSvg }]).jpeg().toBuffer() });
  t.ok(glare.metrics.glareRatio > QUALITY.glareRatio);
  t.equal(glare.passed, false);
  t.match(glare.bucketKey, /-glare$/);
  t.ok(glare.suggestions.some((s) => /Glare/.test(s)));

  const tiny = await quality({ image: await sharp(scene.jpeg).resize(300).jpeg().toBuffer() });
  t.equal(tiny.passed, false);
  t.ok(tiny.suggestions.some((s) => /too small/.test(s)));
});

t.test('quality on card captures: a clean white card scores high; darkened paper is no gain; a glare spot is named', async (t) => {
  const { renderCard, photographCard } = await import('../helpers/id-cards.js');
  for (const doc of ['jumin', 'driver', 'alien'] as const) {
    const card = await renderCard(doc, { seed: 3 });
    const clean = await quality({ image: card.image });
    t.ok(clean.brightness > 85, `${doc}: white paper, brightness ${clean.brightness}`);
    t.equal(clean.bucketKey, 'sharp-normal', `${doc}: a clean card is not "bright" or "glare"`);
    t.equal(clean.passed, true);
    t.ok(clean.overallScore >= 95, `${doc}: overall ${clean.overallScore} ≥ 95`);
    const darkened = await quality({ image: await sharp(card.image).linear(0.9, 0).png().toBuffer() });
    t.ok(darkened.overallScore <= clean.overallScore, `${doc}: paper darkened to ~220 scores ${darkened.overallScore} ≤ ${clean.overallScore}`);
    const q60 = await quality({ image: await photographCard(card, {}, 3) });
    t.equal(q60.passed, true, `${doc}: JPEG q60 passes`);
  }
  const card = await renderCard('jumin', { seed: 3 });
  const glare = await quality({ image: await photographCard(card, { glare: 0.85, width: 640 }, 3) });
  t.ok(glare.metrics.glareRatio > QUALITY.glareRatio, `glare spot: ${glare.metrics.glareRatio} blown out`);
  t.equal(glare.bucketKey, 'sharp-glare');
  t.equal(glare.passed, false);
});
