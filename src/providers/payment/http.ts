// HTTP adapter for an external payment provider (SEJONG_PAYMENT_URL / _KEY / _TIMEOUT_MS). Wire format in docs/ekyc.md.
import { ProviderError, type AccountRef, type HolderAnswer, type PaymentProvider } from './types.js';

export class HttpPaymentProvider implements PaymentProvider {
  readonly name = 'http';
  constructor(private readonly baseUrl: string, private readonly key: string, private readonly timeoutMs: number) {}

  private async call(path: string, body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
    const url = this.baseUrl.replace(/\/+$/, '') + path;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(this.key ? { authorization: `Bearer ${this.key}` } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (e) {
      const name = (e as Error)?.name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new ProviderError(`The payment provider did not answer within ${this.timeoutMs} ms`, 'timeout');
      throw new ProviderError(`The payment provider could not be reached (${(e as Error)?.message ?? 'network error'})`);
    }
    let json: Record<string, unknown> = {};
    const text = await res.text().catch(() => '');
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      if (res.ok) throw new ProviderError(`The payment provider answered HTTP ${res.status} with a body that is not JSON`);
    }
    if (res.status >= 500 || res.status === 401 || res.status === 403 || res.status === 429) {
      throw new ProviderError(`The payment provider answered HTTP ${res.status}${typeof json.message === 'string' ? `: ${json.message.slice(0, 200)}` : ''}`);
    }
    return { status: res.status, json };
  }

  async holderName(a: AccountRef): Promise<HolderAnswer> {
    const { status, json } = await this.call('/v1/accounts/holder-name', { bankCode: a.bankCode, accountNumber: a.accountNumber });
    if (status === 404 || json.status === 'not_found') return { found: false, reason: 'not_found' };
    if (json.status === 'closed') return { found: false, reason: 'closed' };
    if (status !== 200 || typeof json.holderName !== 'string') throw new ProviderError(`The payment provider answered HTTP ${status} without a holderName`);
    return { found: true, holderName: json.holderName };
  }

  async validate(a: AccountRef): Promise<{ isValid: boolean; reason?: string }> {
    const { status, json } = await this.call('/v1/accounts/validate', { bankCode: a.bankCode, accountNumber: a.accountNumber });
    if (status === 404) return { isValid: false, reason: 'not_found' };
    if (status !== 200 || typeof json.isValid !== 'boolean') throw new ProviderError(`The payment provider answered HTTP ${status} without isValid`);
    return { isValid: json.isValid, reason: typeof json.reason === 'string' ? json.reason : undefined };
  }

  async verify(a: AccountRef & { holderName: string; identityNumber?: string }): Promise<{ isValid: boolean; reason?: string }> {
    const { status, json } = await this.call('/v1/accounts/verify', { bankCode: a.bankCode, accountNumber: a.accountNumber, holderName: a.holderName, ...(a.identityNumber ? { identityNumber: a.identityNumber } : {}) });
    if (status === 404) return { isValid: false, reason: 'not_found' };
    if (status !== 200 || typeof json.isValid !== 'boolean') throw new ProviderError(`The payment provider answered HTTP ${status} without isValid`);
    return { isValid: json.isValid, reason: typeof json.reason === 'string' ? json.reason : undefined };
  }
}
