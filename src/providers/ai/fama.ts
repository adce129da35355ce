// Family A: a messages API. POST {base}/v1/messages with x-api-key and anthropic-version headers;
// text and vision (image parts as base64 with media type); max_tokens, temperature; usage tokens in the answer.
import type { ModelEntry } from '../../catalog/catalog.js';
import { malformed, postJson, UpstreamError } from './http.js';
import { b64, isNonNegInt, type Adapter, type ImageResult, type ProviderTarget, type TextRequest, type TextResult } from './types.js';

export const FAMA_VERSION = '2023-06-01';
const PROVIDER = 'fam-a provider';

interface MessagesAnswer {
  type?: string;
  content?: Array<{ type?: string; text?: unknown }>;
  stop_reason?: string;
  usage?: { input_tokens?: unknown; output_tokens?: unknown };
}

export function messagesBody(model: ModelEntry, req: TextRequest): Record<string, unknown> {
  const content: unknown[] = [];
  if (req.image) content.push({ type: 'image', source: { type: 'base64', media_type: req.image.mime, data: b64(req.image.data) } });
  content.push({ type: 'text', text: req.prompt });
  const system = [req.system, req.json ? 'Answer with one JSON value only: no prose, no code fences.' : undefined].filter(Boolean).join('\n\n');
  const body: Record<string, unknown> = {
    model: model.upstream,
    max_tokens: req.maxTokens,
    temperature: req.temperature,
    messages: [{ role: 'user', content }],
  };
  if (system) body.system = system;
  return body;
}

export const famaAdapter: Adapter = {
  async text(model: ModelEntry, req: TextRequest, t: ProviderTarget): Promise<TextResult> {
    const ans = (await postJson(
      {
        provider: PROVIDER,
        model: model.id,
        url: `${t.baseUrl}/v1/messages`,
        headers: { 'x-api-key': t.key, 'anthropic-version': FAMA_VERSION },
        body: messagesBody(model, req),
      },
      t.http,
    )) as MessagesAnswer;
    if (!ans || typeof ans !== 'object' || !Array.isArray(ans.content)) throw malformed(PROVIDER, model.id, 'no content array');
    const text = ans.content.filter((c) => c?.type === 'text' && typeof c.text === 'string').map((c) => c.text as string).join('');
    if (!text && ans.stop_reason !== 'max_tokens') throw malformed(PROVIDER, model.id, 'no text block');
    const u = ans.usage;
    if (!u || !isNonNegInt(u.input_tokens) || !isNonNegInt(u.output_tokens)) throw malformed(PROVIDER, model.id, 'no usage tokens');
    return { text, usage: { input_tokens: u.input_tokens, output_tokens: u.output_tokens } };
  },
  async image(model: ModelEntry): Promise<ImageResult> {
    throw new UpstreamError(`The fam-a provider does not generate images (model ${model.id})`);
  },
};
