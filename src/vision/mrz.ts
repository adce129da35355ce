// Passport machine-readable zone (ICAO 9303 TD3: 2 lines × 44 characters) — parsing and check digits.

const VAL = (c: string): number => (c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55);

/** ICAO 9303 check digit: weights 7, 3, 1 repeating, sum mod 10. */
export function checkDigit(s: string): number {
  const w = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < s.length; i++) sum += VAL(s[i]!) * w[i % 3]!;
  return sum % 10;
}

export interface MrzResult {
  documentNumber: string;
  nationality: string;
  issuingState: string;
  surname: string;
  givenNames: string;
  /** YYMMDD as printed and the ISO date */
  birthDate: string | null;
  expiryDate: string | null;
  sex: string;
  checks: { documentNumber: boolean; birthDate: boolean; expiryDate: boolean; personalNumber: boolean; composite: boolean };
  valid: boolean;
}

/** Clean an OCR'd MRZ line: uppercase, « / spaces → <, O↔0 fixes are left to the check digits. */
export function cleanMrzLine(s: string): string {
  return s.toUpperCase().replace(/[«‹≪]/g, '<<').replace(/[\s]/g, '').replace(/[^A-Z0-9<]/g, '<');
}

function isoFromYymmdd(s: string, future: boolean, now = new Date()): string | null {
  if (!/^\d{6}$/.test(s)) return null;
  const yy = Number(s.slice(0, 2)), mm = Number(s.slice(2, 4)), dd = Number(s.slice(4, 6));
  const cy = now.getUTCFullYear() % 100;
  const y = future ? 2000 + yy : yy > cy ? 1900 + yy : 2000 + yy;
  const d = new Date(Date.UTC(y, mm - 1, dd));
  if (d.getUTCMonth() !== mm - 1 || d.getUTCDate() !== dd) return null;
  return `${y}-${s.slice(2, 4)}-${s.slice(4, 6)}`;
}

/** Parse a TD3 MRZ from two lines (padded/truncated to 44). Returns null when the lines are not TD3-shaped. */
export function parseTd3(l1raw: string, l2raw: string, now = new Date()): MrzResult | null {
  // line 1 after the issuing state holds letters and < only: undo digit/letter confusions there
  const c1 = cleanMrzLine(l1raw.replace(/[|!ł/]/g, 'I'));
  const l1 = (c1.slice(0, 5) + c1.slice(5).replace(/[0-9]/g, (d) => ({ '0': 'O', '1': 'I', '5': 'S', '8': 'B', '2': 'Z', '6': 'G' })[d] ?? '<')).padEnd(44, '<').slice(0, 44);
  const l2 = cleanMrzLine(l2raw).padEnd(44, '<').slice(0, 44);
  if (l1[0] !== 'P') return null;
  const names = l1.slice(5).split('<<');
  const surname = (names[0] ?? '').replace(/</g, ' ').trim();
  const givenNames = names.slice(1).join(' ').replace(/</g, ' ').replace(/\s+/g, ' ').trim();
  const docNo = l2.slice(0, 9), dob = l2.slice(13, 19), exp = l2.slice(21, 27), pn = l2.slice(28, 42);
  const ck = (s: string, c: string) => /\d/.test(c) && checkDigit(s) === Number(c);
  const composite = l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, 43);
  const checks = {
    documentNumber: ck(docNo, l2[9]!),
    birthDate: ck(dob, l2[19]!),
    expiryDate: ck(exp, l2[27]!),
    personalNumber: l2[42] === '<' ? /^<*$/.test(pn) : ck(pn, l2[42]!),
    composite: ck(composite, l2[43]!),
  };
  return {
    documentNumber: docNo.replace(/</g, ''),
    nationality: l2.slice(10, 13).replace(/</g, ''),
    issuingState: l1.slice(2, 5).replace(/</g, ''),
    surname,
    givenNames,
    birthDate: isoFromYymmdd(dob, false, now),
    expiryDate: isoFromYymmdd(exp, true, now),
    sex: l2[20]!,
    checks,
    valid: Object.values(checks).every(Boolean),
  };
}

/** Build a TD3 MRZ (for tests and the bench). */
export function buildTd3(p: { surname: string; given: string; number: string; nationality: string; birth: string; sex: 'M' | 'F'; expiry: string; personal?: string }): [string, string] {
  const l1 = `P<${p.nationality}${p.surname.replace(/ /g, '<')}<<${p.given.replace(/ /g, '<')}`.padEnd(44, '<').slice(0, 44);
  const doc = p.number.padEnd(9, '<');
  const pn = (p.personal ?? '').padEnd(14, '<');
  const pnc = p.personal ? String(checkDigit(pn)) : '<';
  const body = `${doc}${checkDigit(doc)}${p.nationality}${p.birth}${checkDigit(p.birth)}${p.sex}${p.expiry}${checkDigit(p.expiry)}${pn}${pnc}`;
  const comp = body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43);
  return [l1, body + String(checkDigit(comp))];
}
