// Fake family-C provider: chat-completions (text, vision via data: URLs) and images-generations (b64_json).
import { check, checkImageB64, fakePng, FakeServer, tokensOf, type Recorded } from './ai-base.js';

export interface FamcOptions {
  key?: string;
  answer?: (prompt: string, req: Recorded) => string;
  /** edge of generated pictures (default 96 px) */
  imageBase?: number;
}

const SIZES = ['1024x1024', '1536x1024', '1024x1536', '1792x1024', '1024x1792', 'auto'];

export class FamcFake extends FakeServer {
  answer?: (prompt: string, req: Recorded) => string;
  imageBase: number;
  constructor(opts: FamcOptions = {}) {
    super(opts.key ?? 'famc-test-key-123456', (r) => this.handle(r), (status, message) => ({
      error: { message, type: status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null },
    }));
    this.answer = opts.answer;
    this.imageBase = opts.imageBase ?? 96;
  }

  private async handle(r: Recorded) {
    check(r.method === 'POST', 404, 'POST only');
    check(r.headers.authorization === `Bearer ${this.key}`, 401, 'Incorrect API key provided');
    const b = r.body;
    check(b && typeof b === 'object', 400, 'body must be JSON');
    check(typeof b.model === 'string' && b.model.length > 0, 400, 'model is required');
    if (r.path === '/v1/images/generations') {
      check(typeof b.prompt === 'string' && b.prompt.length > 0, 400, 'prompt is required');
      check(b.n === undefined || b.n === 1, 400, 'n must be 1');
      check(b.size === undefined || SIZES.includes(b.size), 400, `size ${b.size} is not supported`);
      check(b.response_format === undefined || b.response_format === 'b64_json', 400, 'response_format must be b64_json here');
      const [sw, sh] = String(b.size ?? '1024x1024').split('x').map(Number) as [number, number];
      const w = Math.round((this.imageBase * (sw || 1024)) / 1024);
      const h = Math.round((this.imageBase * (sh || 1024)) / 1024);
      const png = await fakePng(w, h);
      return {
        status: 200,
        json: { created: Math.floor(r.at / 1000), data: [{ b64_json: png.toString('base64') }], output_format: 'png', usage: { input_tokens: tokensOf(b.prompt), output_tokens: 1056, total_tokens: tokensOf(b.prompt) + 1056 } },
      };
    }
    check(r.path === '/v1/chat/completions', 404, `no route ${r.path}`);
    check(Array.isArray(b.messages) && b.messages.length > 0, 400, 'messages is required');
    check(b.temperature === undefined || (typeof b.temperature === 'number' && b.temperature >= 0 && b.temperature <= 2), 400, 'temperature out of range');
    check(b.max_tokens === undefined || (Number.isInteger(b.max_tokens) && b.max_tokens > 0), 400, 'max_tokens');
    let prompt = '';
    let images = 0;
    let all = '';
    for (const m of b.messages) {
      check(['system', 'user', 'assistant', 'developer'].includes(m.role), 400, 'messages.role');
      if (typeof m.content === 'string') {
        all += m.content;
        if (m.role === 'user') prompt += m.content;
        continue;
      }
      check(Array.isArray(m.content), 400, 'messages.content');
      for (const part of m.content) {
        if (part.type === 'text') {
          prompt += part.text;
          all += part.text;
        } else if (part.type === 'image_url') {
          const mm = /^data:([^;]+);base64,(.*)$/s.exec(String(part.image_url?.url ?? ''));
          check(mm, 400, 'image_url.url must be a data: URL here');
          checkImageB64(mm[1], mm[2], 'image_url');
          images++;
        } else check(false, 400, `unknown content part ${part.type}`);
      }
    }
    const wantsJson = b.response_format?.type === 'json_object';
    if (wantsJson) check(/json/i.test(all), 400, "'messages' must contain the word 'json' to use response_format json_object");
    const text = this.answer ? this.answer(prompt, r) : wantsJson ? JSON.stringify({ answer: prompt.slice(0, 40), images }) : `fam-c answer to: ${prompt.slice(0, 60)}`;
    const pt = tokensOf(all) + images * 765;
    const ct = tokensOf(text);
    return {
      status: 200,
      json: {
        id: `chatcmpl-${r.at.toString(36)}`,
        object: 'chat.completion',
        created: Math.floor(r.at / 1000),
        model: b.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: 'stop' }],
        usage: { prompt_tokens: pt, completion_tokens: ct, total_tokens: pt + ct },
      },
    };
  }
}

export const startFamc = (opts: FamcOptions = {}) => new FamcFake(opts).start();
