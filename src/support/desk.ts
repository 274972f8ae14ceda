/**
 * The support desk: opens, reopens and closes cases, relays messages between users and agents,
 * files ramp tickets once per order, and keeps each case's topic and card current.
 *
 * The case store is the source of truth; the support chat mirrors it. A Telegram failure never
 * loses a case (it is stored and logged first, and the topic is created on the next event), while
 * a store failure is thrown so the caller (the tracker, an effect) retries or reports it.
 */
import { randomBytes } from 'node:crypto';
import type { Conversation } from '../channels/types.js';
import type { OutMessage, Text, UserRef } from '../chat/types.js';
import { findOrderId, sideOfOrder } from '../domain/order-id.js';
import { normalizeKenyanPhone } from '../domain/phone.js';
import type { OfframpOrderState, OnrampOrderState, Ticket, TicketRequest } from '../domain/types.js';
import { loggableUser } from '../engine/engine.js';
import type { Logger } from '../log/logger.js';
import { isRampError } from '../ramp/errors.js';
import type { RampClient } from '../ramp/types.js';
import type { Notifier } from '../tracker/types.js';
import { cardTexts, type TrackerFacts, topicName } from './card.js';
import { type CaseEvent, type CaseReason, type SupportCase, withEvent } from './case.js';
import type { Escalation } from './escalation.js';
import { supportReplyButtonId, talkButton } from './flow.js';
import type { CaseSlot, CaseStore } from './store.js';
import type { DeskTopics } from './topics.js';

/** How a case was found for a request. */
export type CaseStatus = 'opened' | 'reopened' | 'existing';

export interface DeskDeps {
  store: CaseStore;
  ramp: RampClient;
  /** The engine: `notify` posts to users, `handle` tells their flow that a case was closed. */
  conversation: Conversation & Notifier;
  logger: Logger;
  /** The support chat; without it cases are only stored and logged. */
  topics?: DeskTopics;
  /** What the tracker keeps about an order (its Redis record), for the card. */
  trackerFacts?: (orderId: string) => Promise<TrackerFacts | undefined>;
  /**
   * Who made an order through rampchat. With it, a user's ticket or case about an order that is not
   * theirs is handled by hand (marked on the card, nothing of the order shown, no ramp ticket).
   */
  ownerOf?: (orderId: string) => Promise<UserRef | undefined>;
  /** A closed case reopens when the user comes back about it within this time. */
  reopenWindowMs: number;
  /** A ticket claim older than this is presumed dead (default 120 s, above the ramp timeout). */
  ticketClaimStaleMs?: number;
  now?: () => number;
}

export interface Desk {
  /** True when agents work in a support chat. */
  readonly hasDesk: boolean;
  openForUser(
    user: UserRef,
    opts?: { orderId?: string; phone?: string },
  ): Promise<{ case: SupportCase; status: CaseStatus }>;
  /** A user's message for their case: to the case they name by order id, or the one they are in. */
  relayFromUser(
    user: UserRef,
    text: string,
    opts?: { caseId?: string; orderId?: string; phone?: string },
  ): Promise<{ case: SupportCase; status: CaseStatus }>;
  /**
   * Files a ramp ticket (once per order id) and notes it on the user's case about that order. For an
   * order that is not the user's, no ticket: a case for an agent, marked as such (`manual`).
   */
  fileTicket(user: UserRef, request: TicketRequest, by: string): Promise<TicketFiling>;
  /** A case opened by the system (tracker, sell path); the user is told once. */
  escalate(e: Escalation): Promise<SupportCase>;
  caseByTopic(chatId: string, threadId: number): Promise<SupportCase | undefined>;
  agentStatus(caseId: string, agentId: string): Promise<void>;
  agentTicket(caseId: string, agentId: string): Promise<void>;
  agentResolve(caseId: string, agentId: string, message: string): Promise<void>;
  agentReopen(caseId: string, agentId: string): Promise<void>;
  agentMessage(caseId: string, agentId: string, text: string): Promise<void>;
  /** Posts a desk note into a case topic (refusals, usage). */
  say(caseId: string, texts: Text[]): Promise<void>;
}

/** What became of a user's ticket request. */
export type TicketFiling =
  | { ticket: Ticket; existing: boolean; orderId?: string }
  | { manual: SupportCase; orderId: string; uncertain?: boolean };

/** Thrown while another request is still filing the same order's ticket. */
export class TicketBusyError extends Error {
  override name = 'TicketBusyError';
}

const describe = (err: unknown): string =>
  isRampError(err) ? (err.serviceMessage ?? err.message) : err instanceof Error ? err.message : String(err);

/** `S-k3j9d-7QX2`: short enough to read out, random enough not to collide. */
export function newCaseId(now: number): string {
  const tail = randomBytes(3)
    .toString('base64url')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, 'X');
  return `S-${now.toString(36).slice(-5)}-${tail}`;
}

const t = (id: string, args?: Text['args']): Text => (args ? { id, args } : { id });

/** Creates the desk. */
export function createDesk(deps: DeskDeps): Desk {
  const { store, ramp, conversation, topics } = deps;
  const now = deps.now ?? Date.now;
  const log = deps.logger.child({ component: 'support' });
  const staleMs = deps.ticketClaimStaleMs ?? 120_000;

  const caseLog = (c: SupportCase) => ({
    caseId: c.id,
    orderId: c.orderId,
    user: loggableUser(c.user),
  });

  // ---------------------------------------------------------------- the support chat

  async function facts(c: SupportCase): Promise<TrackerFacts | undefined> {
    if (!c.orderId || c.notOwner || !deps.trackerFacts) return undefined;
    try {
      return await deps.trackerFacts(c.orderId);
    } catch (err) {
      log.warn({ ...caseLog(c), err: describe(err) }, 'could not read the tracker record for a card');
      return undefined;
    }
  }

  /** Creates the case's topic and card once (claimed, so two processes do not both create one). */
  async function ensureTopic(c: SupportCase): Promise<SupportCase> {
    if (!topics || c.topic) return c;
    if (!(await store.claimTopic(c.id, 60_000))) return c;
    try {
      const fresh = (await store.get(c.id)) ?? c;
      if (fresh.topic) return fresh;
      const threadId = await topics.create(topicName(fresh));
      await store.setTopic(topics.chatId, threadId, fresh.id);
      const withTopic =
        (await store.update(fresh.id, (x) => ({ ...x, topic: { chatId: topics.chatId, threadId } }))) ??
        fresh;
      const cardMessageId = await topics.postCard(threadId, cardTexts(withTopic, await facts(withTopic)));
      const done =
        (await store.update(fresh.id, (x) =>
          x.topic ? { ...x, topic: { ...x.topic, cardMessageId } } : undefined,
        )) ?? withTopic;
      log.info({ ...caseLog(done), threadId }, 'support topic created');
      return done;
    } catch (err) {
      log.error({ ...caseLog(c), err: describe(err) }, 'could not create the case topic; will retry');
      return (await store.get(c.id)) ?? c;
    } finally {
      await store.releaseTopic(c.id).catch(() => {});
    }
  }

  /** Posts into the case's topic (creating it if needed) and refreshes the card when asked. */
  async function mirror(c: SupportCase, texts: Text[], refreshCard = true): Promise<SupportCase> {
    if (!topics) return c;
    const created = !c.topic;
    const withTopic = await ensureTopic(c);
    const topic = withTopic.topic;
    if (!topic) return withTopic;
    try {
      if (texts.length) await topics.post(topic.threadId, texts);
      if (refreshCard && !created) await refreshCardOf(withTopic);
    } catch (err) {
      log.error({ ...caseLog(c), err: describe(err) }, 'could not post to the case topic');
    }
    return withTopic;
  }

  async function refreshCardOf(c: SupportCase): Promise<void> {
    if (!topics || !c.topic) return;
    const card = cardTexts(c, await facts(c));
    if (c.topic.cardMessageId !== undefined) {
      try {
        await topics.editCard(c.topic.cardMessageId, card);
        return;
      } catch (err) {
        log.warn({ ...caseLog(c), err: describe(err) }, 'could not edit the case card; posting a new one');
      }
    }
    const cardMessageId = await topics.postCard(c.topic.threadId, card);
    await store.update(c.id, (x) => (x.topic ? { ...x, topic: { ...x.topic, cardMessageId } } : undefined));
  }

  // ---------------------------------------------------------------- finding and opening cases

  type Seed = Partial<
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
    >
  >;

  /** Facts fill in what the case lacks; newer tracker facts (status, error, receipt, hash) win. */
  function merge(c: SupportCase, seed: Seed): SupportCase {
    const out: SupportCase = { ...c };
    for (const [k, v] of Object.entries(seed) as Array<[keyof Seed, unknown]>) {
      if (v === undefined || v === '') continue;
      const fresh = k === 'lastStatus' || k === 'lastError' || k === 'receipt' || k === 'txHash';
      if (fresh || out[k] === undefined) (out as Record<string, unknown>)[k] = v;
    }
    return out;
  }

  /** True unless the order is known not to be one this user made through rampchat. */
  async function owns(user: UserRef, orderId: string): Promise<boolean> {
    if (!deps.ownerOf) return true;
    const owner = await deps.ownerOf(orderId);
    return owner?.channel === user.channel && owner.id === user.id;
  }

  /** The user's case in a slot: open as is, reopened within the window, or a new one. */
  async function caseFor(
    user: UserRef,
    orderId: string | undefined,
    reason: CaseReason,
    seed: Seed,
    by: string,
  ): Promise<{ case: SupportCase; status: CaseStatus }> {
    const slot: CaseSlot = orderId ? { kind: 'order', orderId } : { kind: 'general' };
    for (let attempt = 0; attempt < 5; attempt++) {
      const at = now();
      const id = await store.slot(user, slot);
      const existing = id ? await store.get(id) : undefined;
      if (existing && id) {
        if (existing.status === 'open') {
          const updated = (await store.update(id, (c) => merge(c, seed))) ?? existing;
          await store.setLast(user, id);
          return { case: updated, status: 'existing' };
        }
        if (at - (existing.closedAt ?? 0) <= deps.reopenWindowMs) {
          let reopened = false;
          const updated = await store.update(id, (c) => {
            reopened = c.status === 'closed';
            if (!reopened) return merge(c, seed);
            return withEvent(merge({ ...c, status: 'open', closedAt: undefined }, seed), {
              at,
              kind: 'reopened',
              by,
            });
          });
          if (!updated) continue;
          await store.setLast(user, id);
          log.info({ ...caseLog(updated), by }, 'support case reopened');
          return { case: updated, status: reopened ? 'reopened' : 'existing' };
        }
      }
      const foreign = orderId !== undefined && reason === 'user' && !(await owns(user, orderId));
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
      log.info({ ...caseLog(fresh), reason }, 'support case opened');
      return { case: fresh, status: 'opened' };
    }
    throw new Error('The support case kept changing while opening it; try again');
  }

  /** After a (re)open: the topic learns about it (reopening a closed topic). */
  async function announce(c: SupportCase, status: CaseStatus, by: string): Promise<SupportCase> {
    if (status === 'reopened' && topics && c.topic) {
      await topics
        .reopen(c.topic.threadId)
        .catch((err: unknown) => log.warn({ ...caseLog(c), err: describe(err) }, 'could not reopen a topic'));
      return mirror(c, [t('support-topic-reopened', { by: actor(by) })]);
    }
    if (status === 'opened') return mirror(c, []);
    return c;
  }

  /** `by` as the texts' select wants it: `user`, `system`, or the agent's id. */
  const actor = (by: string) => (by.startsWith('agent:') ? by.slice('agent:'.length) : by);

  const phoneOf = (user: UserRef, phone?: string) =>
    phone ?? (user.channel === 'whatsapp' ? normalizeKenyanPhone(user.id) : undefined);

  async function record(c: SupportCase, event: CaseEvent): Promise<SupportCase> {
    return (await store.update(c.id, (x) => withEvent(x, event))) ?? c;
  }

  async function mustGet(caseId: string): Promise<SupportCase> {
    const c = await store.get(caseId);
    if (!c) throw new Error(`No support case ${caseId}`);
    return c;
  }

  // ---------------------------------------------------------------- tickets

  async function fileOnce(request: TicketRequest): Promise<{ ticket: Ticket; existing: boolean }> {
    if (!('orderId' in request)) return { ticket: await ramp.createTicket(request), existing: false };
    const claim = await store.claimTicket(request.orderId, now(), staleMs);
    if (!claim.claimed) {
      if (claim.ticketId) return { ticket: { id: claim.ticketId }, existing: true };
      throw new TicketBusyError(`A ticket for ${request.orderId} is being filed right now`);
    }
    try {
      const ticket = await ramp.createTicket(request);
      await store.setTicket(request.orderId, ticket.id);
      return { ticket, existing: false };
    } catch (err) {
      // An answer that may hide a ticket the ramp did file keeps the claim (until it goes stale), so a
      // retry cannot file a second one; the caller hands the question to an agent.
      if (!mayHaveFiled(err)) await store.releaseTicket(request.orderId).catch(() => {});
      throw err;
    }
  }

  async function noteTicket(
    c: SupportCase,
    ticketId: string,
    by: string,
    texts: Text[],
  ): Promise<SupportCase> {
    const updated =
      (await store.update(c.id, (x) =>
        withEvent({ ...x, ticketId }, { at: now(), kind: 'ticket', by, ticketId }),
      )) ?? c;
    return mirror(updated, texts);
  }

  // ---------------------------------------------------------------- agents

  async function agentCase(caseId: string, agentId: string, action: string): Promise<SupportCase> {
    const c = await mustGet(caseId);
    log.info({ ...caseLog(c), agentId, action }, 'support agent action');
    return c;
  }

  const replyButton = (c: SupportCase) => [
    [{ id: supportReplyButtonId(c.id), label: t('support-button-reply') }],
  ];

  async function notifyUser(c: SupportCase, message: OutMessage): Promise<void> {
    try {
      await conversation.notify(c.user, message);
    } catch (err) {
      log.error({ ...caseLog(c), err: describe(err) }, 'could not notify the user of a support case');
    }
  }

  return {
    hasDesk: Boolean(topics),

    async openForUser(user, opts = {}) {
      const by = 'user';
      const found = await caseFor(user, opts.orderId, 'user', { phone: phoneOf(user, opts.phone) }, by);
      const c = await announce(found.case, found.status, by);
      if (!topics)
        log.warn({ ...caseLog(c), status: found.status }, 'support case waiting (no support chat)');
      return { case: c, status: found.status };
    },

    async relayFromUser(user, text, opts = {}) {
      const seed = { phone: phoneOf(user, opts.phone) };
      const mentioned = findOrderId(text);
      let found: { case: SupportCase; status: CaseStatus } | undefined;
      if (
        mentioned &&
        mentioned !== opts.orderId &&
        (await store.slot(user, { kind: 'order', orderId: mentioned }))
      )
        found = await caseFor(user, mentioned, 'user', seed, 'user');
      if (!found && opts.caseId) {
        const current = await store.get(opts.caseId);
        if (current && current.user.channel === user.channel && current.user.id === user.id) {
          found =
            current.status === 'open'
              ? { case: current, status: 'existing' }
              : await caseFor(user, current.orderId, 'user', seed, 'user');
        }
      }
      found ??= await caseFor(user, opts.orderId, 'user', seed, 'user');
      let c = await announce(found.case, found.status, 'user');
      c = await record(c, { at: now(), kind: 'user', by: 'user', text });
      await store.setLast(user, c.id);
      c = await mirror(c, [t('support-topic-user-message', { text })], false);
      if (!topics)
        log.info({ ...caseLog(c), chars: text.length }, 'support message stored (no support chat)');
      return { case: c, status: found.status };
    },

    async fileTicket(user, request, by) {
      const orderId = 'orderId' in request ? request.orderId : undefined;
      if (orderId && !(await owns(user, orderId))) {
        // Never a ramp ticket for someone else's order (its refund number would be the requester's).
        const found = await caseFor(user, orderId, 'user', { phone: phoneOf(user) }, by);
        let c = await announce(found.case, found.status, by);
        if (!c.notOwner) c = (await store.update(c.id, (x) => ({ ...x, notOwner: true }))) ?? c;
        c = await record(c, {
          at: now(),
          kind: 'note',
          by,
          text: "refund ticket asked for an order that is not the requester's",
        });
        c = await mirror(c, [t('support-topic-ticket-not-owner', { orderId })], false);
        log.warn(
          { ...caseLog(c), by },
          "refund ticket asked for an order that is not the requester's; handed to an agent",
        );
        return { manual: c, orderId };
      }
      let filing: Awaited<ReturnType<typeof fileOnce>>;
      try {
        filing = await fileOnce(request);
      } catch (err) {
        if (!mayHaveFiled(err)) throw err;
        // Undecidable here: an agent checks at the ramp, and the user is told so.
        const found = await caseFor(user, orderId, 'user', { phone: phoneOf(user) }, by);
        let c = await announce(found.case, found.status, by);
        const detail = err instanceof Error ? err.message.slice(0, 200) : String(err);
        c = await record(c, {
          at: now(),
          kind: 'note',
          by,
          text: `refund ticket filing uncertain: ${detail}`,
        });
        c = await mirror(
          c,
          [t('support-topic-ticket-uncertain', { orderId: orderId ?? '-', detail })],
          false,
        );
        log.warn(
          { ...caseLog(c), by },
          'refund ticket filing answered in a way that may hide a ticket; handed to an agent',
        );
        return { manual: c, orderId: orderId ?? '', uncertain: true };
      }
      const { ticket, existing } = filing;
      log.info(
        { user: loggableUser(user), orderId, ticketId: ticket.id, existing, by },
        'refund ticket filed',
      );
      const caseId = orderId
        ? await store.slot(user, { kind: 'order', orderId })
        : await store.slot(user, { kind: 'general' });
      const c = caseId ? await store.get(caseId) : undefined;
      if (c && !existing)
        await noteTicket(c, ticket.id, by, [t('support-topic-user-ticket', { ticketId: ticket.id })]);
      return { ticket, existing, orderId };
    },

    async escalate(e) {
      const at = e.at ?? now();
      const found = await caseFor(
        e.user,
        e.orderId,
        e.reason,
        {
          phone: phoneOf(e.user, e.phone),
          network: e.network,
          wallet: e.wallet,
          amountKes: e.amountKes,
          tokenAmount: e.tokenAmount,
          symbol: e.symbol,
          lastStatus: e.lastStatus,
          lastError: e.lastError,
          receipt: e.receipt,
          txHash: e.txHash,
          ...(e.side ? { side: e.side } : {}),
        },
        'system',
      );
      let c = found.case;
      if (found.status !== 'opened')
        c = await record(c, { at, kind: 'escalated', by: 'system', reason: e.reason });
      log.warn({ ...caseLog(c), reason: e.reason, status: found.status }, 'order escalated to support');
      if (found.status === 'reopened' && topics && c.topic)
        await topics.reopen(c.topic.threadId).catch(() => {});
      c = await mirror(c, [
        t('support-topic-escalated', { reason: e.reason }),
        ...(e.detail ? [t('support-topic-escalated-detail', { detail: e.detail })] : []),
      ]);
      if (e.userTold && !c.userAlerted) {
        c = (await store.update(c.id, (x) => ({ ...x, userAlerted: true }))) ?? c;
      } else if (!c.userAlerted) {
        const id = !topics
          ? c.orderId
            ? 'support-alerted-offline'
            : 'support-alerted-general'
          : c.orderId
            ? 'support-alerted'
            : 'support-alerted-general';
        await notifyUser(c, {
          texts: [t(id, { caseId: c.id, orderId: c.orderId ?? '' })],
          buttons: [[talkButton(c.orderId)]],
        });
        c = (await store.update(c.id, (x) => ({ ...x, userAlerted: true }))) ?? c;
      }
      return c;
    },

    async caseByTopic(chatId, threadId) {
      const id = await store.byTopic(chatId, threadId);
      return id ? store.get(id) : undefined;
    },

    async agentStatus(caseId, agentId) {
      let c = await agentCase(caseId, agentId, 'status');
      if (!c.orderId) {
        await mirror(c, [t('support-topic-no-order')], false);
        return;
      }
      let state: OnrampOrderState | OfframpOrderState;
      try {
        state =
          (c.side ?? sideOfOrder(c.orderId)) === 'onramp'
            ? await ramp.getOnrampStatus(c.orderId)
            : await ramp.getOfframpStatus(c.orderId);
      } catch (err) {
        await mirror(c, [t('support-topic-status-failed', { error: describe(err).slice(0, 300) })], false);
        return;
      }
      c =
        (await store.update(c.id, (x) =>
          withEvent(merge(x, { lastStatus: state.status, receipt: state.receipt }), {
            at: now(),
            kind: 'status',
            by: `agent:${agentId}`,
            status: state.status,
          }),
        )) ?? c;
      await mirror(c, [
        t('support-topic-status', { orderId: c.orderId!, status: state.status }),
        ...(state.receipt ? [t('support-topic-status-receipt', { receipt: state.receipt })] : []),
      ]);
    },

    async agentTicket(caseId, agentId) {
      const c = await agentCase(caseId, agentId, 'ticket');
      const orderId = c.orderId;
      if (!orderId) {
        await mirror(c, [t('support-topic-no-order')], false);
        return;
      }
      let result: { ticket: Ticket; existing: boolean };
      try {
        result = await fileOnce({
          side: c.side ?? sideOfOrder(orderId),
          orderId,
          description: `Filed by rampchat support (case ${c.id}) for order ${orderId}.`,
          ...(c.symbol ? { symbol: c.symbol } : {}),
          ...(c.network ? { chain: c.network } : {}),
        });
      } catch (err) {
        await mirror(c, [t('support-topic-ticket-failed', { reason: describe(err).slice(0, 300) })], false);
        return;
      }
      const { ticket, existing } = result;
      if (existing && c.ticketId === ticket.id) {
        await mirror(c, [t('support-topic-ticket-existing', { orderId, ticketId: ticket.id })], false);
        return;
      }
      await noteTicket(c, ticket.id, `agent:${agentId}`, [
        t(existing ? 'support-topic-ticket-existing' : 'support-topic-ticket', {
          orderId,
          ticketId: ticket.id,
        }),
      ]);
      await notifyUser(c, {
        texts: [t('support-ticket-by-agent', { ticketId: ticket.id, orderId })],
        buttons: replyButton(c),
      });
    },

    async agentResolve(caseId, agentId, message) {
      const c = await agentCase(caseId, agentId, 'resolve');
      if (c.status === 'closed') {
        await mirror(c, [t('support-topic-already-closed')], false);
        return;
      }
      const at = now();
      const closed =
        (await store.update(c.id, (x) =>
          withEvent(
            { ...x, status: 'closed', closedAt: at },
            { at, kind: 'resolved', by: `agent:${agentId}`, text: message },
          ),
        )) ?? c;
      await mirror(closed, [t('support-topic-resolved', { agent: agentId, message })]);
      if (topics && closed.topic)
        await topics
          .close(closed.topic.threadId)
          .catch((err: unknown) =>
            log.warn({ ...caseLog(c), err: describe(err) }, 'could not close a topic'),
          );
      await conversation
        .handle(closed.user, {
          kind: 'support',
          outcome: {
            action: 'closed',
            caseId: closed.id,
            ...(closed.orderId ? { orderId: closed.orderId } : {}),
            message,
          },
        })
        .catch((err: unknown) => log.error({ ...caseLog(c), err: describe(err) }, 'could not tell the user'));
    },

    async agentReopen(caseId, agentId) {
      const c = await agentCase(caseId, agentId, 'reopen');
      if (c.status === 'open') {
        await mirror(c, [t('support-topic-already-open')], false);
        return;
      }
      const by = `agent:${agentId}`;
      const reopened =
        (await store.update(c.id, (x) =>
          x.status === 'open'
            ? undefined
            : withEvent({ ...x, status: 'open', closedAt: undefined }, { at: now(), kind: 'reopened', by }),
        )) ?? c;
      if (topics && reopened.topic) await topics.reopen(reopened.topic.threadId).catch(() => {});
      await mirror(reopened, [t('support-topic-reopened', { by: agentId })]);
      await notifyUser(reopened, {
        texts: [t('support-reopened-by-agent', { caseId: reopened.id })],
        buttons: replyButton(reopened),
      });
    },

    async agentMessage(caseId, agentId, text) {
      const c = await agentCase(caseId, agentId, 'message');
      if (c.status === 'closed') {
        await mirror(c, [t('support-topic-closed')], false);
        return;
      }
      await record(c, { at: now(), kind: 'agent', by: `agent:${agentId}`, text });
      await notifyUser(c, { texts: [t('support-agent-message', { text })], buttons: replyButton(c) });
    },

    async say(caseId, texts) {
      const c = await store.get(caseId);
      if (c) await mirror(c, texts, false);
    },
  };
}

/** An error after which the ramp may have filed the ticket all the same (no answer, 5xx, a body we could not read). */
function mayHaveFiled(err: unknown): boolean {
  if (!isRampError(err)) return false;
  if (err.kind === 'network') return (err as { delivered?: boolean }).delivered !== false;
  return err.kind === 'timeout' || err.kind === 'server';
}
