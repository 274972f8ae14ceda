/**
 * The ramp service: a quote with the given credentials (it creates nothing). A refusal of the
 * credentials is explained; RAMP_SANDBOX=1 is reported as such (nothing real to check).
 */
import type { Config } from '../config/env.js';
import { createRampClient, RampError, RampUnauthorizedError } from '../ramp/index.js';
import { shownUrl } from './http.js';
import { type CheckResult, type DoctorContext, fail, ok, reason, skipped } from './types.js';

export async function checkRamp(config: Config, ctx: DoctorContext): Promise<CheckResult[]> {
  const part = 'ramp quote';
  if (config.RAMP_SANDBOX) return [skipped(part, 'RAMP_SANDBOX=1: the built-in sandbox, no real money')];
  if (!config.RAMP_BASE_URL || !config.RAMP_API_KEY || !config.RAMP_API_SECRET)
    return [
      config.NODE_ENV === 'production'
        ? fail(part, 'RAMP_BASE_URL, RAMP_API_KEY and RAMP_API_SECRET are needed in production')
        : skipped(part, 'RAMP_BASE_URL is not set: local mode runs the sandbox'),
    ];
  const ramp = createRampClient({
    baseUrl: config.RAMP_BASE_URL,
    apiKey: config.RAMP_API_KEY,
    apiSecret: config.RAMP_API_SECRET,
    generation: config.RAMP_API_GENERATION,
    legacyBrand: config.RAMP_LEGACY_BRAND,
    timeoutMs: Math.min(ctx.timeoutMs, config.RAMP_TIMEOUT_MS),
    retries: 0,
  });
  const where = `${shownUrl(config.RAMP_BASE_URL)} (${config.RAMP_API_GENERATION} API)`;
  try {
    const q = await ramp.getQuote({
      type: 'onramp',
      network: 'polygon',
      token: 'USDT',
      fiatCurrency: 'KES',
      amount: '1000',
    });
    return [ok(part, `${where}: KES 1000 -> ${q.outputAmount} ${q.outputCurrency} on polygon`)];
  } catch (err) {
    if (err instanceof RampUnauthorizedError)
      return [
        fail(
          part,
          `${where} refused the credentials (HTTP ${err.status ?? 401}${err.serviceMessage ? `: ${err.serviceMessage}` : ''}): check RAMP_API_KEY and RAMP_API_SECRET, and that they belong to this environment (live keys on the live URL)`,
        ),
      ];
    if (err instanceof RampError)
      return [
        fail(part, `${where}: ${err.kind}${err.status ? ` (HTTP ${err.status})` : ''}: ${err.message}`),
      ];
    return [fail(part, `${where}: ${reason(err)}`)];
  }
}
