/**
 * The sell service: creates intents and their signing links, and turns a reported transaction
 * (from the page, the chat, the Algorand watcher or the dev wallet) into at most one off-ramp order.
 *
 * A reported hash is only a hint. Order of operations for one hash:
 * 1. the intent must exist and not already have filed another hash; the hash must be of the
 *    intent's chain and not claimed by another intent;
 * 2. on-chain verification against what the intent bound (EVM: verifyEscrowTransaction; Algorand:
 *    verifyPayment). Too few confirmations -> the hash waits in `pending` and the watcher retries;
 * 3. the hash is claimed (SET NX `sellhash:<chain>:<hash>`), then the intent's one filing slot
 *    (SET NX `sellfiling:<id>`);
 * 4. `ramp.createOfframpOrder` with the phone bound at creation and the verified sender. A duplicate
 *    answer maps to the existing order; an answer we never got marks the intent `filing-unknown` and
 *    escalates (never re-filed blindly); a refusal after tokens moved escalates.
 *
 * Crash recovery. The filing slot records when it was claimed, and a watcher job is queued before
 * it is claimed, so a process that dies anywhere between claiming the slot and recording the order
 * leaves something the watcher finds: a slot (or a `filing` status) older than `filingStaleMs` with
 * no order. Such a filing is re-filed with the same hash, which is safe for off-ramp orders, unlike
 * STK pushes: the ramp accepts a transaction hash once and answers it again with a Duplicate that
 * carries the existing order id, which maps to that order. So whether the dead process never sent
 * the POST, sent it without hearing back, or heard back without recording it, re-filing ends in the
 * one order. The wait (minutes, well past the ramp client's timeout) makes sure the first POST has
 * finished at the ramp before the same hash is sent again; a POST that timed out in a live process
 * is different (the ramp may still be working on it) and stays `filing-unknown` for support. The
 * order is tracked before `filed` is recorded, so a crash between the two re-files into a duplicate
 * and tracks again (a no-op) rather than leaving a filed order nobody follows.
 */
import { randomBytes } from 'node:crypto';
import type algosdk from 'algosdk';
import { type Address, type Hex, isAddressEqual, type PublicClient, zeroAddress } from 'viem';
import { z } from 'zod';
import {
  type AlgorandClients,
  type AlgorandConfig,
  buildPaymentRequest,
  checkSenderReady,
  currentRound,
  findPayment,
  newSellNote,
  verifyPayment,
} from '../chains/algorand/index.js';
import {
  buildApproveCall,
  buildPermitTypedData,
  buildWithdrawCall,
  buildWithdrawWithPermitCall,
  DEFAULT_PERMIT_TTL_SECONDS,
  type EvmCall,
  type EvmNetworkConfig,
  findEvmToken,
  newSellTag,
  readPermitContext,
  scaleExchangeRate,
  verifyEscrowTransactionQuorum,
} from '../chains/evm/index.js';
import type { Locale, UserRef } from '../chat/types.js';
import { normalizeWalletAddress } from '../domain/address.js';
import type { Network, TokenInfo } from '../domain/types.js';
import { surelyNotActedOn } from '../engine/errors.js';
import type { EffectResult, SellIntentRequest, SellLink, SellUpdate, TrackedOrder } from '../flows/types.js';
import { type Limiter, RateLimitedError, type SellLimits } from '../limits/index.js';
import type { Logger } from '../log/logger.js';
import { isRampError, RampDuplicateError, RampValidationError } from '../ramp/errors.js';
import type { RampClient } from '../ramp/types.js';
import type { OrderJournal } from '../recovery/index.js';
import type { OrderTracker } from '../tracker/types.js';
import {
  filingClaim,
  filingSlot,
  hashClaim,
  type IntentStore,
  readFilingSlot,
  type SellIntent,
} from './intents.js';
import { type SellRefusal, userRefusal } from './reasons.js';

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
  schedule: (intentId: string, delayMs: number, kind: 'poll' | 'expiry') => Promise<void>;
  onEscalate?: (c: SellEscalation) => Promise<void>;
  /** How soon the watcher looks again at a pending hash or an Algorand intent. */
  pollIntervalMs?: number;
  /** A filing slot or `filing` status this old with no order is left by a dead process: re-filed (default 2 min). */
  filingStaleMs?: number;
  now?: () => number;
  /** Notes each sale's filing before the ramp is asked, outside Redis (src/recovery). */
  journal?: OrderJournal;
  /** Per-user limits on links created and hashes sent in (src/limits); none when absent. */
  limits?: SellLimits & { limiter: Limiter };
}

const DEFAULT_GRACE_MS = 15 * 60_000;
const DEFAULT_FILING_STALE_MS = 120_000;

const linkTokenOf = () => randomBytes(24).toString('base64url');
const intentIdOf = () => randomBytes(16).toString('hex');

/** Decimal text to base units, rounding up any digits the token cannot hold (never asks for less). */
export function toBaseUnits(value: string, decimals: number): bigint {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (!m || (m[1] === '' && !m[2])) throw new RangeError(`not a decimal amount: ${value}`);
  const frac = m[2] ?? '';
  const kept = frac.slice(0, decimals).padEnd(decimals, '0');
  let units = BigInt(`${m[1] || '0'}${kept}`);
  if (/[1-9]/.test(frac.slice(decimals))) units += 1n;
  return units;
}

/** Base units back to decimal text. */
export function fromBaseUnits(units: bigint, decimals: number): string {
  const s = units.toString().padStart(decimals + 1, '0');
  const int = s.slice(0, s.length - decimals);
  const frac = decimals > 0 ? s.slice(s.length - decimals).replace(/0+$/, '') : '';
  return frac ? `${int}.${frac}` : int;
}

const requestSchema = z.object({
  network: z.enum(['polygon', 'lisk', 'celo', 'base', 'scroll', 'algorand']),
  token: z.object({ symbol: z.string().min(1), address: z.string(), decimals: z.number().int().min(0) }),
  amount: z.string().regex(/^\d*\.?\d+$/),
  fee: z.string().regex(/^\d*\.?\d*$/),
  amountKes: z.number().nonnegative(),
  exchangeRate: z.number().positive(),
  phone: z.string().regex(/^254[17]\d{8}$/),
  wallet: z.string().optional(),
});

export class SellUnavailableError extends Error {
  override name = 'SellUnavailableError';
}

/** The final-for-this-hash result of checking one hash. */
type Outcome = SellUpdate;

export interface SellService {
  /** Tokens selling is configured for, from the ramp's listing and the chain settings. */
  options(): Promise<TokenInfo[]>;
  createIntent(user: UserRef, locale: Locale, key: string, request: SellIntentRequest): Promise<SellLink>;
  /**
   * Checks a hash for an intent and files the order when it passes. `push` also delivers the
   * outcome to the user's chat (not from inside the engine's own effect handlers).
   */
  reportHash(intentId: string, hash: string, opts: { push: boolean; source: string }): Promise<SellUpdate>;
  /** Kills the link of an intent nothing was reported for. */
  cancel(intentId: string): Promise<SellUpdate | undefined>;
  /** One watcher pass over an intent; returns when to look again, or done. */
  poll(intentId: string): Promise<{ next: number } | { done: true }>;
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

export function createSellService(deps: SellServiceDeps): SellService {
  const { intents, ramp, logger } = deps;
  const now = deps.now ?? Date.now;
  const graceMs = deps.graceMs ?? DEFAULT_GRACE_MS;
  const pollMs = deps.pollIntervalMs ?? 4000;
  const filingStaleMs = deps.filingStaleMs ?? DEFAULT_FILING_STALE_MS;
  const log = logger.child({ component: 'sell' });
  const evmBy = new Map<Network, EvmNetworkRuntime>(deps.evm.map((r) => [r.config.network, r]));

  const intentLog = (i: SellIntent) => ({ intentId: i.id, network: i.network });

  async function escalate(c: Omit<SellEscalation, 'at'>): Promise<void> {
    await intents.update(c.intent.id, (i) => ({ ...i, escalated: true, updatedAt: now() }));
    log.error(
      { ...intentLog(c.intent), reason: c.reason, hash: c.hash, refusal: c.refusal },
      'sell escalated to support',
    );
    if (!deps.onEscalate) return;
    try {
      await deps.onEscalate({ ...c, at: now() });
    } catch (err) {
      log.error(
        { ...intentLog(c.intent), err: (err as Error).message },
        'handing the sell to support failed',
      );
    }
  }

  function linkOf(intent: SellIntent): SellLink {
    const signUrl = `${deps.publicUrl}/sign/${intent.linkToken}`;
    const https = signUrl.startsWith('https://');
    const link: SellLink = { intentId: intent.id, expiresAt: intent.expiresAt, total: intent.total, signUrl };
    if (intent.evm && https) {
      link.metamaskUrl = `https://metamask.app.link/dapp/${signUrl.slice('https://'.length)}`;
      link.trustUrl = `https://link.trustwallet.com/open_url?coin_id=60&url=${encodeURIComponent(signUrl)}`;
    }
    if (intent.evm?.local || (intent.algorand && deps.algorand?.local)) link.devSign = true;
    if (intent.algorand) {
      const request = buildPaymentRequest({
        receiver: intent.algorand.receiver,
        assetId: BigInt(intent.algorand.assetId),
        amountBaseUnits: BigInt(intent.totalUnits),
        note: intent.algorand.note,
      });
      link.algorand = {
        uri: request.uri,
        peraUrl: request.peraUrl,
        qrUrl: `${signUrl}/qr.png`,
        note: intent.algorand.note,
        receiver: intent.algorand.receiver,
      };
    }
    return link;
  }

  async function options(): Promise<TokenInfo[]> {
    const listed = await ramp.listAssets();
    const out: TokenInfo[] = [];
    for (const t of listed.tokens) {
      const runtime = t.network === 'algorand' ? undefined : evmBy.get(t.network);
      if (!runtime) continue;
      const configured = findEvmToken(runtime.config, t.symbol);
      if (!configured || configured.address === zeroAddress) continue;
      if (out.some((o) => o.network === t.network && o.symbol === t.symbol)) continue;
      out.push({ ...t, address: configured.address, decimals: configured.decimals });
    }
    if (deps.algorand) {
      const listedUsdc = listed.tokens.find((t) => t.network === 'algorand' && t.symbol === 'USDC');
      out.push({
        network: 'algorand',
        symbol: 'USDC',
        name: listedUsdc?.name ?? 'USD Coin',
        decimals: 6,
        address: String(deps.algorand.config.usdcAssetId),
      });
    }
    return out;
  }

  async function createIntent(
    user: UserRef,
    locale: Locale,
    key: string,
    raw: SellIntentRequest,
  ): Promise<SellLink> {
    const request = requestSchema.parse(raw);
    const createdAt = now();
    if (deps.limits) {
      const { limiter, linksPerUser, linksWindowMs } = deps.limits;
      const limit = {
        key: `sell-links:${user.channel}:${user.id}`,
        max: linksPerUser,
        windowMs: linksWindowMs,
      };
      // Named by the flow's key: a double Confirm returns the same link and counts once.
      const verdict = await limiter.take([limit], createdAt, key);
      if (!verdict.ok) throw new RateLimitedError('signing-links', verdict.retryAt);
    }
    const base = {
      key,
      user,
      locale,
      network: request.network,
      amountKes: request.amountKes,
      exchangeRate: request.exchangeRate,
      phone: request.phone,
      createdAt,
      expiresAt: createdAt + deps.linkTtlMs,
      status: 'open' as const,
      pending: [],
      refused: [],
      updatedAt: createdAt,
    };
    let make: (id: string) => SellIntent;
    let senderProblem: SellLink['senderProblem'];
    if (request.network === 'algorand') {
      const algorand = deps.algorand;
      if (!algorand) throw new SellUnavailableError('selling on Algorand is not enabled');
      const decimals = 6;
      const amountUnits = toBaseUnits(request.amount, decimals);
      const feeUnits = toBaseUnits(request.fee || '0', decimals);
      const totalUnits = amountUnits + feeUnits;
      const wallet = request.wallet ? normalizeWalletAddress('algorand', request.wallet) : undefined;
      if (request.wallet && !wallet) throw new SellUnavailableError('not an Algorand address');
      const minRound = await currentRound(algorand.clients.algod);
      if (wallet) {
        const check = await checkSenderReady(algorand.clients.algod, {
          address: wallet,
          assetId: algorand.config.usdcAssetId,
          minFeeMicroAlgo: algorand.config.minFeeBalanceMicroAlgo,
          amountBaseUnits: totalUnits,
        });
        if (!check.ok && check.reason !== 'invalid_address') senderProblem = check.reason;
      }
      make = (id) => ({
        ...base,
        id,
        linkToken: linkTokenOf(),
        token: { symbol: 'USDC', address: String(algorand.config.usdcAssetId), decimals },
        amount: fromBaseUnits(amountUnits, decimals),
        fee: fromBaseUnits(feeUnits, decimals),
        total: fromBaseUnits(totalUnits, decimals),
        totalUnits: String(totalUnits),
        feeUnits: String(feeUnits),
        ...(wallet ? { wallet } : {}),
        algorand: {
          receiver: algorand.config.serviceWallet,
          assetId: String(algorand.config.usdcAssetId),
          note: newSellNote(id),
          minRound: String(minRound),
          confirmations: algorand.config.confirmations,
        },
      });
    } else {
      const runtime = evmBy.get(request.network);
      if (!runtime) throw new SellUnavailableError(`selling on ${request.network} is not configured`);
      const token = findEvmToken(runtime.config, request.token.symbol);
      if (!token || token.address === zeroAddress) {
        throw new SellUnavailableError(`${request.token.symbol} is not configured on ${request.network}`);
      }
      const amountUnits = toBaseUnits(request.amount, token.decimals);
      const feeUnits = toBaseUnits(request.fee || '0', token.decimals);
      const totalUnits = amountUnits + feeUnits;
      const wallet = request.wallet ? normalizeWalletAddress(request.network, request.wallet) : undefined;
      if (request.wallet && !wallet) throw new SellUnavailableError('not a wallet address');
      make = (id) => ({
        ...base,
        id,
        linkToken: linkTokenOf(),
        token: { symbol: token.symbol, address: token.address, decimals: token.decimals },
        amount: fromBaseUnits(amountUnits, token.decimals),
        fee: fromBaseUnits(feeUnits, token.decimals),
        total: fromBaseUnits(totalUnits, token.decimals),
        totalUnits: String(totalUnits),
        feeUnits: String(feeUnits),
        ...(wallet ? { wallet } : {}),
        evm: {
          chainId: runtime.config.chainId,
          escrow: runtime.config.escrow,
          escrowCall: runtime.config.escrowCall,
          tag: newSellTag().toLowerCase(),
          confirmations: runtime.config.confirmations,
          local: runtime.config.local,
        },
      });
    }
    const { intent, created } = await intents.createOnce(key, () => make(intentIdOf()));
    if (created) {
      log.info(
        { ...intentLog(intent), expiresAt: new Date(intent.expiresAt).toISOString() },
        'sell intent created',
      );
      if (intent.algorand) await deps.schedule(intent.id, pollMs, 'poll');
      await deps.schedule(intent.id, intent.expiresAt - now(), 'expiry');
    }
    const link = linkOf(intent);
    return senderProblem ? { ...link, senderProblem } : link;
  }

  const finalStatuses = new Set(['filed', 'filing-unknown', 'refused']);
  const filingStatuses = new Set(['filing', 'filed', 'filing-unknown']);

  async function addPending(intent: SellIntent, hash: string): Promise<void> {
    await intents.update(intent.id, (i) =>
      i.pending.some((p) => p.hash === hash)
        ? undefined
        : { ...i, pending: [...i.pending, { hash, since: now() }].slice(-5), updatedAt: now() },
    );
    await deps.schedule(intent.id, pollMs, 'poll');
  }

  async function markRefused(
    intent: SellIntent,
    hash: string,
    final: boolean,
    refusal: SellRefusal,
  ): Promise<void> {
    await intents.update(intent.id, (i) => ({
      ...i,
      pending: i.pending.filter((p) => p.hash !== hash),
      refused: i.refused.includes(hash) ? i.refused : [...i.refused, hash].slice(-20),
      ...(final ? { status: 'refused' as const, hash, refusal } : {}),
      updatedAt: now(),
    }));
  }

  type Verdict =
    | { ok: true; sender: string }
    | { ok: false; retry: true; detail: string; exists: boolean }
    | { ok: false; retry: false; reason: string; detail: string; ours: boolean };

  async function verifyEvm(intent: SellIntent, hash: string): Promise<Verdict> {
    const runtime = evmBy.get(intent.network);
    const evm = intent.evm!;
    if (!runtime)
      return {
        ok: false,
        retry: false,
        reason: 'wrong_chain',
        detail: 'network no longer configured',
        ours: false,
      };
    const verdict = await verifyEscrowTransactionQuorum(
      runtime.verifiers?.length ? runtime.verifiers : [runtime.client],
      {
        chainId: evm.chainId,
        escrow: evm.escrow as Address,
        token: intent.token.address as Address,
        ...(intent.wallet ? { from: intent.wallet as Address } : {}),
        total: BigInt(intent.totalUnits),
        fee: BigInt(intent.feeUnits),
        tag: evm.tag as Hex,
        // A permit network also takes the approve + legacy call (wallets without permit support).
        variants: evm.escrowCall === 'permit' ? ['permit', 'legacy'] : [evm.escrowCall],
        ...(evm.escrowCall === 'current' ? {} : { exchangeRate: scaleExchangeRate(intent.exchangeRate) }),
        notBefore: Math.floor(intent.createdAt / 1000) - 60,
        notAfter: Math.ceil((intent.expiresAt + graceMs) / 1000),
        confirmations: evm.confirmations,
      },
      hash,
    );
    if (verdict.ok) return { ok: true, sender: verdict.from };
    if (verdict.reason === 'not_confirmed' || verdict.reason === 'not_found') {
      return { ok: false, retry: true, detail: verdict.detail, exists: verdict.reason === 'not_confirmed' };
    }
    // Checked after the escrow, the sender and this order's tag: the tokens (if any) are this order's.
    const afterTag = ['wrong_token', 'wrong_amount', 'wrong_fee', 'outside_window'].includes(verdict.reason);
    const untaggedFromBound = verdict.reason === 'missing_tag' && intent.wallet !== undefined;
    let ours = false;
    if (afterTag || untaggedFromBound) {
      const receipt = await runtime.client
        .getTransactionReceipt({ hash: hash as Hex })
        .catch(() => undefined);
      ours =
        receipt?.status === 'success' && !!receipt.to && isAddressEqual(receipt.to, evm.escrow as Address);
    }
    return { ok: false, retry: false, reason: verdict.reason, detail: verdict.detail, ours };
  }

  async function noteMatches(indexer: algosdk.Indexer, txId: string, note: string): Promise<boolean> {
    try {
      const found = await indexer.lookupTransactionByID(txId).do();
      const bytes = found.transaction.note;
      return bytes !== undefined && new TextDecoder().decode(bytes) === note;
    } catch {
      return false;
    }
  }

  async function verifyAlgorand(intent: SellIntent, txId: string): Promise<Verdict> {
    const algorand = deps.algorand;
    const a = intent.algorand!;
    if (!algorand)
      return {
        ok: false,
        retry: false,
        reason: 'wrong_chain',
        detail: 'Algorand no longer enabled',
        ours: false,
      };
    const verdict = await verifyPayment(
      algorand.clients,
      {
        receiver: a.receiver,
        assetId: BigInt(a.assetId),
        total: BigInt(intent.totalUnits),
        note: a.note,
        minRound: BigInt(a.minRound),
        ...(intent.wallet ? { sender: intent.wallet } : {}),
        confirmations: a.confirmations,
      },
      txId,
    );
    if (verdict.ok) return { ok: true, sender: verdict.sender };
    if (verdict.reason === 'not_confirmed' || verdict.reason === 'not_found') {
      return { ok: false, retry: true, detail: verdict.detail, exists: verdict.reason === 'not_confirmed' };
    }
    const moved = ['wrong_amount', 'close_out', 'wrong_sender'].includes(verdict.reason);
    const ours = moved && (await noteMatches(algorand.clients.indexer, txId, a.note));
    return { ok: false, retry: false, reason: verdict.reason, detail: verdict.detail, ours };
  }

  function hashFits(intent: SellIntent, hash: string): string | undefined {
    if (intent.evm) return /^0x[0-9a-fA-F]{64}$/.test(hash) ? hash.toLowerCase() : undefined;
    return /^[A-Z2-7]{51}[AQ]$/.test(hash.toUpperCase()) ? hash.toUpperCase() : undefined;
  }

  async function refuse(
    intent: SellIntent,
    hash: string,
    refusal: SellRefusal,
    detail: string,
    escalateIt: boolean,
  ): Promise<Outcome> {
    await markRefused(intent, hash, escalateIt, refusal);
    log.warn({ ...intentLog(intent), hash, refusal, detail }, 'sell transaction refused');
    if (escalateIt) await escalate({ reason: 'sell_refused', intent, hash, refusal: detail });
    return { status: 'refused', reason: refusal, hash, escalated: escalateIt };
  }

  async function track(intent: SellIntent, orderId: string, hash: string, sender: string): Promise<void> {
    if (!deps.tracker) {
      log.warn({ ...intentLog(intent), orderId }, 'no tracker: the payout will not be followed');
      return;
    }
    const order: TrackedOrder = { ...payoutOf(intent, hash, sender), orderId, createdAt: now() };
    try {
      await deps.tracker.track(order);
    } catch (err) {
      log.error(
        { ...intentLog(intent), orderId, err: (err as Error).message },
        'could not start tracking the sell',
      );
    }
  }

  /**
   * Files the order for a verified hash whose filing slot this call holds (`slot`, its exact value).
   * `recovering`: re-filing after a dead process, so a duplicate answer is most likely our own order.
   */
  async function file(
    intent: SellIntent,
    hash: string,
    sender: string,
    slot: string,
    recovering = false,
  ): Promise<Outcome> {
    // One atomic change of the intent orders this against cancel(): a cancel that got in first is
    // told to the user with the filed outcome, a later one is answered "too late".
    let afterCancel = false;
    await intents.update(intent.id, (i) => {
      afterCancel = i.status === 'cancelled';
      return { ...i, status: 'filing', hash, sender, updatedAt: now() };
    });
    if (afterCancel)
      log.info({ ...intentLog(intent), hash }, 'a payment arrived after the sale was cancelled');
    await deps.journal?.intent(payoutOf(intent, hash, sender));
    try {
      const created = await ramp.createOfframpOrder({
        chain: intent.network,
        hash,
        phone: intent.phone,
        tokenAddress: intent.token.address,
        userAddress: sender,
        project: deps.project,
      });
      return await filed(intent, hash, sender, created.orderId, false, afterCancel);
    } catch (err) {
      if (err instanceof RampDuplicateError) {
        const outcome = await filed(intent, hash, sender, err.existingOrderId, !recovering, afterCancel);
        await checkDuplicatePhone(intent, hash, err.existingOrderId);
        return outcome;
      }
      const detail = isRampError(err) ? `${err.kind}: ${err.message}` : String(err);
      if (err instanceof RampValidationError) {
        await intents.update(intent.id, (i) => ({
          ...i,
          status: 'refused',
          refusal: 'ramp_refused',
          updatedAt: now(),
        }));
        log.error({ ...intentLog(intent), hash, detail }, 'the ramp refused a verified sell');
        await escalate({ reason: 'sell_refused', intent, hash, refusal: detail });
        return { status: 'refused', reason: 'ramp_refused', hash, escalated: true };
      }
      if (surelyNotActedOn(err)) {
        // Nothing reached the ramp: give the slot back and let the watcher try again.
        await intents.release(filingClaim(intent.id), slot);
        await intents.update(intent.id, (i) => ({ ...i, status: 'open', updatedAt: now() }));
        log.warn({ ...intentLog(intent), hash, detail }, 'filing the sell did not reach the ramp; retrying');
        await addPending(intent, hash);
        return { status: 'checking', hash };
      }
      await intents.update(intent.id, (i) => ({ ...i, status: 'filing-unknown', updatedAt: now() }));
      await escalate({ reason: 'filing_unknown', intent, hash, refusal: detail });
      return { status: 'uncertain', hash };
    }
  }

  /** Someone filed our verified hash first: if their payout goes to another phone, support must look. */
  async function checkDuplicatePhone(intent: SellIntent, hash: string, orderId: string): Promise<void> {
    try {
      const state = await ramp.getOfframpStatus(orderId);
      if (state.phone && state.phone !== intent.phone) {
        await escalate({
          reason: 'sell_refused',
          intent,
          hash,
          refusal: `order ${orderId} pays another phone`,
        });
      }
    } catch (err) {
      log.warn(
        { ...intentLog(intent), orderId, err: (err as Error).message },
        'could not read the existing order',
      );
    }
  }

  async function filed(
    intent: SellIntent,
    hash: string,
    sender: string,
    orderId: string,
    existing: boolean,
    afterCancel = false,
  ): Promise<Outcome> {
    // Tracked first: a crash before `filed` is recorded leaves a stale `filing`, which re-files into
    // this same order and tracks it again (a no-op).
    await track(intent, orderId, hash, sender);
    await intents.update(intent.id, (i) => ({
      ...i,
      status: 'filed',
      orderId,
      hash,
      sender,
      pending: [],
      updatedAt: now(),
    }));
    log.info({ ...intentLog(intent), orderId, existing }, 'sell order filed');
    return { status: 'filed', hash, orderId, existing, ...(afterCancel ? { afterCancel } : {}) };
  }

  async function check(intentId: string, rawHash: string): Promise<Outcome> {
    const intent = await intents.get(intentId);
    if (!intent) return { status: 'refused', reason: 'unknown', escalated: false };
    const hash = hashFits(intent, rawHash);
    if (!hash)
      return { status: 'refused', reason: intent.evm ? 'not_found' : 'wrong_network', escalated: false };
    if (intent.status === 'filed' && intent.hash === hash) {
      return { status: 'filed', hash, orderId: intent.orderId!, existing: false };
    }
    if (intent.status === 'filing-unknown' && intent.hash === hash) return { status: 'uncertain', hash };
    if (intent.status === 'filing' && intent.hash === hash) return { status: 'checking', hash };
    const holder = await intents.claimedBy(hashClaim(intent.network, hash));
    if (holder && holder !== intent.id)
      return refuse(intent, hash, 'reused', `hash claimed by intent ${holder}`, false);

    let verdict: Verdict;
    try {
      verdict = intent.evm ? await verifyEvm(intent, hash) : await verifyAlgorand(intent, hash);
    } catch (err) {
      log.warn(
        { ...intentLog(intent), hash, err: (err as Error).message },
        'chain unreachable; will check again',
      );
      await addPending(intent, hash);
      return { status: 'checking', hash };
    }
    if (!verdict.ok && verdict.retry) {
      const seen = intent.pending.find((p) => p.hash === hash);
      if (now() > intent.expiresAt + graceMs && seen) {
        if (verdict.exists) {
          await markRefused(intent, hash, true, 'unknown');
          await escalate({ reason: 'horizon', intent, hash, refusal: verdict.detail });
          return { status: 'uncertain', hash };
        }
        return refuse(intent, hash, 'not_found', verdict.detail, false);
      }
      await addPending(intent, hash);
      // Not on the chain (yet): said plainly, not "on its way"; it is still looked for a while.
      return verdict.exists
        ? { status: 'checking', hash }
        : { status: 'checking', hash, unseen: true, network: intent.network };
    }
    if (!verdict.ok) {
      return refuse(intent, hash, userRefusal(verdict.reason), verdict.detail, verdict.ours);
    }
    if (intent.status === 'filed' || intent.status === 'filing-unknown' || intent.status === 'filing') {
      return refuse(intent, hash, 'intent_used', `intent already has ${intent.hash}`, true);
    }
    const other = await intents.claim(hashClaim(intent.network, hash), intent.id);
    if (other && other !== intent.id)
      return refuse(intent, hash, 'reused', `hash claimed by intent ${other}`, false);
    // Queued before the slot is claimed, so a process dying while it holds the slot leaves a job
    // that finds the stale slot (see the module comment).
    await deps.schedule(intent.id, filingStaleMs + pollMs, 'poll');
    const mine = filingSlot(hash, now());
    const slot = await intents.claim(filingClaim(intent.id), mine);
    const held = slot === undefined ? undefined : readFilingSlot(slot);
    if (held && held.hash !== hash) {
      return refuse(intent, hash, 'intent_used', `intent already filing ${held.hash}`, true);
    }
    if (slot !== undefined) {
      // Another report of the same hash holds the slot: it files, this one only reports.
      const fresh = await intents.get(intent.id);
      if (fresh?.status === 'filed')
        return { status: 'filed', hash, orderId: fresh.orderId!, existing: false };
      return { status: 'checking', hash };
    }
    return file(intent, hash, verdict.sender, mine);
  }

  /** When a held filing slot (or a `filing` status) counts as left behind by a dead process. */
  const staleSince = (since: number | undefined, intent: SellIntent) =>
    now() - (since ?? intent.updatedAt) >= filingStaleMs;

  /**
   * Re-files a filing a dead process left without an outcome (see the module comment): takes the
   * slot over (release-if-unchanged, then claim, so only one taker files), finds the sender (recorded
   * with `filing`, else read again from the chain) and files the same hash.
   */
  async function recoverFiling(intent: SellIntent, slot: string): Promise<Outcome> {
    const { hash } = readFilingSlot(slot);
    await intents.release(filingClaim(intent.id), slot);
    const mine = filingSlot(hash, now());
    if ((await intents.claim(filingClaim(intent.id), mine)) !== undefined)
      return { status: 'checking', hash };
    log.warn(
      { ...intentLog(intent), hash, status: intent.status },
      'a filing was left without an outcome (the process died); filing the same hash again',
    );
    let sender = intent.status === 'filing' && intent.hash === hash ? intent.sender : undefined;
    if (!sender) {
      let verdict: Verdict;
      try {
        verdict = intent.evm ? await verifyEvm(intent, hash) : await verifyAlgorand(intent, hash);
      } catch (err) {
        log.warn(
          { ...intentLog(intent), hash, err: (err as Error).message },
          'chain unreachable; will check again',
        );
        return { status: 'checking', hash };
      }
      if (!verdict.ok && verdict.retry) return { status: 'checking', hash };
      if (!verdict.ok) {
        await intents.release(filingClaim(intent.id), mine);
        return refuse(intent, hash, userRefusal(verdict.reason), verdict.detail, verdict.ours);
      }
      sender = verdict.sender;
    }
    return file(intent, hash, sender, mine, true);
  }

  /**
   * A refusal when the intent's user has sent in too many distinct hashes lately (each one pending is
   * re-checked against the chain for up to the link's life plus grace); undefined when allowed.
   */
  async function overHashLimit(intentId: string, hash: string): Promise<Outcome | undefined> {
    if (!deps.limits) return undefined;
    const intent = await intents.get(intentId);
    if (!intent) return undefined;
    const { limiter, hashesPerUser, hashesWindowMs } = deps.limits;
    const limit = {
      key: `sell-hashes:${intent.user.channel}:${intent.user.id}`,
      max: hashesPerUser,
      windowMs: hashesWindowMs,
    };
    const verdict = await limiter.take([limit], now(), `${intent.network}:${hash.trim().toLowerCase()}`);
    if (verdict.ok) return undefined;
    log.warn({ ...intentLog(intent) }, 'sell hash refused by the per-user limit');
    return { status: 'refused', reason: 'too_many', hash, escalated: false };
  }

  async function reportHash(
    intentId: string,
    hash: string,
    opts: { push: boolean; source: string },
  ): Promise<SellUpdate> {
    const limited = await overHashLimit(intentId, hash);
    const update = limited ?? (await check(intentId, hash));
    log.info({ intentId, source: opts.source, status: update.status }, 'sell hash checked');
    if (opts.push) {
      const intent = await intents.get(intentId);
      if (intent) await deps.deliver(intent.user, { kind: 'sellUpdate', intentId, update });
    }
    return update;
  }

  async function push(intent: SellIntent, update: SellUpdate): Promise<void> {
    try {
      await deps.deliver(intent.user, { kind: 'sellUpdate', intentId: intent.id, update });
    } catch (err) {
      log.error(
        { ...intentLog(intent), err: (err as Error).message },
        'could not tell the user about the sell',
      );
    }
  }

  async function poll(intentId: string): Promise<{ next: number } | { done: true }> {
    let intent = await intents.get(intentId);
    if (!intent || finalStatuses.has(intent.status)) return { done: true };
    const t = now();
    // A cancelled Algorand sale is still watched until its link's expiry plus grace: a payment
    // already on its way when the user cancelled must be found and filed, not stranded.
    const stillWatched = intent.algorand !== undefined && t <= intent.expiresAt + graceMs;
    if (intent.status === 'cancelled' && intent.pending.length === 0 && !stillWatched) return { done: true };
    // A filing slot with no recorded order: a filing in progress, or one a dead process left.
    const slot = await intents.claimedBy(filingClaim(intent.id));
    if (intent.status === 'filing' || slot !== undefined) {
      const held = slot === undefined ? undefined : readFilingSlot(slot);
      const since = intent.status === 'filing' ? intent.updatedAt : held?.since;
      if (!staleSince(since, intent)) return { next: pollMs };
      const left = slot ?? (intent.hash ? filingSlot(intent.hash, intent.updatedAt) : undefined);
      if (left === undefined) {
        await intents.update(intent.id, (i) =>
          i.status === 'filing' ? { ...i, status: 'filing-unknown', updatedAt: t } : undefined,
        );
        await escalate({ reason: 'filing_unknown', intent });
        await push(intent, { status: 'uncertain', hash: '' });
        return { done: true };
      }
      const update = await recoverFiling(intent, left);
      if (update.status !== 'checking') await push(intent, update);
      return update.status === 'checking' ? { next: pollMs } : { done: true };
    }
    for (const p of intent.pending) {
      const update = await check(intent.id, p.hash);
      if (update.status !== 'checking') await push(intent, update);
      if (update.status === 'filed' || update.status === 'uncertain') return { done: true };
    }
    intent = (await intents.get(intentId))!;
    if (finalStatuses.has(intent.status)) return { done: true };
    if (intent.algorand && deps.algorand && t <= intent.expiresAt + graceMs) {
      try {
        const txId = await findPayment(deps.algorand.clients.indexer, {
          receiver: intent.algorand.receiver,
          assetId: BigInt(intent.algorand.assetId),
          note: intent.algorand.note,
          minRound: BigInt(intent.algorand.minRound),
          amount: BigInt(intent.totalUnits),
        });
        if (txId && !intent.refused.includes(txId) && !intent.pending.some((p) => p.hash === txId)) {
          const update = await check(intent.id, txId);
          await push(intent, update);
          if (update.status === 'filed' || update.status === 'uncertain') return { done: true };
        }
      } catch (err) {
        log.warn(
          { ...intentLog(intent), err: (err as Error).message },
          'indexer search failed; will try again',
        );
      }
    }
    intent = (await intents.get(intentId))!;
    if (finalStatuses.has(intent.status)) return { done: true };
    if (t > intent.expiresAt && intent.status === 'open' && !intent.expiredNoticeSent) {
      const expired = await intents.update(intent.id, (i) =>
        i.status === 'open' && !i.expiredNoticeSent
          ? { ...i, status: 'expired', expiredNoticeSent: true, updatedAt: t }
          : undefined,
      );
      if (expired?.status === 'expired' && intent.pending.length === 0)
        await push(intent, { status: 'expired' });
    }
    const active =
      intent.pending.length > 0 || (intent.algorand !== undefined && t <= intent.expiresAt + graceMs);
    if (!active)
      return t > intent.expiresAt ? { done: true } : { next: Math.max(1000, intent.expiresAt - t + 1000) };
    return { next: pollMs };
  }

  async function cancel(intentId: string): Promise<SellUpdate | undefined> {
    // A held filing slot means a hash was verified and is being (or was being) filed.
    if ((await intents.claimedBy(filingClaim(intentId))) !== undefined) return { status: 'cancel-too-late' };
    const after = await intents.update(intentId, (i) =>
      i.status === 'open' && i.pending.length === 0
        ? { ...i, status: 'cancelled', updatedAt: now() }
        : undefined,
    );
    if (after?.status === 'cancelled') return { status: 'cancelled' };
    if (after && filingStatuses.has(after.status)) return { status: 'cancel-too-late' };
    return undefined;
  }

  function evmRuntime(network: Network) {
    return evmBy.get(network);
  }

  async function evmCalls(intent: SellIntent, from: Address) {
    const runtime = evmBy.get(intent.network);
    const evm = intent.evm;
    if (!runtime || !evm) throw new SellUnavailableError('not an EVM sell');
    const token = intent.token.address as Address;
    const total = BigInt(intent.totalUnits);
    const fee = BigInt(intent.feeUnits);
    // A permit escrow is the legacy (v1) one: without a permit its deposit is the 4-input call.
    const variant = evm.escrowCall === 'current' ? 'current' : 'legacy';
    const withdraw = buildWithdrawCall({
      escrow: evm.escrow as Address,
      variant,
      token,
      total,
      fee,
      exchangeRate: variant === 'legacy' ? scaleExchangeRate(intent.exchangeRate) : undefined,
      tag: evm.tag as Hex,
    });
    const allowance = (await runtime.client.readContract({
      address: token,
      abi: [
        {
          type: 'function',
          name: 'allowance',
          stateMutability: 'view',
          inputs: [
            { name: 'owner', type: 'address' },
            { name: 'spender', type: 'address' },
          ],
          outputs: [{ name: '', type: 'uint256' }],
        },
      ],
      functionName: 'allowance',
      args: [from, evm.escrow as Address],
    })) as bigint;
    const approve = buildApproveCall({ token, spender: evm.escrow as Address, amount: total });
    return { approve, withdraw, allowance };
  }

  async function permitData(intent: SellIntent, owner: Address) {
    const runtime = evmBy.get(intent.network);
    const evm = intent.evm;
    if (!runtime || !evm) throw new SellUnavailableError('not an EVM sell');
    const token = intent.token.address as Address;
    const ctx = await readPermitContext(runtime.client, { token, owner });
    const deadline = BigInt(Math.floor(now() / 1000) + DEFAULT_PERMIT_TTL_SECONDS);
    const typed = buildPermitTypedData({
      chainId: evm.chainId,
      token,
      tokenName: ctx.tokenName,
      tokenVersion: ctx.tokenVersion,
      owner,
      spender: evm.escrow as Address,
      value: BigInt(intent.totalUnits),
      nonce: ctx.nonce,
      deadline,
    });
    const typedData = {
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        ...typed.types,
      },
      primaryType: typed.primaryType,
      domain: typed.domain,
      message: Object.fromEntries(
        Object.entries(typed.message).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]),
      ),
    };
    return { typedData, deadline: deadline.toString() };
  }

  function permitCall(intent: SellIntent, p: { signature: Hex; deadline: bigint }): EvmCall {
    const evm = intent.evm;
    if (!evm) throw new SellUnavailableError('not an EVM sell');
    return buildWithdrawWithPermitCall({
      escrow: evm.escrow as Address,
      token: intent.token.address as Address,
      total: BigInt(intent.totalUnits),
      fee: BigInt(intent.feeUnits),
      exchangeRate: scaleExchangeRate(intent.exchangeRate),
      deadline: p.deadline,
      signature: p.signature,
      tag: evm.tag as Hex,
    });
  }

  return {
    options,
    createIntent,
    reportHash,
    cancel,
    poll,
    linkOf,
    intentOf: (id) => intents.get(id),
    intentByLink: (token) => intents.byLink(token),
    evmCalls,
    permitData,
    permitCall,
    evmRuntime,
    linkAlive: (intent) => intent.status === 'open' && now() <= intent.expiresAt,
  };
}

/** The payout a verified deposit files, before it has an order id. */
function payoutOf(
  intent: SellIntent,
  hash: string,
  sender: string,
): Omit<TrackedOrder, 'orderId' | 'createdAt'> {
  return {
    side: 'offramp',
    user: intent.user,
    network: intent.network,
    walletAddress: sender,
    token: intent.token,
    amountKes: intent.amountKes,
    tokenAmount: intent.amount,
    phone: intent.phone,
    txHash: hash,
  };
}
