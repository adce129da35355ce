// Family B: a generateContent-style API. POST {base}/v1beta/models/{model}:generateContent with x-goog-api-key;
// contents with text and inline image parts, systemInstruction, generationConfig (temperature, maxOutputTokens,
// responseMimeType, responseModalities, imageConfig {aspectRatio, imageSize}); images come back as inline data.
// Text-to-image models of the predict kind use POST {base}/v1beta/models/{model}:predict.
import type { ModelEntry } from '../../catalog/catalog.js';
import { malformed, postJson } from './http.js';
import { b64, decodeB64, isNonNegInt, type Adapter, type ImageRequest, type ImageResult, type ProviderTarget, type TextRequest, type TextResult } from './types.js';

const PROVIDER = 'fam-b provider';

type Part = { text?: unknown; inlineData?: { mimeType?: unknown; data?: unknown }; inline_data?: { mime_type?: unknown; data?: unknown } };
interface GenerateAnswer {
  candidates?: Array<{ content?: { parts?: Part[] }; finishReason?: string }>;
  usageMetadata?: { promptTokenCount?: unknown; candidatesTokenCount?: unknown };
  promptFeedback?: { blockReason?: string };
}

const url = (t: ProviderTarget, model: ModelEntry, method: string) => `${t.baseUrl}/v1beta/models/${encodeURIComponent(model.upstream)}:${method}`;

export function generateBody(req: { prompt: string; system?: string; image?: { data: Buffer | Uint8Array; mime: string }; generationConfig: Record<string, unknown> }): Record<string, unknown> {
  const parts: unknown[] = [];
  if (req.image) parts.push({ inlineData: { mimeType: req.image.mime, data: b64(req.image.data) } });
  parts.push({ text: req.prompt });
  const body: Record<string, unknown> = { contents: [{ role: 'user', parts }], generationConfig: req.generationConfig };
  if (req.system) body.systemInstruction = { parts: [{ text: req.system }] };
  return body;
}

function parts(ans: GenerateAnswer, model: ModelEntry): Part[] {
  if (!ans || typeof ans !== 'object') throw malformed(PROVIDER, model.id, 'not an object');
  if (ans.promptFeedback?.blockReason) throw malformed(PROVIDER, model.id, `the prompt was blocked (${String(ans.promptFeedback.blockReason).slice(0, 40)})`);
  const c = Array.isArray(ans.candidates) ? ans.candidates[0] : undefined;
  const p = c?.content?.parts;
  if (!Array.isArray(p)) throw malformed(PROVIDER, model.id, c?.finishReason ? `no content (finishReason ${String(c.finishReason).slice(0, 40)})` : 'no candidates');
  return p;
}

function usage(ans: GenerateAnswer) {
  const u = ans.usageMetadata;
  return {
    input_tokens: isNonNegInt(u?.promptTokenCount) ? u!.promptTokenCount as number : 0,
    output_tokens: isNonNegInt(u?.candidatesTokenCount) ? u!.candidatesTokenCount as number : 0,
  };
}

export const fambAdapter: Adapter = {
  async text(model: ModelEntry, req: TextRequest, t: ProviderTarget): Promise<TextResult> {
    const generationConfig: Record<string, unknown> = { temperature: req.temperature, maxOutputTokens: req.maxTokens };
    if (req.json) generationConfig.responseMimeType = 'application/json';
    const ans = (await postJson(
      { provider: PROVIDER, model: model.id, url: url(t, model, 'generateContent'), headers: { 'x-goog-api-key': t.key }, body: generateBody({ prompt: req.prompt, system: req.system, image: req.image, generationConfig }) },
      t.http,
    )) as GenerateAnswer;
    const ps = parts(ans, model);
    const text = ps.filter((p) => typeof p.text === 'string').map((p) => p.text as string).join('');
    if (!text) throw malformed(PROVIDER, model.id, 'no text part');
    if (!ans.usageMetadata) throw malformed(PROVIDER, model.id, 'no usageMetadata');
    return { text, usage: usage(ans) };
  },

  async image(model: ModelEntry, req: ImageRequest, t: ProviderTarget): Promise<ImageResult> {
    if (model.imageEndpoint === 'predict') {
      const parameters: Record<string, unknown> = { sampleCount: 1 };
      if (req.aspectRatio) parameters.aspectRatio = req.aspectRatio;
      const ans = (await postJson(
        { provider: PROVIDER, model: model.id, url: url(t, model, 'predict'), headers: { 'x-goog-api-key': t.key }, body: { instances: [{ prompt: req.prompt }], parameters } },
        t.http,
      )) as { predictions?: Array<{ bytesBase64Encoded?: unknown; mimeType?: unknown }> };
      const p = Array.isArray(ans?.predictions) ? ans.predictions[0] : undefined;
      const data = decodeB64(p?.bytesBase64Encoded);
      if (!data) throw malformed(PROVIDER, model.id, 'no predictions[0].bytesBase64Encoded');
      return { data, mime: typeof p?.mimeType === 'string' ? p.mimeType : 'image/png' };
    }
    const imageConfig: Record<string, unknown> = {};
    if (req.aspectRatio) imageConfig.aspectRatio = req.aspectRatio;
    if (req.imageSize) imageConfig.imageSize = req.imageSize;
    const generationConfig: Record<string, unknown> = { responseModalities: ['TEXT', 'IMAGE'] };
    if (req.temperature !== undefined) generationConfig.temperature = req.temperature;
    if (Object.keys(imageConfig).length) generationConfig.imageConfig = imageConfig;
    const ans = (await postJson(
      { provider: PROVIDER, model: model.id, url: url(t, model, 'generateContent'), headers: { 'x-goog-api-key': t.key }, body: generateBody({ prompt: req.prompt, system: req.systemInstruction, image: req.image, generationConfig }) },
      t.http,
    )) as GenerateAnswer;
    const ps = parts(ans, model);
    for (const p of ps) {
      const inline = p.inlineData ?? (p.inline_data ? { mimeType: p.inline_data.mime_type, data: p.inline_data.data } : undefined);
      if (!inline) continue;
      const data = decodeB64(inline.data);
      if (!data) throw malformed(PROVIDER, model.id, 'inlineData.data is not base64');
      return { data, mime: typeof inline.mimeType === 'string' ? inline.mimeType : 'image/png', usage: usage(ans) };
    }
    throw malformed(PROVIDER, model.id, 'no inline image part in the answer');
  },
};
