// The printed forms of ID-card fields: resident numbers, dates, licence numbers, visa codes (pure functions, no
// models). Used to validate a field and to recognise a text line by its content (card-fields.ts).

/** Resident (or foreigner) registration number, maybe masked after the 7th (or 8th) character. */
export const RRN = /^(\d{6})-([0-9*])([0-9*]{6})$/;

export function normaliseRrn(raw: string): string {
  // a stray glyph read before the number (a card corner or edge beside it: "O020317-4****") dropped
  let s = raw.replace(/\s+/g, '').replace(/[—–~_=]/g, '-').replace(/^[^\d*-]+(?=\d{6}-?[\d*])/, '');
  // a missing hyphen: 13 characters
  if (/^\d{6}[^-]{7}$/.test(s)) s = `${s.slice(0, 6)}-${s.slice(6)}`;
  // small or blurred captures: the hyphen read as another mark ("700112%1…", "761025'1…") or lost before a mask
  // whose asterisks came back as fewer other glyphs ("7610251漢漢고")
  else if (/^\d{6}[^\d*-]\d/.test(s)) s = `${s.slice(0, 6)}-${s.slice(7)}`;
  else if (/^\d{7}([^\d-].*)?$/.test(s)) s = `${s.slice(0, 6)}-${s.slice(6)}`;
  else if (/^\d{7}-$/.test(s)) s = `${s.slice(0, 6)}-${s.slice(6, 7)}`; // the hyphen after the gender digit, mask lost
  const m = /^(\d{6})-(.*)$/.exec(s);
  if (!m) return s;
  const back = m[2]!.replace(/^['`.,]+/, '');
  // masked: anything that is not a digit after the visible digits is the mask. Keep the digits read before the
  // first mask character, mask the rest to the fixed length 7: never guess a masked digit.
  if (/[^\d]/.test(back) || back.length !== 7) {
    const visible = /^\d*/.exec(back)![0].slice(0, 7);
    if (visible.length === 7) return `${m[1]}-${visible}`;
    // only the gender digit read (the mask lost entirely on a small or blurred capture): the rest is the mask
    if (back.length === 1) return `${m[1]}-${back}******`;
    if (!/[^\d]/.test(back)) return `${m[1]}-${back}`; // too short/long and unmasked: leave as read (fails validation)
    return `${m[1]}-${visible}${'*'.repeat(7 - visible.length)}`;
  }
  return `${m[1]}-${back}`;
}

export function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || d > 31) return false;
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

/** the first year a card prints (birth or issue) */
const FIRST_YEAR = 1900;

/** "2020 1 15" / "2020. 1. 15." / "20200115" → ISO date, or null. No year before FIRST_YEAR: a misread digit run such
 *  as a blurred flat number (10081002 → 1008-10-02, seed 9000 under motion blur) is no date — taken for the issue
 *  date by the content assignment it cut the address's last line off. */
export function parseDate(raw: string): string | null {
  let s = raw.replace(/[^\d]+/g, ' ').trim();
  // 7 digits without separators ("2012116"): only one split gives a valid date when month or day is 1 digit
  const c = s.replace(/ /g, '');
  if (!/ /.test(s) && (c.length === 6 || c.length === 7)) {
    const y = c.slice(0, 4), rest = c.slice(4);
    const splits = rest.length === 2 ? [[rest[0], rest[1]]] : [[rest.slice(0, 1), rest.slice(1)], [rest.slice(0, 2), rest.slice(2)]];
    const ok = splits.filter(([mo, d]) => validDate(Number(y), Number(mo), Number(d)));
    if (ok.length === 1) s = `${y} ${ok[0]![0]} ${ok[0]![1]}`;
  } else if (/^\d{4} \d{2,3}$/.test(s) || /^\d{5,6} \d{1,2}$/.test(s)) {
    // one separator lost: try both splits of the digit run that lost it
    const alts = new Set<string>();
    const all = c;
    for (let i = 5; i < all.length; i++) alts.add(`${all.slice(0, 4)} ${all.slice(4, i)} ${all.slice(i)}`);
    const ok = [...alts].filter((a) => { const [yy, mo, d] = a.split(' ').map(Number); return validDate(yy!, mo!, d!); });
    if (ok.length === 1) s = ok[0]!;
  }
  let m = /^(\d{4}) (\d{1,2}) (\d{1,2})$/.exec(s);
  if (!m) {
    const c = s.replace(/ /g, '');
    if (/^\d{8}$/.test(c)) m = [c, c.slice(0, 4), c.slice(4, 6), c.slice(6, 8)] as unknown as RegExpExecArray;
  }
  if (!m) return null;
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  if (y < FIRST_YEAR || !validDate(y, mo, d)) return null;
  return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Driver licence number: region(2)-year(2)-serial(6)-check(2). */
export function normaliseLicence(raw: string): string {
  const digits = raw.replace(/[^\d]/g, '');
  if (digits.length === 12) return `${digits.slice(0, 2)}-${digits.slice(2, 4)}-${digits.slice(4, 10)}-${digits.slice(10)}`;
  return raw.replace(/\s+/g, '');
}
export const LICENCE = /^\d{2}-\d{2}-\d{6}-\d{2}$/;
/** Korean visa / residence status code (체류자격): A-1 … H-2, optionally with a sub-code (E-7-1). */
export const VISA = /^[A-H]-\d{1,2}(-\d{1,2})?$/;
export const normaliseVisa = (s: string): string => s.replace(/\s+/g, '').toUpperCase().replace(/^([A-H])[-_.]?(\d)/, '$1-$2');
export const LICENCE_TYPES = ['1종 대형', '1종 보통', '1종 소형', '1종 특수', '2종 보통', '2종 소형', '2종 원동기'];

