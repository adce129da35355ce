// The job families of the spec: each family's id prefix. A job is readable only through its own family.
export const FAMILIES = {
  txt2img: { prefix: 'txt2img_', defaultTtlHours: 1 },
  caric: { prefix: 'caric_', defaultTtlHours: 24 },
  analyze: { prefix: 'analyze_', defaultTtlHours: 24 },
  receipt: { prefix: 'receipt_', defaultTtlHours: 24 },
  studio_skin: { prefix: 'studio_skin_', defaultTtlHours: 24 },
  studio_reshape: { prefix: 'studio_reshape_', defaultTtlHours: 24 },
  studio_makeup: { prefix: 'studio_makeup_', defaultTtlHours: 24 },
  studio_mosaic: { prefix: 'studio_mosaic_', defaultTtlHours: 24 },
  bg_remove: { prefix: 'bg_remove_', defaultTtlHours: 24 },
  comp_caric: { prefix: 'comp_caric_', defaultTtlHours: 24 },
  ekyc_enhance: { prefix: 'ekyc-enhance-', defaultTtlHours: 1 },
  ekyc_pipeline: { prefix: 'ekyc-pipeline-', defaultTtlHours: 1 },
} as const;

export type Family = keyof typeof FAMILIES;

/**
 * the families by the first character of their prefix, longest prefix first (studio_skin_ before a hypothetical
 * studio_): a poll's job id is tested against one to four prefixes, not all twelve (familyOfId runs on every job read)
 */
const BY_FIRST = new Map<number, Family[]>();
for (const f of (Object.keys(FAMILIES) as Family[]).sort((a, b) => FAMILIES[b].prefix.length - FAMILIES[a].prefix.length)) {
  const c = FAMILIES[f].prefix.charCodeAt(0);
  BY_FIRST.set(c, [...(BY_FIRST.get(c) ?? []), f]);
}

export function familyOfId(id: string): Family | undefined {
  const candidates = BY_FIRST.get(id.charCodeAt(0));
  if (candidates === undefined) return undefined;
  for (const f of candidates) if (id.startsWith(FAMILIES[f].prefix)) return f;
  return undefined;
}
