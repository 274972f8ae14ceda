/**
 * Settings of the capabilities that keep their own schema (selling, EVM networks, Algorand),
 * validated at start beside the core ones so a bad value stops the process before anything runs.
 * A capability's schema module (and the chain library behind it) is loaded only when one of its
 * settings is present, so a start without them loads no chain library.
 */

import { alertsEnvSchema } from '../alerts/settings.js';
import { ConfigError, parseEnv } from '../config/env.js';
import { sellEnvSchema } from '../sell/settings.js';

/** Rejects with one ConfigError naming every bad variable of selling, the EVM networks and Algorand. */
export async function validateCapabilitySettings(env: NodeJS.ProcessEnv): Promise<void> {
  const issues: string[] = [];
  const collect = async (check: () => unknown) => {
    try {
      await check();
    } catch (err) {
      if (err instanceof ConfigError) issues.push(...err.issues);
      else throw err;
    }
  };
  await collect(() => parseEnv(alertsEnvSchema, env));
  let algorandEnabled = false;
  await collect(() => {
    algorandEnabled = parseEnv(sellEnvSchema, env).SELL_ALGORAND_ENABLED;
  });
  if (Object.keys(env).some((k) => k.startsWith('EVM_')))
    await collect(async () => (await import('../chains/evm/config.js')).loadEvmNetworks(env));
  if (algorandEnabled)
    await collect(async () => (await import('../chains/algorand/config.js')).loadAlgorandConfig(env));
  if (issues.length) throw new ConfigError(issues);
}
