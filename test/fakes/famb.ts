// Fake family-B provider: generateContent (text, vision, image output as inline data) and predict (text-to-image).
import { check, checkImageB64, dims, fakePng, FakeServer, tokensOf, type Recorded } from './ai-base.js';

export interface FambOptions {
  key?: string;
  answer?: (prompt: string, req: Recorded) => string;
  /** edge of generated pictures (default 96 px) */
  imageBase?: number;
}

const SIZES = ['1K', '2K', '4K'];

export class FambFake extends FakeServer {
  answer?: (prompt: string, req: Recorded) => string;
  imageBase: number;
  constructor(opts: FambOptions = {}) {
    super(opts.key ?? 'famb-test-key-123456', (r) => this.handle(r), (status, message) => ({
      error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : status >= 500 ? 'INTERNAL' : status === 401 || status === 403 ? 'PERMISSION_DENIED' : 'INVALID_ARGUMENT' },
    }));
    this.answer = opts.answer;
    this.imageBase = opts.imageBase ?? 96;
  }

  private async handle(r: Recorded) {
    const m = /^\/v1beta\/models\/([^/:]+):(generateContent|predict)$/.exec(r.path);
    check(r.method === 'POST' && m, 404, `no route ${r.method} ${r.path}`);
    const key = r.headers['x-goog-api-key'] ?? r.query.get('key');
    check(key === this.key, 403, 'API key not valid. Please pass a valid API key.');
    const b = r.body;
    check(b && typeof b === 'object', 400, 'Invalid JSON payload');
    const model = decodeURIComponent(m[1]!);
    if (m[2] === 'predict') {
      check(Array.isArray(b.instances) && typeof b.instances[0]?.prompt === 'string', 400, 'instances[0].prompt is required');
      const [w, h] = dims(b.parameters?.aspectRatio, this.imageBase);
      const png = await fakePng(w, h);
      return { status: 200, json: { predictions: [{ bytesBase64Encoded: png.toString('base64'), mimeType: 'image/png' }] } };
    }
    check(Array.isArray(b.contents) && b.contents.length > 0, 400, 'contents is required');
    let prompt = '';
    let images = 0;
    for (const c of b.contents) {
      check(Array.isArray(c.parts) && c.parts.length > 0, 400, 'contents.parts is required');
      for (const p of c.parts) {
        if (typeof p.text === 'string') prompt += p.text;
        else if (p.inlineData || p.inline_data) {
          const d = p.inlineData ?? { mimeType: p.inline_data.mime_type, data: p.inline_data.data };
          checkImageB64(d.mimeType, d.data, 'inlineData');
          images++;
        } else check(false, 400, 'part has no data');
      }
    }
    const sys = b.systemInstruction;
    check(sys === undefined || (Array.isArray(sys.parts) && typeof sys.parts[0]?.text === 'string'), 400, 'systemInstruction.parts[0].text');
    const gc = b.generationConfig ?? {};
    check(gc.temperature === undefined || (typeof gc.temperature === 'number' && gc.temperature >= 0 && gc.temperature <= 2), 400, 'temperature out of range');
    const modalities: string[] = gc.responseModalities ?? ['TEXT'];
    const usageMetadata = { promptTokenCount: tokensOf(prompt) + images * 258, candidatesTokenCount: 0, totalTokenCount: 0 };
    if (modalities.includes('IMAGE')) {
      check(/image/.test(model), 400, `model ${model} does not support image output`);
      const ic = gc.imageConfig ?? {};
      check(ic.imageSize === undefined || SIZES.includes(ic.imageSize), 400, 'imageConfig.imageSize must be 1K, 2K or 4K');
      check(ic.aspectRatio === undefined || /^\d+:\d+$/.test(ic.aspectRatio), 400, 'imageConfig.aspectRatio');
      const [w, h] = dims(ic.aspectRatio, this.imageBase);
      const png = await fakePng(w, h);
      usageMetadata.candidatesTokenCount = 1290;
      usageMetadata.totalTokenCount = usageMetadata.promptTokenCount + 1290;
      return {
        status: 200,
        json: {
          candidates: [{ content: { role: 'model', parts: [{ text: 'Here is your image.' }, { inlineData: { mimeType: 'image/png', data: png.toString('base64') } }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata,
          modelVersion: model,
        },
      };
    }
    const wantsJson = gc.responseMimeType === 'application/json';
    const text = this.answer ? this.answer(prompt, r) : wantsJson ? JSON.stringify({ answer: prompt.slice(0, 40), images }) : `fam-b answer to: ${prompt.slice(0, 60)}`;
    usageMetadata.candidatesTokenCount = tokensOf(text);
    usageMetadata.totalTokenCount = usageMetadata.promptTokenCount + usageMetadata.candidatesTokenCount;
    return {
      status: 200,
      json: { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: model },
    };
  }
}

export const startFamb = (opts: FambOptions = {}) => new FambFake(opts).start();
