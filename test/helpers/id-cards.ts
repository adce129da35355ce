// Renders synthetic Korean ID cards (jumin / driver / alien) at 1280×807 with the Noto Sans KR font, random
// names, numbers and dates, with optional degradations (blur, noise, tint, small rotation). Test and bench data only.
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { createRequire } from 'node:module';
import sharp, { type Sharp } from 'sharp';
import { LAYOUTS, type DocType } from '../../src/vision/layouts.js';
import { prng } from './images.js';

const require = createRequire(import.meta.url);
let fontsReady = false;
function fonts(): void {
  if (fontsReady) return;
  GlobalFonts.registerFromPath(require.resolve('@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf'), 'KR');
  GlobalFonts.registerFromPath(require.resolve('@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf'), 'KRB');
  fontsReady = true;
}

/** Small deterministic PRNG (mulberry32) so a seed gives the same card. */
export const rng = prng;

const SURNAMES = ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한', '오', '서', '신', '권', '황', '안', '송', '류', '홍'];
const GIVEN = ['민', '서', '지', '현', '우', '준', '영', '수', '하', '윤', '은', '도', '재', '성', '진', '혜', '경', '태', '유', '나', '연', '호', '정', '희', '동', '훈', '빈', '아', '주', '원'];
const CITIES: Array<[string, string[], string]> = [
  ['서울특별시', ['종로구', '중구', '강남구', '마포구', '송파구', '관악구'], '서울특별시'],
  ['부산광역시', ['해운대구', '수영구', '동래구', '남구'], '부산광역시'],
  ['대구광역시', ['수성구', '달서구', '북구'], '대구광역시'],
  ['인천광역시', ['연수구', '남동구', '부평구'], '인천광역시'],
  ['광주광역시', ['서구', '북구', '광산구'], '광주광역시'],
  ['대전광역시', ['유성구', '서구', '중구'], '대전광역시'],
];
const ROADS = ['세종대로', '테헤란로', '해운대로', '중앙대로', '한밭대로', '무등로', '월드컵로', '올림픽로', '달구벌대로', '인주대로'];
const LATIN_FIRST = ['NGUYEN', 'TRAN', 'SMITH', 'GARCIA', 'WANG', 'SUZUKI', 'SILVA', 'KHAN', 'MULLER', 'PEREZ'];
const LATIN_GIVEN = ['VAN AN', 'THI MAI', 'JOHN', 'MARIA', 'WEI', 'YUKI', 'ANA', 'AHMED', 'LUKAS', 'SOFIA'];
const NATIONS = ['VIETNAM', 'CHINA', 'PHILIPPINES', 'USA', 'JAPAN', 'BRAZIL', 'PAKISTAN', 'GERMANY', 'MEXICO', 'THAILAND'];
const STATUSES = ['E-9', 'D-2', 'F-4', 'F-6', 'E-7', 'H-2', 'D-10', 'F-2', 'C-4', 'E-2'];
const LICENCE_TYPES = ['1종 보통', '2종 보통', '1종 대형', '2종 소형'];

export interface Degrade {
  blur?: number; // sigma px
  noise?: number; // std of gaussian noise (0–255 scale)
  tint?: [number, number, number]; // multiplicative per channel, e.g. [1, 0.95, 0.85]
  rotate?: number; // degrees (small)
  jpegQuality?: number;
}

export interface RenderedCard {
  docType: DocType;
  /** what is printed / what a perfect reader returns (dates ISO, numbers as printed) */
  truth: Record<string, string>;
  image: Buffer; // PNG (or JPEG when jpegQuality is set)
  width: number;
  height: number;
}

const pick = <T>(r: () => number, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export interface CardOptions {
  seed?: number;
  masked?: boolean; // default true: 900101-1******
  degrade?: Degrade;
  /** an RGB face photo (encoded bytes) pasted into the photo box */
  photo?: Buffer;
}

export async function renderCard(docType: DocType, opts: CardOptions = {}): Promise<RenderedCard> {
  fonts();
  const r = rng(opts.seed ?? Math.floor(Math.random() * 2 ** 31));
  const masked = opts.masked ?? true;
  const W = 1280, H = 807;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  // card background: light gradient with a faint pattern
  const g = ctx.createLinearGradient(0, 0, W, H);
  g.addColorStop(0, docType === 'driver' ? '#eef3f8' : docType === 'alien' ? '#f3f0f8' : '#f4f6f2');
  g.addColorStop(1, docType === 'driver' ? '#dfe8f1' : docType === 'alien' ? '#e6e0ef' : '#e7ece2');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
  ctx.strokeStyle = 'rgba(120,140,160,0.10)';
  ctx.lineWidth = 2;
  for (let i = -H; i < W; i += 36) { ctx.beginPath(); ctx.moveTo(i, H); ctx.lineTo(i + H * 0.6, 0); ctx.stroke(); }

  // random identity
  const year = 1950 + Math.floor(r() * 55), month = 1 + Math.floor(r() * 12), day = 1 + Math.floor(r() * 28);
  const male = r() < 0.5;
  const foreign = docType === 'alien';
  const gender = year >= 2000 ? (foreign ? (male ? 7 : 8) : male ? 3 : 4) : foreign ? (male ? 5 : 6) : male ? 1 : 2;
  const front = `${pad(year % 100)}${pad(month)}${pad(day)}`;
  const backDigits = `${gender}${Array.from({ length: 6 }, () => Math.floor(r() * 10)).join('')}`;
  const number = masked ? `${front}-${gender}******` : `${front}-${backDigits}`;
  const iy = Math.max(year + 17, 2005) + Math.floor(r() * 15), im = 1 + Math.floor(r() * 12), id = 1 + Math.floor(r() * 28);
  const issueY = Math.min(iy, 2025);
  const [city, districts] = pick(r, CITIES);
  const district = pick(r, districts);
  const addr1 = `${city} ${district} ${pick(r, ROADS)} ${1 + Math.floor(r() * 400)}`;
  const addr2 = `${100 + Math.floor(r() * 20)}동 ${1 + Math.floor(r() * 25)}0${1 + Math.floor(r() * 4)}호`;
  const name = foreign ? `${pick(r, LATIN_FIRST)} ${pick(r, LATIN_GIVEN)}` : pick(r, SURNAMES) + pick(r, GIVEN) + (r() < 0.9 ? pick(r, GIVEN) : '');
  const truth: Record<string, string> = {
    name,
    address: `${addr1} ${addr2}`,
    issue_date: `${issueY}-${pad(im)}-${pad(id)}`,
    birth_date: `${year}-${pad(month)}-${pad(day)}`,
  };
  const dateText = `${issueY}. ${im}. ${id}.`;

  const layout = LAYOUTS[docType];
  const R = (k: string) => layout.regions[k]!.map((v, i) => v * (i % 2 === 0 ? W : H)) as [number, number, number, number];
  const text = (s: string, k: string, size: number, bold = false, line = 0, lines = 1) => {
    const [x, y, , h] = R(k);
    ctx.font = `${size}px ${bold ? 'KRB' : 'KR'}`;
    ctx.fillStyle = '#1d1d1f';
    ctx.textBaseline = 'middle';
    const lh = h / lines;
    ctx.fillText(s, x + 12, y + lh * line + lh / 2);
  };
  const title = (s: string, x: number, y: number, size: number) => {
    ctx.font = `${size}px KRB`;
    ctx.fillStyle = '#1b2a4a';
    ctx.textBaseline = 'middle';
    ctx.fillText(s, x, y);
  };
  const photoBox = (x: number, y: number, w: number, h: number) => {
    ctx.fillStyle = '#c9ced6';
    ctx.fillRect(x, y, w, h);
    ctx.fillStyle = '#9aa3af';
    ctx.beginPath(); ctx.ellipse(x + w / 2, y + h * 0.38, w * 0.22, h * 0.2, 0, 0, Math.PI * 2); ctx.fill();
    ctx.beginPath(); ctx.ellipse(x + w / 2, y + h * 0.95, w * 0.42, h * 0.32, 0, 0, Math.PI * 2); ctx.fill();
  };

  if (docType === 'jumin') {
    title('주민등록증', 0.06 * W, 0.12 * H, 72);
    text(name, 'name', 56);
    text(number, 'jumin_full', 50);
    text(addr1, 'address', 34, false, 0, 2);
    text(addr2, 'address', 34, false, 1, 2);
    text(dateText, 'issue_date', 36);
    text(`${city} ${district}청장`, 'issuer', 46, true);
    truth.jumin_full = number;
    truth.issuer = `${city} ${district}청장`;
    photoBox(0.7 * W, 0.22 * H, 0.25 * W, 0.48 * H);
  } else if (docType === 'driver') {
    title('자동차운전면허증', 0.3 * W, 0.09 * H, 62);
    const lt = pick(r, LICENCE_TYPES);
    const ln = `${11 + Math.floor(r() * 18)}-${pad(issueY % 100)}-${Array.from({ length: 6 }, () => Math.floor(r() * 10)).join('')}-${pad(Math.floor(r() * 100))}`;
    text(lt, 'license_type', 40);
    text(ln, 'license_number', 40);
    text(name, 'name', 48);
    text(number, 'jumin_full', 42);
    text(addr1, 'address', 32, false, 0, 2);
    text(addr2, 'address', 32, false, 1, 2);
    text(dateText, 'issue_date', 34);
    const issuer = `${city}경찰청장`;
    text(issuer, 'issuer', 44, true);
    Object.assign(truth, { license_type: lt, license_number: ln, jumin_full: number, issuer });
    photoBox(0.03 * W, 0.2 * H, 0.23 * W, 0.5 * H);
  } else {
    title('외국인등록증', 0.06 * W, 0.09 * H, 62);
    ctx.font = '30px KR';
    ctx.fillText('RESIDENCE CARD', 0.52 * W, 0.09 * H);
    const nat = pick(r, NATIONS), st = pick(r, STATUSES);
    text(number, 'registration_number', 44);
    text(name, 'name', 42);
    text(nat, 'nationality', 38);
    text(st, 'status', 38);
    text(addr1, 'address', 32, false, 0, 2);
    text(addr2, 'address', 32, false, 1, 2);
    text(dateText, 'issue_date', 34);
    const issuer = `${city.slice(0, 2)}출입국외국인청장`;
    text(issuer, 'issuer', 42, true);
    Object.assign(truth, { registration_number: number, jumin_full: number, nationality: nat, status: st, issuer });
    photoBox(0.72 * W, 0.2 * H, 0.24 * W, 0.5 * H);
  }
  if (opts.photo) {
    const [px, py, pw, ph] = docType === 'driver' ? [0.03, 0.2, 0.23, 0.5] : docType === 'alien' ? [0.72, 0.2, 0.24, 0.5] : [0.7, 0.22, 0.25, 0.48];
    const resized = await sharp(opts.photo).resize(Math.round(pw * W), Math.round(ph * H), { fit: 'cover' }).png().toBuffer();
    const { loadImage } = await import('@napi-rs/canvas');
    ctx.drawImage(await loadImage(resized), px * W, py * H);
  }
  let img = sharp(canvas.toBuffer('image/png'));
  img = await degrade(img, opts.degrade ?? {}, r, W, H);
  const image = opts.degrade?.jpegQuality ? await img.jpeg({ quality: opts.degrade.jpegQuality }).toBuffer() : await img.png().toBuffer();
  return { docType, truth, image, width: W, height: H };
}

async function degrade(img: Sharp, d: Degrade, r: () => number, W: number, H: number): Promise<Sharp> {
  let p = img;
  if (d.rotate) p = sharp(await p.rotate(d.rotate, { background: '#808080' }).resize(W, H, { fit: 'fill' }).png().toBuffer());
  if (d.tint) p = p.linear(d.tint, [0, 0, 0]);
  if (d.blur) p = p.blur(d.blur);
  let buf = await p.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (d.noise) {
    const px = buf.data;
    for (let i = 0; i < px.length; i++) {
      const n = (r() + r() + r() - 1.5) * 2 * d.noise; // ~gaussian
      px[i] = Math.max(0, Math.min(255, px[i]! + n));
    }
  }
  return sharp(buf.data, { raw: { width: buf.info.width, height: buf.info.height, channels: buf.info.channels } });
}

/** A standard mix of degradations for a card index (clean, blur, noise, tint, rotation, all). */
export function degradationFor(i: number): Degrade {
  switch (i % 6) {
    case 0: return {};
    case 1: return { blur: 1.2 };
    case 2: return { noise: 12 };
    case 3: return { tint: [1.0, 0.93, 0.8] };
    case 4: return { rotate: 1.5 };
    default: return { blur: 0.8, noise: 8, tint: [0.95, 0.95, 1.0], rotate: -1, jpegQuality: 80 };
  }
}

/** Character accuracy 1 − edit distance / truth length (floored at 0). */
export function charAccuracy(truth: string, got: string): number {
  const a = [...truth.replace(/\s+/g, '')], b = [...got.replace(/\s+/g, '')];
  if (!a.length) return b.length ? 0 : 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return Math.max(0, 1 - prev[b.length]! / a.length);
}

/** A passport data page (1250×880) with a TD3 machine-readable zone; truth has name (SURNAME GIVEN), birth_date ISO. */
export async function renderPassport(opts: { seed?: number; degrade?: Degrade; corruptCheck?: boolean } = {}): Promise<{ image: Buffer; truth: Record<string, string>; mrz: [string, string] }> {
  fonts();
  const { buildTd3 } = await import('../../src/vision/mrz.js');
  const r = rng(opts.seed ?? 1);
  const W = 1250, H = 880;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#f1efe6';
  ctx.fillRect(0, 0, W, H);
  const surname = pick(r, ['HONG', 'KIM', 'LEE', 'PARK', 'CHOI', 'JUNG']);
  const given = pick(r, ['GILDONG', 'MINSU', 'JIYOUNG', 'SEOYEON', 'HYUNWOO', 'EUNJI']);
  const year = 1955 + Math.floor(r() * 50), month = 1 + Math.floor(r() * 12), day = 1 + Math.floor(r() * 28);
  const birth = `${pad(year % 100)}${pad(month)}${pad(day)}`;
  const number = `M${Array.from({ length: 8 }, () => Math.floor(r() * 10)).join('')}`;
  const [l1, l2] = buildTd3({ surname, given, number, nationality: 'KOR', birth, sex: r() < 0.5 ? 'M' : 'F', expiry: '3' + String(Math.floor(r() * 5)) + '0615' });
  const line2 = opts.corruptCheck ? l2.slice(0, 19) + String((Number(l2[19]) + 1) % 10) + l2.slice(20) : l2;
  ctx.fillStyle = '#1b2a4a';
  ctx.font = '44px KRB';
  ctx.textBaseline = 'middle';
  ctx.fillText('여권 PASSPORT', 60, 60);
  ctx.fillStyle = '#c9ced6';
  ctx.fillRect(60, 120, 300, 380);
  ctx.fillStyle = '#1d1d1f';
  ctx.font = '30px KR';
  const rows = [['Type', 'PM'], ['Passport No.', number], ['Surname', surname], ['Given names', given], ['Nationality', 'REPUBLIC OF KOREA'], ['Date of birth', `${pad(day)} ${['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'][month - 1]} ${year}`]];
  rows.forEach(([k, v], i) => { ctx.font = '22px KR'; ctx.fillText(k!, 400, 140 + i * 62); ctx.font = '32px KR'; ctx.fillText(v!, 400, 170 + i * 62); });
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 640, W, 240);
  ctx.fillStyle = '#111111';
  ctx.font = '40px KR';
  // monospaced placement: one glyph per cell
  const cell = (W - 80) / 44;
  [l1, line2].forEach((ln, k) => { for (let i = 0; i < 44; i++) ctx.fillText(ln[i]!, 40 + i * cell + (cell - ctx.measureText(ln[i]!).width) / 2, 710 + k * 90); });
  let img = sharp(canvas.toBuffer('image/png'));
  img = await degrade(img, opts.degrade ?? {}, r, W, H);
  return { image: await img.png().toBuffer(), truth: { name: `${surname} ${given}`, birth_date: `${year}-${pad(month)}-${pad(day)}` }, mrz: [l1, line2] };
}

// ---------------------------------------------------------------- phone-photo degradations (OCR on poor captures)

/** How a rendered card is "photographed": all optional; sizes refer to the 1280-px card before the downscale. */
export interface PhotoDegrade {
  /** perspective: the card is put on a table with a margin and each corner moved by up to tilt × card width */
  tilt?: number;
  /** Gaussian blur sigma (px at 1280) */
  blur?: number;
  /** motion blur length (px at 1280), random direction */
  motion?: number;
  /** a soft glare spot over the card text, peak opacity 0..1 (white) */
  glare?: number;
  /** JPEG quality of the result (default 60) */
  jpegQuality?: number;
  /** width of the delivered photo (default 1280) */
  width?: number;
}

/** The degradation kinds of the poor-capture set (bench/ocr-poor.ts, test/vision/ocr-poor.test.ts). */
export const POOR_CAPTURES: Record<string, PhotoDegrade> = {
  'clean-1280-q60': {},
  'small-640': { width: 640 },
  'small-480': { width: 480 },
  'perspective-640': { tilt: 0.07, width: 640 },
  'gauss-blur-640': { blur: 1.6, width: 640 },
  'motion-blur-640': { motion: 9, width: 640 },
  'glare-640': { glare: 0.85, width: 640 },
  'all-480': { tilt: 0.05, blur: 1, motion: 5, glare: 0.7, width: 480 },
};

/** Photograph a rendered card: perspective on a table, blur, motion, glare, downscale, JPEG (q60 by default). */
export async function photographCard(card: RenderedCard, d: PhotoDegrade, seed = 1): Promise<Buffer> {
  const r = rng(seed * 7919 + 17);
  const W = card.width, H = card.height;
  let { data } = await sharp(card.image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let w = W, h = H;
  if (d.glare) {
    // an elliptic radial gradient somewhere over the text column of the card
    const cx = W * (0.15 + r() * 0.45), cy = H * (0.25 + r() * 0.35), rx = W * (0.12 + r() * 0.08), ry = H * (0.12 + r() * 0.1);
    const svg = `<svg width="${W}" height="${H}"><defs><radialGradient id="g"><stop offset="0" stop-color="#fff" stop-opacity="${d.glare}"/><stop offset="0.5" stop-color="#fff" stop-opacity="${(d.glare * 0.85).toFixed(3)}"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs><ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="url(#g)"/></svg>`;
    data = await sharp(data, { raw: { width: W, height: H, channels: 3 } }).composite([{ input: Buffer.from(svg) }]).removeAlpha().raw().toBuffer();
  }
  if (d.tilt !== undefined) {
    const { homography, warp } = await import('../../src/tasks/lib/geometry.js');
    const m = 0.08 + d.tilt;
    w = Math.round(W * (1 + 2 * m));
    h = Math.round(H * (1 + 2 * m * 1.3));
    const ox = W * m, oy = H * m * 1.3;
    const j = () => (r() * 2 - 1) * d.tilt! * W;
    const corners: Array<[number, number]> = [[ox + j(), oy + j()], [ox + W + j(), oy + j()], [ox + W + j(), oy + H + j()], [ox + j(), oy + H + j()]];
    const rgba = new Uint8Array(W * H * 4);
    for (let i = 0; i < W * H; i++) { rgba[i * 4] = data[i * 3]!; rgba[i * 4 + 1] = data[i * 3 + 1]!; rgba[i * 4 + 2] = data[i * 3 + 2]!; rgba[i * 4 + 3] = 255; }
    const out = warp({ data: rgba, width: W, height: H, channels: 4 }, homography(corners, [[0, 0], [W, 0], [W, H], [0, H]]), w, h, [0, 0, 0, 0]);
    data = await sharp(Buffer.from(out.data), { raw: { width: w, height: h, channels: 4 } }).flatten({ background: '#5b4a3a' }).raw().toBuffer();
  }
  let p = sharp(data, { raw: { width: w, height: h, channels: 3 } });
  if (d.blur) p = sharp(await p.blur(d.blur).raw().toBuffer(), { raw: { width: w, height: h, channels: 3 } });
  if (d.motion) {
    const k = Math.max(3, Math.round(d.motion) | 1), a = r() * Math.PI;
    const kernel = new Array(k * k).fill(0);
    for (let t = 0; t < k * 4; t++) {
      const s = (t / (k * 4 - 1) - 0.5) * (k - 1);
      kernel[Math.round((k - 1) / 2 + s * Math.sin(a)) * k + Math.round((k - 1) / 2 + s * Math.cos(a))] += 1;
    }
    p = sharp(await p.convolve({ width: k, height: k, kernel, scale: kernel.reduce((x, y) => x + y, 0) }).raw().toBuffer(), { raw: { width: w, height: h, channels: 3 } });
  }
  if (d.width && d.width !== w) p = p.resize({ width: d.width, kernel: 'lanczos3' });
  return p.jpeg({ quality: d.jpegQuality ?? 60 }).toBuffer();
}
