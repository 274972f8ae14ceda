/**
 * The endpoints' behaviour: each validates its body with zod and answers with the service's
 * documented bodies and texts (typos kept). Where the material shows no text, a plausible one is
 * written and marked as such.
 */
import { z } from 'zod';
import { parseNetwork } from '../domain/networks.js';
import type { FeeCategory, Network } from '../domain/types.js';
import {
  CURRENT_NETWORKS,
  CURRENT_NETWORKS_TEXT,
  CURRENT_TOKENS,
  kesRate,
  LEGACY_NETWORKS,
  LEGACY_NETWORKS_TEXT,
  LEGACY_TOKENS,
  type SandboxToken,
} from './catalog.js';
import { OFFRAMP_LIMITS, ONRAMP_LIMITS, offrampFigures, onrampFigures, tokensForFiat } from './fees.js';
import { checkoutSessionId, objectId, releaseHash } from './ids.js';
import { hashKey, type SandboxState, type TicketRecord } from './state.js';

export type Generation = 'current' | 'legacy';

export interface Reply {
  status: number;
  body: unknown;
}

export interface HashCheck {
  chain: string;
  hash: string;
  tokenAddress: string;
  userAddress?: string;
}

/**
 * A refusal text, or undefined when the transfer is fine. May also return `{ amount }` (tokens sent,
 * excluding the fee) so the payout reflects the real transfer.
 */
export type VerifyOfframpHash = (
  o: HashCheck,
) => Promise<string | undefined | { refusal?: string; amount?: string }>;

export interface HandlerEnv {
  state: SandboxState;
  kesPerUsd: number;
  extraTokens: SandboxToken[];
  verifyOfframpHash?: VerifyOfframpHash;
  origin: string;
}

export interface Req {
  generation: Generation;
  body: unknown;
  params: Record<string, string>;
  query: URLSearchParams;
}

export type Handler = (env: HandlerEnv, req: Req) => Promise<Reply> | Reply;

const ok = (body: unknown, status = 200): Reply => ({ status, body });
const refuse = (status: number, message: string, extra?: object): Reply => ({
  status,
  body: { status: 'error', message, ...extra },
});
/** The validation shape `{statusCode, message, error}`. */
const invalid = (message: string, error: string): Reply => ({
  status: 400,
  body: { statusCode: 400, message, error },
});

const NUMERIC = /^\s*\d+(\.\d+)?\s*$/;
const amountLike = z.union([
  z.number().finite().nonnegative(),
  z
    .string()
    .regex(NUMERIC)
    .transform((s) => Number(s)),
]);
const textLike = z.union([z.string().trim().min(1), z.number().finite().transform(String)]);
const phoneLike = z.union([z.string().trim(), z.number().int().transform(String)]);
const PHONE = /^254\d{9}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ALGORAND_ADDRESS = /^[A-Z2-7]{58}$/;
const isWallet = (a: string) => EVM_ADDRESS.test(a) || ALGORAND_ADDRESS.test(a);

const issuesText = (e: z.ZodError) =>
  e.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');

/** Tokens a network accepts in a generation (legacy also accepts the current list). */
function tokensOf(env: HandlerEnv, network: Network): SandboxToken[] {
  return [...env.extraTokens, ...CURRENT_TOKENS, ...LEGACY_TOKENS].filter((t) => t.network === network);
}

/** The token at an address; an unknown address is priced as a USD stablecoin named USDT. */
function tokenAt(env: HandlerEnv, address: string, network?: Network): SandboxToken {
  const all = [...env.extraTokens, ...CURRENT_TOKENS, ...LEGACY_TOKENS];
  const a = address.toLowerCase();
  const found =
    all.find((t) => t.address.toLowerCase() === a && (!network || t.network === network)) ??
    (a === '0x0000000000000000000000000000000000000000'
      ? undefined
      : all.find((t) => t.address.toLowerCase() === a));
  return (
    found ?? { network: network ?? 'polygon', symbol: 'USDT', name: 'Token', decimals: 6, address, usd: 1 }
  );
}

// ---------------------------------------------------------------- quotes

const quoteBody = z.object({
  type: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(['onramp', 'offramp'])),
  amount: amountLike.optional(),
  fiatAmount: amountLike.optional(),
  fiatCurrency: z.string().trim().min(1),
  cryptoCurrency: z.string().trim().min(1),
  network: z.string().trim().min(1),
  category: z
    .preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(['B2C', 'B2B']))
    .optional(),
});

export const quote: Handler = (env, req) => {
  const parsed = quoteBody.safeParse(req.body);
  if (!parsed.success) return invalid('Validation failed', issuesText(parsed.error));
  const b = parsed.data;
  const supported = req.generation === 'legacy' ? LEGACY_NETWORKS : CURRENT_NETWORKS;
  const network = parseNetwork(b.network);
  if (!network || !supported.includes(network)) {
    const list = req.generation === 'legacy' ? LEGACY_NETWORKS_TEXT : CURRENT_NETWORKS_TEXT;
    return invalid('Invalid network', `Unsupported network. Supported networks: ${list}`);
  }
  if (b.fiatCurrency.toUpperCase() !== 'KES') {
    return invalid('Invalid currency', `Unsupported fiat currency: ${b.fiatCurrency}. Supported: KES`); // text undocumented
  }
  const candidates = tokensOf(env, network);
  const token = candidates.find((t) => t.symbol.toLowerCase() === b.cryptoCurrency.toLowerCase());
  if (!token) {
    const list = [...new Set(candidates.map((t) => t.symbol))].join(', ');
    return invalid(
      'Invalid token',
      `Unsupported token ${b.cryptoCurrency} on ${network}. Supported tokens: ${list}`,
    ); // undocumented
  }
  const category: FeeCategory = b.category ?? 'B2C';
  const rate = kesRate(token, env.kesPerUsd);
  const legacy = req.generation === 'legacy';

  if (b.type === 'onramp') {
    if (b.amount === undefined) return invalid('Validation failed', 'amount is required for onramp quotes');
    const l = ONRAMP_LIMITS;
    if (b.amount < l.min || b.amount > l.max) {
      return invalid(
        'Amount out of range',
        `Amount must be between ${l.min} and ${l.max} KES (got ${b.amount} KES)`,
      );
    }
    const f = onrampFigures(b.amount, rate, category);
    const common = {
      inputAmount: String(b.amount),
      outputAmount: f.outputAmount,
      inputCurrency: 'KES',
      outputCurrency: token.symbol,
      exchangeRate: rate,
      type: 'onramp',
      network,
    };
    const fee = legacy
      ? {
          amount: f.feeKes / rate,
          currency: token.symbol,
          details: { feeInKES: f.feeKes, estimatedOutputKES: f.estimatedOutputKes },
        }
      : { feeInKES: f.feeKes, estimatedOutputKES: f.estimatedOutputKes };
    return ok({
      statusCode: 200,
      message: 'Quote retrieved successfully',
      data: { ...common, fee, ...(legacy ? {} : { limits: l }) },
    });
  }

  let tokensText: string;
  if (b.fiatAmount !== undefined && !legacy) tokensText = tokensForFiat(b.fiatAmount, rate, category);
  else if (b.amount !== undefined)
    tokensText = String(req.body && (req.body as { amount: unknown }).amount).trim();
  else
    return invalid('Validation failed', 'amount (tokens) or fiatAmount (KES) is required for offramp quotes');
  const tokens = Number(tokensText);
  const f = offrampFigures(tokens, rate, category);
  const l = OFFRAMP_LIMITS;
  const grossCents = Math.round(f.grossKes * 100) / 100;
  if (grossCents < l.min || grossCents > l.max) {
    return invalid(
      'Amount out of range',
      `Amount must be between ${l.min} and ${l.max} KES (got ${f.grossKes.toFixed(2)} KES)`,
    );
  }
  env.state.lastOfframpQuote.set(`${network}:${token.symbol}`, tokens);
  const data = legacy
    ? {
        inputAmount: tokensText,
        outputAmount: Number(f.outputAmount),
        inputCurrency: token.symbol,
        outputCurrency: 'KES',
        exchangeRate: rate,
        type: 'offramp',
        network,
        fee: {
          amount: Number(f.feeTokens),
          currency: token.symbol,
          details: { feeInKES: f.feeKes, estimatedOutputKES: f.estimatedOutputKes },
        },
      }
    : {
        inputAmount: tokensText,
        outputAmount: f.outputAmount,
        inputCurrency: token.symbol,
        outputCurrency: 'KES',
        exchangeRate: rate,
        type: 'offramp',
        network,
        fee: {
          amount: f.feeTokens,
          feeInInputCurrency: f.feeTokens,
          currency: token.symbol,
          feeInOutputCurrency: f.feeKes,
          estimatedOutputKES: f.estimatedOutputKes,
          decimals: token.decimals,
        },
        limits: l,
      };
  return ok({ statusCode: 200, message: 'Quote retrieved successfully', data });
};

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
  return ok({ status: 'success', data: env.state.onrampStatusData(order, req.generation) });
};

// ---------------------------------------------------------------- deposit (release)

const depositFields = z.object({
  chain: z.string().trim().optional(),
  address: z.string().trim().min(1),
  orderID: z.string().trim().min(1),
  project: z.string().optional(),
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
  project: z.string().trim().min(1).optional(),
  userAddress: z.string().trim().min(1).optional(),
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
  return ok({ status: 'success', data: env.state.offrampStatusData(order) });
};

// ---------------------------------------------------------------- tickets

const byOrderBody = z.object({
  orderID: z.string().trim().min(1),
  description: z.string().trim().min(1, 'Path `Description` is required.'),
  symbol: z.string().trim().min(1).optional(),
  chain: z.string().trim().min(1).optional(),
});

const manualBody = z.object({
  phone: phoneLike.pipe(z.string().min(1)),
  amount: amountLike,
  description: z.string().trim().min(1),
  side: z.enum(['off-ramp', 'on-ramp']).default('off-ramp'),
  userAddress: z.string().trim().min(1),
  symbol: z.string().trim().min(1),
  tokenAddress: textLike,
  chain: z.string().trim().min(1),
});

const ALL_INPUTS =
  'Please provide all required inputs: phone, amount, description, side, userAddress, symbol, tokenAddress, and chain';

function fileTicket(env: HandlerEnv, t: Omit<TicketRecord, '_id' | 'createdAt'>): Reply {
  const now = Date.now();
  const record: TicketRecord = { ...t, _id: objectId(now), createdAt: new Date(now).toISOString() };
  env.state.tickets.push(record);
  const { orderID: _, ...refund } = record;
  return ok({ status: 'success', data: { refund } });
}

function ticketByOrder(env: HandlerEnv, side: 'onramp' | 'offramp', body: unknown): Reply {
  const parsed = byOrderBody.safeParse(body);
  if (!parsed.success) return refuse(400, `ValidationError: ${issuesText(parsed.error)}`);
  const b = parsed.data;
  if (side === 'offramp') {
    const text = 'No failed or pending transaction found with this orderID';
    const o = env.state.offramp.get(b.orderID);
    if (!o) return refuse(404, text);
    if (env.state.statusOf(o) === 'SUCCESS') return refuse(400, text);
    return fileTicket(env, {
      PhoneNumber: o.phone,
      Amount: String(o.tokens),
      Description: b.description,
      Side: 'off-ramp',
      userAddress: o.userAddress ?? '',
      symbol: b.symbol ?? o.token.symbol,
      tokenAddress: o.tokenAddress,
      chain: b.chain ?? o.chain,
      orderID: o.id,
    });
  }
  const text = 'No failed transaction found with this orderID';
  const o = env.state.onramp.get(b.orderID);
  if (!o) return refuse(404, text);
  const s = env.state.statusOf(o);
  if (s !== 'FAILED' && s !== 'CANCELLED') return refuse(400, text);
  return fileTicket(env, {
    PhoneNumber: o.phone,
    Amount: String(o.amountKes),
    Description: b.description,
    Side: 'on-ramp',
    userAddress: o.userAddress,
    symbol: b.symbol ?? o.token.symbol,
    tokenAddress: o.tokenAddress,
    chain: b.chain ?? o.token.network,
    orderID: o.id,
  });
}

export const offrampTicket: Handler = (env, req) => {
  const b = (req.body ?? {}) as Record<string, unknown>;
  if (b.orderID !== undefined) return ticketByOrder(env, 'offramp', req.body);
  const parsed = manualBody.safeParse(req.body);
  if (!parsed.success) return refuse(400, ALL_INPUTS);
  const m = parsed.data;
  return fileTicket(env, {
    PhoneNumber: m.phone,
    Amount: String(m.amount),
    Description: m.description,
    Side: m.side,
    userAddress: m.userAddress,
    symbol: m.symbol,
    tokenAddress: m.tokenAddress,
    chain: m.chain,
  });
};

export const onrampTicket: Handler = (env, req) => ticketByOrder(env, 'onramp', req.body);

// ---------------------------------------------------------------- history

function page(query: URLSearchParams): { page: number; limit: number } {
  const int = (v: string | null, def: number, max: number) => {
    const n = Number(v);
    return v !== null && Number.isInteger(n) && n >= 1 ? Math.min(n, max) : def;
  };
  return { page: int(query.get('page'), 1, 1_000_000), limit: int(query.get('limit'), 10, 100) };
}

function paginate<T>(all: T[], query: URLSearchParams, message: string): Reply {
  const { page: p, limit } = page(query);
  return ok({
    status: 200,
    message,
    data: all.slice((p - 1) * limit, p * limit),
    pagination: { currentPage: p, limit, totalPages: Math.ceil(all.length / limit), totalCount: all.length },
  });
}

const sameAddress = (a: string | undefined, b: string) =>
  a !== undefined && a.toLowerCase() === b.toLowerCase();

export const onrampHistory: Handler = (env, req) => {
  const address = req.params.address ?? '';
  const orders = [...env.state.onramp.values()]
    .filter((o) => sameAddress(o.userAddress, address))
    .sort((a, b) => b.createdAt - a.createdAt);
  if (!orders.length) return refuse(404, 'No transactions found for the given user address');
  return paginate(
    orders.map((o) => env.state.onrampRecord(o)),
    req.query,
    'Transactions retrieved successfully (sorted from latest to oldest)',
  );
};

export const offrampHistory: Handler = (env, req) => {
  const address = req.params.address ?? '';
  const orders = [...env.state.offramp.values()]
    .filter((o) => sameAddress(o.userAddress, address))
    .sort((a, b) => b.createdAt - a.createdAt);
  if (!orders.length) return refuse(404, 'No B2C transactions found for the given user address.');
  return paginate(
    orders.map((o) => env.state.offrampRecord(o)),
    req.query,
    'B2C transactions retrieved successfully (sorted from latest to oldest)',
  );
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
