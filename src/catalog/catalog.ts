// The model catalog: the ONE place that maps a public model id to its wire family (adapter), the upstream model
// name, prices, capabilities, status and the per-model rules (image_size, system_instruction).
// An optional JSON file (SEJONG_CATALOG_FILE) overrides entries, adds models, removes models and gives provider
// URLs/keys; see docs/ai.md.
import fs from 'node:fs';
import { z } from 'zod';

/** Wire families: A = messages API, B = generateContent API, C = chat-completions + images-generations. */
export type WireFamily = 'fam-a' | 'fam-b' | 'fam-c';
export type Capability = 'text_generation' | 'image_generation' | 'image_to_image' | 'vision_analysis';
export const CAPABILITIES: Capability[] = ['text_generation', 'image_generation', 'image_to_image', 'vision_analysis'];
export const PROVIDERS: WireFamily[] = ['fam-a', 'fam-b', 'fam-c'];
export type ImageSize = '1K' | '2K' | '4K';

export type Pricing =
  | { kind: 'tokens'; inputPerMTok: number; outputPerMTok: number; longContext?: { aboveInputTokens: number; inputPerMTok: number; outputPerMTok: number } }
  /** per image: `default` for a square image (and for models without sizes), `nonSquare` for other aspect ratios, `bySize` for image_size */
  | { kind: 'image'; default: number; nonSquare?: number; bySize?: Partial<Record<ImageSize, number>> }
  | { kind: 'none' };

export interface ModelEntry {
  /** public id (what clients send) */
  id: string;
  name: string;
  /** wire family / adapter; also the public `provider` value */
  family: WireFamily;
  /** model name sent upstream */
  upstream: string;
  capabilities: Capability[];
  status: 'active' | 'deprecated';
  /** extra status words shown after Active (latest, recommended, production default …) */
  statusNote?: string;
  /** YYYY-MM-DD; from this day on the model is refused */
  retiresOn?: string;
  description: string;
  /** cost text as published */
  cost: string;
  pricing: Pricing;
  /** image_size values this model accepts (empty: image_size is refused) */
  imageSizes: ImageSize[];
  /** default image_size when the model accepts one */
  defaultImageSize?: ImageSize;
  /** whether system_instruction is accepted by text-to-image */
  systemInstruction: boolean;
  /** how images are generated: B generateContent (inline data), B predict, C images-generations */
  imageEndpoint?: 'generateContent' | 'predict' | 'images';
  /** C images: send response_format=b64_json (older image models); newer ones always answer b64_json */
  sendResponseFormat?: boolean;
}

const T = (i: number, o: number): Pricing => ({ kind: 'tokens', inputPerMTok: i, outputPerMTok: o });
const NONE: Pricing = { kind: 'none' };
const TV: Capability[] = ['text_generation', 'vision_analysis'];
const TXT: Capability[] = ['text_generation'];
const GEN: Capability[] = ['image_generation', 'image_to_image'];
const T2I: Capability[] = ['image_generation'];

type Def = Omit<ModelEntry, 'upstream' | 'imageSizes' | 'systemInstruction' | 'name'> & Partial<Pick<ModelEntry, 'upstream' | 'imageSizes' | 'systemInstruction' | 'name'>>;

const DEFS: Def[] = [
  { id: 'fam-a-opus-4-7', family: 'fam-a', capabilities: TV, status: 'active', statusNote: 'latest', description: 'Family A flagship model for text and vision', cost: '$5 / $25 per MTok (input/output)', pricing: T(5, 25) },
  { id: 'fam-a-opus-4-6', family: 'fam-a', capabilities: TV, status: 'active', description: 'Family A large model for text and vision', cost: '$5 / $25 per MTok (input/output)', pricing: T(5, 25) },
  { id: 'fam-a-sonnet-4-6', family: 'fam-a', capabilities: TV, status: 'active', statusNote: 'recommended', description: 'Family A balanced model for text and vision', cost: '$3 / $15 per MTok (input/output)', pricing: T(3, 15) },
  { id: 'fam-a-sonnet-4-5-20250929', family: 'fam-a', capabilities: TXT, status: 'active', description: 'Family A balanced text model', cost: '$3 / $15 per MTok (input/output)', pricing: T(3, 15) },
  { id: 'fam-a-haiku-4-5-20251001', family: 'fam-a', capabilities: TXT, status: 'active', description: 'Family A fast, low-cost text model', cost: '$1 / $5 per MTok (input/output)', pricing: T(1, 5) },
  { id: 'fam-a-opus-4-20250514', family: 'fam-a', capabilities: TXT, status: 'deprecated', retiresOn: '2026-06-15', description: 'Family A text model (deprecated)', cost: 'none listed', pricing: NONE },
  { id: 'fam-a-sonnet-4-20250514', family: 'fam-a', capabilities: TXT, status: 'deprecated', retiresOn: '2026-06-15', description: 'Family A text model (deprecated)', cost: 'none listed', pricing: NONE },
  {
    id: 'fam-b-3.1-pro-preview', family: 'fam-b', capabilities: TV, status: 'active', description: 'Family B pro model for text and vision', cost: '$2 / $12 per MTok (above 200K input tokens: $4 / $18)',
    pricing: { kind: 'tokens', inputPerMTok: 2, outputPerMTok: 12, longContext: { aboveInputTokens: 200_000, inputPerMTok: 4, outputPerMTok: 18 } },
  },
  { id: 'fam-b-3-flash-preview', family: 'fam-b', capabilities: TV, status: 'active', description: 'Family B fast model for text and vision (default for image analysis)', cost: '$0.075 / $0.30 per MTok (input/output)', pricing: T(0.075, 0.3) },
  { id: 'fam-b-2.5-flash', family: 'fam-b', capabilities: TV, status: 'deprecated', retiresOn: '2026-06-17', description: 'Family B fast model (deprecated)', cost: 'none listed', pricing: NONE },
  { id: 'fam-b-2.5-pro', family: 'fam-b', capabilities: TV, status: 'deprecated', retiresOn: '2026-06-17', description: 'Family B pro model (deprecated)', cost: 'none listed', pricing: NONE },
  { id: 'fam-c-4o', family: 'fam-c', capabilities: ['vision_analysis'], status: 'active', description: 'Family C multimodal model for image analysis', cost: 'none listed', pricing: NONE },
  {
    id: 'fam-b-3.1-flash-image-preview', family: 'fam-b', capabilities: GEN, status: 'active', statusNote: 'latest', description: 'Family B image model: text-to-image and image-to-image, 1K/2K/4K',
    cost: '$0.067 (1K) / $0.101 (2K) / $0.151 (4K) per image', pricing: { kind: 'image', default: 0.101, bySize: { '1K': 0.067, '2K': 0.101, '4K': 0.151 } },
    imageSizes: ['1K', '2K', '4K'], defaultImageSize: '2K', systemInstruction: true, imageEndpoint: 'generateContent',
  },
  {
    id: 'fam-b-3-pro-image-preview', family: 'fam-b', capabilities: GEN, status: 'active', description: 'Family B pro image model: text-to-image and image-to-image, 1K/2K/4K',
    cost: '$0.12 per image', pricing: { kind: 'image', default: 0.12 }, imageSizes: ['1K', '2K', '4K'], defaultImageSize: '2K', systemInstruction: true, imageEndpoint: 'generateContent',
  },
  {
    id: 'fam-b-2.5-flash-image', family: 'fam-b', capabilities: GEN, status: 'active', statusNote: 'recommended for cost', description: 'Family B low-cost image model: text-to-image and image-to-image',
    cost: '$0.039 per image', pricing: { kind: 'image', default: 0.039 }, systemInstruction: true, imageEndpoint: 'generateContent',
  },
  { id: 'fam-c-image-2', family: 'fam-c', capabilities: T2I, status: 'active', statusNote: 'latest', description: 'Family C image model (latest)', cost: '$0.005 to $0.20 per image', pricing: { kind: 'image', default: 0.2 }, imageEndpoint: 'images' },
  { id: 'fam-c-image-1.5', family: 'fam-c', capabilities: T2I, status: 'active', statusNote: 'production default', description: 'Family C image model (production default)', cost: '$0.011 to $0.167 per image', pricing: { kind: 'image', default: 0.167 }, imageEndpoint: 'images' },
  { id: 'fam-c-image-1', family: 'fam-c', capabilities: T2I, status: 'active', description: 'Family C image model', cost: '$0.04 to $0.08 per image', pricing: { kind: 'image', default: 0.04, nonSquare: 0.08 }, imageEndpoint: 'images' },
  { id: 'fam-c-image-1-mini', family: 'fam-c', capabilities: T2I, status: 'active', description: 'Family C small image model (accepted by text-to-image; not in the published model table)', cost: 'none listed', pricing: NONE, imageEndpoint: 'images' },
  { id: 'fam-d-3', family: 'fam-b', capabilities: T2I, status: 'active', description: 'Family D text-to-image model, served through the family B provider (predict API)', cost: '$0.03 per image', pricing: { kind: 'image', default: 0.03 }, imageEndpoint: 'predict' },
  {
    id: 'fam-e-3', family: 'fam-c', capabilities: T2I, status: 'deprecated', retiresOn: '2026-05-12', description: 'Family E text-to-image model, served through the family C provider (deprecated)',
    cost: '$0.04 to $0.08 per image', pricing: { kind: 'image', default: 0.04, nonSquare: 0.08 }, imageEndpoint: 'images', sendResponseFormat: true,
  },
];

export const DEFAULT_MODELS: ModelEntry[] = DEFS.map((d) => ({
  name: d.id,
  upstream: d.id,
  imageSizes: [],
  systemInstruction: false,
  ...d,
}));

/** Settings each wire family needs, named for error messages. */
export const FAMILY_SETTINGS: Record<WireFamily, { url: string; key: string }> = {
  'fam-a': { url: 'SEJONG_FAMA_URL', key: 'SEJONG_FAMA_KEY' },
  'fam-b': { url: 'SEJONG_FAMB_URL', key: 'SEJONG_FAMB_KEY' },
  'fam-c': { url: 'SEJONG_FAMC_URL', key: 'SEJONG_FAMC_KEY' },
};

// ---- override file ----
const capability = z.enum(['text_generation', 'image_generation', 'image_to_image', 'vision_analysis']);
const size = z.enum(['1K', '2K', '4K']);
const pricing = z.union([
  z.object({ kind: z.literal('tokens'), inputPerMTok: z.number().min(0), outputPerMTok: z.number().min(0), longContext: z.object({ aboveInputTokens: z.number().int().min(1), inputPerMTok: z.number().min(0), outputPerMTok: z.number().min(0) }).strict().optional() }).strict(),
  z.object({ kind: z.literal('image'), default: z.number().min(0), nonSquare: z.number().min(0).optional(), bySize: z.object({ '1K': z.number().min(0).optional(), '2K': z.number().min(0).optional(), '4K': z.number().min(0).optional() }).strict().optional() }).strict(),
  z.object({ kind: z.literal('none') }).strict(),
]);
const entryFields = {
  id: z.string().min(1).max(100).regex(/^[A-Za-z0-9._:-]+$/),
  name: z.string().min(1).max(200),
  family: z.enum(['fam-a', 'fam-b', 'fam-c']),
  upstream: z.string().min(1).max(200).regex(/^[A-Za-z0-9._:/-]+$/),
  capabilities: z.array(capability).min(1),
  status: z.enum(['active', 'deprecated']),
  statusNote: z.string().max(100).optional(),
  retiresOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  description: z.string().max(1000),
  cost: z.string().max(200),
  pricing,
  imageSizes: z.array(size),
  defaultImageSize: size.optional(),
  systemInstruction: z.boolean(),
  imageEndpoint: z.enum(['generateContent', 'predict', 'images']).optional(),
  sendResponseFormat: z.boolean().optional(),
};
const fullEntry = z.object(entryFields).strict();
const partialEntry = z.object(entryFields).partial().extend({ id: entryFields.id }).strict();
const providerConf = z.object({ url: z.string().url().optional(), key: z.string().optional() }).strict();
export const catalogFileSchema = z.object({
  /** entries: a known id is merged over the default entry, a new id must be complete */
  models: z.array(z.unknown()).optional(),
  /** ids to drop from the catalog */
  remove: z.array(z.string()).optional(),
  /** base URL / key per family, used when the SEJONG_FAM?_URL / _KEY setting is empty */
  providers: z.object({ 'fam-a': providerConf.optional(), 'fam-b': providerConf.optional(), 'fam-c': providerConf.optional() }).strict().optional(),
}).strict();

export interface ProviderConf {
  url: string;
  key: string;
}

export class Catalog {
  private readonly byId = new Map<string, ModelEntry>();
  constructor(
    models: ModelEntry[],
    readonly providers: Partial<Record<WireFamily, Partial<ProviderConf>>> = {},
  ) {
    for (const m of models) this.byId.set(m.id, m);
  }

  get(id: string): ModelEntry | undefined {
    return this.byId.get(id);
  }

  all(): ModelEntry[] {
    return [...this.byId.values()];
  }

  with(cap: Capability): ModelEntry[] {
    return this.all().filter((m) => m.capabilities.includes(cap));
  }

  /** Retired = deprecated and the retirement day has come (UTC). */
  isRetired(m: ModelEntry, now: number): boolean {
    return m.status === 'deprecated' && m.retiresOn !== undefined && new Date(now).toISOString().slice(0, 10) >= m.retiresOn;
  }

  /** "Active", "Active, latest", "Deprecated, retires 2026-06-15", and once that day has come "Retired 2026-06-15". */
  statusText(m: ModelEntry, now: number = Date.now()): string {
    if (this.isRetired(m, now)) return `Retired ${m.retiresOn}`;
    if (m.status === 'deprecated') return m.retiresOn ? `Deprecated, retires ${m.retiresOn}` : 'Deprecated';
    return m.statusNote ? `Active, ${m.statusNote}` : 'Active';
  }

  /** Load the defaults plus an optional override file. Throws with a message naming the file and the entry. */
  static load(file?: string): Catalog {
    if (!file) return new Catalog(DEFAULT_MODELS);
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      throw new Error(`SEJONG_CATALOG_FILE ${file}: ${(e as Error).message}`);
    }
    return Catalog.fromObject(raw, file);
  }

  static fromObject(raw: unknown, where = 'catalog'): Catalog {
    const parsed = catalogFileSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`${where}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
    const doc = parsed.data;
    const map = new Map(DEFAULT_MODELS.map((m) => [m.id, { ...m }]));
    for (const id of doc.remove ?? []) map.delete(id);
    (doc.models ?? []).forEach((item, i) => {
      const id = (item as { id?: unknown })?.id;
      const base = typeof id === 'string' ? map.get(id) : undefined;
      const r = base ? partialEntry.safeParse(item) : fullEntry.safeParse({ name: id, imageSizes: [], systemInstruction: false, ...(item as object) });
      if (!r.success) throw new Error(`${where}: models[${i}] (${String(id)}): ${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message}`);
      map.set(r.data.id, { ...(base ?? {}), ...r.data } as ModelEntry);
    });
    return new Catalog([...map.values()], doc.providers ?? {});
  }
}

// ---- prices ----
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function tokenCost(m: ModelEntry, usage: { input_tokens: number; output_tokens: number }): number {
  const p = m.pricing;
  if (p.kind !== 'tokens') return 0;
  const tier = p.longContext && usage.input_tokens > p.longContext.aboveInputTokens ? p.longContext : p;
  return round6((usage.input_tokens * tier.inputPerMTok + usage.output_tokens * tier.outputPerMTok) / 1e6);
}

export function imageCost(m: ModelEntry, opts: { imageSize?: ImageSize; aspectRatio?: string } = {}): number {
  const p = m.pricing;
  if (p.kind !== 'image') return 0;
  const sizeKey = opts.imageSize ?? m.defaultImageSize;
  if (sizeKey && p.bySize?.[sizeKey] !== undefined) return p.bySize[sizeKey]!;
  if (p.nonSquare !== undefined && opts.aspectRatio && opts.aspectRatio !== '1:1') return p.nonSquare;
  return p.default;
}

/** Rough token estimate before a vision/text call: image ≈ 1,500 tokens, text ≈ 4 characters per token. */
export function estimateTokenCost(m: ModelEntry, opts: { promptChars: number; images: number; maxOutputTokens: number }): number {
  const input = Math.ceil(opts.promptChars / 4) + opts.images * 1500;
  return tokenCost(m, { input_tokens: input, output_tokens: Math.min(opts.maxOutputTokens, 1000) });
}
