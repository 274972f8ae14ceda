/**
 * The sell service: creates intents and their signing links, and turns a reported transaction
 * (from the page, the chat, the Algorand watcher or the dev wallet) into at most one off-ramp order.
 *
 * This file only assembles the steps, each in its own file; the life of an intent (its states, the
 * events that move it and which step does) is written down in intents/lifecycle.ts.
 */
import type { Address, Hex } from 'viem';
import type { EvmCall } from '../chains/evm/index.js';
import type { Locale, UserRef } from '../chat/types.js';
import type { Network, TokenInfo } from '../domain/types.js';
import type { SellIntentRequest, SellLink, SellUpdate } from '../flows/types.js';
import type { JournalEntry } from '../recovery/journal.js';
import { evmCalls, permitCall, permitData } from './chain/evm-calls.js';
import { type ReportOptions, reportHash } from './chain/report.js';
import { poll, search } from './chain/watch.js';
import { type EvmNetworkRuntime, type SellServiceDeps, sellContext } from './context.js';
import { findLostSale, recoverSales, type SaleRecoveryOutcome } from './filing/journaled.js';
import { cancel } from './intents/cancel.js';
import { createIntent, linkAlive, linkOf } from './intents/intent.js';
import type { SellIntent } from './intents/intents.js';
import { sellOptions } from './intents/options.js';

export type { SellEscalation, SellServiceDeps } from './context.js';
export { fromBaseUnits } from './intents/units.js';

export interface SellService {
  /** Tokens selling is configured for, from the ramp's listing and the chain settings. */
  options(): Promise<TokenInfo[]>;
  createIntent(user: UserRef, locale: Locale, key: string, request: SellIntentRequest): Promise<SellLink>;
  /**
   * Checks a hash for an intent and files the order when it passes. `push` also delivers the
   * outcome to the user's chat (not from inside the engine's own effect handlers).
   */
  reportHash(intentId: string, hash: string, opts: ReportOptions): Promise<SellUpdate>;
  /**
   * A hash pasted in chat with no sale in Redis: checked against the user's sale Redis lost, found
   * in the journal and put back (undefined when the journal has none).
   */
  reportLostHash(user: UserRef, hash: string): Promise<{ intentId: string; update: SellUpdate } | undefined>;
  /** After Redis came back empty: the journaled sales it lost, checked, filed or told (journaled.ts). */
  recoverSales(
    entries: readonly JournalEntry[],
    known: { filed: ReadonlySet<string> },
  ): Promise<SaleRecoveryOutcome>;
  /** Ends the sale's link, unless the chain shows its deposit under way (then `checking`). */
  cancel(intentId: string): Promise<SellUpdate | undefined>;
  /** One watcher pass over an intent; returns when to look again, or done. */
  poll(intentId: string): Promise<{ next: number } | { done: true }>;
  /** One escrow search for an EVM sale's unreported deposit (the watcher's `search` passes). */
  search(intentId: string): Promise<{ next: number } | { done: true }>;
  linkOf(intent: SellIntent): SellLink;
  intentOf(id: string): Promise<SellIntent | undefined>;
  intentByLink(token: string): Promise<SellIntent | undefined>;
  /** The calls a seller's wallet sends: `approve(escrow, total)` (needed when `allowance` is short), then the tagged deposit. */
  evmCalls(
    intent: SellIntent,
    from: Address,
  ): Promise<{ approve: EvmCall; withdraw: EvmCall; allowance: bigint }>;
  /** EIP-712 permit data for the page to sign (permit variant). */
  permitData(intent: SellIntent, owner: Address): Promise<{ typedData: unknown; deadline: string }>;
  permitCall(intent: SellIntent, p: { signature: Hex; deadline: bigint }): EvmCall;
  evmRuntime(network: Network): EvmNetworkRuntime | undefined;
  /** True while the page may still be used. */
  linkAlive(intent: SellIntent): boolean;
}

/** How far back the journal is searched for a sale Redis lost when its hash is pasted in chat. */
const LOST_SALE_HORIZON_MS = 48 * 3600_000;

export function createSellService(deps: SellServiceDeps): SellService {
  const ctx = sellContext(deps);
  return {
    options: () => sellOptions(ctx),
    createIntent: (user, locale, key, request) => createIntent(ctx, user, locale, key, request),
    reportHash: (intentId, hash, opts) => reportHash(ctx, intentId, hash, opts),
    async reportLostHash(user, hash) {
      const journal = ctx.deps.journal;
      if (!journal) return undefined;
      const entries = await journal.read(ctx.now() - LOST_SALE_HORIZON_MS);
      const intent = await findLostSale(ctx, user, hash.trim(), entries);
      if (!intent) return undefined;
      if ('filing' in intent)
        return { intentId: intent.filing.id, update: { status: 'checking', hash: intent.hash } };
      return {
        intentId: intent.id,
        update: await reportHash(ctx, intent.id, hash, { push: false, source: 'chat' }),
      };
    },
    recoverSales: (entries, known) => recoverSales(ctx, entries, known),
    cancel: (intentId) => cancel(ctx, intentId),
    poll: (intentId) => poll(ctx, intentId),
    search: (intentId) => search(ctx, intentId),
    linkOf: (intent) => linkOf(ctx, intent),
    intentOf: (id) => ctx.intents.get(id),
    async intentByLink(token) {
      const held = await ctx.intents.byLink(token);
      if (held || !ctx.deps.journal?.linkKey) return held;
      // Put back from the journal after Redis came back empty: found by the token's keyed hash.
      const key = await ctx.deps.journal.linkKey(token);
      return key ? ctx.intents.byLinkKey(key) : undefined;
    },
    evmCalls: (intent, from) => evmCalls(ctx, intent, from),
    permitData: (intent, owner) => permitData(ctx, intent, owner),
    permitCall,
    evmRuntime: (network) => ctx.evmBy.get(network),
    linkAlive: (intent) => linkAlive(ctx, intent),
  };
}
