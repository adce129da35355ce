// identityNumber rules of /ekyc/account/verify: a birth date YYMMDD or a 10-digit business registration number.

export function validYymmdd(s: string): boolean {
  if (!/^\d{6}$/.test(s)) return false;
  const mm = Number(s.slice(2, 4)), dd = Number(s.slice(4, 6));
  if (mm < 1 || mm > 12 || dd < 1) return false;
  // Feb 29 is allowed (some century makes it valid)
  const days = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mm - 1]!;
  return dd <= days;
}

/** Business registration number check digit (국세청 algorithm): weights 1,3,7,1,3,7,1,3,5 plus ⌊d9·5/10⌋. */
export function validBusinessNumber(s: string): boolean {
  if (!/^\d{10}$/.test(s)) return false;
  const d = [...s].map(Number);
  const w = [1, 3, 7, 1, 3, 7, 1, 3, 5];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += d[i]! * w[i]!;
  sum += Math.floor((d[8]! * 5) / 10);
  return (10 - (sum % 10)) % 10 === d[9];
}

export type IdentityKind = 'birth_date' | 'business_number';

export function identityKind(s: string): IdentityKind | null {
  if (validYymmdd(s)) return 'birth_date';
  if (validBusinessNumber(s)) return 'business_number';
  return null;
}
