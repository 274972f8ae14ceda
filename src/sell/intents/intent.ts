/**
 * Creating an intent: when the user confirms, the request from the flow is checked and bound (phone,
 * wallet, token, total and fee in base units, the EVM tag or Algorand note, the time window) into one
 * `open` intent per flow instance (`key`, so a double Confirm gets the same link), and its signing
 * link is made. Nothing reported later changes the bound fields.
 */
import { randomBytes } from 'node:crypto';
import { zeroAddress } from 'viem';
import * as z from 'zod';
import {
  buildPaymentRequest,
  checkSenderReady,
  currentRound,
  newSellNote,
} from '../../chains/algorand/index.js';
import { findEvmToken, newSellTag } from '../../chains/evm/index.js';
import type { Locale, UserRef } from '../../chat/types.js';
import { normalizeWalletAddress } from '../../domain/address.js';
import type { SellIntentRequest, SellLink } from '../../flows/types.js';
import { RateLimitedError } from '../../limits/index.js';
import { intentLog, type SellContext, SellUnavailableError } from '../context.js';
import type { SellIntent } from './intents.js';
import { fromBaseUnits, toBaseUnits } from './units.js';

const linkTokenOf = () => randomBytes(24).toString('base64url');
const intentIdOf = () => randomBytes(16).toString('hex');

const requestSchema = z.object({
  network: z.enum(['polygon', 'lisk', 'celo', 'base', 'scroll', 'algorand']),
  token: z.object({ symbol: z.string().min(1), address: z.string(), decimals: z.number().int().min(0) }),
  total: z.string().regex(/^\d*\.?\d+$/),
  fee: z.string().regex(/^\d*\.?\d*$/),
  amountKes: z.number().nonnegative(),
  exchangeRate: z.number().positive(),
  phone: z.string().regex(/^254[17]\d{8}$/),
  wallet: z.string().optional(),
});
type Request = z.infer<typeof requestSchema>;

/** The fields every new intent has, whatever its chain. */
type IntentBase = Omit<
  SellIntent,
  'id' | 'linkToken' | 'token' | 'amount' | 'fee' | 'total' | 'totalUnits' | 'feeUnits' | 'wallet'
>;

/** How to make the intent once its id is known, and why the named Algorand sender cannot pay yet. */
interface Binding {
  make: (id: string) => SellIntent;
  senderProblem?: SellLink['senderProblem'];
}

/** Creates (once per `key`) the open intent for a confirmed sale and answers with its signing link. */
export async function createIntent(
  ctx: SellContext,
  user: UserRef,
  locale: Locale,
  key: string,
  raw: SellIntentRequest,
): Promise<SellLink> {
  const request = requestSchema.parse(raw);
  const createdAt = ctx.now();
  await takeLinkLimit(ctx, user, key, createdAt);
  const base: IntentBase = {
    key,
    user,
    locale,
    network: request.network,
    amountKes: request.amountKes,
    exchangeRate: request.exchangeRate,
    phone: request.phone,
    createdAt,
    expiresAt: createdAt + ctx.deps.linkTtlMs,
    status: 'open' as const,
    pending: [],
    refused: [],
    updatedAt: createdAt,
  };
  const { make, senderProblem } =
    request.network === 'algorand' ? await bindAlgorand(ctx, request, base) : bindEvm(ctx, request, base);
  const { intent, created } = await ctx.intents.createOnce(key, () => make(intentIdOf()));
  if (created) {
    // Outside Redis before the link goes out: until the sale is filed, Redis alone would know it.
    await ctx.deps.journal?.sale(intent);
    ctx.log.info(
      { ...intentLog(intent), expiresAt: new Date(intent.expiresAt).toISOString() },
      'sell intent created',
    );
    // Algorand payments are looked for by note at the poll cadence; EVM deposits nobody reported in
    // the escrow at the search cadence (../chain/watch.ts).
    if (intent.algorand) await ctx.deps.schedule(intent.id, ctx.pollMs, 'poll');
    if (intent.evm) await ctx.deps.schedule(intent.id, ctx.searchMs, 'search');
    await ctx.deps.schedule(intent.id, intent.expiresAt - ctx.now(), 'expiry');
  }
  const link = linkOf(ctx, intent);
  return senderProblem ? { ...link, senderProblem } : link;
}

/** Counts the link against the user's limit; throws RateLimitedError when over it. */
async function takeLinkLimit(ctx: SellContext, user: UserRef, key: string, at: number): Promise<void> {
  if (!ctx.deps.limits) return;
  const { limiter, linksPerUser, linksWindowMs } = ctx.deps.limits;
  const limit = {
    key: `sell-links:${user.channel}:${user.id}`,
    max: linksPerUser,
    windowMs: linksWindowMs,
  };
  // Named by the flow's key: a double Confirm returns the same link and counts once.
  const verdict = await limiter.take([limit], at, key);
  if (!verdict.ok) throw new RateLimitedError('signing-links', verdict.retryAt);
}

/**
 * Total, fee and the rest in the token's units, as both decimal text and base units. The total is
 * what the ramp quoted for the sale (its `inputAmount`, fee included): exactly what the seller is
 * shown and sends, the escrow's `_amount`; the fee is the part of it the escrow's `_feeAmount` names.
 */
export function amountsOf(request: Pick<Request, 'total' | 'fee'>, decimals: number) {
  const totalUnits = toBaseUnits(request.total, decimals);
  const feeUnits = toBaseUnits(request.fee || '0', decimals);
  if (feeUnits > totalUnits) throw new SellUnavailableError('the quoted fee exceeds the quoted amount');
  const amountUnits = totalUnits - feeUnits;
  return {
    amount: fromBaseUnits(amountUnits, decimals),
    fee: fromBaseUnits(feeUnits, decimals),
    total: fromBaseUnits(totalUnits, decimals),
    totalUnits,
    feeUnits,
  };
}

/** Algorand: USDC to the service wallet with a note naming the intent, from the current round on. */
async function bindAlgorand(ctx: SellContext, request: Request, base: IntentBase): Promise<Binding> {
  const algorand = ctx.deps.algorand;
  if (!algorand) throw new SellUnavailableError('selling on Algorand is not enabled');
  const decimals = 6;
  const { totalUnits, feeUnits, ...amounts } = amountsOf(request, decimals);
  const wallet = request.wallet ? normalizeWalletAddress('algorand', request.wallet) : undefined;
  if (request.wallet && !wallet) throw new SellUnavailableError('not an Algorand address');
  const minRound = await currentRound(algorand.clients.algod);
  let senderProblem: SellLink['senderProblem'];
  if (wallet) {
    const check = await checkSenderReady(algorand.clients.algod, {
      address: wallet,
      assetId: algorand.config.usdcAssetId,
      minFeeMicroAlgo: algorand.config.minFeeBalanceMicroAlgo,
      amountBaseUnits: totalUnits,
    });
    if (!check.ok && check.reason !== 'invalid_address') senderProblem = check.reason;
  }
  const make = (id: string): SellIntent => ({
    ...base,
    id,
    linkToken: linkTokenOf(),
    token: { symbol: 'USDC', address: String(algorand.config.usdcAssetId), decimals },
    ...amounts,
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
  return { make, senderProblem };
}

/** EVM: the configured token into the network's escrow, with a fresh tag naming the intent. */
function bindEvm(ctx: SellContext, request: Request, base: IntentBase): Binding {
  const runtime = ctx.evmBy.get(request.network);
  if (!runtime) throw new SellUnavailableError(`selling on ${request.network} is not configured`);
  const token = findEvmToken(runtime.config, request.token.symbol);
  if (!token || token.address === zeroAddress) {
    throw new SellUnavailableError(`${request.token.symbol} is not configured on ${request.network}`);
  }
  const { totalUnits, feeUnits, ...amounts } = amountsOf(request, token.decimals);
  const wallet = request.wallet ? normalizeWalletAddress(request.network, request.wallet) : undefined;
  if (request.wallet && !wallet) throw new SellUnavailableError('not a wallet address');
  const make = (id: string): SellIntent => ({
    ...base,
    id,
    linkToken: linkTokenOf(),
    token: { symbol: token.symbol, address: token.address, decimals: token.decimals },
    ...amounts,
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
  return { make };
}

/** The signing link of an intent: the page, wallet deep links (https only), the Algorand payment request. */
export function linkOf(ctx: SellContext, intent: SellIntent): SellLink {
  // A sale put back from the journal has no token here (the seller's chat still holds the link).
  const signUrl = `${ctx.deps.publicUrl}/sign/${intent.linkToken ?? ''}`;
  const https = signUrl.startsWith('https://');
  const link: SellLink = { intentId: intent.id, expiresAt: intent.expiresAt, total: intent.total, signUrl };
  if (intent.evm && https) {
    link.metamaskUrl = `https://metamask.app.link/dapp/${signUrl.slice('https://'.length)}`;
    link.trustUrl = `https://link.trustwallet.com/open_url?coin_id=60&url=${encodeURIComponent(signUrl)}`;
  }
  // The dev wallet sends from its own account: a sale bound to the user's wallet ("only from my
  // wallet") would refuse it, so the button is not offered there.
  const local = intent.evm?.local || (intent.algorand && ctx.deps.algorand?.local);
  if (local && !intent.wallet) link.devSign = true;
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

/** True while the page may still be used. */
export const linkAlive = (ctx: SellContext, intent: SellIntent): boolean =>
  intent.status === 'open' && ctx.now() <= intent.expiresAt;
