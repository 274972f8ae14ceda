/** The ramp the app talks to: the service at RAMP_BASE_URL, or the in-process sandbox in local mode. */
import { Counter, type Registry } from 'prom-client';
import type { Config } from '../config/env.js';
import type { Logger } from '../log/logger.js';
import { createRampClient, RampError } from '../ramp/index.js';
import type { RampClient } from '../ramp/types.js';
import type { Sandbox } from '../sandbox/index.js';
import type { LazySellDemo } from '../sell/lazy.js';

/** Connects the ramp client; without RAMP_BASE_URL, starts the sandbox first (imported on demand). */
export async function startRamp(
  config: Config,
  logger: Logger,
  sellDemo?: LazySellDemo,
  registry?: Registry,
): Promise<{ ramp: RampClient; sandbox?: Sandbox }> {
  const { ramp, sandbox } = await connectRamp(config, logger, sellDemo);
  return { ramp: registry ? countCalls(ramp, registry) : ramp, sandbox };
}

/**
 * Every ramp call counted by method and outcome (`ok`, or the RampError kind: unauthorized,
 * validation, duplicate, not_found, server, timeout, network): the ramp's error rate on /metrics.
 */
function countCalls(ramp: RampClient, registry: Registry): RampClient {
  const calls = new Counter({
    name: 'rampchat_ramp_calls_total',
    help: 'Ramp service calls by method and outcome (ok, or the error kind)',
    labelNames: ['method', 'outcome'],
    registers: [registry],
  });
  const counted = {} as Record<string, unknown>;
  for (const [method, fn] of Object.entries(ramp) as Array<[string, unknown]>) {
    if (typeof fn !== 'function') {
      counted[method] = fn;
      continue;
    }
    counted[method] = async (...args: unknown[]) => {
      try {
        const answer = await (fn as (...a: unknown[]) => Promise<unknown>).apply(ramp, args);
        calls.inc({ method, outcome: 'ok' });
        return answer;
      } catch (err) {
        calls.inc({ method, outcome: err instanceof RampError ? err.kind : 'other' });
        throw err;
      }
    };
  }
  return counted as unknown as RampClient;
}

async function connectRamp(
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
