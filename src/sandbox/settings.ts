/** The sandbox's options from the SANDBOX_* settings (and the legacy brand our client sends). */
import type { Config } from '../config/env.js';
import type { SandboxOptions } from './index.js';

/** What `npm run sandbox` and the in-process sandbox of local mode both take from the settings. */
export function sandboxOptionsFrom(
  config: Pick<
    Config,
    | 'SANDBOX_API_KEY'
    | 'SANDBOX_API_SECRET'
    | 'SANDBOX_CHECKOUT_SECRET'
    | 'SANDBOX_KES_PER_USD'
    | 'SANDBOX_SETTLE_MS'
    | 'RAMP_LEGACY_BRAND'
  >,
): SandboxOptions {
  return {
    apiKey: config.SANDBOX_API_KEY,
    apiSecret: config.SANDBOX_API_SECRET,
    checkoutSecret: config.SANDBOX_CHECKOUT_SECRET,
    kesPerUsd: config.SANDBOX_KES_PER_USD,
    settleMs: config.SANDBOX_SETTLE_MS,
    legacyBrand: config.RAMP_LEGACY_BRAND,
  };
}
