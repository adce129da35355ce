// Family C: chat-completions for text and vision (POST {base}/v1/chat/completions, Bearer key, image parts as
// data: URLs) and images-generations for text-to-image (POST {base}/v1/images/generations, answer data[0].b64_json).
import type { ModelEntry } from '../../catalog/catalog.js';
import { malformed, postJson } from './http.js';
import { b64, decodeB64, isNonNegInt, type Adapter, type ImageRequest, type ImageResult, type ProviderTarget, type TextRequest, type TextResult } from './types.js';

const PROVIDER = 'fam-c provider';

interface ChatAnswer {
  choices?: Array<{ message?: { content?: unknown; refusal?: unknown }; finish_reason?: string }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

export function chatBody(model: ModelEntry, req: TextRequest): Record<string, unknown> {
  const messages: unknown[] = [];
  const system = [req.system, req.json ? 'Answer with one JSON object only.' : undefined].filter(Boolean).join('\n\n');
  if (system) messages.push({ role: 'system', content: system });
  if (req.image) {
    messages.push({
      role: 'user',
      content: [
        { type: 'text', text: req.prompt },
        { type: 'image_url', image_url: { url: `data:${req.image.mime};base64,${b64(req.image.data)}` } },
      ],
    });
  } else messages.push({ role: 'user', content: req.prompt });
  const body: Record<string, unknown> = { model: model.upstream, messages, max_tokens: req.maxTokens, temperature: req.temperature };
  if (req.json) body.response_format = { type: 'json_object' };
  return body;
}

/** images-generations size for an aspect ratio: square, landscape or portrait. */
export function sizeFor(model: ModelEntry, aspectRatio?: string): string {
  const [w, h] = (aspectRatio ?? '1:1').split(':').map(Number) as [number, number];
  const wide = model.sendResponseFormat ? '1792x1024' : '1536x1024';
  const tall = model.sendResponseFormat ? '1024x1792' : '1024x1536';
  if (!w || !h || w === h) return '1024x1024';
  return w > h ? wide : tall;
}

export const famcAdapter: Adapter = {
  async text(model: ModelEntry, req: TextRequest, t: ProviderTarget): Promise<TextResult> {
    const ans = (await postJson(
      { provider: PROVIDER, model: model.id, url: `${t.baseUrl}/v1/chat/completions`, headers: { authorization: `Bearer ${t.key}` }, body: chatBody(model, req) },
      t.http,
    )) as ChatAnswer;
    const choice = Array.isArray(ans?.choices) ? ans.choices[0] : undefined;
    if (!choice?.message) throw malformed(PROVIDER, model.id, 'no choices[0].message');
    if (typeof choice.message.content !== 'string') {
      throw malformed(PROVIDER, model.id, choice.message.refusal ? 'the model refused' : 'message.content is not a string');
    }
    const u = ans.usage;
    if (!u || !isNonNegInt(u.prompt_tokens) || !isNonNegInt(u.completion_tokens)) throw malformed(PROVIDER, model.id, 'no usage tokens');
    return { text: choice.message.content, usage: { input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens } };
  },

  async image(model: ModelEntry, req: ImageRequest, t: ProviderTarget): Promise<ImageResult> {
    const body: Record<string, unknown> = { model: model.upstream, prompt: req.prompt, n: 1, size: sizeFor(model, req.aspectRatio) };
    if (model.sendResponseFormat) body.response_format = 'b64_json';
    const ans = (await postJson(
      { provider: PROVIDER, model: model.id, url: `${t.baseUrl}/v1/images/generations`, headers: { authorization: `Bearer ${t.key}` }, body },
      t.http,
    )) as { data?: Array<{ b64_json?: unknown }>; output_format?: unknown; usage?: { input_tokens?: unknown; output_tokens?: unknown } };
    const d = Array.isArray(ans?.data) ? ans.data[0] : undefined;
    const data = decodeB64(d?.b64_json);
    if (!data) throw malformed(PROVIDER, model.id, 'no data[0].b64_json');
    const fmt = typeof ans.output_format === 'string' ? ans.output_format : 'png';
    const u = ans.usage;
    return {
      data,
      mime: fmt === 'jpeg' ? 'image/jpeg' : fmt === 'webp' ? 'image/webp' : 'image/png',
      usage: u && isNonNegInt(u.input_tokens) && isNonNegInt(u.output_tokens) ? { input_tokens: u.input_tokens, output_tokens: u.output_tokens } : undefined,
    };
  },
};
