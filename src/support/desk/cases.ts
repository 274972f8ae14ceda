/**
 * Finding, opening and reopening cases. A user has one case per order and one without an order
 * (a slot each); a closed case reopens when they come back about it within the reopen window,
 * otherwise a new case takes the slot. Slots are swapped compare-and-set, so two requests at once
 * end in one case. A store failure is thrown so the caller retries or reports it.
 */
import { randomBytes } from 'node:crypto';
import type { Locale, UserRef } from '../../chat/types.js';
import { sideOfOrder } from '../../domain/order-id.js';
import { normalizeKenyanPhone } from '../../domain/phone.js';
import { type CaseReason, type SupportCase, withEvent } from '../case/case.js';
import type { CaseSlot } from '../case/store.js';
import { takeSupportLimit } from '../limits.js';
import { mirror, rename } from './case-topic.js';
import { actor, caseLog, type DeskContext, describe, t } from './context.js';
import type { CaseStatus, FoundCase } from './types.js';

/** `S-k3j9d-7QX2`: short enough to read out, random enough not to collide. */
export function newCaseId(now: number): string {
  const tail = randomBytes(3)
    .toString('base64url')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, 'X');
  return `S-${now.toString(36).slice(-5)}-${tail}`;
}

/** What a request knows about the case's order and user. */
export type Seed = Partial<
  Pick<
    SupportCase,
    | 'phone'
    | 'network'
    | 'wallet'
    | 'amountKes'
    | 'tokenAmount'
    | 'symbol'
    | 'lastStatus'
    | 'lastError'
    | 'receipt'
    | 'txHash'
    | 'side'
    | 'userLocale'
  >
>;

/** Facts fill in what the case lacks; newer tracker facts (status, error, receipt, hash) win. */
export function merge(c: SupportCase, seed: Seed): SupportCase {
  const out: SupportCase = { ...c };
  for (const [k, v] of Object.entries(seed) as Array<[keyof Seed, unknown]>) {
    if (v === undefined || v === '') continue;
    const fresh =
      k === 'lastStatus' || k === 'lastError' || k === 'receipt' || k === 'txHash' || k === 'userLocale';
    if (fresh || out[k] === undefined) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** True unless the order is known not to be one this user made through rampchat. */
export async function owns(ctx: DeskContext, user: UserRef, orderId: string): Promise<boolean> {
  if (!ctx.ownerOf) return true;
  const owner = await ctx.ownerOf(orderId);
  return owner?.channel === user.channel && owner.id === user.id;
}

/** The phone a request names, else a WhatsApp user's own number. */
export const phoneOf = (user: UserRef, phone?: string) =>
  phone ?? (user.channel === 'whatsapp' ? normalizeKenyanPhone(user.id) : undefined);

/** Reopens the slot's closed case (within the window) as the user's last; undefined when it is gone. */
async function reopenInSlot(
  ctx: DeskContext,
  user: UserRef,
  id: string,
  seed: Seed,
  by: string,
  at: number,
): Promise<FoundCase | undefined> {
  let reopened = false;
  const updated = await ctx.store.update(id, (c) => {
    reopened = c.status === 'closed';
    if (!reopened) return merge(c, seed);
    return withEvent(merge({ ...c, status: 'open', closedAt: undefined }, seed), {
      at,
      kind: 'reopened',
      by,
    });
  });
  if (!updated) return undefined;
  await ctx.store.setLast(user, id);
  ctx.log.info({ ...caseLog(updated), by }, 'support case reopened');
  return { case: updated, status: reopened ? 'reopened' : 'existing' };
}

/** The user's case in a slot: open as is, reopened within the window, or a new one. */
export async function caseFor(
  ctx: DeskContext,
  user: UserRef,
  orderId: string | undefined,
  reason: CaseReason,
  seed: Seed,
  by: string,
): Promise<FoundCase> {
  const { store } = ctx;
  const slot: CaseSlot = orderId ? { kind: 'order', orderId } : { kind: 'general' };
  for (let attempt = 0; attempt < 5; attempt++) {
    const at = ctx.now();
    const id = await store.slot(user, slot);
    const existing = id ? await store.get(id) : undefined;
    if (existing && id) {
      if (existing.status === 'open') {
        const updated = (await store.update(id, (c) => merge(c, seed))) ?? existing;
        await store.setLast(user, id);
        return { case: updated, status: 'existing' };
      }
      if (at - (existing.closedAt ?? 0) <= ctx.reopenWindowMs) {
        const found = await reopenInSlot(ctx, user, id, seed, by, at);
        if (!found) continue;
        return found;
      }
    }
    // A new case the user asked for costs a topic and an agent's time: limited per user (once per slot).
    if (by === 'user') await takeSupportLimit(ctx, 'cases', user, `case:${orderId ?? 'general'}`);
    const foreign = orderId !== undefined && reason === 'user' && !(await owns(ctx, user, orderId));
    const fresh: SupportCase = merge(
      {
        id: newCaseId(at),
        user,
        ...(orderId ? { orderId, side: sideOfOrder(orderId) } : {}),
        ...(foreign ? { notOwner: true } : {}),
        status: 'open',
        reason,
        openedAt: at,
        updatedAt: at,
        events: [{ at, kind: 'opened', by, reason }],
      },
      seed,
    );
    if (!(await store.create(fresh))) continue;
    if (!(await store.swapSlot(user, slot, id, fresh.id))) continue;
    await store.setLast(user, fresh.id);
    ctx.log.info({ ...caseLog(fresh), reason }, 'support case opened');
    return { case: fresh, status: 'opened' };
  }
  throw new Error('The support case kept changing while opening it; try again');
}

/** After a (re)open: the topic learns about it (reopening a closed topic). */
export async function announce(
  ctx: DeskContext,
  c: SupportCase,
  status: CaseStatus,
  by: string,
): Promise<SupportCase> {
  const topic = c.topic;
  if (status === 'reopened' && topic) {
    ctx.later(c, (g) =>
      g
        .reopen(topic.threadId)
        .catch((err: unknown) =>
          ctx.log.warn({ ...caseLog(c), err: describe(err) }, 'could not reopen a topic'),
        ),
    );
    return mirror(ctx, c, [t('support-topic-reopened', { by: actor(by) })]);
  }
  if (status === 'opened') return mirror(ctx, c, []);
  return c;
}

/** "Talk to a person": the user's case (about an order or not), opened or reopened as needed. */
export async function openForUser(
  ctx: DeskContext,
  user: UserRef,
  opts: { orderId?: string; phone?: string; locale?: Locale } = {},
): Promise<FoundCase> {
  const by = 'user';
  // One case per problem: "talk to a person" without an order, soon after a case (the close
  // message says to send /support), goes back to that case rather than opening an order-less one.
  let orderId = opts.orderId;
  if (!orderId) {
    const lastId = await ctx.store.slot(user, { kind: 'last' });
    const last = lastId ? await ctx.store.get(lastId) : undefined;
    if (last?.orderId && (last.status === 'open' || ctx.now() - (last.closedAt ?? 0) <= ctx.reopenWindowMs))
      orderId = last.orderId;
  } else if (!(await ctx.store.slot(user, { kind: 'order', orderId }))) {
    // `/support D-…` while talking in a case without an order: that case is about this order now.
    const lastId = await ctx.store.slot(user, { kind: 'last' });
    const last = lastId ? await ctx.store.get(lastId) : undefined;
    if (last && last.status === 'open' && !last.orderId && (await owns(ctx, user, orderId))) {
      const linked = await linkOrder(ctx, last, orderId, by);
      if (linked.orderId === orderId) return { case: linked, status: 'existing' };
    }
  }
  const seed = { phone: phoneOf(user, opts.phone), userLocale: opts.locale };
  const found = await caseFor(ctx, user, orderId, 'user', seed, by);
  const c = await announce(ctx, found.case, found.status, by);
  if (!ctx.groups.length)
    ctx.log.warn({ ...caseLog(c), status: found.status }, 'support case waiting (no support chat)');
  return { case: c, status: found.status };
}

/**
 * Links an order-less case to an order of its user: the order's slot points at the case (unless the
 * user has a case about it already), the topic is renamed, the link noted.
 */
export async function linkOrder(
  ctx: DeskContext,
  c: SupportCase,
  orderId: string,
  by: string,
  name?: string,
): Promise<SupportCase> {
  const slot = { kind: 'order', orderId } as const;
  const taken = await ctx.store.slot(c.user, slot);
  if (taken && taken !== c.id) return c;
  if (!taken && !(await ctx.store.swapSlot(c.user, slot, undefined, c.id))) return c;
  const linked =
    (await ctx.store.update(c.id, (x) =>
      x.orderId
        ? undefined
        : withEvent(
            { ...x, orderId, side: sideOfOrder(orderId) },
            {
              at: ctx.now(),
              kind: 'note',
              by,
              ...(name ? { name } : {}),
              text: `linked to order ${orderId}`,
            },
          ),
    )) ?? c;
  ctx.log.info({ ...caseLog(linked), by }, 'support case linked to an order');
  rename(ctx, linked);
  return mirror(ctx, linked, [t('support-topic-linked', { orderId })]);
}
