/**
 * The bot's sends as outbox messages (src/outbound/outbox.ts): every paced API call (a reply, a
 * notice, the desk's posts, topics, pins and edits) goes in as its method and payload, and an order's
 * status message as its content and `replaceKey`, so any replica can send it. An edit of a status
 * message looks up, when its turn comes, the message id the previous send recorded (whichever
 * replica made it); Telegram's answer (the message, a refusal) is what the caller gets back.
 */
import { GrammyError } from 'grammy';
import {
  createOutbox,
  memoryOutboxStore,
  type Outbox,
  type PaidRefused,
  redisOutboxStore,
  type Throttled,
  type Turn,
} from '../../../outbound/index.js';
import type { TelegramDeps } from '../deps.js';
import { IN_TURN } from './call.js';
import { paidRefusalOf, type TelegramPacingOptions, throttleOf } from './pacing.js';
import type { PhotoBody } from './photo.js';

/** A status message: its content, and the id it had when it was queued. */
export interface ReplaceBody {
  k: 'replace';
  key: string;
  html: string;
  keyboard?: unknown;
  id?: number;
}
/** Any other paced call. */
export interface CallBody {
  k: 'call';
  m: string;
  p: unknown;
}
type Body = ReplaceBody | CallBody | PhotoBody;

/** One change of a status message a second at most, per chat. */
const EDIT_INTERVAL_MS = 1000;

/** Telegram's answer as grammY's transformers pass it on. */
export type ApiAnswer =
  | { ok: true; result: unknown }
  | { ok: false; error_code: number; description: string };

/** Puts `content` on screen as `DeliverReplace` does; injected to keep the files apart. */
export type DeliverReplace = (
  chatId: string,
  messageId: number | undefined,
  content: { html: string; keyboard: never },
  paid: boolean,
) => Promise<number>;

/** What callers read of a message or a topic; the rest (the text, keyboard and bot echoed back) is not kept. */
const KEPT = ['message_id', 'message_thread_id', 'date', 'name', 'icon_color', 'icon_custom_emoji_id'];

/**
 * An answer as recorded for a waiter on another replica (kept a day): a message or topic by its
 * ids, so a reply's record is some 80 bytes instead of its whole echo (about 900).
 */
export function recordedAnswer(value: unknown): unknown {
  const a = value as ApiAnswer;
  if (typeof a !== 'object' || a === null || a.ok !== true) return value;
  const r = a.result as Record<string, unknown> | null;
  if (typeof r !== 'object' || r === null || !('message_id' in r || 'message_thread_id' in r)) return value;
  const kept: Record<string, unknown> = {};
  for (const k of KEPT) if (k in r) kept[k] = r[k];
  const chat = r.chat as { id?: unknown; type?: unknown } | undefined;
  if (chat) kept.chat = { id: chat.id, type: chat.type };
  return { ok: true, result: kept };
}

/** A refusal as the line takes it: a 429 waits, a paid refusal goes back to the free lanes. */
function asTurnAnswer(error: unknown, turn: Turn, chatId: string): Throttled | PaidRefused | undefined {
  if (!(error instanceof GrammyError)) return undefined;
  const res = { ok: false, error_code: error.error_code, description: error.description };
  const refused = turn.paid ? paidRefusalOf(res) : undefined;
  return refused ?? throttleOf({ ...res, parameters: error.parameters }, chatId);
}

/** The bot's outbox: in Redis (shared by replicas) with the pacing's client, else in this process. */
export function createTelegramOutbox(
  deps: TelegramDeps,
  opts: Pick<TelegramPacingOptions, 'redis'> & { prefix: string },
  deliverReplace: DeliverReplace,
  sendPhoto: (chatId: string, body: PhotoBody) => Promise<number>,
): Outbox {
  const { bot, pacing } = deps;
  const raw = bot.api.raw as unknown as Record<string, (p: unknown, s?: unknown) => Promise<unknown>>;
  const send = async (body: Body, turn: Turn, chatId: string): Promise<unknown> => {
    try {
      if (body.k === 'call') {
        const result = await deps.bounded(
          (signal) => (raw[body.m] as (p: unknown, s?: unknown) => Promise<unknown>)(body.p, signal),
          IN_TURN,
        );
        return { ok: true, result } satisfies ApiAnswer;
      }
      if (body.k === 'photo') return await sendPhoto(chatId, body);
      const known = (await deps.state.getReplaceMessage(chatId, body.key)) ?? body.id;
      const content = { html: body.html, keyboard: body.keyboard as never };
      const shown = await deliverReplace(chatId, known, content, turn.paid);
      if (shown !== known) await deps.state.setReplaceMessage(chatId, body.key, shown);
      return shown;
    } catch (error) {
      const waits = asTurnAnswer(error, turn, chatId);
      if (waits) return waits;
      // A call's refusal is Telegram's answer, for the caller to read as it would without the outbox.
      // (A server error is not an answer: recorded as a failure, a retry of the work sends it again.)
      if (body.k === 'call' && error instanceof GrammyError && error.error_code < 500)
        return {
          ok: false,
          error_code: error.error_code,
          description: error.description,
        } satisfies ApiAnswer;
      throw error;
    }
  };
  return createOutbox({
    store: opts.redis ? redisOutboxStore(opts.redis, `${opts.prefix}outbox:tg:`) : memoryOutboxStore(),
    line: pacing.line,
    // A status message is edited at most once a second (its own lane, shared by every replica).
    lanesOf: (key, body) => {
      const lanes = pacing.lanesOf(key);
      if ((body as Body).k !== 'replace') return lanes;
      return [...lanes, { key: `${opts.prefix}tg:pace:edit:${key}`, intervalMs: EDIT_INTERVAL_MS, burst: 1 }];
    },
    // Only a status message may go paid: notices and the desk can wait, and a call cannot say so.
    payable: (key, cls, body) => (body as Body).k === 'replace' && pacing.payable(key, cls),
    send: (body, turn, key) => send(body as Body, turn, key),
    recorded: recordedAnswer,
    logger: deps.log,
  });
}
