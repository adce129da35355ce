// Thin and huge-aspect images over HTTP on the endpoints that failed with 500 / INTERNAL_ERROR (qrcode/recognize,
// receipt jobs) or blew up memory (ekyc/ocr): a proper result or 400 naming the field; a job never INTERNAL_ERROR.
import t from 'tap';
import sharp from 'sharp';
import { startTestServer, formData, type TestServer } from '../helpers/server.js';

const SIZES: [number, number][] = [[1, 1], [1, 300], [300, 1], [20000, 10], [10, 20000]];
const png = (w: number, h: number): Promise<Buffer> => sharp({ create: { width: w, height: h, channels: 3, background: '#808080' } }).png().toBuffer();
let s: TestServer;
t.before(async () => { s = await startTestServer(); });
t.teardown(() => s?.close());
const post = async (path: string, fields: Record<string, string>, image: Buffer) => {
  const r = await s.req(path, { method: 'POST', body: formData(fields, { image: { data: image, type: 'image/png' } }) });
  return { status: r.status, body: (await r.json()) as any };
};

t.test('qrcode/recognize: 200 "no code" on thin images', async (t) => {
  for (const [w, h] of SIZES) {
    const r = await post('/api/v1/qrcode/recognize', {}, await png(w, h));
    t.equal(r.status, 200, `${w}x${h}`);
    t.equal(r.body.success, false, `${w}x${h}: no code (${r.body.message ?? r.body.error?.message})`);
  }
});

t.test('ekyc/ocr: absurd aspect → 400 naming image', async (t) => {
  for (const [w, h] of [[1, 300], [300, 1], [20000, 10], [10, 20000]] as const) {
    const r = await post('/api/v1/ekyc/ocr', { doc_type: 'jumin' }, await png(w, h));
    t.equal(r.status, 400, `${w}x${h}`);
    t.equal(r.body.error.code, 'INVALID_REQUEST');
    t.equal(r.body.error.field, 'image');
    t.match(r.body.error.message, /aspect ratio between 1:4 and 4:1/);
  }
});

t.test('receipt/optimize: refused at once or a job that never ends INTERNAL_ERROR', async (t) => {
  for (const [w, h] of SIZES) {
    const r = await post('/api/v1/receipt/optimize', {}, await png(w, h));
    if (r.status !== 200) {
      t.equal(r.status, 400, `${w}x${h}: refused`);
      t.equal(r.body.error.field, 'image');
      continue;
    }
    let st: any;
    for (let i = 0; i < 600; i++) {
      st = await (await s.req(`/api/v1/receipt/status/${r.body.jobId}`)).json();
      if (st.status !== 'processing') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    t.equal(st.status, 'failed', `${w}x${h}: the job failed`);
    t.equal(st.error?.code, 'INVALID_REQUEST', `${w}x${h}: ${JSON.stringify(st.error)}`);
  }
});
