// The payment-provider seam: the account checks call one of these (HTTP adapter or the built-in sandbox).

export interface AccountRef {
  bankCode: string;
  accountNumber: string;
}

export type HolderAnswer = { found: true; holderName: string } | { found: false; reason: 'not_found' | 'closed' };

export interface PaymentProvider {
  readonly name: string;
  /** Holder name of an account (found: false when it does not exist or is closed). */
  holderName(a: AccountRef): Promise<HolderAnswer>;
  /** Whether the account exists and can receive transfers. */
  validate(a: AccountRef): Promise<{ isValid: boolean; reason?: string }>;
  /** Whether the account belongs to holderName (and, when given, to the person/business identityNumber). */
  verify(a: AccountRef & { holderName: string; identityNumber?: string }): Promise<{ isValid: boolean; reason?: string }>;
}

/** Thrown by providers when the provider itself failed (timeout, 5xx, bad answer): the API answers 502. */
export class ProviderError extends Error {
  constructor(message: string, readonly kind: 'timeout' | 'upstream' | 'config' = 'upstream') {
    super(message);
  }
}
