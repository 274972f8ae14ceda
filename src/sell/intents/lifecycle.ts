/**
 * The life of a sell intent, in one place. Every change of `SellIntent.status` is one of the
 * transitions below, written by the function named in the last column; this file holds those writes
 * (each one atomic compare-and-set through `IntentStore.update`), the steps call them.
 *
 *  from                 event                                   to                     who (step -> write)
 *  -------------------  --------------------------------------  ---------------------  ---------------------
 *  (none)               the user confirms (sellCreateIntent)    open                   createIntent
 *  open (or expired,    hash not on chain, too few              (same), hash in        checkHash
 *  cancelled)           confirmations, or chain unreachable     pending                  -> addPending
 *  open, expired,       hash verified, hash claimed, filing     filing                 checkHash -> file
 *  cancelled, refused   slot claimed                                                     -> markFiling
 *  filing               the ramp answers an order id, or a      filed                  file -> markFiled
 *                       Duplicate (mapped to that order)
 *  filing               the POST surely never reached the ramp  open, hash in pending  file -> reopen
 *                                                               (slot released)
 *  filing               the ramp refuses the order              refused, escalated     file
 *                                                                                        -> markRampRefused
 *  filing               no answer from the ramp                 filing-unknown, esc.   file
 *                                                                                        -> markFilingUnknown
 *  filing, stale        the process died mid-filing             filing (same hash)     poll
 *                                                                                        -> recoverFiling
 *  filing, stale,       nothing to re-file                      filing-unknown, esc.   poll
 *  no slot nor hash                                                                      -> markLostFiling
 *  open, expired,       a pending hash still shallow past       refused, escalated     checkHash -> markRefused
 *  cancelled            expiry + grace (`horizon`)
 *  any                  tokens moved to us but not as bound     (same; the hash is     checkHash -> refuse
 *                       (wrong token, amount, sender, window),  listed as refused),
 *                       or a second verified hash (intent_used) escalated
 *  open                 the link expired (told once)            expired                poll -> markExpired
 *  open, no slot, no    the user cancels                        cancelled, nothing     cancel
 *  pending hash the                                             pending                  -> markCancelled
 *  chain knows
 *
 * Who drives the events: the flow's effects (src/sell/effects.ts: create, a hash pasted in chat,
 * cancel, the dev wallet), the signing page (src/signing: a reported hash) and the watcher
 * (src/sell/chain/watcher.ts -> `poll`: pending hashes, Algorand payments found by note, expiry, stale
 * filings).
 *
 * - Outside Redis, the journal notes the intent when its link is issued, each hash when first
 *   reported, and the sale's end (filed, told of its expiry, cancelled, escalated); after Redis came
 *   back empty, journaled.ts puts a sale it lost back (`open`, or `expired` past its link's expiry,
 *   `recovered`) with its hashes pending, and the steps above carry on from there. A filing that
 *   may repeat an earlier POST (taken over, or `recovered`) first looks in the ramp's history.
 * - A refusal only adds the hash to `refused` (status unchanged): a deposit that does not match the
 *   sale never ends it; the sale ends on the seller's word, its expiry, or its own deposit.
 * - `filed`, `filing-unknown` and `refused` are final: the watcher stops (`FINAL_STATUSES`).
 *   `expired` and `cancelled` are not: a payment already under way is still found and filed
 *   (the user is told it came after the cancel), never stranded.
 * - Two claims guard the money, both SET NX (src/sell/intents/intents.ts): `sellhash:<chain>:<hash>` (one
 *   intent per transaction, never released) and `sellfiling:<id>` (one filing per intent; released
 *   only when the ramp surely never saw the POST, or when a stale filing is taken over, or when
 *   the chain refuses the hash on the re-check of such a takeover).
 */
import type { SellUpdate } from '../../flows/types.js';
import { saleDoneKey } from '../../recovery/index.js';
import { escalate, intentLog, type SellContext } from '../context.js';
import type { SellRefusal } from '../flow/reasons.js';
import type { IntentStatus, SellIntent } from './intents.js';

/** The watcher stops looking at an intent in one of these. */
export const FINAL_STATUSES: ReadonlySet<IntentStatus> = new Set(['filed', 'filing-unknown', 'refused']);
/** A hash was verified and handed to the ramp (or is being): too late to cancel. */
export const FILING_STATUSES: ReadonlySet<IntentStatus> = new Set(['filing', 'filed', 'filing-unknown']);

/** Keeps a hash the chain cannot confirm yet (the last five) and asks the watcher to look again. */
export async function addPending(
  ctx: SellContext,
  intent: SellIntent,
  hash: string,
  unseen = false,
  quiet = false,
): Promise<void> {
  const { now } = ctx;
  await ctx.intents.update(intent.id, (i) =>
    i.pending.some((p) => p.hash === hash)
      ? undefined
      : {
          ...i,
          pending: keepPending([
            ...i.pending,
            { hash, since: now(), ...(unseen ? { unseen } : {}), ...(quiet ? { quiet } : {}) },
          ]),
          updatedAt: now(),
        },
  );
  await ctx.deps.schedule(intent.id, ctx.pollMs, 'poll');
}

/** At most this many hashes wait per intent. */
export const MAX_PENDING = 20;

/**
 * The pending hashes kept when there are too many: the oldest the chain did not know go first, so
 * junk pasted after a real deposit (one the chain knows, not yet deep enough) never pushes it out.
 */
function keepPending(pending: SellIntent['pending']): SellIntent['pending'] {
  const out = [...pending];
  while (out.length > MAX_PENDING) {
    const unseen = out.findIndex((p) => p.unseen);
    out.splice(Math.max(unseen, 0), 1);
  }
  return out;
}

/** Notes a refused hash (not checked again); `final` also moves the intent to `refused`. */
export async function markRefused(
  ctx: SellContext,
  intent: SellIntent,
  hash: string,
  final: boolean,
  refusal: SellRefusal,
): Promise<void> {
  await ctx.intents.update(intent.id, (i) => ({
    ...i,
    pending: i.pending.filter((p) => p.hash !== hash),
    refused: i.refused.includes(hash) ? i.refused : [...i.refused, hash].slice(-20),
    // A sale already filing or filed keeps its status and its hash: the refused one (a second
    // payment) is listed and handed to support, never written over the order that was filed.
    ...(final && !FILING_STATUSES.has(i.status) ? { status: 'refused' as const, hash, refusal } : {}),
    updatedAt: ctx.now(),
  }));
}

/**
 * Refuses a hash; the sale goes on. `escalateIt` (tokens moved to us, or the intent was used) hands
 * that payment to support, without ending the sale: a link holder's worthless deposit cannot end it.
 */
export async function refuse(
  ctx: SellContext,
  intent: SellIntent,
  hash: string,
  refusal: SellRefusal,
  detail: string,
  escalateIt: boolean,
): Promise<SellUpdate> {
  await markRefused(ctx, intent, hash, false, refusal);
  ctx.log.warn({ ...intentLog(intent), hash, refusal, detail }, 'sell transaction refused');
  if (escalateIt)
    await escalate(ctx, { reason: 'sell_refused', intent, hash, refusal: detail }, { endsSale: false });
  return { status: 'refused', reason: refusal, hash, escalated: escalateIt };
}

/**
 * Moves the intent to `filing` with the verified hash and sender. One atomic change orders this
 * against `cancel`: resolves true when a cancel got in first (the payment came after it).
 */
export async function markFiling(
  ctx: SellContext,
  intent: SellIntent,
  hash: string,
  sender: string,
): Promise<boolean> {
  let afterCancel = false;
  await ctx.intents.update(intent.id, (i) => {
    afterCancel = i.status === 'cancelled';
    return {
      ...i,
      status: 'filing',
      hash,
      sender,
      ...(i.hash === hash ? {} : { filingAttempts: 0 }),
      updatedAt: ctx.now(),
    };
  });
  return afterCancel;
}

/** One more filing POST for the intent's hash is about to be made. */
export async function countFilingPost(ctx: SellContext, intent: SellIntent): Promise<void> {
  await ctx.intents.update(intent.id, (i) => ({ ...i, filingAttempts: (i.filingAttempts ?? 0) + 1 }));
}

export async function markFiled(
  ctx: SellContext,
  intent: SellIntent,
  f: { hash: string; sender: string; orderId: string },
): Promise<void> {
  await ctx.intents.update(intent.id, (i) => ({
    ...i,
    status: 'filed',
    orderId: f.orderId,
    hash: f.hash,
    sender: f.sender,
    pending: [],
    updatedAt: ctx.now(),
  }));
  // Filed (its order is journaled too): recovery after an empty Redis leaves the sale alone.
  await ctx.deps.journal?.final(saleDoneKey(intent.id));
}

/** The ramp refused a verified deposit. */
export async function markRampRefused(ctx: SellContext, intent: SellIntent): Promise<void> {
  await ctx.intents.update(intent.id, (i) => ({
    ...i,
    status: 'refused',
    refusal: 'ramp_refused',
    updatedAt: ctx.now(),
  }));
}

/** The POST never reached the ramp: back to `open` (the caller releases the slot and re-pends the hash). */
export async function reopen(ctx: SellContext, intent: SellIntent): Promise<void> {
  await ctx.intents.update(intent.id, (i) => ({ ...i, status: 'open', updatedAt: ctx.now() }));
}

/** The ramp may or may not have the order: never re-filed blindly, support decides. */
export async function markFilingUnknown(ctx: SellContext, intent: SellIntent): Promise<void> {
  await ctx.intents.update(intent.id, (i) => ({ ...i, status: 'filing-unknown', updatedAt: ctx.now() }));
}

/** A stale `filing` with no slot and no hash: nothing can be re-filed. */
export async function markLostFiling(ctx: SellContext, intent: SellIntent, at: number): Promise<void> {
  await ctx.intents.update(intent.id, (i) =>
    i.status === 'filing' ? { ...i, status: 'filing-unknown', updatedAt: at } : undefined,
  );
}

/** An open intent past its link's expiry, once; resolves with what is stored afterwards. */
export function markExpired(ctx: SellContext, intent: SellIntent, at: number) {
  return ctx.intents.update(intent.id, (i) =>
    i.status === 'open' && !i.expiredNoticeSent
      ? { ...i, status: 'expired', expiredNoticeSent: true, updatedAt: at }
      : undefined,
  );
}

/**
 * An open intent whose pending hashes the chain does not show under way (the caller asked it):
 * cancelled, those hashes dropped (a deposit sent after all is still found by the escrow search or
 * the note search); resolves with what is stored afterwards.
 */
export function markCancelled(ctx: SellContext, intentId: string, checked: ReadonlySet<string>) {
  return ctx.intents.update(intentId, (i) =>
    i.status === 'open' && i.pending.every((p) => checked.has(p.hash))
      ? { ...i, status: 'cancelled', pending: [], updatedAt: ctx.now() }
      : undefined,
  );
}
