// Picks the payment provider from config: HTTP adapter when SEJONG_PAYMENT_URL is set, else the sandbox.
import type { Config } from '../../config.js';
import { HttpPaymentProvider } from './http.js';
import { SandboxProvider } from './sandbox.js';
import type { PaymentProvider } from './types.js';

export * from './types.js';
export { BANKS, bankName } from './banks.js';
export { maskAccount, maskIdentity } from './mask.js';
export { identityKind, validBusinessNumber, validYymmdd } from './identity.js';
export { SANDBOX_ACCOUNTS } from './sandbox.js';

export function paymentProvider(config: Pick<Config, 'paymentUrl' | 'paymentKey' | 'paymentTimeoutMs'>): PaymentProvider {
  if (config.paymentUrl) return new HttpPaymentProvider(config.paymentUrl, config.paymentKey, config.paymentTimeoutMs);
  return new SandboxProvider(config.paymentTimeoutMs);
}
