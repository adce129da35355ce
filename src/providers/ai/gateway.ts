// The AI gateway: public model id → catalog entry → adapter + provider URL/key. Every AI endpoint goes through it.
import type { Config } from '../../config.js';
import { Catalog, FAMILY_SETTINGS, type Capability, type ModelEntry, type WireFamily } from '../../catalog/catalog.js';
import { ApiError, invalid } from '../../domain/errors.js';
import { famaAdapter } from './fama.js';
import { fambAdapter } from './famb.js';
import { famcAdapter } from './famc.js';
import { DEFAULT_HTTP, UpstreamError, type HttpOptions } from './http.js';
import type { Adapter, ImageRequest, ImageResult, ProviderTarget, TextRequest, TextResult } from './types.js';

const ADAPTERS: Record<WireFamily, Adapter> = { 'fam-a': famaAdapter, 'fam-b': fambAdapter, 'fam-c': famcAdapter };

const CAP_WORDS: Record<Capability, string> = {
  text_generation: 'text generation',
  image_generation: 'text-to-image',
  image_to_image: 'image-to-image',
  vision_analysis: 'image analysis',
};

export class AiGateway {
  readonly http: HttpOptions;
  constructor(
    readonly catalog: Catalog,
    private readonly config: Pick<Config, 'famaUrl' | 'famaKey' | 'fambUrl' | 'fambKey' | 'famcUrl' | 'famcKey' | 'aiTimeoutMs'>,
    private readonly now: () => number = Date.now,
    http: Partial<HttpOptions> = {},
  ) {
    this.http = { ...DEFAULT_HTTP, timeoutMs: config.aiTimeoutMs, ...http };
  }

  static fromConfig(config: Config, now: () => number): AiGateway {
    return new AiGateway(Catalog.load(config.catalogFile || undefined), config, now);
  }

  /** The catalog entry for a request's model field, checked for the capability (400 naming the field). */
  model(id: string, cap: Capability, field = 'model'): ModelEntry {
    const m = this.catalog.get(id);
    const allowed = () => this.catalog.with(cap).filter((x) => !this.catalog.isRetired(x, this.now())).map((x) => x.id);
    if (!m) throw invalid(field, `one of the ${CAP_WORDS[cap]} models (${allowed().join(', ')})`, id);
    if (!m.capabilities.includes(cap)) throw invalid(field, `a model that supports ${CAP_WORDS[cap]} (${allowed().join(', ')})`, id);
    if (this.catalog.isRetired(m, this.now())) throw invalid(field, `a model that is not retired (${allowed().join(', ')})`, id, `${id} was retired on ${m.retiresOn}`);
    return m;
  }

  /** Provider URL and key of a wire family; 502 AI_API_ERROR naming the missing setting when unset. */
  target(family: WireFamily): ProviderTarget {
    const s = FAMILY_SETTINGS[family];
    const fromFile = this.catalog.providers[family] ?? {};
    const urlKey = family === 'fam-a' ? 'famaUrl' : family === 'fam-b' ? 'fambUrl' : 'famcUrl';
    const keyKey = family === 'fam-a' ? 'famaKey' : family === 'fam-b' ? 'fambKey' : 'famcKey';
    const baseUrl = (this.config[urlKey] || fromFile.url || '').replace(/\/+$/, '');
    const key = this.config[keyKey] || fromFile.key || '';
    const missing = [!baseUrl ? s.url : '', !key ? s.key : ''].filter(Boolean);
    if (missing.length) throw new UpstreamError(`The ${family} provider is not configured: set ${missing.join(' and ')}`);
    return { baseUrl, key, http: this.http };
  }

  /** Throws 502 now if the model's provider is not configured (before a job is created). */
  ensureConfigured(m: ModelEntry): void {
    this.target(m.family);
  }

  async text(m: ModelEntry, req: TextRequest): Promise<TextResult> {
    return ADAPTERS[m.family].text(m, req, this.target(m.family));
  }

  async image(m: ModelEntry, req: ImageRequest): Promise<ImageResult> {
    if (!m.capabilities.includes('image_generation') && !m.capabilities.includes('image_to_image')) {
      throw new ApiError('INTERNAL_ERROR', `Model ${m.id} does not generate images`);
    }
    return ADAPTERS[m.family].image(m, req, this.target(m.family));
  }
}
