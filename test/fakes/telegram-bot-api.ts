/**
 * A local fake of the Telegram Bot API, at the wire: a node:http server answering
 * `POST /bot<token>/<method>` with the JSON envelopes the real API sends, so real grammY can run
 * against it with `new Bot(token, { client: { apiRoot: fake.url } })`.
 *
 * It keeps chats and messages (with ids like the real API), validates HTML parse mode and inline
 * keyboards as Telegram does, holds `getUpdates` long polls, delivers to a webhook when one is set,
 * records every call, and can fail a method on purpose (429 with `retry_after`, 5xx). Uploads come
 * as multipart/form-data, as grammY sends an InputFile: `sendPhoto` keeps the picture's bytes,
 * `sendDocument` the file's bytes and name (at most 50 MB, as bots may upload).
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// biome-ignore lint/suspicious/noExplicitAny: wire objects are loose JSON
type Json = any;

export interface RecordedCall {
  method: string;
  payload: Record<string, Json>;
  /** Epoch ms when the request arrived. */
  at: number;
  /** The envelope answered (`{ ok, result }` or `{ ok: false, error_code, description }`). */
  response?: Json;
}

export interface FakeMessage {
  message_id: number;
  chat_id: number;
  /** Plain text as a client shows it (HTML tags removed, entities decoded). */
  text: string;
  /** The text exactly as the bot sent it. */
  raw: string;
  parse_mode?: string;
  entities: Array<{ type: string; offset: number; length: number; url?: string }>;
  reply_markup?: Json;
  message_thread_id?: number;
  from: 'bot' | 'user';
  date: number;
  edit_date?: number;
  /** How many times the bot edited it. */
  edits: number;
  /** sendPhoto: the bytes uploaded (the caption is `text`/`raw`), with the PNG's size when it is one. */
  photo?: { bytes: Uint8Array; width?: number; height?: number };
  /** sendDocument: the file uploaded, its name as sent (the caption is `text`/`raw`). */
  document?: { bytes: Buffer; filename: string };
}

export interface FakeUserOptions {
  /** `from.language_code`; default `en`. */
  languageCode?: string;
  firstName?: string;
  /** The sender's user id; default the chat id (a private chat). */
  userId?: number;
  /** Posts into a forum topic. */
  threadId?: number;
}

export interface FakeFailure {
  error_code: number;
  description: string;
  retry_after?: number;
}

/**
 * Telegram's flood limits as the fake enforces them (429 with `retry_after` beyond them): the bot's
 * messages in any second, a private chat's rate with a short burst, a group's messages in any minute.
 */
export interface FakeFloodLimits {
  /** Messages the bot may send in any 1 s window (default 30). */
  botPerSecond?: number;
  /** A private chat: a bucket of `privateBurst` messages (default 3) refilled at one a second. */
  privateBurst?: number;
  /** A group: messages in any `groupWindowMs` window (default 20). */
  groupPerMinute?: number;
  /** The group limit's window (default 60 s; a test may shrink it to run Telegram's ratio faster). */
  groupWindowMs?: number;
  /** Paid broadcast (`allow_paid_broadcast`): messages in any 1 s window (default 1000). */
  paidPerSecond?: number;
}

/** Some of the emoji Telegram allows as a reaction (a bot may not use others). */
const REACTION_EMOJI = new Set([
  '👍',
  '👎',
  '❤',
  '🔥',
  '👏',
  '🤔',
  '🎉',
  '🙏',
  '👌',
  '💯',
  '👀',
  '🤝',
  '✍',
  '🫡',
]);

/** Methods that may carry `allow_paid_broadcast`. */
const PAID_METHODS = new Set(['sendMessage', 'sendPhoto', 'sendDocument', 'copyMessage']);

/** Methods that put something into a chat: they count against the flood limits. */
export const FLOOD_COUNTED = new Set([
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

export interface FakeBotApiOptions {
  /** Only this token is accepted (others get 401); default any token. */
  token?: string;
  /** Enforce Telegram's flood limits (`true` for the documented figures). */
  floodLimits?: FakeFloodLimits | true;
  botInfo?: Partial<Json>;
  /** Hard cap for a held `getUpdates`, in seconds, whatever the client asks (default 30). */
  maxPollSeconds?: number;
  /** The bot's Telegram Stars for paid broadcasts (0.1 a message; default: plenty). */
  stars?: number;
}

interface PollWaiter {
  offset: number | undefined;
  limit: number;
  respond: (updates: Json[]) => void;
  conflict: () => void;
}

interface ChatInfo {
  id: number;
  type: 'private' | 'group' | 'supergroup' | 'channel';
  title?: string;
  first_name?: string;
  is_forum?: boolean;
}

const ALLOWED_TAGS: Record<string, string> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  span: 'spoiler',
  a: 'text_link',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
  'tg-emoji': 'custom_emoji',
};

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

class BadRequest extends Error {
  constructor(
    readonly description: string,
    readonly errorCode = 400,
  ) {
    super(description);
  }
}

/** Parses Telegram's HTML subset; throws BadRequest("can't parse entities: …") like the real API. */
export function parseTelegramHtml(html: string): { text: string; entities: FakeMessage['entities'] } {
  let text = '';
  const entities: FakeMessage['entities'] = [];
  const stack: Array<{ tag: string; offset: number; url?: string }> = [];
  let i = 0;
  const fail = (what: string) => {
    throw new BadRequest(
      `Bad Request: can't parse entities: ${what} at byte offset ${Buffer.byteLength(html.slice(0, i))}`,
    );
  };
  while (i < html.length) {
    const ch = html[i];
    if (ch === '<') {
      const m = /^<(\/?)([a-zA-Z][\w-]*)((?:\s+[a-zA-Z-]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))*)\s*>/.exec(
        html.slice(i),
      );
      if (!m) fail(`Unsupported start tag "${html.slice(i + 1, i + 8)}"`);
      const [whole, closing, rawTag, attrs] = m as RegExpExecArray;
      const tag = (rawTag as string).toLowerCase();
      if (!(tag in ALLOWED_TAGS)) fail(`Unsupported ${closing ? 'end' : 'start'} tag "${tag}"`);
      if (closing) {
        const open = stack.pop();
        if (!open || open.tag !== tag) fail(`Unmatched end tag "${tag}"`);
        const o = open as { tag: string; offset: number; url?: string };
        const type = ALLOWED_TAGS[tag] as string;
        if (text.length > o.offset)
          entities.push({
            type,
            offset: o.offset,
            length: text.length - o.offset,
            ...(o.url ? { url: o.url } : {}),
          });
      } else {
        const href = /href\s*=\s*"([^"]*)"/.exec(attrs ?? '')?.[1];
        stack.push({ tag, offset: text.length, ...(href ? { url: decodeEntities(href) } : {}) });
      }
      i += (whole as string).length;
    } else if (ch === '&') {
      const m = /^&(lt|gt|amp|quot|#\d{1,7}|#x[0-9a-fA-F]{1,6});/.exec(html.slice(i, i + 12));
      if (!m) fail('Character entity expected');
      text += decodeEntities((m as RegExpExecArray)[0]);
      i += (m as RegExpExecArray)[0].length;
    } else if (ch === '>') {
      // The real API tolerates a bare '>'.
      text += ch;
      i += 1;
    } else {
      text += ch;
      i += 1;
    }
  }
  if (stack.length) fail(`Can't find end tag corresponding to start tag "${stack[stack.length - 1]?.tag}"`);
  return { text, entities };
}

function decodeEntities(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number.parseInt(e.slice(1), 10));
    return NAMED_ENTITIES[e] ?? '';
  });
}

function validateInlineKeyboard(markup: Json): void {
  if (!markup || typeof markup !== 'object') return;
  if (!('inline_keyboard' in markup)) return;
  if (!Array.isArray(markup.inline_keyboard))
    throw new BadRequest('Bad Request: field "inline_keyboard" must be an Array');
  for (const row of markup.inline_keyboard) {
    if (!Array.isArray(row)) throw new BadRequest('Bad Request: inline keyboard row must be an Array');
    for (const b of row) {
      if (typeof b?.text !== 'string' || b.text === '')
        throw new BadRequest('Bad Request: BUTTON_TEXT_EMPTY');
      if ('callback_data' in b) {
        const len = Buffer.byteLength(String(b.callback_data));
        if (len < 1 || len > 64) throw new BadRequest('Bad Request: BUTTON_DATA_INVALID');
      } else if ('url' in b) {
        try {
          new URL(String(b.url));
        } catch {
          throw new BadRequest('Bad Request: BUTTON_URL_INVALID');
        }
      } else {
        throw new BadRequest(
          "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
        );
      }
    }
  }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fake Bot API server. Create with `await FakeTelegramBotApi.start()`; `close()` when done. */
export class FakeTelegramBotApi {
  /** The API root to give grammY (`client.apiRoot`). */
  url = '';
  /** Every call received, in order. */
  readonly calls: RecordedCall[] = [];
  /** Webhook deliveries made by the fake: the update id and the HTTP status the bot answered. */
  readonly webhookDeliveries: Array<{ updateId: number; status: number }> = [];
  readonly botInfo: Json;

  private server: Server | undefined;
  private readonly events = new EventEmitter();
  private nextUpdateId = 100_000;
  private nextCallbackId = 1;
  private nextThreadId = 1_000;
  private readonly pending: Json[] = [];
  private readonly forced: Json[] = [];
  private readonly delivered = new Map<number, Json>();
  private waiter: PollWaiter | undefined;
  private readonly chats = new Map<number, ChatInfo>();
  private readonly messages = new Map<number, Map<number, FakeMessage>>();
  private readonly nextMessageId = new Map<number, number>();
  private readonly keyboards = new Map<number, Json>();
  private readonly callbackQueries = new Map<string, { answered: boolean; chatId: number }>();
  private readonly commandSets = new Map<string, Json[]>();
  private readonly members = new Map<string, { status: string; user: Json }>();
  private readonly failures: Array<{ method: string; failure: FakeFailure; times: number }> = [];
  private readonly holds = new Map<string, Array<() => void>>();
  private webhookInfo: { url: string; secret_token?: string; allowed_updates?: string[] } | undefined;
  private readonly topics = new Map<number, Array<{ message_thread_id: number; name: string }>>();
  private readonly closedTopics = new Set<string>();
  private readonly pinned = new Map<number, number[]>();
  private readonly reactions = new Map<string, string[]>();
  /** Every reaction the bot set, in order, with when (epoch ms). */
  readonly reactionLog: Array<{ chatId: number; messageId: number; emoji: string; at: number }> = [];
  private readonly blocked = new Set<number>();
  private readonly botSends: number[] = [];
  private readonly paidSends: number[] = [];
  /** Paid messages that went through (each cost 0.1 Star). */
  paidCount = 0;
  private starTenths = Number.POSITIVE_INFINITY;
  private readonly groupSends = new Map<number, number[]>();
  private readonly privateBuckets = new Map<number, { tokens: number; at: number }>();
  /** Calls refused with 429 by the flood limits. */
  floodRefusals = 0;
  /** Calls that counted against the flood limits and went through. */
  floodCounted = 0;

  private constructor(private readonly opts: FakeBotApiOptions) {
    if (opts.stars !== undefined) this.starTenths = Math.round(opts.stars * 10);
    this.botInfo = {
      id: 7_000_000_001,
      is_bot: true,
      first_name: 'Rampchat Test',
      username: 'rampchat_test_bot',
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
      can_connect_to_business: false,
      has_main_web_app: false,
      ...opts.botInfo,
    };
    this.events.setMaxListeners(100);
  }

  static async start(opts: FakeBotApiOptions = {}): Promise<FakeTelegramBotApi> {
    const fake = new FakeTelegramBotApi(opts);
    const server = createServer((req, res) => {
      fake.route(req, res).catch((e) => {
        if (!res.headersSent) res.writeHead(500).end(String(e));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake.server = server;
    fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return fake;
  }

  async close(): Promise<void> {
    this.waiter?.respond([]);
    this.waiter = undefined;
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  // ---------------------------------------------------------------- test API: inbound updates

  /** Queues an update (an `update_id` is assigned when missing) and returns its id. */
  injectUpdate(update: Json): number {
    const u = { ...update, update_id: update.update_id ?? this.nextUpdateId++ };
    this.nextUpdateId = Math.max(this.nextUpdateId, u.update_id + 1);
    this.delivered.set(u.update_id, u);
    if (this.webhookInfo) {
      void this.deliverToWebhook(u);
    } else {
      this.pending.push(u);
      this.pending.sort((a, b) => a.update_id - b.update_id);
      this.wakePoller();
    }
    this.changed();
    return u.update_id;
  }

  /** Sends the same update (same `update_id`) again, as Telegram does after a timeout or a crash. */
  redeliver(updateId: number): void {
    const u = this.delivered.get(updateId);
    if (!u) throw new Error(`No update ${updateId} was ever delivered`);
    if (this.webhookInfo) {
      void this.deliverToWebhook(u);
    } else {
      this.forced.push(u);
      this.wakePoller();
    }
    this.changed();
  }

  /**
   * Calls to `method` get no answer until `release(method)` (a slow Telegram, a handler caught
   * mid-update); a held call whose client went away is never answered.
   */
  hold(method: string): void {
    this.holds.set(method, this.holds.get(method) ?? []);
  }

  /** Answers the held calls to `method` and stops holding it. */
  release(method: string): void {
    const held = this.holds.get(method) ?? [];
    this.holds.delete(method);
    for (const go of held) go();
  }

  /** A user message in a chat (a `/command` gets its bot_command entity). Returns the update id. */
  sendText(chatId: number, text: string, opts: FakeUserOptions = {}): number {
    return this.injectUpdate(this.textUpdate(chatId, text, opts));
  }

  /**
   * The update of a user message (stored in the chat, with its own `update_id`) without queueing
   * it: a test hands it to one replica's bot itself (`bot.handleUpdate`), as a load balancer would.
   */
  textUpdate(chatId: number, text: string, opts: FakeUserOptions = {}): Json {
    const message = this.userMessage(chatId, { text }, opts);
    const cmd = /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(text);
    if (cmd) message.entities = [{ type: 'bot_command', offset: 0, length: cmd[0].length }];
    return { update_id: this.nextUpdateId++, message };
  }

  /** A tap on an inline button of a bot message. Returns the update id. */
  pressButton(chatId: number, messageId: number, data: string, opts: FakeUserOptions = {}): number {
    const stored = this.messages.get(chatId)?.get(messageId);
    const id = String(this.nextCallbackId++);
    this.callbackQueries.set(id, { answered: false, chatId });
    return this.injectUpdate({
      callback_query: {
        id,
        from: this.user(chatId, opts),
        chat_instance: `ci${chatId}`,
        data,
        message: stored
          ? this.wireMessage(stored)
          : { message_id: messageId, date: 0, chat: this.chat(chatId) },
      },
    });
  }

  /** The user shares a contact through the contact button: by default their own (`user_id` = chat id). */
  shareContact(
    chatId: number,
    phone: string,
    opts: FakeUserOptions & { contactUserId?: number | null } = {},
  ): number {
    const from = this.user(chatId, opts);
    const contact: Json = { phone_number: phone, first_name: from.first_name };
    const contactUserId = opts.contactUserId === undefined ? from.id : opts.contactUserId;
    if (contactUserId !== null) contact.user_id = contactUserId;
    return this.injectUpdate({ message: this.userMessage(chatId, { contact }, opts) });
  }

  /** Removes a message as if the user deleted it (later edits answer "message to edit not found"). */
  deleteMessage(chatId: number, messageId: number): void {
    this.messages.get(chatId)?.delete(messageId);
  }

  /** Calls `listener` with every call once it is answered; returns a function that stops it. */
  onCall(listener: (call: RecordedCall) => void): () => void {
    this.events.on('call', listener);
    return () => this.events.off('call', listener);
  }

  /** The bot's messages in a chat as they are now, without copying (read only; for busy runs). */
  peekMessages(chatId: number): readonly FakeMessage[] {
    return [...(this.messages.get(chatId)?.values() ?? [])].filter((m) => m.from === 'bot');
  }

  /** The user blocked the bot: sends to the chat answer 403 from now on. */
  blockChat(chatId: number): void {
    this.blocked.add(chatId);
  }

  /** Makes the next `times` calls of a method fail with this error (e.g. 429 with `retry_after`). */
  failNext(method: string, failure: FakeFailure, times = 1): void {
    this.failures.push({ method, failure, times });
  }

  /** The delivery error getWebhookInfo reports (as Telegram does after a failed webhook post). */
  webhookError: string | undefined;

  /** Describes a chat (default: private for positive ids, supergroup for negative ones). */
  setChat(chat: ChatInfo): void {
    this.chats.set(chat.id, chat);
  }

  /** Sets a member's status for getChatMember / getChatAdministrators. */
  setChatMember(
    chatId: number,
    userId: number,
    status: 'creator' | 'administrator' | 'member' | 'left' | 'kicked',
  ): void {
    this.members.set(`${chatId}:${userId}`, {
      status,
      user: { id: userId, is_bot: false, first_name: `User ${userId}` },
    });
  }

  // ---------------------------------------------------------------- test API: what the bot did

  /** The bot's messages in a chat as the user sees them now (edits applied, deleted ones gone). */
  sentMessages(chatId: number): FakeMessage[] {
    return [...(this.messages.get(chatId)?.values() ?? [])]
      .filter((m) => m.from === 'bot')
      .sort((a, b) => a.message_id - b.message_id)
      .map((m) => structuredClone(m));
  }

  /** The last message the bot sent in a chat. */
  lastMessage(chatId: number): FakeMessage | undefined {
    return this.sentMessages(chatId).at(-1);
  }

  /** Calls of one method, optionally only those for one chat. */
  callsTo(method: string, chatId?: number): RecordedCall[] {
    return this.calls.filter(
      (c) => c.method === method && (chatId === undefined || Number(c.payload.chat_id) === chatId),
    );
  }

  /** The reply keyboard the user currently sees in a chat, if any. */
  replyKeyboard(chatId: number): Json | undefined {
    return this.keyboards.get(chatId);
  }

  /** The command list set for a language (undefined = the default list) and scope type. */
  commands(languageCode?: string, scopeType = 'default'): Json[] | undefined {
    return this.commandSets.get(`${scopeType}:${languageCode ?? ''}`);
  }

  /** The id of the last callback query `pressButton` made. */
  lastCallbackQueryId(): string {
    return String(this.nextCallbackId - 1);
  }

  /** Whether a callback query was answered. */
  callbackAnswered(callbackQueryId: string): boolean {
    return this.callbackQueries.get(callbackQueryId)?.answered ?? false;
  }

  /** The webhook as the bot set it, if any. */
  get webhook(): { url: string; secret_token?: string } | undefined {
    return this.webhookInfo;
  }

  /** Whether a forum topic is closed (closeForumTopic without a later reopenForumTopic). */
  topicClosed(chatId: number, threadId: number): boolean {
    return this.closedTopics.has(`${chatId}:${threadId}`);
  }

  /** Message ids pinned in a chat, in pin order. */
  pinnedMessages(chatId: number): number[] {
    return [...(this.pinned.get(chatId) ?? [])];
  }

  /** The bot's messages in one forum topic, oldest first. */
  topicMessages(chatId: number, threadId: number): FakeMessage[] {
    return this.sentMessages(chatId).filter((m) => m.message_thread_id === threadId);
  }

  /** The bot's reactions on a message (emoji), as set last. */
  reactionsOn(chatId: number, messageId: number): string[] {
    return [...(this.reactions.get(`${chatId}:${messageId}`) ?? [])];
  }

  /** Forum topics created in a chat. */
  forumTopics(chatId: number): Array<{ message_thread_id: number; name: string }> {
    return [...(this.topics.get(chatId) ?? [])];
  }

  /**
   * Resolves with the predicate's first truthy value, re-checking on every call and update; rejects
   * after `timeoutMs` with the recent calls, to make failures readable.
   */
  waitFor<T>(
    predicate: () => T | undefined | null | false,
    timeoutMs = 5000,
    what = 'condition',
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        let value: T | undefined | null | false;
        try {
          value = predicate();
        } catch (e) {
          finish();
          reject(e);
          return;
        }
        if (value) {
          finish();
          resolve(value);
        }
      };
      const finish = () => {
        clearTimeout(timer);
        clearInterval(tick);
        this.events.off('change', check);
      };
      const timer = setTimeout(() => {
        finish();
        const recent = this.calls
          .slice(-8)
          .map((c) => `${c.method} ${JSON.stringify(c.payload).slice(0, 200)}`)
          .join('\n  ');
        reject(new Error(`waitFor(${what}) timed out after ${timeoutMs} ms; last calls:\n  ${recent}`));
      }, timeoutMs);
      const tick = setInterval(check, 25);
      this.events.on('change', check);
      check();
    });
  }

  // ---------------------------------------------------------------- wire

  private changed(): void {
    this.events.emit('change');
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Arrival is when the request came, not when its body was read (later on a starved CPU).
    const at = Date.now();
    const m = /^\/bot([^/]+)\/([A-Za-z]+)\/?(?:\?.*)?$/.exec(req.url ?? '');
    const reply = (status: number, body: Json) => {
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (!m) return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
    const [, token, rawMethod] = m as unknown as [string, string, string];
    const method = rawMethod;
    const body = await readBody(req);
    let payload: Record<string, Json>;
    try {
      payload = parsePayload(body, req.headers['content-type'], req.url ?? '');
    } catch {
      return reply(400, { ok: false, error_code: 400, description: 'Bad Request: invalid JSON body' });
    }
    const call: RecordedCall = { method, payload, at };
    this.calls.push(call);
    const answer = (envelope: Json) => {
      call.response = envelope;
      reply(envelope.ok ? 200 : envelope.error_code, envelope);
      this.events.emit('call', call);
      this.changed();
    };
    if (this.opts.token && token !== this.opts.token) {
      return answer({ ok: false, error_code: 401, description: 'Unauthorized' });
    }
    const failure = this.failures.find((f) => f.method === method && f.times > 0);
    if (failure) {
      failure.times -= 1;
      const f = failure.failure;
      return answer({
        ok: false,
        error_code: f.error_code,
        description: f.description,
        ...(f.retry_after !== undefined ? { parameters: { retry_after: f.retry_after } } : {}),
      });
    }
    if (method === 'getUpdates') return this.getUpdates(payload, res, answer);
    const chatId = Number(payload.chat_id);
    if (FLOOD_COUNTED.has(method) && this.blocked.has(chatId))
      return answer({ ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' });
    const paid = payload.allow_paid_broadcast === true && PAID_METHODS.has(method);
    if (paid && this.starTenths < 1)
      return answer({
        ok: false,
        error_code: 400,
        description: 'Bad Request: not enough Stars for a paid broadcast',
      });
    if (FLOOD_COUNTED.has(method) && this.opts.floodLimits && Number.isFinite(chatId)) {
      const wait = this.floodWait(chatId, call.at, paid);
      if (wait > 0) {
        this.floodRefusals += 1;
        return answer({
          ok: false,
          error_code: 429,
          description: `Too Many Requests: retry after ${wait}`,
          parameters: { retry_after: wait },
        });
      }
      this.floodCounted += 1;
    }
    if (paid) {
      this.paidCount += 1;
      this.starTenths -= 1;
    }
    const held = this.holds.get(method);
    if (held) {
      this.changed();
      await new Promise<void>((go) => held.push(go));
      if (res.destroyed) return;
    }
    try {
      answer({ ok: true, result: this.handle(method, payload) });
    } catch (e) {
      if (e instanceof BadRequest) answer({ ok: false, error_code: e.errorCode, description: e.description });
      else throw e;
    }
  }

  /** Seconds to wait when a send now would break a flood limit; 0 when it may go (and is counted). */
  private floodWait(chatId: number, now: number, paid = false): number {
    const limits = this.opts.floodLimits === true ? {} : (this.opts.floodLimits ?? {});
    // A paid broadcast is outside the bot's free rate, within a rate of its own.
    const perSecond = paid ? (limits.paidPerSecond ?? 1000) : (limits.botPerSecond ?? 30);
    const window = paid ? this.paidSends : this.botSends;
    while (window.length && (window[0] as number) <= now - 1000) window.shift();
    if (window.length >= perSecond) return 1;
    if (chatId < 0) {
      const windowMs = limits.groupWindowMs ?? 60_000;
      const sends = (this.groupSends.get(chatId) ?? []).filter((t) => t > now - windowMs);
      if (sends.length >= (limits.groupPerMinute ?? 20))
        return Math.max(1, Math.ceil(((sends[0] as number) + windowMs - now) / 1000));
      sends.push(now);
      this.groupSends.set(chatId, sends);
    } else {
      const burst = limits.privateBurst ?? 3;
      const b = this.privateBuckets.get(chatId) ?? { tokens: burst, at: now };
      b.tokens = Math.min(burst, b.tokens + (now - b.at) / 1000);
      b.at = now;
      if (b.tokens < 1) {
        this.privateBuckets.set(chatId, b);
        return Math.max(1, Math.ceil(1 - b.tokens));
      }
      b.tokens -= 1;
      this.privateBuckets.set(chatId, b);
    }
    window.push(now);
    return 0;
  }

  private getUpdates(
    payload: Record<string, Json>,
    res: ServerResponse,
    answer: (envelope: Json) => void,
  ): void {
    if (this.webhookInfo) {
      answer({
        ok: false,
        error_code: 409,
        description:
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      });
      return;
    }
    const offset = payload.offset === undefined ? undefined : Number(payload.offset);
    const limit = Math.min(100, Math.max(1, Number(payload.limit ?? 100)));
    const timeout = Math.min(this.opts.maxPollSeconds ?? 30, Math.max(0, Number(payload.timeout ?? 0)));
    this.waiter?.conflict();
    this.confirm(offset);
    const ready = this.take(offset, limit);
    if (ready.length || timeout === 0) {
      answer({ ok: true, result: ready });
      return;
    }

    let timer: NodeJS.Timeout | undefined;
    const waiter: PollWaiter = {
      offset,
      limit,
      respond: (updates) => {
        clearTimeout(timer);
        if (this.waiter === waiter) this.waiter = undefined;
        answer({ ok: true, result: updates });
      },
      conflict: () => {
        clearTimeout(timer);
        if (this.waiter === waiter) this.waiter = undefined;
        answer({
          ok: false,
          error_code: 409,
          description:
            'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
        });
      },
    };
    this.waiter = waiter;
    timer = setTimeout(() => waiter.respond([]), timeout * 1000);
    res.on('close', () => {
      if (!res.writableEnded) {
        clearTimeout(timer);
        if (this.waiter === waiter) this.waiter = undefined;
      }
    });
  }

  private confirm(offset: number | undefined): void {
    if (offset === undefined) return;
    if (offset < 0) {
      this.pending.splice(0, Math.max(0, this.pending.length + offset));
      return;
    }
    while (this.pending.length && (this.pending[0] as Json).update_id < offset) this.pending.shift();
  }

  private take(offset: number | undefined, limit: number): Json[] {
    const forced = this.forced.splice(0, limit);
    const rest = this.pending.filter((u) => offset === undefined || offset < 0 || u.update_id >= offset);
    return [...forced, ...rest].slice(0, limit);
  }

  private wakePoller(): void {
    const w = this.waiter;
    if (!w) return;
    const ready = this.take(w.offset, w.limit);
    if (ready.length) w.respond(ready);
  }

  private async deliverToWebhook(update: Json): Promise<void> {
    const hook = this.webhookInfo;
    if (!hook) return;
    let status = 0;
    try {
      const res = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(hook.secret_token ? { 'x-telegram-bot-api-secret-token': hook.secret_token } : {}),
        },
        body: JSON.stringify(update),
      });
      status = res.status;
      await res.arrayBuffer();
    } catch {
      status = 0;
    }
    this.webhookDeliveries.push({ updateId: update.update_id, status });
    this.changed();
  }

  // ---------------------------------------------------------------- methods

  private handle(method: string, p: Record<string, Json>): Json {
    switch (method) {
      case 'getMe':
        return this.botInfo;
      case 'logOut':
      case 'close':
        return true;
      case 'sendMessage':
        return this.wireMessage(this.storeBotMessage(p));
      case 'sendPhoto':
        return this.wireMessage(this.storePhoto(p));
      case 'sendDocument':
        return this.wireMessage(this.storeDocument(p));
      case 'editMessageText':
        return this.editMessageText(p);
      case 'editMessageReplyMarkup':
        return this.editMessageReplyMarkup(p);
      case 'editMessageMedia':
        return this.editMessageMedia(p);
      case 'deleteMessage': {
        const chatId = this.chatIdOf(p);
        const msgs = this.messages.get(chatId);
        if (!msgs?.delete(Number(p.message_id)))
          throw new BadRequest('Bad Request: message to delete not found');
        return true;
      }
      case 'answerCallbackQuery': {
        const q = this.callbackQueries.get(String(p.callback_query_id));
        if (!q || q.answered)
          throw new BadRequest(
            'Bad Request: query is too old and response timeout expired or query ID is invalid',
          );
        q.answered = true;
        return true;
      }
      case 'sendChatAction':
        this.chatIdOf(p);
        return true;
      case 'setMessageReaction':
        return this.react(p);
      case 'setMyCommands': {
        if (!Array.isArray(p.commands))
          throw new BadRequest('Bad Request: field "commands" must be an Array');
        for (const c of p.commands) {
          if (!/^[a-z0-9_]{1,32}$/.test(String(c?.command)))
            throw new BadRequest('Bad Request: BOT_COMMAND_INVALID');
          const d = String(c?.description ?? '');
          if (d.length < 1 || d.length > 256)
            throw new BadRequest('Bad Request: BOT_COMMAND_DESCRIPTION_INVALID');
        }
        this.commandSets.set(this.commandKey(p), p.commands);
        return true;
      }
      case 'getMyCommands':
        return this.commandSets.get(this.commandKey(p)) ?? [];
      case 'deleteMyCommands':
        this.commandSets.delete(this.commandKey(p));
        return true;
      case 'setWebhook': {
        const url = String(p.url ?? '');
        if (url === '') {
          this.webhookInfo = undefined;
          return true;
        }
        if (
          !url.startsWith('https://') &&
          !url.startsWith('http://127.0.0.1') &&
          !url.startsWith('http://localhost')
        )
          throw new BadRequest('Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
        this.webhookInfo = {
          url,
          ...(p.secret_token ? { secret_token: String(p.secret_token) } : {}),
          ...(p.allowed_updates ? { allowed_updates: p.allowed_updates } : {}),
        };
        if (p.drop_pending_updates) this.pending.length = 0;
        for (const u of this.pending.splice(0)) void this.deliverToWebhook(u);
        return true;
      }
      case 'deleteWebhook':
        this.webhookInfo = undefined;
        if (p.drop_pending_updates) this.pending.length = 0;
        return true;
      case 'getWebhookInfo':
        return {
          url: this.webhookInfo?.url ?? '',
          has_custom_certificate: false,
          pending_update_count: this.pending.length,
          ...(this.webhookError
            ? {
                last_error_date: Math.floor(Date.now() / 1000) - 60,
                last_error_message: this.webhookError,
              }
            : {}),
        };
      case 'getChat': {
        const chat = this.chat(this.chatIdOf(p));
        return { ...chat, accent_color_id: 0, max_reaction_count: 11, accepted_gift_types: {} };
      }
      case 'createForumTopic': {
        const chatId = this.chatIdOf(p);
        const chat = this.chat(chatId);
        if (!chat.is_forum) throw new BadRequest('Bad Request: the chat is not a forum');
        const name = String(p.name ?? '');
        if (name.length < 1 || name.length > 128) throw new BadRequest('Bad Request: TOPIC_NAME_INVALID');
        const topic = { message_thread_id: this.nextThreadId++, name };
        this.topics.set(chatId, [...(this.topics.get(chatId) ?? []), topic]);
        return { ...topic, icon_color: Number(p.icon_color ?? 7322096) };
      }
      case 'closeForumTopic':
      case 'reopenForumTopic': {
        const chatId = this.chatIdOf(p);
        const threadId = Number(p.message_thread_id);
        const key = `${chatId}:${threadId}`;
        if (this.topics.get(chatId)?.some((t) => t.message_thread_id === threadId)) {
          if (method === 'closeForumTopic') this.closedTopics.add(key);
          else this.closedTopics.delete(key);
        }
        return true;
      }
      case 'editForumTopic': {
        const chatId = this.chatIdOf(p);
        const threadId = Number(p.message_thread_id);
        if (typeof p.name === 'string')
          for (const t of this.topics.get(chatId) ?? [])
            if (t.message_thread_id === threadId) t.name = p.name;
        return true;
      }
      case 'pinChatMessage': {
        const chatId = this.chatIdOf(p);
        if (!this.messages.get(chatId)?.has(Number(p.message_id)))
          throw new BadRequest('Bad Request: message to pin not found');
        this.pinned.set(chatId, [...(this.pinned.get(chatId) ?? []), Number(p.message_id)]);
        return true;
      }
      case 'getChatMember': {
        const chatId = this.chatIdOf(p);
        const userId = Number(p.user_id);
        return (
          this.members.get(`${chatId}:${userId}`) ?? {
            status: 'left',
            user: { id: userId, is_bot: false, first_name: `User ${userId}` },
          }
        );
      }
      case 'getChatAdministrators': {
        const chatId = this.chatIdOf(p);
        return [...this.members.entries()]
          .filter(
            ([k, v]) =>
              k.startsWith(`${chatId}:`) && (v.status === 'administrator' || v.status === 'creator'),
          )
          .map(([, v]) => v);
      }
      default:
        throw new BadRequest(`Not Found: method ${method} is not implemented by the fake`, 404);
    }
  }

  private commandKey(p: Record<string, Json>): string {
    return `${p.scope?.type ?? 'default'}:${p.language_code ?? ''}`;
  }

  private chatIdOf(p: Record<string, Json>): number {
    const id = Number(p.chat_id);
    if (!Number.isSafeInteger(id) || id === 0) throw new BadRequest('Bad Request: chat not found');
    return id;
  }

  private chat(chatId: number): ChatInfo {
    return (
      this.chats.get(chatId) ??
      (chatId > 0
        ? { id: chatId, type: 'private', first_name: `User ${chatId}` }
        : { id: chatId, type: 'supergroup', title: `Group ${chatId}` })
    );
  }

  private user(chatId: number, opts: FakeUserOptions): Json {
    const id = opts.userId ?? chatId;
    return {
      id,
      is_bot: false,
      first_name: opts.firstName ?? `User ${id}`,
      language_code: opts.languageCode ?? 'en',
    };
  }

  private allocateId(chatId: number): number {
    const id = this.nextMessageId.get(chatId) ?? 1;
    this.nextMessageId.set(chatId, id + 1);
    return id;
  }

  private userMessage(chatId: number, content: Json, opts: FakeUserOptions): Json {
    const message_id = this.allocateId(chatId);
    const date = Math.floor(Date.now() / 1000);
    const stored: FakeMessage = {
      message_id,
      chat_id: chatId,
      text: content.text ?? '',
      raw: content.text ?? '',
      entities: [],
      from: 'user',
      date,
      edits: 0,
      ...(opts.threadId ? { message_thread_id: opts.threadId } : {}),
    };
    this.chatMessages(chatId).set(message_id, stored);
    return {
      message_id,
      from: this.user(chatId, opts),
      chat: this.chat(chatId),
      date,
      ...(opts.threadId ? { message_thread_id: opts.threadId, is_topic_message: true } : {}),
      ...content,
    };
  }

  private chatMessages(chatId: number): Map<number, FakeMessage> {
    let msgs = this.messages.get(chatId);
    if (!msgs) {
      msgs = new Map();
      this.messages.set(chatId, msgs);
    }
    return msgs;
  }

  private render(p: Record<string, Json>): { text: string; raw: string; entities: FakeMessage['entities'] } {
    const raw = String(p.text ?? '');
    if (raw.trim() === '') throw new BadRequest('Bad Request: message text is empty');
    const mode = p.parse_mode === undefined ? undefined : String(p.parse_mode).toLowerCase();
    if (mode !== undefined && mode !== 'html')
      throw new BadRequest(`Bad Request: the fake only implements HTML parse mode, not ${p.parse_mode}`);
    const parsed = mode === 'html' ? parseTelegramHtml(raw) : { text: raw, entities: [] };
    if (parsed.text.length > 4096) throw new BadRequest('Bad Request: message is too long');
    return { ...parsed, raw };
  }

  /** A picture with an optional HTML caption (at most 1024 characters); only uploads are taken. */
  private storePhoto(p: Record<string, Json>): FakeMessage {
    const upload = p.photo as Upload | undefined;
    if (!upload?.bytes) throw new BadRequest('Bad Request: the fake only takes photos uploaded as files');
    if (upload.bytes.length > 10 * 1024 * 1024) throw new BadRequest('Bad Request: PHOTO_INVALID_DIMENSIONS');
    const caption = String(p.caption ?? '');
    const rendered = caption.trim()
      ? this.render({ ...p, text: caption })
      : { text: '', raw: '', entities: [] };
    if (rendered.text.length > 1024) throw new BadRequest('Bad Request: message caption is too long');
    const png = upload.bytes.subarray(0, 8).equals(PNG_SIGNATURE);
    const msg = this.storeBotMessage({
      ...p,
      text: caption.trim() ? caption : '\u2063',
      parse_mode: p.parse_mode,
    });
    Object.assign(msg, rendered, {
      photo: {
        bytes: upload.bytes,
        ...(png ? { width: upload.bytes.readUInt32BE(16), height: upload.bytes.readUInt32BE(20) } : {}),
      },
    });
    return msg;
  }

  /** A file with an optional HTML caption: uploaded (not a file id or URL), named, at most 50 MB. */
  private storeDocument(p: Record<string, Json>): FakeMessage {
    const upload = p.document as Upload | undefined;
    if (!upload?.bytes) throw new BadRequest('Bad Request: the fake only takes documents uploaded as files');
    if (upload.bytes.length > 50 * 1024 * 1024) throw new BadRequest('Bad Request: file is too big');
    if (!upload.bytes.length) throw new BadRequest('Bad Request: file must be non-empty');
    if (!upload.filename?.trim()) throw new BadRequest('Bad Request: the document needs a file name');
    const caption = String(p.caption ?? '');
    const rendered = caption.trim()
      ? this.render({ ...p, text: caption })
      : { text: '', raw: '', entities: [] };
    if (rendered.text.length > 1024) throw new BadRequest('Bad Request: message caption is too long');
    const msg = this.storeBotMessage({
      ...p,
      text: caption.trim() ? caption : '\u2063',
      parse_mode: p.parse_mode,
    });
    Object.assign(msg, rendered, { document: { bytes: upload.bytes, filename: upload.filename } });
    return msg;
  }

  private storeBotMessage(p: Record<string, Json>): FakeMessage {
    const chatId = this.chatIdOf(p);
    const rendered = this.render(p);
    const markup = p.reply_markup;
    validateInlineKeyboard(markup);
    if (markup?.keyboard) this.keyboards.set(chatId, markup);
    if (markup?.remove_keyboard) this.keyboards.delete(chatId);
    const msg: FakeMessage = {
      message_id: this.allocateId(chatId),
      chat_id: chatId,
      ...rendered,
      ...(p.parse_mode ? { parse_mode: String(p.parse_mode) } : {}),
      ...(markup ? { reply_markup: markup } : {}),
      ...(p.message_thread_id ? { message_thread_id: Number(p.message_thread_id) } : {}),
      from: 'bot',
      date: Math.floor(Date.now() / 1000),
      edits: 0,
    };
    this.chatMessages(chatId).set(msg.message_id, msg);
    return msg;
  }

  private editable(p: Record<string, Json>): FakeMessage {
    const chatId = this.chatIdOf(p);
    const msg = this.messages.get(chatId)?.get(Number(p.message_id));
    if (!msg) throw new BadRequest('Bad Request: message to edit not found');
    if (msg.from !== 'bot') throw new BadRequest("Bad Request: message can't be edited");
    if (msg.reply_markup && !msg.reply_markup.inline_keyboard)
      throw new BadRequest("Bad Request: message can't be edited");
    return msg;
  }

  private editMessageText(p: Record<string, Json>): Json {
    const msg = this.editable(p);
    const rendered = this.render(p);
    validateInlineKeyboard(p.reply_markup);
    if (p.reply_markup && !p.reply_markup.inline_keyboard)
      throw new BadRequest('Bad Request: only inline keyboards can be used when editing a message');
    if (
      rendered.text === msg.text &&
      sameJson(rendered.entities, msg.entities) &&
      sameJson(p.reply_markup, msg.reply_markup)
    )
      throw new BadRequest(
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    Object.assign(msg, rendered, { edit_date: Math.floor(Date.now() / 1000), edits: msg.edits + 1 });
    if (p.reply_markup) msg.reply_markup = p.reply_markup;
    else delete msg.reply_markup;
    return this.wireMessage(msg);
  }

  /** setMessageReaction: a bot may set one of the standard emoji on any message it can see. */
  private react(p: Record<string, Json>): true {
    const chatId = this.chatIdOf(p);
    if (!this.messages.get(chatId)?.has(Number(p.message_id)))
      throw new BadRequest('Bad Request: message to react not found');
    const list = (Array.isArray(p.reaction) ? p.reaction : []) as Array<{ type?: string; emoji?: string }>;
    if (list.length > 1) throw new BadRequest('Bad Request: REACTIONS_TOO_MANY');
    for (const r of list)
      if (r.type !== 'emoji' || !REACTION_EMOJI.has(String(r.emoji)))
        throw new BadRequest('Bad Request: REACTION_INVALID');
    const messageId = Number(p.message_id);
    this.reactions.set(
      `${chatId}:${messageId}`,
      list.map((r) => String(r.emoji)),
    );
    for (const r of list)
      this.reactionLog.push({ chatId, messageId, emoji: String(r.emoji), at: Date.now() });
    return true;
  }

  /** A bot's picture or document replaced by an uploaded photo and its caption (InputMediaPhoto). */
  private editMessageMedia(p: Record<string, Json>): Json {
    const msg = this.editable(p);
    if (!msg.photo && !msg.document)
      throw new BadRequest('Bad Request: there is no media in the message to edit');
    const media = p.media as {
      type?: string;
      media?: Upload | string;
      caption?: string;
      parse_mode?: string;
    };
    if (!media || typeof media !== 'object') throw new BadRequest('Bad Request: media not specified');
    if (media.type !== 'photo') throw new BadRequest('Bad Request: the fake only takes a photo here');
    const upload = typeof media.media === 'object' ? media.media : undefined;
    if (!upload?.bytes) throw new BadRequest('Bad Request: the fake only takes photos uploaded as files');
    if (upload.bytes.length > 10 * 1024 * 1024) throw new BadRequest('Bad Request: PHOTO_INVALID_DIMENSIONS');
    validateInlineKeyboard(p.reply_markup);
    if (p.reply_markup && !p.reply_markup.inline_keyboard)
      throw new BadRequest('Bad Request: only inline keyboards can be used when editing a message');
    const caption = String(media.caption ?? '');
    const rendered = caption.trim()
      ? this.render({ text: caption, parse_mode: media.parse_mode ?? null })
      : { text: '', raw: '', entities: [] };
    if (rendered.text.length > 1024) throw new BadRequest('Bad Request: message caption is too long');
    if (
      msg.photo &&
      Buffer.from(msg.photo.bytes).equals(upload.bytes) &&
      rendered.text === msg.text &&
      sameJson(p.reply_markup, msg.reply_markup)
    )
      throw new BadRequest(
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    const png = upload.bytes.subarray(0, 8).equals(PNG_SIGNATURE);
    Object.assign(msg, rendered, {
      photo: {
        bytes: upload.bytes,
        ...(png ? { width: upload.bytes.readUInt32BE(16), height: upload.bytes.readUInt32BE(20) } : {}),
      },
      edit_date: Math.floor(Date.now() / 1000),
      edits: msg.edits + 1,
    });
    delete msg.document;
    if (p.reply_markup) msg.reply_markup = p.reply_markup;
    else delete msg.reply_markup;
    return this.wireMessage(msg);
  }

  private editMessageReplyMarkup(p: Record<string, Json>): Json {
    const msg = this.editable(p);
    validateInlineKeyboard(p.reply_markup);
    if (sameJson(p.reply_markup, msg.reply_markup))
      throw new BadRequest(
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    if (p.reply_markup) msg.reply_markup = p.reply_markup;
    else delete msg.reply_markup;
    msg.edits += 1;
    return this.wireMessage(msg);
  }

  private wireMessage(m: FakeMessage): Json {
    return {
      message_id: m.message_id,
      ...(m.from === 'bot' ? { from: this.botInfo } : {}),
      chat: this.chat(m.chat_id),
      date: m.date,
      ...(m.edit_date ? { edit_date: m.edit_date } : {}),
      ...(m.message_thread_id ? { message_thread_id: m.message_thread_id, is_topic_message: true } : {}),
      ...(m.photo
        ? {
            photo: [
              {
                file_id: `photo-${m.chat_id}-${m.message_id}`,
                file_unique_id: `p${m.message_id}`,
                width: m.photo.width ?? 0,
                height: m.photo.height ?? 0,
                file_size: m.photo.bytes.length,
              },
            ],
            ...(m.text ? { caption: m.text } : {}),
          }
        : m.document
          ? {
              document: {
                file_id: `doc-${m.chat_id}-${m.message_id}`,
                file_unique_id: `d${m.message_id}`,
                file_name: m.document.filename,
                file_size: m.document.bytes.length,
              },
              ...(m.text ? { caption: m.text } : {}),
            }
          : { text: m.text }),
      ...(m.entities.length ? { [m.photo || m.document ? 'caption_entities' : 'entities']: m.entities } : {}),
      ...(m.reply_markup?.inline_keyboard ? { reply_markup: m.reply_markup } : {}),
    };
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/** A file sent in a multipart request, where its field said `attach://<name>`. */
interface Upload {
  bytes: Buffer;
  filename?: string;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** multipart/form-data as grammY sends it: objects as JSON text, files as parts named in `attach://`. */
function parseMultipart(body: Buffer, contentType: string): Record<string, Json> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) throw new Error('multipart without a boundary');
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const fields: Record<string, Json> = {};
  const files: Record<string, Upload> = {};
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, split).toString('utf8');
    const content = part.subarray(split + 4);
    const name = /name="([^"]*)"/.exec(head)?.[1] ?? '';
    const file = /filename=(?:"([^"]*)"|([^;\r\n]*))/.exec(head);
    const filename = file ? (file[1] ?? file[2]) : undefined;
    if (filename !== undefined) files[name] = { bytes: Buffer.from(content), filename };
    else {
      const text = content.toString('utf8');
      fields[name] = /^[[{]/.test(text) ? JSON.parse(text) : text;
    }
    at = next;
  }
  const attached = (v: Json) => {
    const ref = typeof v === 'string' ? /^attach:\/\/(.+)$/.exec(v)?.[1] : undefined;
    return ref ? files[ref] : undefined;
  };
  for (const [k, v] of Object.entries(fields)) {
    const file = attached(v);
    if (file) fields[k] = file as unknown as Json;
    // An InputMedia (editMessageMedia): its `media` names the file.
    const media = v && typeof v === 'object' && !Array.isArray(v) ? attached(v.media) : undefined;
    if (media) (v as Record<string, Json>).media = media as unknown as Json;
  }
  return fields;
}

function parsePayload(raw: Buffer, contentType: string | undefined, url: string): Record<string, Json> {
  const query = Object.fromEntries(new URL(url, 'http://x').searchParams);
  if (!raw.length) return query;
  if (contentType?.includes('multipart/form-data')) return { ...query, ...parseMultipart(raw, contentType) };
  const body = raw.toString('utf8');
  if (contentType?.includes('application/json')) return { ...query, ...JSON.parse(body) };
  if (contentType?.includes('application/x-www-form-urlencoded'))
    return { ...query, ...Object.fromEntries(new URLSearchParams(body)) };
  throw new Error(`unsupported content type ${contentType}`);
}
