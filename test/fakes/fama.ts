// Fake family-A provider: the messages API (POST /v1/messages, x-api-key + anthropic-version), checking the
// request like the real one does and answering with content blocks and usage tokens.
import { check, checkImageB64, FakeServer, tokensOf, type Recorded } from './ai-base.js';

export interface FamaOptions {
  key?: string;
  /** the answer text for a request (default: echoes the prompt; JSON when the system prompt asks for JSON) */
  answer?: (prompt: string, req: Recorded) => string;
}

export class FamaFake extends FakeServer {
  answer?: (prompt: string, req: Recorded) => string;
  constructor(opts: FamaOptions = {}) {
    super(opts.key ?? 'fama-test-key-123456', (r) => this.handle(r), (status, message) => ({
      type: 'error',
      error: { type: status === 429 ? 'rate_limit_error' : status === 401 ? 'authentication_error' : status >= 500 ? 'api_error' : 'invalid_request_error', message },
    }));
    this.answer = opts.answer;
  }

  private handle(r: Recorded) {
    check(r.method === 'POST' && r.path === '/v1/messages', 404, `no route ${r.method} ${r.path}`);
    check(r.headers['x-api-key'] === this.key, 401, 'invalid x-api-key');
    check(typeof r.headers['anthropic-version'] === 'string', 400, 'anthropic-version header is required');
    check(String(r.headers['content-type']).startsWith('application/json'), 400, 'content-type must be application/json');
    const b = r.body;
    check(b && typeof b === 'object', 400, 'body must be JSON');
    check(typeof b.model === 'string' && b.model.length > 0, 400, 'model: Field required');
    check(Number.isInteger(b.max_tokens) && b.max_tokens > 0, 400, 'max_tokens: Field required');
    check(b.temperature === undefined || (typeof b.temperature === 'number' && b.temperature >= 0 && b.temperature <= 1), 400, 'temperature: out of range');
    check(b.system === undefined || typeof b.system === 'string', 400, 'system must be a string');
    check(Array.isArray(b.messages) && b.messages.length > 0, 400, 'messages: Field required');
    let prompt = '';
    let images = 0;
    for (const m of b.messages) {
      check(m.role === 'user' || m.role === 'assistant', 400, 'messages.role');
      const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
      check(Array.isArray(content), 400, 'messages.content');
      for (const part of content) {
        if (part.type === 'text') {
          check(typeof part.text === 'string', 400, 'text block without text');
          prompt += part.text;
        } else if (part.type === 'image') {
          check(part.source?.type === 'base64', 400, 'image.source.type must be base64');
          checkImageB64(part.source.media_type, part.source.data, 'image.source');
          images++;
        } else check(false, 400, `unknown content block type ${part.type}`);
      }
    }
    const wantsJson = typeof b.system === 'string' && /JSON/.test(b.system);
    const text = this.answer ? this.answer(prompt, r) : wantsJson ? JSON.stringify({ answer: prompt.slice(0, 40), images }) : `fam-a answer to: ${prompt.slice(0, 60)}`;
    return {
      status: 200,
      json: {
        id: `msg_${r.at.toString(36)}`,
        type: 'message',
        role: 'assistant',
        model: b.model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: tokensOf(prompt + (b.system ?? '')) + images * 1000, output_tokens: tokensOf(text) },
      },
    };
  }
}

export const startFama = (opts: FamaOptions = {}) => new FamaFake(opts).start();
