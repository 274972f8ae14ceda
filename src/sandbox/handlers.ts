/**
 * The endpoints' behaviour: each validates its body with zod and answers with the service's
 * documented bodies and texts (typos kept). Where the material shows no text, a plausible one is
 * written and marked as such. Quotes, tickets and history live in their own modules.
 */
import * as z from 'zod';
import { parseNetwork } from '../domain/networks.js';
import { offrampStatusData, onrampStatusData } from './bodies.js';
import {
  CURRENT_NETWORKS,
  CURRENT_TOKENS,
  kesRate,
  LEGACY_NETWORKS_TEXT,
  LEGACY_TOKENS,
  type SandboxToken,
} from './catalog.js';
import { ONRAMP_LIMITS, offrampFigures, onrampFigures } from './fees.js';
import { checkoutSessionId, releaseHash } from './ids.js';
import {
  ALGORAND_ADDRESS,
  amountLike,
  EVM_ADDRESS,
  type Handler,
  invalid,
  issuesText,
  isWallet,
  ok,
  optional,
  PHONE,
  phoneLike,
  refuse,
  textLike,
  tokenAt,
} from './kit.js';
import { hashKey } from './state.js';

export { offrampHistory, onrampHistory } from './history.js';
export type { Generation, Handler, HashCheck, Reply, VerifyOfframpHash } from './kit.js';
export { quote } from './quote.js';
export { offrampTicket, onrampTicket } from './tickets.js';

// ---------------------------------------------------------------- assets

export const assets: Handler = (env, req) => {
  const entry = (t: SandboxToken) => ({
    symbol: t.symbol,
    name: t.name,
    decimals: t.decimals,
    address: t.address,
  });
  if (req.generation === 'legacy') {
    const crypto: Record<string, unknown[]> = {};
    for (const t of LEGACY_TOKENS) crypto[t.key] = [...(crypto[t.key] ?? []), entry(t)];
    return ok({ networks: LEGACY_NETWORKS_TEXT.split(', '), fiat: ['KES'], crypto });
  }
  const crypto: Record<string, unknown[]> = {};
  for (const n of CURRENT_NETWORKS) crypto[n] = [];
  for (const t of [...CURRENT_TOKENS, ...env.extraTokens]) crypto[t.network]?.push(entry(t));
  // Unwrapped, as documented (reference §2.2).
  return ok({ networks: [...CURRENT_NETWORKS], fiat: ['KES', 'USD'], crypto });
};

// ---------------------------------------------------------------- on-ramp

const onrampBody = z.object({
  partyA: phoneLike,
  amount: amountLike,
  side: z.string(),
  userAddress: z.string().trim().min(1),
  tokenAddress: textLike,
});

export const createOnramp: Handler = (env, req) => {
  const parsed = onrampBody.safeParse(req.body);
  if (!parsed.success || parsed.data.side.toLowerCase() !== 'onramp' || !isWallet(parsed.data.userAddress)) {
    return refuse(400, 'Failed to record the onramp transaction order');
  }
  const b = parsed.data;
  if (!PHONE.test(b.partyA)) return refuse(400, 'Failed to initiate STK Push payment');
  const l = ONRAMP_LIMITS;
  if (b.amount < l.min || b.amount > l.max) {
    return invalid(
      'Amount out of range',
      `Amount must be between ${l.min} and ${l.max} KES (got ${b.amount} KES)`,
    );
  }
  const token = tokenAt(env, b.tokenAddress);
  const rate = kesRate(token, env.kesPerUsd);
  const order = env.state.addOnramp({
    phone: b.partyA,
    amountKes: b.amount,
    userAddress: b.userAddress,
    tokenAddress: b.tokenAddress,
    token,
    rate,
    feeKes: onrampFigures(b.amount, rate).feeKes,
    createdAt: Date.now(),
  });
  return ok({
    status: 'success',
    message: 'STK Push initiated successfully',
    data: { orderID: order.id, message: 'Success. Request accepted for processing' },
  });
};

export const onrampStatus: Handler = (env, req) => {
  const id = req.params.id ?? '';
  if (!id) return refuse(400, 'orderID is required');
  const order = env.state.onramp.get(id);
  if (!order) return refuse(404, `Transaction ${id} not found`);
  return ok({ status: 'success', data: onrampStatusData(env.state, order, req.generation) });
};

// ---------------------------------------------------------------- deposit (release)

const depositFields = z.object({
  chain: optional(z.string().trim()),
  address: z.string().trim().min(1),
  orderID: z.string().trim().min(1),
  project: optional(z.string()),
});

export const deposit: Handler = (env, req) => {
  const orderIdRaw = (req.body as { orderID?: unknown } | undefined)?.orderID;
  if (typeof orderIdRaw === 'string' && orderIdRaw.trim()) {
    const k = orderIdRaw.trim();
    env.state.depositCalls.set(k, (env.state.depositCalls.get(k) ?? 0) + 1);
  }
  const parsed = depositFields.safeParse(req.body);
  if (!parsed.success) return refuse(400, 'Missing required parameters: address or orderID');
  const b = parsed.data;
  const order = env.state.onramp.get(b.orderID);
  if (!order) return refuse(404, `No transaction found for orderID: ${b.orderID}`);
  const chain = parseNetwork(b.chain ?? '');
  if (!chain) return refuse(400, `Invalid chain: ${b.chain ?? ''}`);
  const status = env.state.statusOf(order);
  if (order.release) return refuse(400, `Transaction ${order.id} has already been processed`);
  if (status === 'PENDING')
    return refuse(400, `Transaction ${order.id}: STK push payment is being processed`);
  if (status !== 'SUCCESS') return refuse(400, `Transaction ${order.id}: Payment failed`);
  const wants = chain === 'algorand' ? ALGORAND_ADDRESS : EVM_ADDRESS;
  if (!wants.test(b.address)) {
    const name = chain.charAt(0).toUpperCase() + chain.slice(1);
    return refuse(400, `Failed to process ${name} transaction: invalid recipient address ${b.address}`);
  }
  const now = Date.now();
  order.release = { hash: releaseHash(order.id, chain), chain, address: b.address, at: now };
  return ok({
    status: 200,
    message: 'Transaction processed successfully',
    createdAt: new Date(order.createdAt).toISOString().replace(/\.\d{3}Z$/, '.000Z'),
    updatedAt: new Date(now).toISOString().replace(/\.\d{3}Z$/, '.000Z'),
    hash: order.release.hash,
  });
};

// ---------------------------------------------------------------- off-ramp

const offrampBody = z.object({
  chain: z.string().trim().min(1),
  hash: z.string().trim().min(1),
  partyB: phoneLike,
  tokenAddress: textLike,
  project: optional(z.string().trim()),
  userAddress: optional(z.string().trim()),
});

export const createOfframp: Handler = async (env, req) => {
  const b0 = (req.body ?? {}) as Record<string, unknown>;
  if (!b0.tokenAddress || !b0.hash || !b0.partyB) {
    return refuse(400, 'Missing required parameters: tokenAddress, hash, or phone number');
  }
  const parsed = offrampBody.safeParse(req.body);
  if (!parsed.success) return invalid('Validation failed', issuesText(parsed.error));
  const b = parsed.data;
  if (req.generation === 'current' && (!b.project || !b.userAddress)) {
    return refuse(400, 'Missing required parameters: project and userAddress'); // text undocumented
  }
  const chain = parseNetwork(b.chain);
  if (!chain) return refuse(400, `Unsupported blockchain: ${b.chain}`);
  if (!PHONE.test(b.partyB)) return refuse(400, 'Invalid phone number: expected 254 followed by 9 digits'); // undocumented
  const hashOk = chain === 'algorand' ? /^[A-Z2-7]{52}$/.test(b.hash) : /^0x[0-9a-fA-F]{64}$/.test(b.hash);
  if (!hashOk) {
    const len = chain === 'algorand' ? 52 : 66;
    return refuse(400, `Invalid transaction hash: expected ${len} characters on ${chain}`); // undocumented
  }
  const existing = env.state.hashes.get(hashKey(b.hash));
  if (existing) {
    return refuse(409, 'This blockchain transaction has already been processed', {
      data: { orderID: existing },
    });
  }
  const check = await env.verifyOfframpHash?.({
    chain,
    hash: b.hash,
    tokenAddress: b.tokenAddress,
    userAddress: b.userAddress,
  });
  const refusal = typeof check === 'string' ? check : check?.refusal;
  if (refusal) return refuse(400, refusal);
  // A check may have awaited: the same hash may have been filed meanwhile.
  const raced = env.state.hashes.get(hashKey(b.hash));
  if (raced) {
    return refuse(409, 'This blockchain transaction has already been processed', {
      data: { orderID: raced },
    });
  }
  const token = tokenAt(env, b.tokenAddress, chain);
  const rate = kesRate(token, env.kesPerUsd);
  const given = typeof check === 'object' && check?.amount !== undefined ? Number(check.amount) : undefined;
  const tokens =
    given !== undefined && Number.isFinite(given)
      ? given
      : (env.state.lastOfframpQuote.get(`${chain}:${token.symbol}`) ?? 100 / rate);
  const f = offrampFigures(tokens, rate);
  const order = env.state.addOfframp({
    phone: b.partyB,
    chain,
    hash: b.hash,
    tokenAddress: b.tokenAddress,
    token,
    rate,
    tokens,
    grossKes: f.grossKes,
    feeKes: f.feeKes,
    feeTokens: f.feeTokens,
    userAddress: b.userAddress,
    project: b.project,
    createdAt: Date.now(),
  });
  return ok({
    status: 'success',
    message: 'Withdrawal payment initiated successfully',
    data: { orderID: order.id },
  });
};

export const offrampStatus: Handler = (env, req) => {
  const id = req.params.id ?? '';
  if (!id) return refuse(400, 'orderID ID is required');
  const order = env.state.offramp.get(id);
  if (!order) return refuse(404, `Transaction with the following ${id} the not found`);
  return ok({ status: 'success', data: offrampStatusData(env.state, order) });
};

// ---------------------------------------------------------------- checkout

const checkoutRequest = z.object({
  amount: z.number().int().positive(),
  currency: z.string().trim().min(3).max(3),
  customer: z.object({ email: z.email(), phone: z.string().trim().min(1) }),
  metadata: z.object({ order_id: z.string().trim().min(1) }).loose(),
});

/**
 * The real checkout answer is undocumented; this one is a plausible session object (Stripe-like:
 * id, url, status, amount, currency, metadata).
 */
export const checkoutSession: Handler = (env, req) => {
  const parsed = checkoutRequest.safeParse(req.body);
  if (!parsed.success) return invalid('Validation failed', issuesText(parsed.error));
  const b = parsed.data;
  const id = checkoutSessionId();
  const now = Date.now();
  return ok(
    {
      id,
      object: 'checkout.session',
      url: `${env.origin}/checkout/${id}`,
      status: 'open',
      amount: b.amount,
      currency: b.currency.toUpperCase(),
      customer: b.customer,
      metadata: b.metadata,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + 30 * 60_000).toISOString(),
    },
    201,
  );
};
