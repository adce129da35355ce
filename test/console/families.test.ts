// The console in headless Chromium: one test per endpoint family that fills the form the page built from
// /openapi.json, submits it, and checks what the page draws (image sizes, boxes, progress, text). Screenshots go
// to test-output/console/ for a person to look at.
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { startTestServer } from '../helpers/server.js';
import { greenScreen, receiptScene, cardScene } from '../helpers/images.js';
import { renderCard } from '../helpers/id-cards.js';
import { imageServer } from '../studio/helpers.js';
import { admin } from '../print/helpers.js';
import { REPO, shared, skipFileWithoutShared } from '../helpers/shared.js';
import { sampleDataDir } from '../law/fixture.js';

const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
const SHOTS = path.join(REPO, 'test-output', 'console');
const FACE = shared('faces', 'people', 'amy', 'amy1.png');

if (!chromium) {
  t.test('console families in a browser', { skip: 'Chromium not installed (apt-get install chromium)' }, () => undefined);
} else {
  await skipFileWithoutShared('law-corpus', 'sample');
  await skipFileWithoutShared('faces', 'people');
  const { chromium: pw } = await import('playwright-core');
  fs.mkdirSync(SHOTS, { recursive: true });
  const files: Record<string, Buffer> = {};
  const web = await imageServer(files);
  const s = await startTestServer({ workers: 2, dataDir: await sampleDataDir(), env: { SEJONG_CONSOLE_PASSWORD: 'pw', SEJONG_FETCH_ALLOW: '127.0.0.1' } });
  const browser = await pw.launch({ executablePath: chromium, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  t.teardown(async () => {
    await browser.close();
    await s.close();
    await web.close();
  });
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 1000 } });
  await context.addCookies([{ name: 'test_auth', value: 'pw', url: s.url + '/console' }]);
  const tmp = fs.mkdtempSync(path.join(REPO, 'test-output', 'upload-'));
  t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const upload = (name: string, bytes: Buffer) => {
    const p = path.join(tmp, name);
    fs.writeFileSync(p, bytes);
    return p;
  };

  async function open(family: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${s.url}/console#${family}`);
    await page.waitForSelector('body[data-ready=true]');
    await page.fill('#key', s.apiKey);
    await page.dispatchEvent('#key', 'change');
    return page;
  }
  /** the form of one operation ("POST /api/v1/…"), opened */
  async function form(page: Page, op: string) {
    const card = page.locator(`details.opcard[data-op="${op}"]`);
    await card.evaluate((d: { open: boolean }) => (d.open = true));
    return card;
  }
  const field = (card: ReturnType<Page['locator']>, where: string, name: string) => card.locator(`[data-where="${where}"][data-name="${name}"]`);
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const natural = (card: ReturnType<Page['locator']>, cls: string) => card.locator(`img.${cls}`).evaluate((i: { naturalWidth: number; naturalHeight: number }) => [i.naturalWidth, i.naturalHeight]);
  async function afterImage(card: ReturnType<Page['locator']>) {
    await card.locator('img.result-after').waitFor({ timeout: 120_000 });
    await card.locator('img.result-after').evaluate((i: { complete: boolean; naturalWidth: number; decode(): Promise<void> }) => i.decode());
    return natural(card, 'result-after');
  }

  t.test('QR: generate shows the code at the asked size; recognize reads it back', async (t) => {
    const page = await open('fam-QR-Code');
    const gen = await form(page, 'GET /api/v1/qrcode/generate');
    await field(gen, 'query', 'data').fill('https://sejong.example/ticket/42');
    await field(gen, 'query', 'size').fill('300x300');
    await gen.locator('button[type=submit]').click();
    t.same(await afterImage(gen), [300, 300]);
    const png = Buffer.from(await (await s.req('/api/v1/qrcode/generate?data=' + encodeURIComponent('https://sejong.example/ticket/42'))).arrayBuffer());
    const rec = await form(page, 'POST /api/v1/qrcode/recognize');
    await field(rec, 'multipart', 'image').setInputFiles(upload('qr.png', png));
    await rec.locator('button[type=submit]').click();
    await rec.locator('details.json pre').waitFor();
    t.match(await rec.locator('details.json pre').textContent(), /sejong\.example\/ticket\/42/);
    t.match(await rec.locator('p.status').textContent(), /^HTTP 200/);
    await shot(page, 'qr');
  });

  t.test('Remove background: before/after by URL, the after image has the source size', async (t) => {
    const g = await greenScreen({ width: 320, height: 240 });
    files['green.png'] = g.png;
    const page = await open('fam-Image-Processing');
    const card = await form(page, 'POST /api/v1/image/remove-background');
    await field(card, 'json', 'imageUrl').fill(`${web.url}/green.png`);
    await field(card, 'json', 'chromaKey').fill('{"color":"auto"}');
    await field(card, 'json', 'trimTransparent').selectOption('false');
    await card.locator('button[type=submit]').click();
    t.same(await afterImage(card), [320, 240]);
    t.same(await natural(card, 'result-before'), [320, 240]);
    t.match(await card.locator('details.json pre').first().textContent(), /"transparentPixels": [1-9]/);
    await shot(page, 'remove-background');
  });

  t.test('Contour: upload in, edges image of the same size out', async (t) => {
    const scene = await cardScene({ width: 400, height: 300 });
    const page = await open('fam-Contour');
    const card = await form(page, 'POST /api/v1/contour/extract');
    await field(card, 'multipart', 'image').setInputFiles(upload('scene.jpg', scene.jpeg));
    await card.locator('button[type=submit]').click();
    t.same(await afterImage(card), [400, 300]);
    await shot(page, 'contour');
  });

  t.test('Receipt: an async job shows its progress until done, then the result image', async (t) => {
    const scene = await receiptScene({ angle: -8 });
    const page = await open('fam-Receipt');
    const card = await form(page, 'POST /api/v1/receipt/optimize');
    await field(card, 'multipart', 'image').setInputFiles(upload('receipt.jpg', scene.jpeg));
    await card.locator('button[type=submit]').click();
    const [w, h] = await afterImage(card);
    t.ok(w! > 100 && h! > w!, `a portrait receipt ${w}x${h}`);
    t.equal(await card.locator('progress.job').evaluate((p: { value: number }) => p.value), 100);
    t.match(await card.locator('.jobstate').textContent(), /^completed/);
    await shot(page, 'receipt');
  });

  t.test('Perspective crop: the card comes out at the asked size', async (t) => {
    const scene = await cardScene({});
    const page = await open('fam-eKYC-Enhance');
    const card = await form(page, 'POST /api/v1/ekyc/perspective-crop');
    await field(card, 'multipart', 'image').setInputFiles(upload('card.jpg', scene.jpeg));
    await card.locator('button[type=submit]').click();
    await card.locator('p.status').waitFor({ timeout: 60_000 });
    t.match(await card.locator('p.status').textContent(), /^HTTP 200/);
    t.match(await card.locator('details.json pre').first().textContent(), /"success": true/, 'the card was found');
    const [w, h] = await afterImage(card);
    t.ok(w! >= 600 && Math.abs(w! / h! - 1280 / 807) < 0.05, `card aspect ${w}x${h}`);
    await shot(page, 'perspective-crop');
  });

  t.test('e-KYC OCR: fields read, their boxes drawn over the card', async (t) => {
    const c = await renderCard('jumin', { seed: 3 });
    const page = await open('fam-e-KYC');
    const card = await form(page, 'POST /api/v1/ekyc/ocr');
    await field(card, 'multipart', 'image').setInputFiles(upload('id.png', c.image));
    await field(card, 'multipart', 'doc_type').selectOption('jumin');
    await card.locator('button[type=submit]').click();
    await card.locator('p.status').waitFor({ timeout: 120_000 });
    t.match(await card.locator('p.status').textContent(), /^HTTP 200/, 'OCR answered');
    await card.locator('figure.boxed').waitFor({ timeout: 30_000 });
    const boxes = Number(await card.locator('figure.boxed').getAttribute('data-boxes'));
    t.ok(boxes >= 3, `${boxes} field boxes drawn`);
    t.match(await card.locator('details.json pre').textContent(), new RegExp(c.truth.name!));
    await shot(page, 'ekyc-ocr');
  });

  t.test('e-KYC enhance: the enhanced card is shown beside the original', async (t) => {
    const c = await renderCard('driver', { seed: 5, degrade: { blur: 1.2, noise: 6 } });
    const page = await open('fam-eKYC-Enhance');
    const card = await form(page, 'POST /api/v1/ekyc/enhance');
    await field(card, 'multipart', 'image').setInputFiles(upload('card.png', c.image));
    await field(card, 'multipart', 'doc_type').selectOption('driver');
    await card.locator('button[type=submit]').click();
    t.same(await afterImage(card), [c.width, c.height]);
    t.same(await natural(card, 'result-before'), [c.width, c.height]);
    await shot(page, 'ekyc-enhance');
  });

  /** the uploaded images drawn with their face boxes: [part, width, height, boxes drawn] */
  async function faceFigures(card: ReturnType<Page['locator']>, parts: string[]) {
    const out: Array<[string, number, number, number]> = [];
    for (const part of parts) {
      const fig = card.locator(`figure[data-part="${part}"]`);
      await fig.locator('canvas.boxes').waitFor({ timeout: 30_000 });
      const [w, h] = await fig.locator('img').evaluate((i: { naturalWidth: number; naturalHeight: number }) => [i.naturalWidth, i.naturalHeight]);
      out.push([part, w!, h!, Number(await fig.getAttribute('data-boxes'))]);
    }
    return out;
  }
  const size = async (file: string) => { const m = await sharp(file).metadata(); return [m.width!, m.height!]; };

  t.test('e-KYC face compare: the decision, the score and each image with its face box', async (t) => {
    const FACE2 = shared('faces', 'people', 'amy', 'amy2.png');
    const page = await open('fam-e-KYC');
    const card = await form(page, 'POST /api/v1/ekyc/face/compare');
    await field(card, 'multipart', 'image1').setInputFiles(FACE);
    await field(card, 'multipart', 'image2').setInputFiles(FACE2);
    await card.locator('button[type=submit]').click();
    await card.locator('details.json pre').waitFor({ timeout: 120_000 });
    const text = (await card.locator('details.json pre').textContent())!;
    t.match(text, /"passed": true/);
    t.match(text, /"similarity": 0\.\d+/);
    const [w1, h1] = await size(FACE);
    const [w2, h2] = await size(FACE2);
    t.same(await faceFigures(card, ['image1', 'image2']), [['image1', w1, h1, 1], ['image2', w2, h2, 1]], 'both photos shown at their size, one face box each');
    await shot(page, 'ekyc-face-compare');
  });

  t.test('e-KYC verify: the three results and the face boxes on the ID face and the selfie', async (t) => {
    const c = await renderCard('jumin', { seed: 11 });
    const SELFIE = shared('faces', 'people', 'amy', 'amy3.png');
    const page = await open('fam-e-KYC');
    const card = await form(page, 'POST /api/v1/ekyc/verify');
    await field(card, 'multipart', 'masked_id_image').setInputFiles(upload('masked.png', c.image));
    await field(card, 'multipart', 'face_image').setInputFiles(FACE);
    await field(card, 'multipart', 'selfie_image').setInputFiles(SELFIE);
    await field(card, 'multipart', 'id_card_type').selectOption('resident_registration');
    await card.locator('button[type=submit]').click();
    await card.locator('p.status').waitFor({ timeout: 120_000 });
    t.match(await card.locator('p.status').textContent(), /^HTTP 200/, 'verify answered');
    await card.locator('details.json pre').waitFor({ timeout: 30_000 });
    const answer = JSON.parse((await card.locator('details.json pre').textContent())!);
    t.equal(answer.results.face_match.passed, true, 'same person on the ID face and the selfie');
    t.ok(['ocr', 'face_match', 'liveness'].every((k) => typeof answer.results[k].passed === 'boolean'), 'the three results are shown');
    const [w1, h1] = await size(FACE);
    const [w2, h2] = await size(SELFIE);
    t.same(await faceFigures(card, ['face_image', 'selfie_image']), [['face_image', w1, h1, 1], ['selfie_image', w2, h2, 1]], 'the ID face and the selfie, one face box each');
    await shot(page, 'ekyc-verify');
  });

  t.test('Print: the composed sheet is shown at the asked width', async (t) => {
    await admin(s).album('console-album', 'none');
    files['ai.jpg'] = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#3a6ea5' } }).jpeg().toBuffer();
    const page = await open('fam-Composite-Print');
    const card = await form(page, 'POST /api/v1/composite/print');
    await field(card, 'json', 'ai_image_url').fill(`${web.url}/ai.jpg`);
    await field(card, 'json', 'album_id').fill('console-album');
    await field(card, 'json', 'job_id').fill('console-print-1');
    await field(card, 'json', 'settings').fill(JSON.stringify({ qr: { show: false }, event_name: '콘솔' }));
    await field(card, 'json', 'output').fill(JSON.stringify({ target_width: 600, quality: 80 }));
    await card.locator('button[type=submit]').click();
    const [w, h] = await afterImage(card);
    const answer = JSON.parse((await card.locator('details.json pre').textContent())!);
    t.equal(answer.status, 'completed');
    t.equal(w, 600, 'the sheet at the asked width');
    t.same([w, h], [answer.width, answer.height], 'the image drawn is the sheet the answer describes');
    await shot(page, 'print');
  });

  t.test('Photo studio: a skin retouch job by URL ends with the retouched image', async (t) => {
    files['face.png'] = fs.readFileSync(FACE);
    const meta = await sharp(files['face.png']).metadata();
    const page = await open('fam-Photo-Studio');
    const card = await form(page, 'POST /api/v1/studio/skin-retouch');
    await field(card, 'json', 'imageUrl').fill(`${web.url}/face.png`);
    await card.locator('button[type=submit]').click();
    t.same(await afterImage(card), [meta.width, meta.height]);
    await shot(page, 'studio');
  });

  t.test('Models: the catalog table marks retired models', async (t) => {
    const page = await open('fam-Models');
    const card = await form(page, 'GET /api/v1/models');
    await card.locator('button[type=submit]').click();
    await card.locator('table.rows').waitFor();
    const rows = await card.locator('table.rows tr').count();
    t.ok(rows > 5, `${rows - 1} models listed`);
    const retired = await card.locator('table.rows tr.retired').count();
    const catalog = (await (await s.req('/api/v1/models')).json()) as { models: Array<{ retired?: boolean; status?: string }> };
    t.equal(retired, catalog.models.filter((m) => m.retired || m.status === 'retired').length, 'every retired model is struck through');
    await shot(page, 'models');
  });

  t.test('Legal search: results over MCP, then an article\'s text', async (t) => {
    const page = await open('fam-law');
    await page.fill('#lawQuery', '근로시간');
    await page.click('#lawGo');
    await page.locator('#lawResults li').first().waitFor({ timeout: 60_000 });
    t.ok((await page.locator('#lawResults li').count()) > 0, 'results listed');
    await page.locator('#lawResults li a[data-law]').first().click();
    await page.locator('#lawArticle li a').first().waitFor({ timeout: 30_000 });
    await page.locator('#lawArticle li a').first().click();
    await page.locator('#lawArticle pre.article-text').waitFor({ timeout: 30_000 });
    const text = (await page.locator('#lawArticle pre.article-text').textContent())!;
    t.ok(text.length > 10 && /[가-힣]/.test(text), 'article text in Korean');
    await shot(page, 'law');
    // the REST form of the same statute: GET /api/v1/laws/{law_id}
    const lawId = (await page.locator('#lawResults li a[data-law]').first().getAttribute('data-law'))!;
    await page.locator('details.law-rest').evaluate((d: { open: boolean }) => (d.open = true));
    const card = await form(page, 'GET /api/v1/laws/{law_id}');
    await field(card, 'path', 'law_id').fill(lawId);
    await card.locator('button[type=submit]').click();
    await card.locator('p.status').waitFor({ timeout: 30_000 });
    t.match(await card.locator('p.status').textContent(), /^HTTP 200/, 'the REST form answers');
    t.match(await card.textContent(), /[가-힣]{2,}/, 'with the statute text');
    await shot(page, 'law-rest');
  });
}
