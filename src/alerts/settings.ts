/** Settings of rate alerts (a leaf module: validated at start without loading the capability). */
import * as z from 'zod';

export const alertsEnvSchema = z.object({
  /** How often each watched token/network rate is fetched (one quote per feed, whatever the alerts). */
  ALERTS_INTERVAL_MS: z.coerce.number().int().min(1000).default(60_000),
  /** How far (in %) the rate must move back past a fired alert's level before it can fire again. */
  ALERTS_REARM_PCT: z.coerce.number().min(0).max(50).default(0.5),
  /** How long a claimed alert is held while told before another process may retry it. */
  ALERTS_CLAIM_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
});
