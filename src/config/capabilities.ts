/**
 * Settings of the capabilities that keep their own schema (selling, EVM networks, Algorand),
 * validated at start beside the core ones so a bad value stops the process before anything runs.
 */
import { loadAlgorandConfig } from '../chains/algorand/index.js';
import { loadEvmNetworks } from '../chains/evm/index.js';
import { sellEnvSchema } from '../sell/index.js';
import { ConfigError, parseEnv } from './env.js';

/** Throws one ConfigError naming every bad variable of selling, the EVM networks and Algorand. */
export function validateCapabilitySettings(env: NodeJS.ProcessEnv): void {
  const issues: string[] = [];
  const collect = (check: () => unknown) => {
    try {
      check();
    } catch (err) {
      if (err instanceof ConfigError) issues.push(...err.issues);
      else throw err;
    }
  };
  let algorandEnabled = false;
  collect(() => {
    algorandEnabled = parseEnv(sellEnvSchema, env).SELL_ALGORAND_ENABLED;
  });
  collect(() => loadEvmNetworks(env));
  if (algorandEnabled) collect(() => loadAlgorandConfig(env));
  if (issues.length) throw new ConfigError(issues);
}
