/**
 * Telegram's limits on what a bot sends, kept by one outbound line shared by every replica: about 30
 * messages a second for the bot, about one a second in a private chat (short bursts allowed), 20 a
 * minute in a group. Telegram's exact figures are unspecified and move, so the line paces a little
 * under them, honours every `retry_after` (one 429 holds every replica's senders, and slows them for
 * a minute), and puts a throttled message back in its place instead of dropping it.
 *
 * The pacing is a grammY API transformer installed inside auto-retry, so every call that sends into
 * a chat waits its turn: the adapter's messages, the support desk's topics and cards alike.
 */
import type { Transformer } from 'grammy';
import type { RedisClientType } from 'redis';
import type { Logger } from '../../../log/logger.js';
import {
  createOutboundLine,
  type Lane,
  type OutboundClass,
  type OutboundLine,
  type Outbox,
  PaidRefused,
  redisSlotBook,
  type SendScope,
  Throttled,
} from '../../../outbound/index.js';
import { ownCall } from './call.js';
import { takeStraightSlot } from './straight.js';

/** Methods that put something into a chat and count against the limits. */
const PACED = new Set([
  'sendMessage',
  'editMessageText',
  'editMessageReplyMarkup',
  'editMessageCaption',
  'editMessageMedia',
  'sendPhoto',
  'sendDocument',
  'copyMessage',
  'forwardMessage',
  'createForumTopic',
  'editForumTopic',
  'closeForumTopic',
  'reopenForumTopic',
  'pinChatMessage',
  'unpinChatMessage',
]);

export interface TelegramPacingOptions {
  /** The bot's messages per second (default 27, under Telegram's ~30). */
  perSecond?: number;
  /** A private chat: one message per this many ms (default 1000), `privateBurst` at once (default 2). */
  privateIntervalMs?: number;
  privateBurst?: number;
  /**
   * A group: at most this many messages in any `groupWindowMs` (default 18 a minute, under Telegram's
   * 20), each at once while the window has room.
   */
  groupPerMinute?: number;
  /** The group's window (default 60 s; tests that run faster shorten it). */
  groupWindowMs?: number;
  /** Redis (with the key prefix) to share the pacing with every replica; this process only without. */
  redis?: Pick<RedisClientType, 'eval' | 'evalSha'>;
  prefix?: string;
  /**
   * Telegram's paid broadcast (0.1 Star a message, up to 1000 a second): an order's outcome that
   * has waited this long in a deep line goes paid. Off when unset.
   */
  paidAfterMs?: number;
  /** Paid messages per second (default 900, under Telegram's 1000). */
  paidPerSecond?: number;
  /** Counts each paid send (metrics). */
  onPaid?: () => void;
}

/** The Telegram line and the lanes of one chat. */
export interface TelegramPacing {
  line: OutboundLine;
  lanesOf(chatId: string | number): Lane[];
  /** Whether an order's status message of this class to this chat may go paid when the line is deep. */
  payable(chatId: string | number, cls: OutboundClass): boolean;
  /** Where every paced call is kept until sent (set once the bot exists); straight to the line without. */
  outbox?: Outbox;
}

/** Creates the bot's outbound line. */
export function createTelegramPacing(opts: TelegramPacingOptions, logger?: Logger): TelegramPacing {
  const base = `${opts.prefix ?? 'rampchat:'}tg:pace:`;
  const perSecond = opts.perSecond ?? 27;
  const privateLane = { intervalMs: opts.privateIntervalMs ?? 1000, burst: opts.privateBurst ?? 2 };
  const groupLane = {
    intervalMs: opts.groupWindowMs ?? 60_000,
    burst: 1,
    windowMax: opts.groupPerMinute ?? GROUP_PER_MINUTE,
  };
  const paidOn = opts.paidAfterMs !== undefined;
  const line = createOutboundLine({
    line: [{ key: `${base}bot`, intervalMs: 1000 / perSecond, burst: 1 }],
    book: opts.redis ? redisSlotBook(opts.redis, { hold: `${base}hold`, slow: `${base}slow` }) : undefined,
    logger,
    ...(paidOn
      ? {
          paid: {
            line: [{ key: `${base}paid`, intervalMs: 1000 / (opts.paidPerSecond ?? 900), burst: 1 }],
            afterMs: opts.paidAfterMs as number,
            classes: PAID_CLASSES,
            onPaid: opts.onPaid,
          },
        }
      : {}),
  });
  return {
    line,
    lanesOf: (chatId) => [{ key: `${base}chat:${chatId}`, ...(isGroup(chatId) ? groupLane : privateLane) }],
    payable: (chatId, cls) => paidOn && !isGroup(chatId) && PAID_CLASSES.includes(cls),
  };
}

/** Messages a group takes in a minute: Telegram allows about 20; two are kept for skew and retries. */
export const GROUP_PER_MINUTE = 18;

const isGroup = (chatId: string | number) => String(chatId).startsWith('-');

/** Only what an order came to is worth paying for: replies are never deep, progress can wait. */
const PAID_CLASSES: readonly OutboundClass[] = ['outcome'];

/** Telegram refusing a paid send (no Stars, not allowed) rather than the message itself. */
export function paidRefusalOf(res: {
  ok: boolean;
  error_code?: number;
  description?: string;
}): PaidRefused | undefined {
  if (res.ok || res.error_code === 429 || res.error_code === 403) return undefined;
  const description = res.description ?? '';
  return /star|paid|broadcast/i.test(description) ? new PaidRefused(description) : undefined;
}

/** A group's messages are the desk's unless the scope says otherwise; a private chat's are replies. */
export function classOf(chatId: string | number, scope?: SendScope): OutboundClass {
  return scope?.cls ?? (isGroup(chatId) ? 'desk' : 'reply');
}

/**
 * The transformer: a paced call waits for its turn (the send deadline paused meanwhile); a 429 holds
 * the line (a group's: only that group) for `retry_after` and the call goes back in its place.
 */
export function pacingTransformer(pacing: TelegramPacing): Transformer {
  return async (prev, method, payload, signal) => {
    const chatId = (payload as { chat_id?: string | number } | undefined)?.chat_id;
    const call = ownCall(signal);
    const scope = call?.scope;
    // A call at its turn in the line (the outbox sending) is paced already.
    if (!PACED.has(method) || chatId === undefined || scope?.inTurn) return prev(method, payload, signal);
    const deadline = call?.deadline;
    deadline?.pause();
    const cls = classOf(chatId, scope);
    // The first reply of a step a redelivery redoes, when its slot is due: straight, in one pass.
    const straight = await takeStraightSlot(pacing, method, chatId, cls, scope);
    if (!straight && pacing.outbox && serializable(payload)) {
      // In the outbox before anything waits: another replica sends it if this one stops or dies.
      const body = { k: 'call', m: method, p: payload };
      return (await pacing.outbox.submit(String(chatId), cls, body, { scope })) as Awaited<
        ReturnType<typeof prev>
      >;
    }
    // Never paid here: only an order's status message (the replace queue) may go paid, not notices
    // such as reminders and rate alerts, which can be many and can wait.
    const message = straight?.m ?? { key: String(chatId), cls, own: pacing.lanesOf(chatId) };
    return pacing.line.run(
      message,
      async () => {
        deadline?.resume();
        const res = await prev(method, payload, signal);
        const throttled = throttleOf(res, chatId);
        if (throttled) deadline?.pause();
        return throttled ?? res;
      },
      signal as AbortSignal | undefined,
      straight,
    );
  };
}

/** A 429 as a `Throttled`: a group's limit holds the group, anything else the whole bot. */
export function throttleOf(
  res: { ok: boolean; error_code?: number; parameters?: { retry_after?: number } },
  chatId: string | number,
): Throttled | undefined {
  if (res.ok || res.error_code !== 429) return undefined;
  const seconds = res.parameters?.retry_after ?? 1;
  return new Throttled(Math.max(1, seconds) * 1000, isGroup(chatId) ? 'own' : 'line');
}

/** Whether a payload can be written into the outbox (a file upload cannot). */
export function serializable(payload: unknown): boolean {
  if (typeof payload !== 'object' || payload === null) return true;
  return !Object.values(payload).some((v) => typeof v === 'object' && v !== null && 'fileData' in v);
}
