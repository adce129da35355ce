// e-KYC endpoints through the real server: face compare, liveness, OCR, verify (+ audit record), bad inputs.
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { startTestServer, formData, type TestServer } from '../helpers/server.js';
import { renderCard } from '../helpers/id-cards.js';
import { needsShared, shared } from '../helpers/shared.js';

const FACES = shared('faces');
/** the tests that read photos from ../shared/faces skip, saying so, when it is absent */
const WITH_FACES = needsShared('faces');
const photo = (p: string) => fs.readFileSync(path.join(FACES, p));
const png = (name: string, data: Buffer) => ({ data, filename: name, type: 'image/png' });
const jpg = (name: string, data: Buffer) => ({ data, filename: name, type: 'image/jpeg' });

let s: TestServer;
t.before(async () => {
  s = await startTestServer({ workers: 2 });
});
t.teardown(() => s.close());

const post = (p: string, fields: Record<string, string | undefined>, files: Parameters<typeof formData>[1]) => s.req(p, { method: 'POST', body: formData(fields, files) });

t.test('face/compare: genuine, impostor, no face, threshold', WITH_FACES, async (t) => {
  let r = await post('/api/v1/ekyc/face/compare', {}, { image1: png('a.png', photo('people/sheldon/sheldon1.png')), image2: png('b.png', photo('people/sheldon/sheldon2.png')) });
  t.equal(r.status, 200);
  let j = await r.json();
  t.equal(j.face1_detected, true);
  t.equal(j.face2_detected, true);
  t.equal(j.threshold, 0.6);
  t.ok(j.similarity >= 0.6, `genuine similarity ${j.similarity}`);
  t.equal(j.passed, true);
  t.type(j.processing_time_ms, 'number');

  r = await post('/api/v1/ekyc/face/compare', { threshold: '0.5' }, { image1: png('a.png', photo('people/sheldon/sheldon1.png')), image2: png('b.png', photo('people/penny/penny1.png')) });
  j = await r.json();
  t.equal(j.threshold, 0.5);
  t.ok(j.similarity < 0.5, `impostor similarity ${j.similarity}`);
  t.equal(j.passed, false);

  r = await post('/api/v1/ekyc/face/compare', {}, { image1: png('cat.png', photo('public-domain/chelsea.png')), image2: png('b.png', photo('people/penny/penny1.png')) });
  t.equal(r.status, 200);
  j = await r.json();
  t.equal(j.face1_detected, false);
  t.equal(j.face2_detected, true);
  t.equal(j.passed, false);
  t.equal(j.similarity, 0);

  r = await post('/api/v1/ekyc/face/compare', {}, { image1: jpg('g.jpg', photo('groups/bbt4.jpg')), image2: png('b.png', photo('people/penny/penny1.png')) });
  j = await r.json();
  t.equal(j.face1_count, 6);
  t.match(j.notes.join(' '), /largest/);

  r = await post('/api/v1/ekyc/face/compare', { threshold: '1.5' }, { image1: png('a.png', photo('people/sheldon/sheldon1.png')), image2: png('b.png', photo('people/sheldon/sheldon2.png')) });
  t.equal(r.status, 400);
  t.equal((await r.json()).error.field, 'threshold');
  r = await post('/api/v1/ekyc/face/compare', {}, { image1: png('a.png', photo('people/sheldon/sheldon1.png')) });
  t.equal(r.status, 400);
  t.equal((await r.json()).error.field, 'image2');
  r = await post('/api/v1/ekyc/face/compare', {}, { image1: png('a.png', Buffer.from('not an image at all')), image2: png('b.png', photo('people/sheldon/sheldon2.png')) });
  t.equal(r.status, 415);
  t.equal((await r.json()).error.code, 'UNSUPPORTED_MEDIA_TYPE');
});

t.test('liveness/check: real, print, replay, no face', WITH_FACES, async (t) => {
  const check = async (f: string) => (await post('/api/v1/ekyc/liveness/check', {}, { image: jpg('x.jpg', photo(f)) })).json();
  const real = await check('liveness/real.jpg');
  t.equal(real.face_detected, true);
  t.equal(real.passed, true);
  t.equal(real.threshold, 0.5);
  t.ok(real.score > 0.55, `real ${real.score}`);
  const print = await check('liveness/print_attack.jpg');
  t.equal(print.passed, false);
  t.ok(print.score < 0.2, `print ${print.score}`);
  t.equal((await check('liveness/replay_attack.jpg')).passed, false);
  const none = await check('public-domain/coffee.png');
  t.same([none.face_detected, none.passed, none.score], [false, false, 0]);
  const r = await post('/api/v1/ekyc/liveness/check', {}, {});
  t.equal(r.status, 400);
  t.equal((await r.json()).error.field, 'image');
});

t.test('ocr: fields, filter, bad doc_type, bad field', async (t) => {
  const card = await renderCard('driver', { seed: 42 });
  let r = await post('/api/v1/ekyc/ocr', { doc_type: 'driver' }, { image: png('card.png', card.image) });
  t.equal(r.status, 200);
  let j = await r.json();
  t.equal(j.docType, 'driver');
  t.equal(j.fields.name.text, card.truth.name);
  t.equal(j.fields.jumin_full.text, card.truth.jumin_full);
  t.equal(j.fields.license_number.text, card.truth.license_number);
  t.equal(j.fields.birth_date.text, card.truth.birth_date);
  t.equal(j.fields.name.bbox.length, 4);
  t.ok(j.overallConfidence > 0.7);
  t.type(j.processingTimeMs, 'number');

  r = await post('/api/v1/ekyc/ocr', { doc_type: 'driver', fields: 'name,jumin_full' }, { image: png('card.png', card.image) });
  j = await r.json();
  t.same(Object.keys(j.fields).sort(), ['jumin_full', 'name']);

  r = await post('/api/v1/ekyc/ocr', { doc_type: 'passport' }, { image: png('card.png', card.image) });
  t.equal(r.status, 400);
  t.equal((await r.json()).error.field, 'doc_type');
  r = await post('/api/v1/ekyc/ocr', { doc_type: 'jumin', fields: 'name,license_number' }, { image: png('card.png', card.image) });
  t.equal(r.status, 400);
  const e = (await r.json()).error;
  t.equal(e.field, 'fields');
  t.match(e.message, /license_number/);
  r = await post('/api/v1/ekyc/ocr', {}, { image: png('card.png', card.image) });
  t.equal(r.status, 400);
  t.equal((await r.json()).error.field, 'doc_type');
});

t.test('verify: passes end to end, audit record without images', WITH_FACES, async (t) => {
  const face = photo('public-domain/grace_hopper_512x512.jpg');
  const selfie = await sharp(face).extract({ left: 40, top: 20, width: 440, height: 470 }).modulate({ brightness: 1.05 }).jpeg({ quality: 85 }).toBuffer();
  const card = await renderCard('jumin', { seed: 9, photo: face });
  const r = await post('/api/v1/ekyc/verify', { id_card_type: 'resident_registration' }, {
    masked_id_image: png('id.png', card.image), face_image: jpg('face.jpg', face), selfie_image: jpg('selfie.jpg', selfie),
  });
  t.equal(r.status, 200);
  const j = await r.json();
  t.equal(j.success, true);
  t.match(j.verification_id, /^ekyc_verify_\d{8}_/);
  t.equal(j.results.ocr.name, card.truth.name);
  t.equal(j.results.ocr.birth_date, card.truth.birth_date);
  t.ok(Array.isArray(j.results.ocr.suggestions));
  t.equal(j.results.face_match.passed, true);
  t.equal(j.results.face_match.threshold, 0.6);
  t.equal(j.results.liveness.passed, true);
  t.equal(j.overall_passed, true, JSON.stringify(j.failure_reasons));
  t.same(j.failure_reasons, []);
  const rec = (await s.services.verifications.get(j.verification_id))!;
  t.ok(rec, 'audit record stored');
  t.equal(rec.overallPassed, true);
  const text = JSON.stringify(rec);
  t.notOk(text.includes(card.truth.name), 'name not stored in clear');
  t.notOk(text.includes(card.truth.birth_date), 'birth date not stored in clear');
  t.ok(text.length < 2000, 'no image bytes in the record');
  t.match(rec.ocr.idNumberMasked, /^\d{6}-\d\*{6}$/);
});

t.test('verify: failures in plain words', WITH_FACES, async (t) => {
  const card = await renderCard('jumin', { seed: 10 });
  const r = await post('/api/v1/ekyc/verify', { id_card_type: 'resident_registration' }, {
    masked_id_image: png('id.png', card.image), face_image: png('face.png', photo('people/sheldon/sheldon1.png')), selfie_image: jpg('selfie.jpg', photo('liveness/print_attack.jpg')),
  });
  const j = await r.json();
  t.equal(j.overall_passed, false);
  t.equal(j.results.liveness.passed, false);
  t.equal(j.results.face_match.passed, false);
  t.match(j.failure_reasons.join(' '), /does not match/);
  t.match(j.failure_reasons.join(' '), /liveness/);
});

t.test('verify: passport MRZ check digits decide the OCR part', WITH_FACES, async (t) => {
  const { renderPassport } = await import('../helpers/id-cards.js');
  const face = photo('public-domain/grace_hopper_512x512.jpg');
  const p = await renderPassport({ seed: 3, corruptCheck: true });
  const r = await post('/api/v1/ekyc/verify', { id_card_type: 'passport' }, {
    masked_id_image: png('pp.png', p.image), face_image: jpg('face.jpg', face), selfie_image: jpg('selfie.jpg', face),
  });
  t.equal(r.status, 200);
  const j = await r.json();
  t.equal(j.results.ocr.passed, false);
  t.equal(j.overall_passed, false);
  t.match(j.failure_reasons.join(' '), /check digits/);
  t.equal(j.results.face_match.passed, true);
});

t.test('verify: bad input', WITH_FACES, async (t) => {
  const card = await renderCard('jumin', { seed: 11 });
  const face = photo('people/sheldon/sheldon1.png');
  const ok = { masked_id_image: png('id.png', card.image), face_image: png('f.png', face), selfie_image: png('s.png', face) };
  const expect = async (fields: Record<string, string | undefined>, files: Parameters<typeof formData>[1], status: number, field: string, code?: string) => {
    const r = await post('/api/v1/ekyc/verify', fields, files);
    const j = await r.json();
    t.equal(r.status, status, `${field}: ${j.error?.message}`);
    if (j.error?.field !== undefined || status === 400) t.equal(j.error.field, field);
    if (code) t.equal(j.error.code, code);
  };
  await expect({}, ok, 400, 'id_card_type', 'INVALID_REQUEST');
  await expect({ id_card_type: 'student_card' }, ok, 400, 'id_card_type', 'INVALID_REQUEST');
  await expect({ id_card_type: 'passport' }, { masked_id_image: ok.masked_id_image, face_image: ok.face_image }, 400, 'selfie_image', 'INVALID_REQUEST');
  const webp = await sharp(face).webp().toBuffer();
  await expect({ id_card_type: 'driver_license' }, { ...ok, face_image: { data: webp, filename: 'f.webp', type: 'image/webp' } }, 415, 'face_image', 'UNSUPPORTED_MEDIA_TYPE');
  await expect({ id_card_type: 'driver_license' }, { ...ok, selfie_image: png('s.png', Buffer.from('hello, not an image')) }, 415, 'selfie_image', 'UNSUPPORTED_MEDIA_TYPE');
  const big = Buffer.concat([face, Buffer.alloc(5 * 1024 * 1024 + 10)]);
  await expect({ id_card_type: 'driver_license' }, { ...ok, face_image: png('f.png', big) }, 413, 'face_image', 'PAYLOAD_TOO_LARGE');
});

t.test('face boxes: each answer locates the face it used, in the uploaded image\'s pixels', WITH_FACES, async (t) => {
  // the photo pasted at a known place on a larger grey canvas: the box must fall inside that place
  const face = photo('people/sheldon/sheldon1.png');
  const m = await sharp(face).metadata();
  const at = { left: 300, top: 200 };
  const canvas = await sharp({ create: { width: m.width! + 500, height: m.height! + 300, channels: 3, background: '#808080' } })
    .composite([{ input: face, ...at }]).png().toBuffer();
  const inside = (b: number[], label: string) => {
    t.equal(b.length, 4, `${label}: [x1, y1, x2, y2]`);
    t.ok(b[0]! >= at.left - 10 && b[1]! >= at.top - 10 && b[2]! <= at.left + m.width! + 10 && b[3]! <= at.top + m.height! + 10, `${label}: ${b} inside the pasted photo at ${at.left},${at.top} size ${m.width}x${m.height}`);
    t.ok((b[2]! - b[0]!) >= m.width! / 5 && (b[3]! - b[1]!) >= m.height! / 5, `${label}: a face-sized box (${b[2]! - b[0]!}x${b[3]! - b[1]!})`);
  };
  let j = await (await post('/api/v1/ekyc/face/compare', {}, { image1: png('a.png', canvas), image2: png('cat.png', photo('public-domain/chelsea.png')) })).json();
  inside(j.face_boxes.image1, 'compare image1');
  t.equal(j.face_boxes.image2, null, 'no face in the cat picture: null');
  j = await (await post('/api/v1/ekyc/liveness/check', {}, { image: png('x.png', canvas) })).json();
  inside(j.face_boxes.image, 'liveness image');
  const card = await renderCard('jumin', { seed: 4 });
  j = await (await post('/api/v1/ekyc/verify', { id_card_type: 'resident_registration' }, {
    masked_id_image: png('card.png', card.image), face_image: png('f.png', face), selfie_image: png('s.png', canvas),
  })).json();
  inside(j.results.face_match.face_boxes.selfie_image, 'verify selfie_image');
  const idBox = j.results.face_match.face_boxes.face_image;
  t.ok(idBox[0] >= 0 && idBox[1] >= 0 && idBox[2] <= m.width! && idBox[3] <= m.height!, `verify face_image box ${idBox} within the photo`);
});
