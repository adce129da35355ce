// ID cards as another generator might draw them (bench and tests only): the same identities and truth format as
// id-cards.ts, but each field placed a few percent elsewhere (layout jitter), text sizes ± 20 %, other Korean fonts
// (npm font packages, nothing downloaded), the name with its Hanja in parentheses as real cards print it, label
// words before fields where real cards have them, and the result turned 90/180/270° or cropped with a margin of
// background. The renderer of id-cards.ts is left untouched (other tests rely on its bytes).
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { LAYOUTS, type DocType, type Region } from '../../src/vision/layouts.js';
import { prng } from './images.js';
import type { RenderedCard } from './id-cards.js';
import { existsSync } from 'node:fs';
import { glareAndShadow, photograph } from './card-photo.js';

const require = createRequire(import.meta.url);

/** Font families: [regular, bold] files of npm packages. gowun-dodum is held out of the reader's tuning. */
const FONT_FILES: Record<string, [string, string]> = {
  'noto-sans': ['@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf', '@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf'],
  'nanum-gothic': ['@expo-google-fonts/nanum-gothic/400Regular/NanumGothic_400Regular.ttf', '@expo-google-fonts/nanum-gothic/700Bold/NanumGothic_700Bold.ttf'],
  'nanum-myeongjo': ['@expo-google-fonts/nanum-myeongjo/400Regular/NanumMyeongjo_400Regular.ttf', '@expo-google-fonts/nanum-myeongjo/700Bold/NanumMyeongjo_700Bold.ttf'],
  'gowun-dodum': ['@expo-google-fonts/gowun-dodum/400Regular/GowunDodum_400Regular.ttf', '@expo-google-fonts/gowun-dodum/400Regular/GowunDodum_400Regular.ttf'],
};
/** Debian fonts-nanum / fonts-unfonts-core (bench only, used when installed: `apt-get install fonts-nanum
 * fonts-unfonts-core`). Tuning (card27) looked at nanum-square and un-dotum; nanum-barun and un-batang held out. */
const SYSTEM_FONTS: Record<string, [string, string]> = {
  'nanum-square': ['/usr/share/fonts/truetype/nanum/NanumSquareR.ttf', '/usr/share/fonts/truetype/nanum/NanumSquareB.ttf'],
  'un-dotum': ['/usr/share/fonts/truetype/unfonts-core/UnDotum.ttf', '/usr/share/fonts/truetype/unfonts-core/UnDotumBold.ttf'],
  'nanum-barun': ['/usr/share/fonts/truetype/nanum/NanumBarunGothic.ttf', '/usr/share/fonts/truetype/nanum/NanumBarunGothicBold.ttf'],
  'un-batang': ['/usr/share/fonts/truetype/unfonts-core/UnBatang.ttf', '/usr/share/fonts/truetype/unfonts-core/UnBatangBold.ttf'],
};
for (const [k, files] of Object.entries(SYSTEM_FONTS)) if (files.every((f) => existsSync(f))) FONT_FILES[k] = files;
export const VARIED_FONTS = Object.keys(FONT_FILES);
const registered = new Set<string>();
function font(name: string): [string, string] {
  if (!registered.has(name)) {
    const [reg, bold] = FONT_FILES[name]!;
    const at = (f: string) => (f.startsWith('/') ? f : require.resolve(f));
    GlobalFonts.registerFromPath(at(reg), `V-${name}`);
    GlobalFonts.registerFromPath(at(bold), `V-${name}-B`);
    registered.add(name);
  }
  return [`V-${name}`, `V-${name}-B`];
}

export interface VariedOptions {
  seed: number;
  /** font family (VARIED_FONTS), default noto-sans */
  font?: string;
  /** layout jitter: the whole layout shifted by up to ± jitter of the card, each field by up to ± jitter across
   * and ± jitter / 3 down (rows never collide), text sizes × 0.8–1.2; 0 = our own layout */
  jitter?: number;
  /** print the Hanja of a Korean name in parentheses: 홍길동(洪吉童) */
  hanja?: boolean;
  /** label words before fields (성명, 주소, 발급일 …; alien: 성명 / 국가 / 체류자격) */
  labels?: boolean;
  /** the label words set above their values (smaller, in the row's top part) instead of before them */
  labelsAbove?: boolean;
  /** a bright glare spot across a field and a shadow over one side */
  glare?: boolean;
  /** the card photographed a few degrees off straight (clockwise degrees, 2–8), on its background */
  tilt?: number;
  /** the card on a busy background (stripes, boxes, printed words) instead of a flat one */
  busy?: boolean;
  /** the card on white paper (its edge barely shows) */
  pale?: boolean;
  /** the card photographed turned by this many degrees (clockwise) */
  turn?: 0 | 90 | 180 | 270;
  /** a margin of background around the card, as a fraction of its width */
  margin?: number;
}

const SURNAMES: Array<[string, string]> = [['김', '金'], ['이', '李'], ['박', '朴'], ['최', '崔'], ['정', '鄭'], ['강', '姜'], ['조', '趙'], ['윤', '尹'], ['장', '張'], ['임', '林'], ['한', '韓'], ['오', '吳'], ['서', '徐'], ['신', '申'], ['권', '權'], ['황', '黃'], ['안', '安'], ['송', '宋'], ['류', '柳'], ['홍', '洪']];
const GIVEN: Array<[string, string]> = [['민', '敏'], ['서', '瑞'], ['지', '智'], ['현', '賢'], ['우', '宇'], ['준', '俊'], ['영', '英'], ['수', '秀'], ['하', '夏'], ['윤', '允'], ['은', '恩'], ['도', '道'], ['재', '在'], ['성', '成'], ['진', '眞'], ['혜', '惠'], ['경', '京'], ['태', '泰'], ['유', '裕'], ['나', '娜'], ['연', '娟'], ['호', '浩'], ['희', '熙'], ['동', '東'], ['훈', '勳'], ['빈', '彬'], ['아', '雅'], ['주', '周'], ['원', '元']];
const CITIES: Array<[string, string[]]> = [
  ['서울특별시', ['종로구', '중구', '강남구', '마포구', '송파구', '관악구', '노원구', '서초구']],
  ['부산광역시', ['해운대구', '수영구', '동래구', '남구', '사하구']],
  ['대구광역시', ['수성구', '달서구', '북구']],
  ['인천광역시', ['연수구', '남동구', '부평구', '계양구']],
  ['광주광역시', ['서구', '북구', '광산구']],
  ['대전광역시', ['유성구', '서구', '중구', '대덕구']],
  ['울산광역시', ['남구', '울주군']],
];
const ROADS = ['새문안로', '도산대로', '반포대로', '양화로', '동일로', '중앙로', '구덕로', '대학로', '문화로', '시청로', '번영로', '삼일대로'];
const LATIN_FIRST = ['NGUYEN', 'TRAN', 'LE', 'SANTOS', 'REYES', 'ZHANG', 'LIU', 'TANAKA', 'ALI', 'SCHMIDT', 'LOPEZ', 'BROWN'];
const LATIN_GIVEN = ['VAN HUNG', 'THI LAN', 'JOSE', 'ELENA', 'MING', 'HARUTO', 'FATIMA', 'PAUL', 'CARLOS', 'EMMA'];
const NATIONS = ['VIETNAM', 'CHINA', 'PHILIPPINES', 'INDONESIA', 'JAPAN', 'NEPAL', 'UZBEKISTAN', 'CANADA', 'FRANCE', 'MONGOLIA'];
const STATUSES = ['E-9', 'D-2', 'F-4', 'F-5', 'E-7', 'H-2', 'D-4', 'F-2', 'C-3', 'E-1'];
const LICENCE_TYPES = ['1종 보통', '2종 보통', '1종 대형', '2종 소형'];
/** label words real cards print before some fields (the alien card's, and 주민등록증's none but the address line) */
const LABELS: Record<DocType, Record<string, string>> = {
  jumin: {},
  driver: { license_type: '종류', name: '성명', jumin_full: '주민번호', address: '주소' },
  alien: { registration_number: '외국인등록번호', name: '성명', nationality: '국가', status: '체류자격' },
};

const pick = <T>(r: () => number, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
const pad = (n: number) => String(n).padStart(2, '0');

/** A card drawn with the options' variations; truth as renderCard's (the name without its Hanja). */
export async function renderVariedCard(docType: DocType, o: VariedOptions): Promise<RenderedCard> {
  const r = prng(o.seed * 31 + 7);
  const [F, FB] = font(o.font ?? 'noto-sans');
  const W = 1280, H = 807;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const g = ctx.createLinearGradient(0, 0, W, H);
  g.addColorStop(0, docType === 'driver' ? '#f1f4ea' : docType === 'alien' ? '#eef2f6' : '#f7f3ec');
  g.addColorStop(1, docType === 'driver' ? '#e2e9d6' : docType === 'alien' ? '#dbe3ec' : '#ece4d6');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
  ctx.strokeStyle = 'rgba(150,130,110,0.10)';
  ctx.lineWidth = 1.5;
  for (let y = 20; y < H; y += 28) { ctx.beginPath(); ctx.moveTo(0, y); ctx.bezierCurveTo(W / 3, y - 18, (2 * W) / 3, y + 18, W, y); ctx.stroke(); }

  const year = 1950 + Math.floor(r() * 55), month = 1 + Math.floor(r() * 12), day = 1 + Math.floor(r() * 28);
  const male = r() < 0.5, foreign = docType === 'alien';
  const gender = year >= 2000 ? (foreign ? (male ? 7 : 8) : male ? 3 : 4) : foreign ? (male ? 5 : 6) : male ? 1 : 2;
  const number = `${pad(year % 100)}${pad(month)}${pad(day)}-${gender}******`;
  const issueY = Math.min(Math.max(year + 17, 2005) + Math.floor(r() * 15), 2025), im = 1 + Math.floor(r() * 12), id = 1 + Math.floor(r() * 28);
  const [city, districts] = pick(r, CITIES);
  const district = pick(r, districts);
  const addr1 = `${city} ${district} ${pick(r, ROADS)} ${1 + Math.floor(r() * 400)}`;
  const addr2 = `${100 + Math.floor(r() * 20)}동 ${1 + Math.floor(r() * 25)}0${1 + Math.floor(r() * 4)}호`;
  const parts = [pick(r, SURNAMES), pick(r, GIVEN), ...(r() < 0.85 ? [pick(r, GIVEN)] : [])];
  const name = foreign ? `${pick(r, LATIN_FIRST)} ${pick(r, LATIN_GIVEN)}` : parts.map((p) => p[0]).join('');
  const truth: Record<string, string> = { name, address: `${addr1} ${addr2}`, issue_date: `${issueY}-${pad(im)}-${pad(id)}`, birth_date: `${year}-${pad(month)}-${pad(day)}`, jumin_full: number };
  const dateText = r() < 0.5 ? `${issueY}. ${im}. ${id}.` : `${issueY}.${pad(im)}.${pad(id)}.`;

  const J = o.jitter ?? 0;
  const u = () => r() * 2 - 1;
  const gx = u() * J, gy = u() * J * 0.6;
  const region = (k: string): Region => {
    const [x, y, w, h] = LAYOUTS[docType].regions[k]!;
    return [x + gx + u() * J * 0.5, y + gy + u() * J / 3, w, h];
  };
  const size = (s: number) => Math.round(s * (J ? 0.8 + r() * 0.4 : 1));
  const labels = o.labels || o.labelsAbove ? LABELS[docType] : {};
  const text = (ctx2: SKRSContext2D, s: string, k: string, px: number, bold = false, line = 0, lines = 1, reg = region(k)) => {
    const [x, y, , h] = reg;
    const lh = (h * H) / lines;
    ctx2.fillStyle = '#1f1f22';
    ctx2.textBaseline = 'middle';
    let left = x * W + 12;
    const label = line === 0 ? labels[k] : undefined;
    if (label && o.labelsAbove) {
      // the label in the row's top part, the value below it, both from the row's left edge
      const lpx = Math.round(px * 0.5);
      ctx2.font = `${lpx}px ${FB}`;
      ctx2.fillStyle = '#44556a';
      ctx2.fillText(label, left, y * H + lh / 2 - px * 0.62);
      ctx2.fillStyle = '#1f1f22';
      ctx2.font = `${px}px ${bold ? FB : F}`;
      ctx2.fillText(s, left, y * H + lh / 2 + px * 0.3);
      return left;
    }
    if (label) {
      ctx2.font = `${Math.round(px * 0.62)}px ${FB}`;
      ctx2.fillStyle = '#44556a';
      ctx2.fillText(label, left, y * H + lh / 2);
      left += ctx2.measureText(label).width + px * 0.6;
      ctx2.fillStyle = '#1f1f22';
    }
    ctx2.font = `${px}px ${bold ? FB : F}`;
    ctx2.fillText(s, left, y * H + lh * line + lh / 2);
    return left;
  };
  // the Hanja in parentheses after the name, in Noto Sans KR (the Nanum and Gowun packages carry no Hanja: a card
  // printer falls back to another face the same way)
  const nameLine = (k: string, px: number) => {
    const reg = region(k);
    const left = text(ctx, name, k, px, false, 0, 1, reg);
    if (foreign || !o.hanja) return;
    const end = left + ctx.measureText(name).width;
    ctx.font = `${Math.round(px * 0.8)}px ${font('noto-sans')[0]}`;
    ctx.fillText(`(${parts.map((p) => p[1]).join('')})`, end + px * 0.08, reg[1] * H + (reg[3] * H) / 2);
  };
  const title = (s: string, x: number, y: number, px: number) => {
    ctx.font = `${size(px)}px ${FB}`;
    ctx.fillStyle = '#20304f';
    ctx.textBaseline = 'middle';
    ctx.fillText(s, (x + gx) * W, (y + gy) * H);
  };
  const photo = (x: number, y: number, w: number, h: number) => {
    const px = (x + gx * 0.5) * W, py = (y + gy * 0.5) * H;
    ctx.fillStyle = '#cfd3d9';
    ctx.fillRect(px, py, w * W, h * H);
    ctx.fillStyle = '#a0a8b2';
    ctx.beginPath(); ctx.ellipse(px + (w * W) / 2, py + h * H * 0.38, w * W * 0.22, h * H * 0.2, 0, 0, Math.PI * 2); ctx.fill();
  };
  const twoLine = (k: string, px: number) => {
    const reg = region(k);
    const left = text(ctx, addr1, k, px, false, 0, 2, reg);
    ctx.fillText(addr2, left, reg[1] * H + ((reg[3] * H) / 2) * 1.5);
  };
  // the photo first: a field jittered over it stays legible, as printed over a card's ghost image
  if (docType === 'jumin') {
    photo(0.7, 0.22, 0.25, 0.48);
    title('주민등록증', 0.06, 0.12, 72);
    nameLine('name', size(54));
    text(ctx, number, 'jumin_full', size(48));
    twoLine('address', size(34));
    text(ctx, dateText, 'issue_date', size(36));
    truth.issuer = `${city} ${district}청장`;
    text(ctx, truth.issuer, 'issuer', size(44), true);
  } else if (docType === 'driver') {
    photo(0.03, 0.2, 0.23, 0.5);
    title('자동차운전면허증', 0.3, 0.09, 60);
    const lt = pick(r, LICENCE_TYPES);
    const ln = `${11 + Math.floor(r() * 18)}-${pad(issueY % 100)}-${Array.from({ length: 6 }, () => Math.floor(r() * 10)).join('')}-${pad(Math.floor(r() * 100))}`;
    text(ctx, lt, 'license_type', size(38));
    text(ctx, ln, 'license_number', size(38));
    nameLine('name', size(46));
    text(ctx, number, 'jumin_full', size(40));
    twoLine('address', size(31));
    text(ctx, dateText, 'issue_date', size(33));
    const issuer = `${city}경찰청장`;
    text(ctx, issuer, 'issuer', size(42), true);
    Object.assign(truth, { license_type: lt, license_number: ln, issuer });
  } else {
    photo(0.72, 0.2, 0.24, 0.5);
    title('외국인등록증', 0.06, 0.09, 60);
    ctx.font = `28px ${F}`;
    ctx.fillText('RESIDENCE CARD', (0.52 + gx) * W, (0.09 + gy) * H);
    const nat = pick(r, NATIONS), st = pick(r, STATUSES);
    text(ctx, number, 'registration_number', size(42));
    text(ctx, name, 'name', size(40));
    text(ctx, nat, 'nationality', size(36));
    text(ctx, st, 'status', size(36));
    twoLine('address', size(31));
    text(ctx, dateText, 'issue_date', size(33));
    const issuer = `${city.slice(0, 2)}출입국외국인청장`;
    text(ctx, issuer, 'issuer', size(40), true);
    Object.assign(truth, { registration_number: number, nationality: nat, status: st, issuer });
  }
  if (o.glare) glareAndShadow(ctx, W, H, r);
  const shot = await photograph(canvas.toBuffer('image/png'), W, H, { tilt: o.tilt, margin: o.margin, busy: o.busy, pale: o.pale }, r);
  let img = sharp(shot.png).removeAlpha();
  let w = shot.width, h = shot.height;
  if (o.turn) {
    img = sharp(await img.rotate(o.turn).png().toBuffer());
    if (o.turn !== 180) [w, h] = [h, w];
  }
  const image = await img.jpeg({ quality: 85 }).toBuffer();
  return { docType, truth, image, width: w, height: h };
}

/** The conditions of the held-out-style set (bench/ocr-varied.ts): each a variation alone, then all at once. */
export const VARIED_CONDITIONS: Record<string, Omit<VariedOptions, 'seed' | 'font'>> = {
  plain: {},
  'jitter-5': { jitter: 0.05 },
  'jitter-8': { jitter: 0.08 },
  hanja: { hanja: true },
  labels: { labels: true },
  'turn-90': { turn: 90 },
  'turn-180': { turn: 180 },
  'turn-270': { turn: 270 },
  'margin-8': { margin: 0.08 },
  'labels-above': { labelsAbove: true },
  'tilt-4': { tilt: 4 },
  'tilt-7': { tilt: -7 },
  'tilt-crop': { tilt: 3, margin: 0.002 },
  'tilt-pale': { tilt: 5, pale: true },
  'above-jitter': { labelsAbove: true, jitter: 0.08 },
  glare: { glare: true },
  busy: { busy: true, margin: 0.1 },
  'turn-270-tilt': { turn: 270, tilt: 3 },
  all: { jitter: 0.05, hanja: true, labels: true, turn: 180, margin: 0.05 },
  'all-photo': { jitter: 0.05, hanja: true, labelsAbove: true, glare: true, busy: true, tilt: -3, turn: 90 },
};
