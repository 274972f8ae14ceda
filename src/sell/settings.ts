/** Settings of selling (a leaf module: validated at start without loading the sell capability). */
import * as z from 'zod';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** Settings of selling beyond the core ones (PUBLIC_URL, SIGNING_LINK_TTL_MS, WALLETCONNECT_PROJECT_ID). */
export const sellEnvSchema = z.object({
  /** Offer selling USDC on Algorand (settings: ALGOD_URL, INDEXER_URL, ALGORAND_* in src/chains/algorand). */
  SELL_ALGORAND_ENABLED: bool.default(false),
  /** How often pending hashes and Algorand payments are looked at. */
  SELL_POLL_INTERVAL_MS: z.coerce.number().int().min(200).default(4000),
  /** How often the escrow is searched for an EVM deposit nobody reported (the page closed first). */
  SELL_SEARCH_INTERVAL_MS: z.coerce.number().int().min(1000).default(120_000),
  /**
   * How long a filing without an outcome waits before it is reconciled: the ramp's history asked,
   * then the same hash filed again if absent (well past RAMP_TIMEOUT_MS, so the first POST is over).
   */
  SELL_FILING_STALE_MS: z.coerce.number().int().min(1000).default(120_000),
  /**
   * Distinct transaction hashes the signing page may post per link, and per client address, per
   * LIMIT_SELL_HASHES_WINDOW_MS; more are refused without asking the chain (a deposit is still found
   * by the escrow search, or pasted in the chat).
   */
  SELL_PAGE_HASHES_PER_LINK: z.coerce.number().int().min(1).default(10),
  SELL_PAGE_HASHES_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
  /** How long after the link expires a transaction may still be mined and checked. */
  SELL_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(15 * 60_000),
});

/** A real EVM network is configured for selling (some EVM_<NETWORK>_ESCROW is set). */
export function evmEscrowConfigured(env: NodeJS.ProcessEnv): boolean {
  return Object.entries(env).some(([k, v]) => /^EVM_[A-Z]+_ESCROW$/.test(k) && Boolean(v?.trim()));
}

/** Selling has something to sell on: an EVM escrow, or Algorand turned on. */
export function sellConfigured(env: NodeJS.ProcessEnv): boolean {
  return evmEscrowConfigured(env) || sellEnvSchema.safeParse(env).data?.SELL_ALGORAND_ENABLED === true;
}
