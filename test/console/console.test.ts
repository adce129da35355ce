import t from 'tap';
import fs from 'node:fs';
import { startTestServer } from '../helpers/server.js';

t.test('console: disabled without a password', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const r = await s.req('/console', { key: null, redirect: 'manual' });
  t.equal(r.status, 404);
  t.match(await r.json(), { error: { code: 'NOT_FOUND', message: /SEJONG_CONSOLE_PASSWORD/ } });
});

t.test('console: cookie test_auth from the login page guards the test page', async (t) => {
  const s = await startTestServer({ env: { SEJONG_CONSOLE_PASSWORD: 'open sesame' } });
  t.teardown(() => s.close());
  const anon = await s.req('/console', { key: null, redirect: 'manual' });
  t.equal(anon.status, 302);
  t.equal(anon.headers.get('location'), '/console/login');
  const wrong = await s.req('/console/login', { key: null, method: 'POST', json: { password: 'nope' } });
  t.equal(wrong.status, 401);
  t.equal((await wrong.json()).error.message, 'Wrong password');
  const ok = await s.req('/console/login', { key: null, method: 'POST', json: { password: 'open sesame' } });
  t.equal(ok.status, 204);
  const setCookie = ok.headers.get('set-cookie')!;
  t.match(setCookie, /^test_auth=open%20sesame; Path=\/console; HttpOnly; SameSite=Strict/);
  const page = await s.req('/console', { key: null, headers: { cookie: setCookie.split(';')[0]! } });
  t.equal(page.status, 200);
  t.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.match(page.headers.get('content-security-policy'), /default-src 'self'/);
  t.match(await page.text(), /sejong test console[\s\S]*id="families"[\s\S]*<script src="\/console\/app\.js">/);
  const js = await s.req('/console/app.js', { key: null });
  t.equal(js.status, 200);
  t.match(js.headers.get('content-type'), /^text\/javascript/);
  const forged = await s.req('/console', { key: null, redirect: 'manual', headers: { cookie: 'test_auth=open' } });
  t.equal(forged.status, 302, 'a wrong cookie is sent to the login page');
});

const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
t.test('console in a real browser: sign in, generate a QR code, list models', { skip: chromium ? false : 'Chromium not installed (apt-get install chromium)' }, async (t) => {
  const { chromium: pw } = await import('playwright-core');
  const s = await startTestServer({ env: { SEJONG_CONSOLE_PASSWORD: 'pw-123' } });
  const browser = await pw.launch({
    executablePath: chromium,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  t.teardown(async () => {
    await browser.close();
    await s.close();
  });
  // the console's CSP forbids eval; Playwright's string predicates need it, so its own evaluation bypasses CSP
  const page = await (await browser.newContext({ bypassCSP: true })).newPage();
  await page.goto(`${s.url}/console`);
  t.match(page.url(), /\/console\/login$/, 'redirected to sign in');
  await page.fill('#password', 'wrong');
  await page.click('button[type=submit]');
  await page.waitForFunction("document.getElementById('msg').textContent !== ''");
  t.equal(await page.textContent('#msg'), 'Wrong password');
  await page.fill('#password', 'pw-123');
  await Promise.all([page.waitForURL(/\/console$/), page.click('button[type=submit]')]);
  await page.waitForSelector('body[data-ready=true]');
  await page.waitForFunction("document.getElementById('health').textContent.startsWith('ready: ')");
  const families = await page.$$eval('#families a', (as: Array<{ textContent: string | null }>) => as.map((a) => a.textContent));
  for (const f of ['Image Processing', 'QR Code', 'Receipt', 'e-KYC', 'eKYC Enhance', 'Photo Studio', 'Composite/Print', 'Text-to-Image', 'Models', 'Jobs & Logs', 'Legal search']) t.ok(families.includes(f), `family ${f} in the menu`);
  // every family of /openapi.json has its panel (System and Console are this page's own; law is "Legal search")
  const doc = (await (await s.req('/openapi.json', { key: null })).json()) as { paths: Record<string, Record<string, { tags?: string[] }>> };
  const tags = new Set(Object.values(doc.paths).flatMap((p) => Object.values(p).map((op) => op.tags?.[0] ?? '')));
  const expected = [...tags].filter((x) => x && x !== 'System' && x !== 'Console').map((x) => (x === 'law' ? 'Legal search' : x));
  t.same([...families].sort(), expected.sort(), 'one menu entry per endpoint family');
  // and every operation of those families has its form
  const forms = await page.$$eval('details.opcard', (ds: Array<{ getAttribute(n: string): string | null }>) => ds.map((d) => d.getAttribute('data-op')));
  const ops = Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).filter(([, op]) => !['System', 'Console'].includes(op.tags?.[0] ?? '') && !(op.tags?.[0] === 'law' && !p.startsWith('/api/'))).map(([m]) => `${m.toUpperCase()} ${p}`));
  t.same(ops.filter((o) => !forms.includes(o)), [], 'a form for every operation (MCP is tried through the legal search)');
  await page.fill('#key', s.apiKey);
  await page.dispatchEvent('#key', 'change');
  await page.click('#families a[data-target="fam-Jobs-Logs"]');
  const card = page.locator('details.opcard[data-op="GET /api/v1/jobs"]');
  await card.evaluate((d: { open: boolean }) => (d.open = true));
  await card.locator('button[type=submit]').click();
  await card.locator('p.status').waitFor();
  t.match(await card.locator('p.status').textContent(), /^HTTP 200/, 'the key was accepted');
});
