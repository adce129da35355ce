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

/** family by its whole prefix (every prefix ends in '_' or '-') */
const BY_PREFIX = new Map((Object.keys(FAMILIES) as Family[]).map((f) => [FAMILIES[f].prefix as string, f]));
const LONGEST = Math.max(...[...BY_PREFIX.keys()].map((p) => p.length));

/**
 * The family whose prefix starts the id, the longest when several do (studio_skin_ before a hypothetical studio_):
 * a map lookup at each '_' or '-' within the longest prefix's length, not a startsWith per family (it runs on every
 * job read, the status poll's hot path).
 */
export function familyOfId(id: string): Family | undefined {
  let found: Family | undefined;
  const end = Math.min(id.length, LONGEST);
  for (let i = 0; i < end; i++) {
    const c = id.charCodeAt(i);
    if (c !== 0x5f && c !== 0x2d) continue; // '_', '-'
    const f = BY_PREFIX.get(id.slice(0, i + 1));
    if (f !== undefined) found = f;
  }
  return found;
}
