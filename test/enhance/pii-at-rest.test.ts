// Personal data at rest (issue 12 item 3): a pipeline job and its callback carry a name, a full resident
// registration number and an address; the raw LMDB file never holds them in clear, while the owner still reads them.
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, formData, type TestServer } from '../helpers/server.js';
import { renderCard } from '../helpers/id-cards.js';
import type { Callbacks } from '../../src/providers/callbacks.js';

async function receiver() {
  const got: string[] = [];
  const status = { code: 500 };
  const srv = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      got.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(status.code).end();
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/hook`, got, status, close: () => new Promise<void>((r) => srv.close(() => r())) };
}

const cbOf = (s: TestServer): Callbacks => s.services.ext.callbacks!;
async function until(s: TestServer, fn: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !fn(); i++) {
    await cbOf(s).tick();
    await cbOf(s).idle();
    await new Promise((r) => setTimeout(r, 50));
  }
  await cbOf(s).idle();
}

/** Every needle (UTF-8) that occurs in the raw bytes of the LMDB data file. */
function foundInDataFile(dir: string, needles: string[]): string[] {
  const raw = fs.readFileSync(path.join(dir, 'data.mdb'));
  return needles.filter((n) => raw.includes(Buffer.from(n, 'utf8')));
}

t.test('pipeline result, callback body and callback_meta are sealed in LMDB; the owner reads them', async (t) => {
  const rcv = await receiver();
  const s = await startTestServer({ manualClock: true, workers: 2, env: { SEJONG_FETCH_ALLOW: '127.0.0.1' } });
  t.teardown(async () => { await s.close(); await rcv.close(); });
  const card = await renderCard('jumin', { seed: 21, masked: false });
  const { name, address, jumin_full: rrn } = card.truth as Record<string, string>;
  t.match(rrn, /^\d{6}-\d{7}$/, 'the card carries a full resident number');
  const image = { image: { data: card.image, type: 'image/png', filename: 'card.png' } };
  const fields = { doc_type: 'jumin', skip_crop: 'true', skip_enhance: 'true' };

  // synchronous run: the owner gets the fields in clear
  const r = await s.req('/api/v1/ekyc/enhance-pipeline', { method: 'POST', body: formData(fields, image) });
  t.equal(r.status, 200);
  const b = await r.json();
  const read = b.steps.ocr.fields as Record<string, { text: string }>;
  const readRrn = read.jumin_full!.text;
  t.ok(readRrn.replace(/\D/g, '').length >= 13, `resident number read: ${readRrn}`);
  t.equal(readRrn.replace(/\D/g, ''), rrn.replace(/\D/g, ''), 'the full number is returned to the owner');

  // asynchronous run with a callback (the receiver refuses the first attempt: the body waits in the outbox)
  const meta = { customer: name, rrn, note: address };
  const a = await s.req('/api/v1/ekyc/enhance-pipeline', { method: 'POST', body: formData({ ...fields, callback_url: rcv.url, callback_meta: JSON.stringify(meta) }, image) });
  t.equal(a.status, 202);
  const { jobId } = await a.json();
  let st: Record<string, any> = {};
  for (let i = 0; i < 600; i++) {
    st = await (await s.req(`/api/v1/ekyc/enhance-pipeline/status/${jobId}`)).json();
    if (st.status !== 'processing') break;
    await new Promise((res) => setTimeout(res, 100));
  }
  t.equal(st.status, 'completed');
  t.equal(st.steps.ocr.fields.jumin_full.text, readRrn, 'the status poll returns the unsealed fields to the owner');
  await until(s, () => rcv.got.length >= 1);
  t.equal(rcv.got.length, 1, 'first attempt made and refused');
  t.equal(cbOf(s).forJob(jobId)!.state, 'pending', 'the body waits in the outbox');
  t.notOk(cbOf(s).forJob(jobId)!.body!.startsWith('{'), 'the stored body is sealed');

  const needles = [...new Set([rrn, rrn.replace('-', ''), readRrn, readRrn.replace(/\D/g, ''), name, address, address.split(' ').slice(0, 3).join(' '), read.name!.text, read.address!.text].filter((n) => n && n.length >= 2))];
  t.same(foundInDataFile(s.dataDir, needles), [], 'no name, resident number (with or without hyphen) or address in data.mdb');
  const key = Buffer.from(fs.readFileSync(path.join(s.dataDir, 'seal.key'), 'utf8').trim(), 'base64');
  t.equal(key.length, 32);
  t.equal(fs.readFileSync(path.join(s.dataDir, 'data.mdb')).includes(key), false, 'the installation key is not inside data.mdb');
  t.equal(fs.statSync(path.join(s.dataDir, 'seal.key')).mode & 0o077, 0, 'seal.key is readable by the owner only');

  // delivered: the receiver gets everything in clear, signed over the clear body
  rcv.status.code = 200;
  (s.clock as any).advance(6_000);
  await until(s, () => rcv.got.length >= 2);
  const body = JSON.parse(rcv.got[1]!);
  t.same(body.callback_meta, meta, 'callback_meta delivered unchanged');
  t.equal(body.result.steps.ocr.fields.jumin_full.text, readRrn);
  t.equal(cbOf(s).forJob(jobId)!.state, 'delivered');

  // after the result TTL the sweeper drops the sealed result; the tombstone keeps no personal data
  (s.clock as any).advance(2 * 3600_000);
  await s.services.jobs.sweep();
  const stored = (await s.services.jobs.repo.get(jobId))!;
  t.equal(stored.tombstone, true);
  t.equal(stored.sealedResult, undefined, 'the sealed result is gone');
  t.equal(stored.result, undefined);
  t.same(foundInDataFile(s.dataDir, needles), [], 'still nothing in clear after delivery and expiry');
});

t.test('ID card images of e-KYC jobs are stored sealed and served in clear', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const { jobs } = s.services;
  const marker = Buffer.from('CARD-IMAGE-BYTES 900101-1234567 홍길동 '.repeat(20));
  const { job } = await jobs.create({ family: 'ekyc_enhance' });
  await jobs.complete(job.id, { result: { note: 'ok' }, blobs: { image: { bytes: marker, contentType: 'image/jpeg' } } });
  const done = (await jobs.get(job.id))!;
  t.equal(done.sealedBlobs, true);
  t.same(await jobs.blob(done, 'image'), { bytes: marker, contentType: 'image/jpeg' }, 'read back in clear');
  t.same(done.result, { note: 'ok' });
  t.same(foundInDataFile(s.dataDir, ['CARD-IMAGE-BYTES', '9001011234567', '홍길동']), []);
  const { job: other } = await jobs.create({ family: 'receipt' });
  await jobs.complete(other.id, { blobs: { image: { bytes: Buffer.from('RECEIPT-IMAGE'), contentType: 'image/png' } } });
  t.equal((await jobs.get(other.id))!.sealedBlobs, undefined, 'other families keep plain blobs');
  t.equal((await jobs.blob((await jobs.get(other.id))!, 'image')).bytes.toString(), 'RECEIPT-IMAGE');
});
