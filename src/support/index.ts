/**
 * Support: cases, the agents' support chat, relay, tickets. `wireSupport(parts)` plugs it into the
 * running app and returns `escalate`, the tracker's and the sell path's `onEscalate`.
 */
import type { RedisClientType } from 'redis';
import type { TelegramChannel } from '../channels/telegram/index.js';
import { scopedCall } from '../channels/telegram/send/call.js';
import { renderHtml } from '../channels/telegram/send/render.js';
import type { TerminalChannel } from '../channels/terminal/index.js';
import type { Locale, Text } from '../chat/types.js';
import type { Config } from '../config/env.js';
import type { Engine } from '../engine/index.js';
import type { I18n } from '../i18n/index.js';
import { createMemoryLimiter, createRedisLimiter } from '../limits/index.js';
import type { Logger } from '../log/logger.js';
import type { RampClient } from '../ramp/types.js';
import type { StandingSink } from '../recovery/index.js';
import { offrampPendingMessage, onrampPaidMessage, onrampPendingMessage } from '../tracker/messages.js';
import { createRedisTrackerStore } from '../tracker/store/store.js';
import type { StoredOrder } from '../tracker/store/store-types.js';
import type { OrderTracker } from '../tracker/types.js';
import type { TrackerFacts } from './case/card.js';
import { caseRestorer, recordedCases } from './case/case-record.js';
import { type EscalationInput, readEscalation } from './case/escalation.js';
import { type CaseStore, createMemoryCaseStore, createRedisCaseStore } from './case/store.js';
import type { BudgetTimings } from './desk/budget.js';
import { createRedisLedger } from './desk/line-ledger.js';
import { createDesk, type Desk } from './desk.js';
import { registerSupportEffects } from './effects.js';
import { createAgentGate } from './telegram/agents.js';
import { installSupportChat } from './telegram/telegram.js';
import { createTelegramTopics, type DeskTopics } from './telegram/topics.js';

export type { EscalationInput } from './case/escalation.js';

/** The parts of the app support uses (the app's `AppParts` satisfies it). */
export interface SupportParts {
  config: Config;
  logger: Logger;
  i18n: I18n;
  ramp: RampClient;
  engine: Engine;
  /** A node-redis client when REDIS_URL is set: cases go to Redis, else to memory. */
  redis?: RedisClientType;
  /** The Telegram channel, when it runs: the agents' support chat lives there. */
  telegram?: TelegramChannel;
  terminal?: TerminalChannel;
  prefix?: string;
  tracker?: Pick<OrderTracker, 'ownerOf'>;
  /** On Redis: open cases are kept in this record outside Redis too, and put back by recovery. */
  standing?: StandingSink;
}

export interface SupportOptions {
  /** Overrides `parts.prefix` (default `rampchat:`): cases go under `<prefix>support:`. */
  prefix?: string;
  /** Language of the agents' topics (default en). */
  deskLocale?: Locale;
  now?: () => number;
  /** How the support groups' budget gathers a user's lines and paces card edits (tests speed it up). */
  budget?: Partial<BudgetTimings>;
}

export interface Support {
  desk: Desk;
  store: CaseStore;
  /** Hands an escalation (tracker EscalationCase or sell SellEscalation) to support. Throws when it cannot be stored. */
  escalate(c: EscalationInput): Promise<void>;
  stop(): Promise<void>;
}

/**
 * What the user was last told about the order, in the tracker's texts: its final message, else the
 * progress message it posted last (buttons left out).
 */
function toldTexts(rec: StoredOrder): Text[] | undefined {
  const final = rec.state.final;
  // Told once the final message went out: noted (notifiedAt) or its guard finished (not a claim).
  const sent =
    final?.notifiedAt !== undefined || (rec.final !== undefined && !rec.final.startsWith('posting|'));
  if (final && sent) return final.message.texts.slice(0, 3);
  if (rec.posted === 'SUCCESS' && rec.order.side === 'onramp')
    return onrampPaidMessage(rec.order, rec.state.receipt).texts;
  if (rec.posted === 'PENDING')
    return (rec.order.side === 'onramp' ? onrampPendingMessage(rec.order) : offrampPendingMessage(rec.order))
      .texts;
  return undefined;
}

/** Reads what the tracker keeps about an order (its Redis hash, deposit guard and timeline). */
export function trackerFactsReader(
  client: RedisClientType,
  prefix: string,
): (orderId: string) => Promise<TrackerFacts | undefined> {
  const tracker = createRedisTrackerStore({ client, prefix });
  return async (orderId) => {
    const rec = await tracker.load(orderId);
    if (!rec) return undefined;
    const deposit = await tracker.getDeposit(orderId).catch(() => undefined);
    const timeline = await tracker.timeline(orderId).catch(() => []);
    return {
      told: toldTexts(rec),
      stage: rec.state.stage,
      status: rec.state.status,
      polls: rec.state.polls,
      posted: rec.posted,
      receipt: rec.state.receipt,
      lastError: rec.state.lastError,
      outcome: rec.state.final?.outcome,
      timeline,
      order: {
        side: rec.order.side,
        network: rec.order.network,
        wallet: rec.order.walletAddress,
        token: rec.order.token,
        amountKes: rec.order.amountKes,
        ...(rec.order.paidKes !== undefined ? { paidKes: rec.order.paidKes } : {}),
        ...(rec.order.tokenAmount ? { tokenAmount: rec.order.tokenAmount } : {}),
        phone: rec.order.phone,
        ...(rec.order.txHash ? { txHash: rec.order.txHash } : {}),
      },
      ...(deposit
        ? { deposit: { state: deposit.state, ...(deposit.state === 'sent' ? { hash: deposit.hash } : {}) } }
        : {}),
    };
  };
}

/**
 * Wires support into the app: the case store (Redis under `<prefix>support:`, memory without
 * REDIS_URL), the `support` effect, and, when SUPPORT_CHAT_ID is set and Telegram runs, the
 * support chat's middleware. Call after the channels exist and before they start.
 */
export async function wireSupport(parts: SupportParts, opts: SupportOptions = {}): Promise<Support> {
  const { config, logger, engine } = parts;
  const log = logger.child({ component: 'support' });
  const prefix = opts.prefix ?? parts.prefix ?? 'rampchat:';
  const redisStore = parts.redis
    ? createRedisCaseStore({ client: parts.redis, prefix: `${prefix}support:` })
    : undefined;
  const standing = redisStore && parts.standing;
  const store = !redisStore
    ? createMemoryCaseStore()
    : standing
      ? recordedCases(redisStore, standing.record, log)
      : redisStore;

  const chatIds = config.SUPPORT_CHAT_ID;
  const telegram = parts.telegram;
  const groups: DeskTopics[] = telegram
    ? chatIds.map((chatId) =>
        createTelegramTopics({
          api: telegram.bot.api,
          chatId,
          i18n: parts.i18n,
          locale: opts.deskLocale,
          logger,
          renderHtml,
          scopedCall,
        }),
      )
    : [];
  if (!groups.length && chatIds.length) {
    log.warn('SUPPORT_CHAT_ID is set but Telegram is not running: support cases are only stored and logged');
  } else if (!chatIds.length) {
    log.warn('no SUPPORT_CHAT_ID: support cases are only stored and logged');
    parts.terminal?.say('support-terminal-no-desk');
  }

  const desk = createDesk({
    store,
    ramp: parts.ramp,
    conversation: engine,
    logger,
    topics: groups,
    ...(parts.redis
      ? { lines: createRedisLedger({ client: parts.redis, prefix: `${prefix}support:` }) }
      : {}),
    ...(opts.budget ? { budget: opts.budget } : {}),
    trackerFacts: parts.redis ? trackerFactsReader(parts.redis, prefix) : undefined,
    ownerOf: parts.tracker ? (orderId) => parts.tracker!.ownerOf(orderId) : undefined,
    reopenWindowMs: config.SUPPORT_REOPEN_WINDOW_MS,
    // Shared by every replica through Redis, like the other limits.
    limiter: parts.redis ? createRedisLimiter(parts.redis, prefix) : createMemoryLimiter(),
    limits: {
      casesPerUser: config.LIMIT_SUPPORT_CASES_PER_USER,
      casesWindowMs: config.LIMIT_SUPPORT_CASES_WINDOW_MS,
      ticketsPerUser: config.LIMIT_SUPPORT_TICKETS_PER_USER,
      ticketsWindowMs: config.LIMIT_SUPPORT_TICKETS_WINDOW_MS,
    },
    now: opts.now,
  });
  registerSupportEffects(engine, desk);
  if (redisStore && standing)
    standing.restorers.cases = caseRestorer(redisStore, standing.record, (id, lines) =>
      desk.resume(id, lines),
    );

  let chat: { idle(): Promise<void> } | undefined;
  if (telegram && groups.length) {
    const gateOf = (chatId: string) =>
      createAgentGate({
        api: telegram.bot.api,
        chatId,
        agentIds: config.SUPPORT_AGENT_IDS,
        allowAdmins: config.SUPPORT_ALLOW_ADMINS,
        logger,
      });
    if (!config.SUPPORT_AGENT_IDS.length && !config.SUPPORT_ALLOW_ADMINS)
      log.warn('no SUPPORT_AGENT_IDS and SUPPORT_ALLOW_ADMINS is off: nobody can act in the support chat');
    const deskLocale = opts.deskLocale ?? 'en';
    chat = installSupportChat({
      bot: telegram.bot,
      groups: chatIds.map((chatId) => ({ chatId, gate: gateOf(chatId) })),
      desk,
      logger,
      say: (id) => parts.i18n.t(deskLocale, { id }),
    });
    log.info({ chatIds }, 'support groups wired');
  }

  const pending = new Set<Promise<unknown>>();
  return {
    desk,
    store,
    async escalate(input) {
      const work = desk.escalate(readEscalation(input));
      pending.add(work);
      try {
        await work;
      } finally {
        pending.delete(work);
      }
    },
    async stop() {
      // The desk's queue goes at once (into the outbox) rather than at the group's pace.
      desk.stop();
      await Promise.allSettled([...pending]);
      await chat?.idle();
      await desk.idle();
    },
  };
}
