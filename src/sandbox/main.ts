/**
 * `npm run sandbox`: the ramp sandbox on SANDBOX_PORT with the SANDBOX_* settings. Prints its base
 * address and the test phone numbers.
 */
import { loadConfig } from '../config/env.js';
import { createLogger } from '../log/logger.js';
import { PHONE_OUTCOMES, startSandbox } from './index.js';
import { sandboxOptionsFrom } from './settings.js';

const config = loadConfig();
const logger = createLogger({ level: config.LOG_LEVEL ?? 'info' });
const sandbox = await startSandbox({ ...sandboxOptionsFrom(config), port: config.SANDBOX_PORT, logger });

const lines = [
  `Ramp sandbox listening on ${sandbox.url}`,
  `  RAMP_BASE_URL=${sandbox.url}   RAMP_CHECKOUT_URL=${sandbox.url}`,
  `  legacy paths: /api/<any brand>-… (ours: /api/${sandbox.options.legacyBrand}-…)   settle after ${sandbox.options.settleMs} ms   ${sandbox.options.kesPerUsd} KES/USD`,
  '  Test phone numbers (by last four digits):',
  ...PHONE_OUTCOMES.map(
    (p) => `    2547000${p.suffix.padStart(5, '0')}  on-ramp: ${p.onramp}; off-ramp: ${p.offramp}`,
  ),
  '    any other 254XXXXXXXXX  SUCCESS (10-character receipt)',
];
process.stdout.write(`${lines.join('\n')}\n`);

const stop = () => {
  sandbox.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
