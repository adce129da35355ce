// Masking of account and identity numbers for logs, stored records and error messages.

/** Keep the last 4 digits: "1002345678901" → "*********8901" (≤ 4 digits: all masked). */
export function maskAccount(n: string | undefined | null): string {
  if (!n) return '';
  const s = String(n);
  if (s.length <= 4) return '*'.repeat(s.length);
  return '*'.repeat(s.length - 4) + s.slice(-4);
}

/** YYMMDD → "YY****"; business number (10 digits) → "123-**-*****"; resident numbers → front 6 + gender digit. */
export function maskIdentity(n: string | undefined | null): string {
  if (!n) return '';
  const s = String(n);
  if (/^\d{6}$/.test(s)) return s.slice(0, 2) + '****';
  if (/^\d{10}$/.test(s)) return `${s.slice(0, 3)}-**-*****`;
  const rrn = /^(\d{6})-?([0-9*])[0-9*]{6}$/.exec(s);
  if (rrn) return `${rrn[1]}-${rrn[2]}******`;
  return '*'.repeat(Math.min(s.length, 16));
}
