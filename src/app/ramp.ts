/** The ramp the app talks to: the service at RAMP_BASE_URL, or the in-process sandbox in local mode. */
import type { Config } from '../config/env.js';
import type { Logger } from '../log/logger.js';
import { createRampClient } from '../ramp/index.js';
import type { RampClient } from '../ramp/types.js';
import type { Sandbox } from '../sandbox/index.js';
import type { LazySellDemo } from '../sell/lazy.js';

/** Connects the ramp client; without RAMP_BASE_URL, starts the sandbox first (imported on demand). */
export async function startRamp(
  config: Config,
  logger: Logger,
  sellDemo?: LazySellDemo,
): Promise<{ ramp: RampClient; sandbox?: Sandbox }> {
  if (config.RAMP_BASE_URL) {
    if (!config.RAMP_API_KEY || !config.RAMP_API_SECRET)
      throw new Error('RAMP_BASE_URL is set, so RAMP_API_KEY and RAMP_API_SECRET are needed too');
    const ramp = createRampClient({
      baseUrl: config.RAMP_BASE_URL,
      apiKey: config.RAMP_API_KEY,
      apiSecret: config.RAMP_API_SECRET,
      generation: config.RAMP_API_GENERATION,
      legacyBrand: config.RAMP_LEGACY_BRAND,
      checkoutUrl: config.RAMP_CHECKOUT_URL,
      checkoutSecret: config.RAMP_CHECKOUT_SECRET,
      timeoutMs: config.RAMP_TIMEOUT_MS,
      logger,
    });
    return { ramp };
  }
  const { startSandbox } = await import('../sandbox/index.js');
  const { sandboxOptionsFrom } = await import('../sandbox/settings.js');
  const sandbox = await startSandbox({
    ...sandboxOptionsFrom(config),
    port: 0,
    tokens: sellDemo?.sandboxOptions.tokens,
    verifyOfframpHash: sellDemo?.sandboxOptions.verifyOfframpHash,
    logger,
  });
  logger.info({ url: sandbox.url }, 'no RAMP_BASE_URL: using the in-process ramp sandbox');
  const ramp = createRampClient({
    baseUrl: sandbox.url,
    apiKey: config.SANDBOX_API_KEY,
    apiSecret: config.SANDBOX_API_SECRET,
    generation: config.RAMP_API_GENERATION,
    legacyBrand: config.RAMP_LEGACY_BRAND,
    checkoutUrl: sandbox.url,
    checkoutSecret: config.SANDBOX_CHECKOUT_SECRET,
    timeoutMs: config.RAMP_TIMEOUT_MS,
    logger,
  });
  return { ramp, sandbox };
}
