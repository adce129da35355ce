// OCR on rendered Korean ID cards (random names, numbers, dates; clean and degraded), field validators, MRZ.
import t from 'tap';
import { renderCard, degradationFor, charAccuracy } from '../helpers/id-cards.js';
import { decodeRgb } from '../../src/tasks/lib/image-io.js';
import { readCard, normaliseRrn, parseDate, birthFromRrn, dateFromGlyphs, rrnChecksumOk } from '../../src/vision/idcard.js';
import { parseTd3, buildTd3, checkDigit } from '../../src/vision/mrz.js';
import { recognizeText } from '../../src/vision/ocr.js';

// ~40 cards through the whole reading pipeline (detector, two recognisers, Tesseract on Hangul names): on the shared
// 2-core machine under load this file needs more than the default 600 s (a limit, not a timing assertion)
t.setTimeout(1_800_000);

t.test('rendered cards: field accuracy (3 doc types × 2 degradations)', async (t) => {
  const acc: Record<string, number[]> = {};
  for (const doc of ['jumin', 'driver', 'alien'] as const) {
    for (const i of [0, 5]) {
      const seed = 1000 + i * 31 + doc.length;
      const card = await renderCard(doc, { seed, degrade: degradationFor(i) });
      const r = await readCard(await decodeRgb(card.image), doc);
      for (const [k, v] of Object.entries(card.truth)) {
        t.ok(r.fields[k], `${doc}: field ${k} present`);
        (acc[k] ??= []).push(charAccuracy(v, r.fields[k]?.text ?? ''));
      }
      // masked numbers stay masked
      const num = doc === 'alien' ? 'registration_number' : 'jumin_full';
      t.match(r.fields[num]!.text, /^\d{6}-\d\*{6}$/, `${doc}: number read as masked`);
      t.ok(r.overallConfidence > 0.5, `${doc}#${i}: overall confidence ${r.overallConfidence}`);
      for (const f of Object.values(r.fields)) t.ok(f.bbox.length === 4 && f.bbox[2] >= f.bbox[0], 'bbox');
    }
  }
  const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
  for (const k of ['name', 'jumin_full', 'birth_date', 'issue_date', 'issuer', 'license_number', 'registration_number']) {
    t.ok(mean(acc[k]!) >= 0.9, `${k}: char accuracy ${mean(acc[k]!).toFixed(3)} ≥ 0.9`);
  }
  t.ok(mean(acc.address!) >= 0.85, `address: ${mean(acc.address!).toFixed(3)} ≥ 0.85`);
});

t.test('recognizeText returns lines with boxes', async (t) => {
  const card = await renderCard('jumin', { seed: 7 });
  const r = await recognizeText(await decodeRgb(card.image));
  t.match(r.text, /주민등록증/);
  t.ok(r.lines.length >= 6 && r.confidence > 0.8);
  for (const l of r.lines) t.equal(l.charX.length, l.charConfidences.length);
});

t.test('validators', async (t) => {
  t.equal(normaliseRrn('900101-1家大大大家'), '900101-1******', 'mask characters misread stay masked');
  t.equal(normaliseRrn('900101-1***'), '900101-1******', 'short mask padded, never guessed');
  t.equal(normaliseRrn('9001011234567'), '900101-1234567');
  t.equal(normaliseRrn("7610251'蒙家家"), '761025-1******', 'hyphen lost, mask read as fewer glyphs');
  t.equal(normaliseRrn('700112%1家家'), '700112-1******', 'hyphen read as another mark');
  t.equal(normaliseRrn('900621-1'), '900621-1******', 'only the gender digit read: the rest is the mask');
  t.equal(normaliseRrn('9006211'), '900621-1******');
  t.equal(normaliseRrn('7001121-'), '700112-1******', 'hyphen read after the gender digit, mask lost');
  t.equal(normaliseRrn("900101'1234567"), '900101-1234567', 'unmasked with a misread hyphen');
  t.equal(parseDate('2020 1 15'), '2020-01-15');
  t.equal(parseDate('2020. 12. 5.'), '2020-12-05');
  t.equal(parseDate('2020 2 30'), null, 'impossible date');
  t.equal(parseDate('10081002%'), null, 'a digit run before 1900 (a blurred flat number) is no card date');
  t.equal(parseDate('2012116'), null, 'ambiguous without positions');
  t.equal(dateFromGlyphs({ text: '2012116', x: [0, 10, 20, 30, 60, 90, 100] }), '2012-01-16', 'the widest gap splits month and day');
  t.same(birthFromRrn('900101-1******'), { iso: '1990-01-01', ok: true });
  t.same(birthFromRrn('020304-4******'), { iso: '2002-03-04', ok: true });
  t.equal(birthFromRrn('901301-1******')!.ok, false, 'month 13');
  t.equal(rrnChecksumOk('900101-1234568'), true);
  t.equal(rrnChecksumOk('900101-1234567'), false);
});

t.test('passport MRZ: ICAO 9303 check digits', async (t) => {
  // ICAO 9303 part 4 specimen
  const l1 = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';
  const l2 = 'L898902C36UTO7408122F1204159ZE184226B<<<<<10';
  const r = parseTd3(l1, l2, new Date('2026-01-01'))!;
  t.equal(r.valid, true);
  t.equal(r.surname, 'ERIKSSON');
  t.equal(r.givenNames, 'ANNA MARIA');
  t.equal(r.birthDate, '1974-08-12');
  t.equal(r.documentNumber, 'L898902C3');
  t.equal(checkDigit('L898902C3'), 6);
  const bad = parseTd3(l1, l2.replace('7408122', '7408132'))!;
  t.equal(bad.valid, false);
  t.equal(bad.checks.birthDate, false);
  const [a, b] = buildTd3({ surname: 'HONG', given: 'GIL DONG', number: 'M12345678', nationality: 'KOR', birth: '900101', sex: 'M', expiry: '300101' });
  t.equal(a.length, 44);
  t.equal(parseTd3(a, b)!.valid, true);
});

t.test('passport: MRZ read from a rendered data page, check digits decide', async (t) => {
  const { renderPassport } = await import('../helpers/id-cards.js');
  const { default: verifyOcr, fixLine2 } = await import('../../src/tasks/ekyc-verify-ocr.js');
  const p = await renderPassport({ seed: 1 });
  const r = await verifyOcr({ image: p.image, idCardType: 'passport' });
  t.equal(r.mrzValid, true);
  t.equal(r.name, p.truth.name);
  t.equal(r.birth_date, p.truth.birth_date);
  t.same(r.suggestions, []);
  t.ok(r.confidence > 0.8);
  const bad = await renderPassport({ seed: 1, corruptCheck: true });
  const rb = await verifyOcr({ image: bad.image, idCardType: 'passport' });
  t.equal(rb.mrzValid, false, 'a wrong birth-date check digit is caught');
  t.match(rb.suggestions.join(' '), /check digits \(birthDate/);
  t.ok(rb.confidence < 0.5);
  t.equal(fixLine2('M643717248KOR6907259F3206157<<<<<<<<<<8'), 'M643717248KOR6907259F3206157<<<<<<<<<<<<<<<8', 'filler count restored');
});

t.test('an imperfect crop (6 % border on two sides) still reads every field', async (t) => {
  const sharp = (await import('sharp')).default;
  const card = await renderCard('alien', { seed: 302 });
  const img = await sharp(card.image).extend({ top: 48, left: 77, background: '#777777' }).resize(1280, 807, { fit: 'fill' }).png().toBuffer();
  const r = await readCard(await decodeRgb(img), 'alien');
  for (const k of ['name', 'registration_number', 'nationality', 'status', 'issue_date', 'birth_date']) t.equal(r.fields[k]!.text, card.truth[k], k);
});

t.test('poor captures (photographed at an angle, blurred, glared, JPEG q60, 480–640 px): name and number floors', async (t) => {
  const { photographCard, POOR_CAPTURES } = await import('../helpers/id-cards.js');
  const { default: ekycOcr } = await import('../../src/tasks/ekyc-ocr.js');
  // 6 cards: one per degradation kind (bench/ocr-poor.ts measures 6+ per kind)
  const kinds = ['small-480', 'perspective-640', 'gauss-blur-640', 'glare-640', 'small-640', 'perspective-640'] as const;
  const accName: number[] = [], accNum: number[] = [];
  let i = 0;
  for (const kind of kinds) {
    const doc = (['jumin', 'driver', 'alien'] as const)[i % 3]!;
    const card = await renderCard(doc, { seed: 9100 + i });
    const r = await ekycOcr({ image: await photographCard(card, POOR_CAPTURES[kind]!, 9100 + i), docType: doc });
    const num = doc === 'alien' ? 'registration_number' : 'jumin_full';
    accName.push(charAccuracy(card.truth.name!, r.fields.name?.text ?? ''));
    accNum.push(charAccuracy(card.truth[num]!, r.fields[num]?.text ?? ''));
    t.comment(`${kind} ${doc}: name "${r.fields.name?.text}" number "${r.fields[num]?.text}"`);
    i++;
  }
  const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
  t.ok(mean(accName) >= 0.95, `name char accuracy ${mean(accName).toFixed(3)} ≥ 0.95`);
  t.ok(mean(accNum) >= 0.9, `number char accuracy ${mean(accNum).toFixed(3)} ≥ 0.9`);
});

t.test('hard poor captures (480 px, motion blur, glare, all combined; fixed seeds): name and number floors', async (t) => {
  const { photographCard, POOR_CAPTURES } = await import('../helpers/id-cards.js');
  const { default: ekycOcr } = await import('../../src/tasks/ekyc-ocr.js');
  // the rows bench/ocr-poor.ts reported below the goal before the Latin recogniser; 3 cards each (jumin, driver, alien)
  const acc: Record<string, { name: number[]; num: number[]; address: number[]; issuer: number[] }> = {};
  for (const kind of ['small-480', 'motion-blur-640', 'glare-640', 'all-480'] as const) {
    for (let i = 0; i < 3; i++) {
      const doc = (['jumin', 'driver', 'alien'] as const)[i]!;
      const seed = 9100 + i;
      const card = await renderCard(doc, { seed });
      const r = await ekycOcr({ image: await photographCard(card, POOR_CAPTURES[kind]!, seed), docType: doc });
      const num = doc === 'alien' ? 'registration_number' : 'jumin_full';
      const a = (acc[kind] ??= { name: [], num: [], address: [], issuer: [] });
      a.name.push(charAccuracy(card.truth.name!, r.fields.name?.text ?? ''));
      a.num.push(charAccuracy(card.truth[num]!, r.fields[num]?.text ?? ''));
      a.address.push(charAccuracy(card.truth.address!, r.fields.address?.text ?? ''));
      a.issuer.push(charAccuracy(card.truth.issuer!, r.fields.issuer?.text ?? ''));
      t.comment(`${kind} ${doc}: name "${r.fields.name?.text}" number "${r.fields[num]?.text}"`);
      if (doc === 'alien') t.equal(r.fields.name?.text, card.truth.name, `${kind}: the alien name (Latin) is read exactly`);
    }
  }
  const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
  for (const [kind, a] of Object.entries(acc)) {
    // measured 1.000 for every number and name here since the Tesseract vote on Hangul names (ocr20; before it the
    // all-480 Hangul name 권혜혜 was read 권해에, 0.78 for the row)
    const nameFloor = 0.95;
    t.ok(mean(a.num) >= 0.95, `${kind}: number char accuracy ${mean(a.num).toFixed(3)} ≥ 0.95`);
    t.ok(mean(a.name) >= nameFloor, `${kind}: name char accuracy ${mean(a.name).toFixed(3)} ≥ ${nameFloor}`);
    t.comment(`${kind}: address ${mean(a.address).toFixed(3)}, issuer ${mean(a.issuer).toFixed(3)}`);
  }
  // administrative names mended against the lexicon (ocr-address.ts), weak address / issuer lines voted with
  // Tesseract and address numbers from the Latin recogniser (field-vote.ts, ocr21). Seeds 9100–9102, measured
  // 2026-11-23 before → after ocr21: address small-480 0.701 → 1.000, motion blur 0.279 → 0.929, all-480 0.169 →
  // 0.888, glare-640 0.874 → 0.874; issuer over the four rows 0.950 → 1.000
  const MEASURED_FLOORS = { smallAddress: 0.95, glareAddress: 0.82, motionAddress: 0.85, all480Address: 0.8, issuer: 0.97 };
  t.ok(mean(acc['small-480']!.address) >= MEASURED_FLOORS.smallAddress, `small-480: address ${mean(acc['small-480']!.address).toFixed(3)} ≥ ${MEASURED_FLOORS.smallAddress}`);
  t.ok(mean(acc['glare-640']!.address) >= MEASURED_FLOORS.glareAddress, `glare-640: address ${mean(acc['glare-640']!.address).toFixed(3)} ≥ ${MEASURED_FLOORS.glareAddress}`);
  t.ok(mean(acc['motion-blur-640']!.address) >= MEASURED_FLOORS.motionAddress, `motion-blur-640: address ${mean(acc['motion-blur-640']!.address).toFixed(3)} ≥ ${MEASURED_FLOORS.motionAddress}`);
  t.ok(mean(acc['all-480']!.address) >= MEASURED_FLOORS.all480Address, `all-480: address ${mean(acc['all-480']!.address).toFixed(3)} ≥ ${MEASURED_FLOORS.all480Address}`);
  const issuers = Object.values(acc).flatMap((a) => a.issuer);
  t.ok(mean(issuers) >= MEASURED_FLOORS.issuer, `issuer over the four rows ${mean(issuers).toFixed(3)} ≥ ${MEASURED_FLOORS.issuer}`);
});

t.test('a card photographed at an angle on a table is rectified before reading', async (t) => {
  const { photographCard } = await import('../helpers/id-cards.js');
  const { default: ekycOcr } = await import('../../src/tasks/ekyc-ocr.js');
  const card = await renderCard('jumin', { seed: 9103 });
  const r = await ekycOcr({ image: await photographCard(card, { tilt: 0.07, width: 900 }, 9103), docType: 'jumin' });
  t.equal(r.fields.name!.text, card.truth.name, 'name');
  t.equal(r.fields.jumin_full!.text, card.truth.jumin_full, 'number');
  t.equal(r.fields.birth_date!.text, card.truth.birth_date, 'birth date');
});
