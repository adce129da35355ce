// What enhance and pipeline jobs cost (USD), recorded per API key and per tenant_id (GET /api/v1/admin/usage/tenants).
// Local compute has no provider bill; these are the prices the operator charges, kept in one place.
export const COSTS = {
  enhance: 0.01,
  perspectiveCrop: 0.002,
  qualityAnalysis: 0.001,
  ocr: 0.01,
} as const;

export function pipelineCost(opts: { skipCrop: boolean; skipOcr: boolean; skipEnhance: boolean }): number {
  const c = (opts.skipCrop ? 0 : COSTS.perspectiveCrop) + COSTS.qualityAnalysis + (opts.skipOcr ? 0 : COSTS.ocr) + (opts.skipEnhance ? 0 : COSTS.enhance);
  return Math.round(c * 1e6) / 1e6;
}
