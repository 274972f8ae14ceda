/**
 * The compact record: an order and its tracking state as one hash of small fields, so Redis keeps
 * the hash as a listpack (one allocation) while every value is at most 64 bytes (hash-max-listpack-
 * value) instead of a hashtable of JSON blobs. Order fields keep their names (`user.id`,
 * `token.address` for nested ones); the order id is the key's; state fields keep theirs, except
 * `final` (the final message guard's field), stored as `outcome` (JSON); counters at 0 and absent
 * values are left out. The timeline's entries are fields `ev:<n>` (n counting up, the newest
 * TIMELINE_MAX kept) with the last n in `events`.
 */
import type { TrackedOrder } from '../../flows/types.js';
import type { TrackingState } from './state.js';

/** The field every compact record has (a record of the previous layout has `order` instead). */
export const MARK_FIELD = 'createdAt';

const ORDER_NUMBERS = new Set(['amountKes', 'paidKes', 'createdAt', 'token.decimals']);
const ORDER_FIELDS = [
  'side',
  'user.channel',
  'user.id',
  'network',
  'walletAddress',
  'token.symbol',
  'token.address',
  'token.decimals',
  'amountKes',
  'paidKes',
  'tokenAmount',
  'phone',
  'createdAt',
  'txHash',
  'fee',
  'plan',
] as const;

const STATE_NUMBERS = ['polls', 'errorStreak', 'nextDueAt', 'reconcileAttempts'] as const;
const STATE_TEXTS = ['stage', 'status', 'lastError', 'receipt'] as const;
/** Every field the state may take (a save clears the ones it leaves out). */
export const STATE_FIELDS: readonly string[] = [...STATE_TEXTS, ...STATE_NUMBERS, 'outcome'];

const text = (v: unknown) => (v === undefined ? undefined : String(v));

/** The order's fields (the id is the key's). */
export function orderFields(order: TrackedOrder): Record<string, string> {
  const values: Record<(typeof ORDER_FIELDS)[number], unknown> = {
    side: order.side,
    'user.channel': order.user.channel,
    'user.id': order.user.id,
    network: order.network,
    walletAddress: order.walletAddress,
    'token.symbol': order.token.symbol,
    'token.address': order.token.address,
    'token.decimals': order.token.decimals,
    amountKes: order.amountKes,
    paidKes: order.paidKes,
    tokenAmount: order.tokenAmount,
    phone: order.phone,
    createdAt: order.createdAt,
    txHash: order.txHash,
    fee: order.fee,
    plan: order.plan,
  };
  return compact(values);
}

/** The state's fields: counters at 0 and absent values left out. */
export function stateFields(state: TrackingState): Record<string, string> {
  return compact({
    stage: state.stage,
    status: state.status,
    polls: state.polls || undefined,
    errorStreak: state.errorStreak || undefined,
    lastError: state.lastError,
    nextDueAt: state.nextDueAt,
    receipt: state.receipt,
    reconcileAttempts: state.reconcileAttempts || undefined,
    outcome: state.final === undefined ? undefined : JSON.stringify(state.final),
  });
}

function compact(values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) {
    const t = text(v);
    if (t !== undefined) out[k] = t;
  }
  return out;
}

const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));

/** The order as read back from its fields (validated by the caller). */
export function orderFromFields(orderId: string, f: Record<string, string>): unknown {
  const v = (k: (typeof ORDER_FIELDS)[number]) => (ORDER_NUMBERS.has(k) ? num(f[k]) : f[k]);
  return dropUndefined({
    orderId,
    side: v('side'),
    user: { channel: v('user.channel'), id: v('user.id') },
    network: v('network'),
    walletAddress: v('walletAddress'),
    token: { symbol: v('token.symbol'), address: v('token.address'), decimals: v('token.decimals') },
    amountKes: v('amountKes'),
    paidKes: v('paidKes'),
    tokenAmount: v('tokenAmount'),
    phone: v('phone'),
    createdAt: v('createdAt'),
    txHash: v('txHash'),
    fee: v('fee'),
    plan: v('plan'),
  });
}

/** The state as read back from its fields (validated by the caller); `outcome` that is not JSON throws. */
export function stateFromFields(f: Record<string, string>): unknown {
  const out: Record<string, unknown> = {};
  for (const k of STATE_TEXTS) out[k] = f[k];
  for (const k of STATE_NUMBERS) out[k] = num(f[k]);
  out.polls ??= 0;
  out.errorStreak ??= 0;
  out.reconcileAttempts ??= 0;
  if (f.outcome !== undefined) out.final = JSON.parse(f.outcome);
  return dropUndefined(out);
}

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** The timeline's entries in the hash, oldest first. */
export function eventEntries(f: Record<string, string>): string[] {
  return Object.keys(f)
    .filter((k) => /^ev:\d+$/.test(k))
    .map((k) => ({ n: Number(k.slice(3)), v: f[k] as string }))
    .sort((a, b) => a.n - b.n)
    .map((e) => e.v);
}

/** Alternating field and value, as HSET takes them. */
export const flatPairs = (fields: Record<string, string>) => Object.entries(fields).flat();
