/**
 * What every sell step takes: the service's dependencies and the settings read from them once
 * (`SellContext`), plus the two things any step may do besides changing the intent: hand a sale to
 * support (`escalate`) and tell the user (`tell`).
 */
import type { PublicClient } from 'viem';
import type { AlgorandClients, AlgorandConfig } from '../chains/algorand/index.js';
import type { EvmNetworkConfig } from '../chains/evm/index.js';
import type { UserRef } from '../chat/types.js';
import type { Network } from '../domain/types.js';
import type { EffectResult, SellUpdate } from '../flows/types.js';
import type { Limiter, SellLimits } from '../limits/index.js';
import type { Logger } from '../log/logger.js';
import type { RampClient } from '../ramp/types.js';
import { type OrderJournal, saleDoneKey, unfiledKey } from '../recovery/index.js';
import type { OrderTracker } from '../tracker/types.js';
import type { IntentStore, SellIntent } from './intents/intents.js';

/** What support gets when a sell cannot finish by itself. */
export interface SellEscalation {
  reason: 'sell_refused' | 'filing_unknown' | 'horizon';
  intent: SellIntent;
  hash?: string;
  /** The chain's or the ramp's refusal, in English. */
  refusal?: string;
  at: number;
}

export interface EvmNetworkRuntime {
  config: EvmNetworkConfig;
  /** Reads (falls back along the configured endpoints). */
  client: PublicClient;
  /** One client per endpoint when several are configured: a deposit is verified only when two agree. */
  verifiers?: PublicClient[];
}

export interface SellServiceDeps {
  intents: IntentStore;
  ramp: RampClient;
  tracker?: OrderTracker;
  logger: Logger;
  /** Networks enabled for selling on EVM chains. */
  evm: EvmNetworkRuntime[];
  /** Algorand selling, when enabled. */
  /** `local`: the offline stand-in of local mode (the dev-wallet button may pay). */
  algorand?: { config: AlgorandConfig; clients: AlgorandClients; local?: boolean };
  /** Base of signing links, e.g. `https://bot.example.org` (no trailing slash). */
  publicUrl: string;
  /** Lifetime of a signing link. */
  linkTtlMs: number;
  /** After the link expires, a transaction may still be mined and checked for this long. */
  graceMs?: number;
  project: string;
  /** Feeds an update into the user's conversation (the engine's `handle`). */
  deliver: (user: UserRef, input: EffectResult) => Promise<void>;
  /** Asks the watcher to look at an intent after `delayMs`. */
  schedule: (intentId: string, delayMs: number, kind: 'poll' | 'expiry' | 'search') => Promise<void>;
  onEscalate?: (c: SellEscalation) => Promise<void>;
  /** How soon the watcher looks again at a pending hash or an Algorand intent. */
  pollIntervalMs?: number;
  /** How often the escrow is searched for an EVM sale's unreported deposit (default 2 min). */
  searchIntervalMs?: number;
  /** A filing slot or `filing` status this old with no order is left by a dead process: re-filed (default 2 min). */
  filingStaleMs?: number;
  now?: () => number;
  /** Notes each sale's filing before the ramp is asked, outside Redis (src/recovery). */
  journal?: OrderJournal;
  /** Per-user limits on links created and hashes sent in (src/limits); none when absent. */
  limits?: SellLimits & { limiter: Limiter; page?: PageLimits };
}

/** Distinct hashes the signing page may post per link and per client address in `windowMs`. */
export interface PageLimits {
  perLink: number;
  perAddress: number;
  windowMs: number;
}

/** Selling is not possible as asked (network or token not configured, not an EVM sale, ...). */
export class SellUnavailableError extends Error {
  override name = 'SellUnavailableError';
}

/** The dependencies with their defaults applied, as every step reads them. */
export interface SellContext {
  deps: SellServiceDeps;
  intents: IntentStore;
  ramp: RampClient;
  log: Logger;
  now: () => number;
  /** After a link's expiry, how long a transaction may still be mined and checked. */
  graceMs: number;
  /** How soon the watcher looks again at a pending hash or an Algorand intent. */
  pollMs: number;
  /** How often the escrow is searched for an EVM sale nobody reported a deposit for. */
  searchMs: number;
  /** How old a held filing with no order must be to count as left by a dead process. */
  filingStaleMs: number;
  evmBy: Map<Network, EvmNetworkRuntime>;
}

const DEFAULT_GRACE_MS = 15 * 60_000;
const DEFAULT_FILING_STALE_MS = 120_000;
const DEFAULT_POLL_MS = 4000;
const DEFAULT_SEARCH_MS = 120_000;

export function sellContext(deps: SellServiceDeps): SellContext {
  return {
    deps,
    intents: deps.intents,
    ramp: deps.ramp,
    log: deps.logger.child({ component: 'sell' }),
    now: deps.now ?? Date.now,
    graceMs: deps.graceMs ?? DEFAULT_GRACE_MS,
    pollMs: deps.pollIntervalMs ?? DEFAULT_POLL_MS,
    searchMs: deps.searchIntervalMs ?? DEFAULT_SEARCH_MS,
    filingStaleMs: deps.filingStaleMs ?? DEFAULT_FILING_STALE_MS,
    evmBy: new Map<Network, EvmNetworkRuntime>(deps.evm.map((r) => [r.config.network, r])),
  };
}

/** The fields every sell log line carries. */
export const intentLog = (i: SellIntent) => ({ intentId: i.id, network: i.network });

/**
 * Marks the intent escalated and hands it to support (a failing hand-over is logged, not thrown).
 * `endsSale: false` hands over one payment (a deposit that does not match) while the sale goes on.
 */
export async function escalate(
  ctx: SellContext,
  c: Omit<SellEscalation, 'at'>,
  opts: { endsSale: boolean } = { endsSale: true },
): Promise<void> {
  const { intents, log, now, deps } = ctx;
  await intents.update(c.intent.id, (i) => ({ ...i, escalated: true, updatedAt: now() }));
  log.error(
    { ...intentLog(c.intent), reason: c.reason, hash: c.hash, refusal: c.refusal },
    'sell escalated to support',
  );
  // Support has this payment now: recovery after an empty Redis must not file it again on its own.
  if (c.hash) await deps.journal?.final(unfiledKey(c.hash));
  if (opts.endsSale) await deps.journal?.final(saleDoneKey(c.intent.id));
  if (!deps.onEscalate) return;
  try {
    await deps.onEscalate({ ...c, at: now() });
  } catch (err) {
    log.error({ ...intentLog(c.intent), err: (err as Error).message }, 'handing the sell to support failed');
  }
}

/** Delivers an update to the user's conversation from outside the engine (the watcher); never throws. */
export async function tell(ctx: SellContext, intent: SellIntent, update: SellUpdate): Promise<void> {
  try {
    await ctx.deps.deliver(intent.user, { kind: 'sellUpdate', intentId: intent.id, update });
  } catch (err) {
    ctx.log.error(
      { ...intentLog(intent), err: (err as Error).message },
      'could not tell the user about the sell',
    );
  }
}
