// Built-in sandbox payment provider (used when SEJONG_PAYMENT_URL is unset): fixed test accounts, any bank code.
import { ProviderError, type AccountRef, type HolderAnswer, type PaymentProvider } from './types.js';

export interface SandboxAccount {
  holderName: string;
  status: 'active' | 'closed' | 'timeout' | 'error';
  /** birth date YYMMDD or business registration number of the holder */
  identity?: string;
}

/** The documented test accounts (docs/ekyc.md). Any other number answers "no such account". */
export const SANDBOX_ACCOUNTS: Record<string, SandboxAccount> = {
  '1002003004001': { holderName: '홍길동', status: 'active', identity: '900101' },
  '1002003004002': { holderName: '김영희', status: 'active', identity: '850315' },
  '1002003004003': { holderName: '주식회사세종', status: 'active', identity: '1208147521' },
  '1002003004009': { holderName: '이철수', status: 'closed', identity: '770707' },
  '1002003004998': { holderName: '', status: 'timeout' },
  '1002003004999': { holderName: '', status: 'error' },
};

const norm = (s: string) => s.replace(/\s+/g, '').replace(/^(주식회사|\(주\)|㈜)/, '').replace(/(주식회사|\(주\)|㈜)$/, '');

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  constructor(private readonly timeoutMs: number) {}

  private lookup(a: AccountRef): SandboxAccount | undefined {
    const acc = SANDBOX_ACCOUNTS[a.accountNumber];
    if (acc?.status === 'timeout') throw new ProviderError(`The payment provider (sandbox) did not answer within ${this.timeoutMs} ms`, 'timeout');
    if (acc?.status === 'error') throw new ProviderError('The payment provider (sandbox) answered with an internal error (HTTP 500)', 'upstream');
    return acc;
  }

  async holderName(a: AccountRef): Promise<HolderAnswer> {
    const acc = this.lookup(a);
    if (!acc) return { found: false, reason: 'not_found' };
    if (acc.status === 'closed') return { found: false, reason: 'closed' };
    return { found: true, holderName: acc.holderName };
  }

  async validate(a: AccountRef): Promise<{ isValid: boolean; reason?: string }> {
    const acc = this.lookup(a);
    if (!acc) return { isValid: false, reason: 'not_found' };
    if (acc.status === 'closed') return { isValid: false, reason: 'closed' };
    return { isValid: true };
  }

  async verify(a: AccountRef & { holderName: string; identityNumber?: string }): Promise<{ isValid: boolean; reason?: string }> {
    const acc = this.lookup(a);
    if (!acc) return { isValid: false, reason: 'not_found' };
    if (acc.status === 'closed') return { isValid: false, reason: 'closed' };
    if (norm(acc.holderName) !== norm(a.holderName)) return { isValid: false, reason: 'holder_mismatch' };
    if (a.identityNumber && a.identityNumber !== acc.identity) return { isValid: false, reason: 'identity_mismatch' };
    return { isValid: true };
  }
}
