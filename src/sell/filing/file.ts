/**
 * Filing the off-ramp order for a verified hash, by the one caller that holds the intent's filing
 * slot: `ramp.createOfframpOrder` with the phone bound at creation and the verified sender. A
 * duplicate answer maps to the existing order (support looks when it pays another phone); an answer
 * we never got leaves the filing held: once it is stale (recover.ts) the ramp's history is asked
 * and the order it lists is taken, else the same hash is filed again (the ramp files a hash once),
 * up to MAX_FILING_ATTEMPTS POSTs, after which it is `filing-unknown` and escalated; a refusal
 * after tokens moved escalates; a POST that surely never reached the ramp gives the slot back and
 * the hash waits for the watcher. The order is tracked before `filed` is recorded (see recover.ts).
 * A filing that may repeat an earlier POST (a stale filing taken over, a sale put back from the
 * journal after Redis came back empty) first looks the hash up in the ramp's history of the sender.
 */
import { surelyNotActedOn } from '../../engine/errors.js';
import type { SellUpdate, TrackedOrder } from '../../flows/types.js';
import {
  isRampError,
  RampDuplicateError,
  RampNotFoundError,
  RampValidationError,
} from '../../ramp/errors.js';
import { escalate, intentLog, type SellContext } from '../context.js';
import { filingClaim, type SellIntent } from '../intents/intents.js';
import {
  addPending,
  countFilingPost,
  markFiled,
  markFiling,
  markFilingUnknown,
  markRampRefused,
  reopen,
} from '../intents/lifecycle.js';

/** One verified deposit being filed: the intent, the hash, its sender and the filing slot held. */
interface Filing {
  intent: SellIntent;
  hash: string;
  sender: string;
  /** The exact value of the filing slot this call holds. */
  slot: string;
}

/**
 * Files the order for a verified hash whose filing slot this call holds (`slot`, its exact value).
 * `recovering`: re-filing after a dead process, so a duplicate answer is most likely our own order.
 */
export async function file(
  ctx: SellContext,
  intent: SellIntent,
  hash: string,
  sender: string,
  slot: string,
  recovering = false,
): Promise<SellUpdate> {
  // A cancel that got in first is told to the user with the filed outcome, a later one is "too late".
  const afterCancel = await markFiling(ctx, intent, hash, sender);
  if (afterCancel)
    ctx.log.info({ ...intentLog(intent), hash }, 'a payment arrived after the sale was cancelled');
  await ctx.deps.journal?.intent(payoutOf(intent, hash, sender));
  const f: Filing = { intent, hash, sender, slot };
  if (recovering || intent.recovered || (intent.hash === hash && (intent.filingAttempts ?? 0) > 0)) {
    // This hash may have been posted before (a POST whose answer was lost, a process or a Redis
    // gone since): the ramp's history is asked first, and an order it lists is the outcome.
    const found = await orderInHistory(ctx, intent, hash, sender);
    if (found === 'unreadable') return { status: 'checking', hash };
    if (found) return filed(ctx, f, found, false, afterCancel);
  }
  await countFilingPost(ctx, intent);
  try {
    const created = await ctx.ramp.createOfframpOrder({
      chain: intent.network,
      hash,
      phone: intent.phone,
      tokenAddress: intent.token.address,
      userAddress: sender,
      project: ctx.deps.project,
    });
    return await filed(ctx, f, created.orderId, false, afterCancel);
  } catch (err) {
    if (err instanceof RampDuplicateError) {
      const outcome = await filed(ctx, f, err.existingOrderId, !recovering, afterCancel);
      await checkDuplicatePhone(ctx, intent, hash, err.existingOrderId);
      return outcome;
    }
    return notFiled(ctx, f, err);
  }
}

/**
 * The order the ramp's off-ramp history of the sender lists for `hash`, if any; `unreadable` when the
 * history could not be read (the filing waits: nothing posts the hash again until it is known).
 */
async function orderInHistory(
  ctx: SellContext,
  intent: SellIntent,
  hash: string,
  sender: string,
): Promise<string | undefined | 'unreadable'> {
  try {
    const { records } = await ctx.ramp.getHistory('offramp', sender, { page: 1, limit: 50 });
    const spelled = intent.algorand ? hash.toUpperCase() : hash.toLowerCase();
    const record = records.find(
      (r) => r.orderId && (intent.algorand ? r.txHash?.toUpperCase() : r.txHash?.toLowerCase()) === spelled,
    );
    if (record?.orderId)
      ctx.log.warn(
        { ...intentLog(intent), hash, orderId: record.orderId },
        'a filing whose answer was lost is in the ramp history: mapped to that order, not posted again',
      );
    return record?.orderId;
  } catch (err) {
    if (err instanceof RampNotFoundError) return undefined;
    ctx.log.warn(
      { ...intentLog(intent), hash, err: (err as Error).message },
      'the ramp history could not be read before filing again; will look again',
    );
    return 'unreadable';
  }
}

/** The ramp did not give an order: refused, never reached, or unknown. */
async function notFiled(ctx: SellContext, f: Filing, err: unknown): Promise<SellUpdate> {
  const { intent, hash } = f;
  const detail = isRampError(err) ? `${err.kind}: ${err.message}` : String(err);
  if (err instanceof RampValidationError) {
    await markRampRefused(ctx, intent);
    ctx.log.error({ ...intentLog(intent), hash, detail }, 'the ramp refused a verified sell');
    await escalate(ctx, { reason: 'sell_refused', intent, hash, refusal: detail });
    return { status: 'refused', reason: 'ramp_refused', hash, escalated: true };
  }
  if (surelyNotActedOn(err)) {
    // Nothing reached the ramp: give the slot back and let the watcher try again.
    await ctx.intents.release(filingClaim(intent.id), f.slot);
    await reopen(ctx, intent);
    ctx.log.warn({ ...intentLog(intent), hash, detail }, 'filing the sell did not reach the ramp; retrying');
    await addPending(ctx, intent, hash);
    return { status: 'checking', hash };
  }
  const attempts = (await ctx.intents.get(intent.id))?.filingAttempts ?? 1;
  if (attempts < MAX_FILING_ATTEMPTS) {
    // The order may exist: the slot stays held, and once it is stale the watcher reconciles it
    // (history first, then the same hash again: never a second order). Noted outside Redis too, so
    // an emptied Redis does not lose the lookup (./doubted.ts).
    await ctx.deps.journal?.doubt?.(intent.id, hash, f.sender);
    ctx.log.warn(
      { ...intentLog(intent), hash, detail, attempts },
      "the ramp's answer to a filing was lost; it will be looked up in the ramp history, then filed again if absent",
    );
    await ctx.deps.schedule(intent.id, ctx.filingStaleMs + ctx.pollMs, 'poll');
    return { status: 'checking', hash };
  }
  await markFilingUnknown(ctx, intent);
  await escalate(ctx, { reason: 'filing_unknown', intent, hash, refusal: detail });
  // A sale put back after Redis came back empty: the seller hears it could not be restored.
  return { status: 'uncertain', hash, ...(intent.recovered ? { restored: true } : {}) };
}

/** Filing POSTs whose answer was lost before the sale goes to support. */
export const MAX_FILING_ATTEMPTS = 3;

/** Someone filed our verified hash first: if their payout goes to another phone, support must look. */
async function checkDuplicatePhone(
  ctx: SellContext,
  intent: SellIntent,
  hash: string,
  orderId: string,
): Promise<void> {
  try {
    const state = await ctx.ramp.getOfframpStatus(orderId);
    if (state.phone && state.phone !== intent.phone) {
      await escalate(ctx, {
        reason: 'sell_refused',
        intent,
        hash,
        refusal: `order ${orderId} pays another phone`,
      });
    }
  } catch (err) {
    ctx.log.warn(
      { ...intentLog(intent), orderId, err: (err as Error).message },
      'could not read the existing order',
    );
  }
}

async function filed(
  ctx: SellContext,
  f: Filing,
  orderId: string,
  existing: boolean,
  afterCancel = false,
): Promise<SellUpdate> {
  const { intent, hash, sender } = f;
  // Tracked first: a crash before `filed` is recorded leaves a stale `filing`, which re-files into
  // this same order and tracks it again (a no-op). A tracker that cannot start (Redis blinked) is
  // met the same way: `filing` stays, and the watcher re-files into this order and tracks it.
  if (!(await track(ctx, intent, orderId, hash, sender))) return { status: 'checking', hash };
  await markFiled(ctx, intent, { hash, sender, orderId });
  ctx.log.info({ ...intentLog(intent), orderId, existing }, 'sell order filed');
  return { status: 'filed', hash, orderId, existing, ...(afterCancel ? { afterCancel } : {}) };
}

async function track(
  ctx: SellContext,
  intent: SellIntent,
  orderId: string,
  hash: string,
  sender: string,
): Promise<boolean> {
  const tracker = ctx.deps.tracker;
  if (!tracker) {
    ctx.log.warn({ ...intentLog(intent), orderId }, 'no tracker: the payout will not be followed');
    return true;
  }
  const order: TrackedOrder = { ...payoutOf(intent, hash, sender), orderId, createdAt: ctx.now() };
  try {
    await tracker.track(order);
    return true;
  } catch (err) {
    ctx.log.error(
      { ...intentLog(intent), orderId, err: (err as Error).message },
      'could not start tracking the sell; the watcher files it again into the same order',
    );
    return false;
  }
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
    // What the seller sent, fee included: their history says "Sold <this> for <KES>", as a buy
    // says what they paid, fee included.
    tokenAmount: intent.total,
    // The fee within it, for the monthly statement (src/statements).
    feeToken: intent.fee,
    phone: intent.phone,
    txHash: hash,
  };
}
