// /docs in headless Chromium, under the page's own Content-Security-Policy: Swagger UI loads /openapi.json from this
// server, "Authorize" takes an API key, and "Try it out" uploads a file (multipart) to POST /api/v1/qrcode/recognize
// and shows the 200 answer with the decoded text. A screenshot goes to test-output/console/docs-try-it.png.
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer } from '../helpers/server.js';
import { REPO } from '../helpers/shared.js';

const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));

t.test('/docs: try it out uploads a file and shows the answer', { skip: chromium ? false : 'Chromium not installed (apt-get install chromium)' }, async (t) => {
  const { chromium: pw } = await import('playwright-core');
  const s = await startTestServer();
  const browser = await pw.launch({ executablePath: chromium, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-docs-'));
  t.teardown(async () => {
    await browser.close();
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const qr = await s.req('/api/v1/qrcode/generate?data=hello-from-docs&size=256x256', { key: null });
  t.equal(qr.status, 200);
  const file = path.join(dir, 'code.png');
  fs.writeFileSync(file, Buffer.from(await qr.arrayBuffer()));

  const page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  const outside: string[] = [];
  page.on('request', (r) => { if (!r.url().startsWith(s.url) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) outside.push(r.url()); });
  await page.goto(`${s.url}/docs`);

  // the API key, through "Authorize" (the X-API-Key scheme is the first one of the dialog)
  await page.locator('.auth-wrapper button.authorize').click();
  await page.locator('.auth-container input').first().fill(s.apiKey);
  await page.locator('.auth-btn-wrapper button.authorize').first().click();
  await page.locator('.auth-btn-wrapper button.btn-done').first().click();

  const op = page.locator('.opblock.opblock-post', { has: page.locator('[data-path="/api/v1/qrcode/recognize"]') });
  await op.locator('.opblock-summary').first().click();
  await op.locator('button.try-out__btn').click();
  await op.locator('input[type=file]').setInputFiles(file);
  await op.locator('button.execute').click();
  const status = op.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor({ timeout: 60_000 });
  t.equal((await status.textContent())?.trim(), '200', 'the upload was answered 200');
  const body = await op.locator('.live-responses-table .response-col_description pre').first().textContent();
  const answer = JSON.parse(body ?? '{}') as { success?: boolean; data?: string; text?: string };
  t.equal(answer.success, true);
  t.match(JSON.stringify(answer), /hello-from-docs/, 'the decoded text is shown');
  const curl = await op.locator('.curl-command').textContent();
  t.match(curl, /multipart\/form-data/, 'sent as multipart');
  t.match(curl, /X-API-Key/, 'with the key from Authorize');

  fs.mkdirSync(path.join(REPO, 'test-output', 'console'), { recursive: true });
  await op.screenshot({ path: path.join(REPO, 'test-output', 'console', 'docs-try-it.png') });
  t.same(outside, [], 'nothing fetched from outside this server (works offline)');
  t.same(problems, [], 'no script errors (the CSP lets Swagger UI run)');
});
