// e-KYC: face compare, liveness, ID-card OCR, verify (three parts in parallel in the pool, audit record without
// images), and the bank-account checks (payment provider: HTTP adapter or the built-in sandbox).
// Image quality-check / analyze-quality / perspective-crop live in the image area, not here.
import { z } from 'zod';
import { defineRoute, type Ctx, type RouteDef } from '../server/types.js';
import { ApiError, invalid } from '../domain/errors.js';
import { form } from '../server/validate.js';
import { randomSuffix } from '../jobs/ids.js';
import type { Services } from '../services.js';
import type { VerificationRecord } from '../store/verifications.js';
import { FACE_MATCH_THRESHOLD, LIVENESS_THRESHOLD, faceMatchPassed, livenessPassed, verifyDecision } from '../ekyc/policy.js';
import { LAYOUTS, type DocType } from '../vision/layouts.js';
import {
  BANKS, ProviderError, identityKind, maskAccount, maskIdentity, paymentProvider, type PaymentProvider,
} from '../providers/payment/index.js';
import type { FaceCompareOutput } from '../tasks/face-compare.js';
import { ok } from './schemas/common.js';
import { accountCheck, faceCompare as faceCompareAnswer, holderName as holderNameAnswer, idOcr, liveness as livenessAnswer, verify as verifyAnswer } from './schemas/ekyc.js';

const MB = 1024 * 1024;
const JPEG_PNG: Array<'jpeg' | 'png'> = ['jpeg', 'png'];
const ANY_IMAGE: Array<'jpeg' | 'png' | 'webp'> = ['jpeg', 'png', 'webp'];

const ms = (t0: number) => Math.round(performance.now() - t0);

// ------------------------------------------------------------------ face compare
const compareFields = z.object({ threshold: form.number(0, 1).optional() }).strict();

async function faceCompare(ctx: Ctx<z.infer<typeof compareFields>>) {
  const t0 = performance.now();
  const threshold = ctx.body.threshold ?? FACE_MATCH_THRESHOLD;
  const r = await ctx.services.pool.run('face-compare', {
    image1: ctx.files.image1!.data, image2: ctx.files.image2!.data, maxPixels: ctx.services.config.maxInputPixels,
  });
  const notes = manyFaces(r, ['image1', 'image2']);
  return {
    similarity: r.similarity,
    threshold,
    passed: faceMatchPassed(r, threshold),
    face1_detected: r.face1.detected,
    face2_detected: r.face2.detected,
    processing_time_ms: ms(t0),
    face1_count: r.face1.count,
    face2_count: r.face2.count,
    // the compared (largest) face of each part, [x1, y1, x2, y2] in that image's pixels (null: none found)
    face_boxes: { image1: r.face1.box, image2: r.face2.box },
    ...(notes.length ? { notes } : {}),
    model: r.model.embedding,
  };
}

function manyFaces(r: FaceCompareOutput, names: [string, string]): string[] {
  const notes: string[] = [];
  if (r.face1.count > 1) notes.push(`${names[0]} shows ${r.face1.count} faces; the largest was compared`);
  if (r.face2.count > 1) notes.push(`${names[1]} shows ${r.face2.count} faces; the largest was compared`);
  if (!r.face1.detected) notes.push(`no face was found in ${names[0]}`);
  if (!r.face2.detected) notes.push(`no face was found in ${names[1]}`);
  return notes;
}

// ------------------------------------------------------------------ liveness
async function livenessCheck(ctx: Ctx) {
  const t0 = performance.now();
  const r = await ctx.services.pool.run('liveness', { image: ctx.files.image!.data, maxPixels: ctx.services.config.maxInputPixels });
  return {
    score: r.score,
    threshold: LIVENESS_THRESHOLD,
    passed: livenessPassed(r),
    face_detected: r.faceDetected,
    processing_time_ms: ms(t0),
    face_count: r.faceCount,
    face_boxes: { image: r.box },
    ...(r.faceCount > 1 ? { notes: [`the image shows ${r.faceCount} faces; the largest was checked`] } : {}),
    model: r.model,
  };
}

// ------------------------------------------------------------------ OCR
const DOC_TYPES = ['jumin', 'driver', 'alien'] as const;
export function docFields(doc: DocType): string[] {
  return [...Object.keys(LAYOUTS[doc].regions), ...LAYOUTS[doc].derived];
}
const ocrFields = z.object({ doc_type: z.enum(DOC_TYPES), fields: z.string().max(500).optional() }).strict();

async function ocr(ctx: Ctx<z.infer<typeof ocrFields>>) {
  const t0 = performance.now();
  const b = ctx.body;
  const allowed = docFields(b.doc_type);
  let wanted: string[] | undefined;
  if (b.fields !== undefined && b.fields.trim() !== '') {
    wanted = [...new Set(b.fields.split(',').map((s) => s.trim()).filter(Boolean))];
    const bad = wanted.find((f) => !allowed.includes(f));
    if (bad) throw invalid('fields', `a comma-separated list of ${allowed.join(', ')} (doc_type ${b.doc_type})`, bad);
  }
  const r = await ctx.services.pool.run('ekyc-ocr', {
    image: ctx.files.image!.data, docType: b.doc_type, fields: wanted, maxPixels: ctx.services.config.maxInputPixels,
  });
  return { docType: r.docType, fields: r.fields, overallConfidence: r.overallConfidence, processingTimeMs: ms(t0), engine: `${r.engine.detector} + ${r.engine.recognizer}` };
}

// ------------------------------------------------------------------ verify
const verifyFields = z.object({ id_card_type: z.enum(['resident_registration', 'driver_license', 'passport']) }).strict();

export type { VerificationRecord } from '../store/verifications.js';

export function maskName(n: string): string {
  const c = [...n.replace(/\s+/g, ' ').trim()];
  if (c.length <= 1) return c.join('') ? '*' : '';
  if (c.length === 2) return c[0] + '*';
  return c[0] + '*'.repeat(c.length - 2) + c[c.length - 1];
}

async function verify(ctx: Ctx<z.infer<typeof verifyFields>>) {
  const t0 = performance.now();
  const { services } = ctx;
  const b = ctx.body;
  const maxPixels = services.config.maxInputPixels;
  // the OCR and the faces in parallel in the pool; the selfie is decoded and face-detected once, for both the
  // match and the liveness check (ekyc-verify-faces); the pass/fail rules are ekyc/policy.ts
  const [ocrR, faces] = await Promise.all([
    services.pool.run('ekyc-verify-ocr', { image: ctx.files.masked_id_image!.data, idCardType: b.id_card_type, maxPixels, field: 'masked_id_image' }),
    services.pool.run('ekyc-verify-faces', { idFace: ctx.files.face_image!.data, selfie: ctx.files.selfie_image!.data, maxPixels, fields: ['face_image', 'selfie_image'] }),
  ]);
  const { compare: faceR, liveness: liveR } = faces;
  const faceThreshold = FACE_MATCH_THRESHOLD;
  const { ocrPassed, facePassed, livePassed, overall, reasons } = verifyDecision(ocrR, faceR, liveR);
  const now = services.clock.now();
  const d = new Date(now);
  const id = `ekyc_verify_${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}_${randomSuffix()}`;
  const processingTimeMs = ms(t0);
  const record: VerificationRecord = {
    id,
    at: d.toISOString(),
    keyId: ctx.principal.keyId,
    idCardType: b.id_card_type,
    overallPassed: overall,
    failureReasons: reasons,
    ocr: { nameMasked: maskName(ocrR.name), birthYear: ocrR.birth_date.slice(0, 4), idNumberMasked: maskIdentity(ocrR.idNumber) || (ocrR.idNumber ? '*'.repeat(ocrR.idNumber.length) : ''), confidence: ocrR.confidence, ...(ocrR.mrzValid !== undefined ? { mrzValid: ocrR.mrzValid } : {}) },
    faceMatch: { similarity: faceR.similarity, threshold: faceThreshold, passed: facePassed, idFaceDetected: faceR.face1.detected, selfieFaceDetected: faceR.face2.detected },
    liveness: { score: liveR.score, threshold: LIVENESS_THRESHOLD, passed: livePassed, faceDetected: liveR.faceDetected },
    processingTimeMs,
  };
  await services.verifications.put(record);
  ctx.logExtra.verificationId = id;
  ctx.logExtra.overallPassed = overall;
  return {
    success: true,
    verification_id: id,
    results: {
      ocr: { name: ocrR.name, birth_date: ocrR.birth_date, confidence: ocrR.confidence, suggestions: ocrR.suggestions, passed: ocrPassed },
      face_match: {
        similarity: faceR.similarity, threshold: faceThreshold, passed: facePassed, face1_detected: faceR.face1.detected, face2_detected: faceR.face2.detected,
        face_boxes: { face_image: faceR.face1.box, selfie_image: faceR.face2.box },
      },
      liveness: { score: liveR.score, threshold: LIVENESS_THRESHOLD, passed: livePassed, face_detected: liveR.faceDetected },
    },
    overall_passed: overall,
    failure_reasons: reasons,
    processing_time_ms: processingTimeMs,
  };
}

// ------------------------------------------------------------------ account checks
/** bankCode: a known 3-digit code. accountNumber: digits only, 1–14 (hyphens rejected). Messages never echo the number. */
const bankCode = z.string({ error: 'bankCode is required (a 3-digit Korean bank code)' });
const accountNumber = z.string({ error: 'accountNumber is required (digits only, at most 14)' });
const holderSchema = z.object({ bankCode, accountNumber }).strict();
const verifySchema = z.object({ bankCode, accountNumber, holderName: z.string().min(1).max(100), identityNumber: z.string().optional() }).strict();

function checkAccount(b: { bankCode: string; accountNumber: string }): void {
  if (!/^\d{3}$/.test(b.bankCode) || !BANKS[b.bankCode]) {
    throw invalid('bankCode', 'a 3-digit Korean bank code such as "004" (KB국민은행), "088" (신한은행), "090" (카카오뱅크); see docs/ekyc.md', b.bankCode);
  }
  const a = b.accountNumber;
  if (/[-\s]/.test(a)) throw new ApiError('INVALID_REQUEST', `Expected digits only for accountNumber but received ${a.length} characters containing hyphens or spaces: remove them`, { field: 'accountNumber' });
  if (!/^\d+$/.test(a)) throw new ApiError('INVALID_REQUEST', `Expected digits only for accountNumber but received ${a.length} characters including non-digits`, { field: 'accountNumber' });
  if (a.length > 14) throw new ApiError('INVALID_REQUEST', `Expected at most 14 digits for accountNumber but received ${a.length}`, { field: 'accountNumber' });
  if (a.length < 6) throw new ApiError('INVALID_REQUEST', `Expected at least 6 digits for accountNumber but received ${a.length}`, { field: 'accountNumber' });
}

function provider(s: Services): PaymentProvider {
  let p = s.ext.payment;
  if (!p) {
    p = paymentProvider(s.config);
    s.ext.payment = p;
  }
  return p;
}

async function callProvider<T>(ctx: Ctx<{ bankCode: string; accountNumber: string }>, what: string, fn: (p: PaymentProvider) => Promise<T>): Promise<T> {
  const b = ctx.body;
  const p = provider(ctx.services);
  ctx.logExtra.bankCode = b.bankCode;
  ctx.logExtra.account = maskAccount(b.accountNumber);
  ctx.logExtra.paymentProvider = p.name;
  try {
    return await fn(p);
  } catch (e) {
    if (e instanceof ProviderError) {
      ctx.log.warn({ msg: 'payment provider failed', op: what, provider: p.name, kind: e.kind, bankCode: b.bankCode, account: maskAccount(b.accountNumber) });
      throw new ApiError('AI_API_ERROR', `${e.message} (${what} for bank ${b.bankCode}, account ${maskAccount(b.accountNumber)})`, { status: 502, details: { provider: p.name, reason: e.kind } });
    }
    throw e;
  }
}

async function holderName(ctx: Ctx<z.infer<typeof holderSchema>>) {
  const t0 = performance.now();
  const b = ctx.body;
  checkAccount(b);
  const r = await callProvider(ctx, 'holder-name lookup', (p) => p.holderName(b));
  if (!r.found) {
    throw new ApiError('NOT_FOUND', r.reason === 'closed'
      ? `Account ${maskAccount(b.accountNumber)} at bank ${b.bankCode} is closed`
      : `No account ${maskAccount(b.accountNumber)} exists at bank ${b.bankCode}`, { field: 'accountNumber', details: { reason: r.reason } });
  }
  return { holderName: r.holderName, processingTimeMs: ms(t0) };
}

async function validate(ctx: Ctx<z.infer<typeof holderSchema>>) {
  const t0 = performance.now();
  const b = ctx.body;
  checkAccount(b);
  const r = await callProvider(ctx, 'account validation', (p) => p.validate(b));
  return { isValid: r.isValid, processingTimeMs: ms(t0), ...(r.reason ? { reason: r.reason } : {}) };
}

async function accountVerify(ctx: Ctx<z.infer<typeof verifySchema>>) {
  const t0 = performance.now();
  const b = ctx.body;
  checkAccount(b);
  if (b.identityNumber !== undefined) {
    const id = b.identityNumber;
    if (/[-\s]/.test(id) && /^\d{3}-?\d{2}-?\d{5}$/.test(id.replace(/\s/g, ''))) {
      throw new ApiError('INVALID_REQUEST', 'Expected identityNumber as YYMMDD or a 10-digit business registration number without hyphens but received a hyphenated number', { field: 'identityNumber' });
    }
    if (!identityKind(id)) {
      const what = /^\d{10}$/.test(id) ? 'a business registration number whose check digit fails' : /^\d{6}$/.test(id) ? 'six digits that are not a valid date' : `${id.length} characters`;
      throw new ApiError('INVALID_REQUEST', `Expected identityNumber as a birth date YYMMDD or a 10-digit business registration number with a valid check digit but received ${what}`, { field: 'identityNumber' });
    }
    ctx.logExtra.identity = maskIdentity(id);
  }
  const r = await callProvider(ctx, 'account verification', (p) => p.verify({ ...b, identityNumber: b.identityNumber }));
  return { isValid: r.isValid, processingTimeMs: ms(t0), ...(r.reason ? { reason: r.reason } : {}) };
}

// ------------------------------------------------------------------ routes
/** What the liveness check can and cannot catch, with the measured figures (docs/ekyc-liveness.md, bench/RESULTS.md). */
const LIVENESS_LIMITS = 'The score and decision (passed = score ≥ 0.5). Measured on real captures and real attacks (docs/ekyc-liveness.md): ' +
  '29 of 311 real selfies refused (9.3 %; 15 of 52 frames of one soft laptop webcam); a screen replay filmed from a distance, bezel ' +
  'in view, is refused (58 of 60 frames; the one printed photo and the one tablet replay we have too), but a screen replay that fills ' +
  'the frame gets through 51 of 116 times; no moiré or pixel grid was found in any real replay, so there is no screen-grid check. Print, ' +
  'cut-out and mask attacks are not measured (1, 0, 0 real samples). Cannot catch: sharp prints or screens filmed close, cut-outs and ' +
  'masks, deepfakes or injected camera streams, a coerced person. Use it as a screen and add an active challenge where the risk warrants it.';
const tags = ['e-KYC'];
export const routes: RouteDef[] = [
  defineRoute({
    method: 'POST', path: '/api/v1/ekyc/face/compare', auth: 'key', tags, maxBodyBytes: 21 * MB,
    summary: 'Compare the largest face of two images (calibrated similarity, default threshold 0.6)',
    responses: ok('the similarity and decision', faceCompareAnswer),
    body: { kind: 'multipart', fields: compareFields, files: { image1: { required: true, maxBytes: 10 * MB, types: ANY_IMAGE }, image2: { required: true, maxBytes: 10 * MB, types: ANY_IMAGE } } },
    handler: faceCompare,
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/ekyc/liveness/check', auth: 'key', tags, maxBodyBytes: 11 * MB,
    summary: 'Passive single-image liveness of the largest face: a screen for crude print / screen-replay attacks, not a guarantee',
    responses: ok(LIVENESS_LIMITS, livenessAnswer),
    body: { kind: 'multipart', fields: z.object({}).strict(), files: { image: { required: true, maxBytes: 10 * MB, types: ANY_IMAGE, description: 'one selfie photo (a single frame: no motion, depth or challenge is checked)' } } },
    handler: livenessCheck,
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/ekyc/ocr', auth: 'key', tags, maxBodyBytes: 11 * MB,
    summary: 'Read the fields of a perspective-corrected Korean ID card (jumin, driver, alien)',
    responses: ok('the fields read', idOcr),
    body: { kind: 'multipart', fields: ocrFields, files: { image: { required: true, maxBytes: 10 * MB, types: ANY_IMAGE } } },
    handler: ocr,
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/ekyc/verify', auth: 'key', tags, maxBodyBytes: 26 * MB,
    summary: 'Identity verification: ID OCR, ID photo ↔ selfie face match and selfie liveness, in parallel; audit record kept',
    responses: ok('the three checks and the overall decision', verifyAnswer),
    body: {
      kind: 'multipart', fields: verifyFields,
      files: {
        masked_id_image: { required: true, maxBytes: 10 * MB, types: JPEG_PNG },
        face_image: { required: true, maxBytes: 5 * MB, types: JPEG_PNG },
        selfie_image: { required: true, maxBytes: 10 * MB, types: JPEG_PNG },
      },
    },
    handler: verify,
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/ekyc/account/holder-name', auth: 'key', tags, errors: ['AI_API_ERROR', 'NOT_FOUND'],
    summary: 'Account holder name from the payment provider', responses: ok('the holder name', holderNameAnswer), body: { kind: 'json', schema: holderSchema }, handler: holderName,
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/ekyc/account/validate', auth: 'key', tags, errors: ['AI_API_ERROR'],
    summary: 'Whether an account exists and is open', responses: ok('valid or not', accountCheck), body: { kind: 'json', schema: holderSchema }, handler: validate,
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/ekyc/account/verify', auth: 'key', tags, errors: ['AI_API_ERROR'],
    summary: 'Whether an account belongs to holderName (and identityNumber when given)', responses: ok('valid or not', accountCheck), body: { kind: 'json', schema: verifySchema }, handler: accountVerify,
  }),
];

export function start(services: Services): void {
  services.ext.payment = paymentProvider(services.config);
}
