/**
 * The WhatsApp channel over baileys (an unofficial WhatsApp Web client): one paced, leased
 * connection per number, auth state in Redis, numbered text menus instead of buttons.
 */
import { EventEmitter } from 'node:events';
import makeWASocket, {
  type BaileysEventEmitter,
  type BaileysEventMap,
  DisconnectReason,
  isLidUser,
  isPnUser,
  jidDecode,
  makeCacheableSignalKeyStore,
  type UserFacingSocketConfig,
  type WAMessage,
} from '@whiskeysockets/baileys';
import { Registry } from 'prom-client';
import qrcode from 'qrcode-terminal';
import type { Locale, OutMessage, UserRef } from '../../chat/types.js';
import { normalizeKenyanPhone } from '../../domain/phone.js';
import type { Input } from '../../flows/types.js';
import type { Logger } from '../../log/logger.js';
import type { ChannelAdapter, Conversation } from '../types.js';
import { loadRedisAuthState, type RedisAuthState } from './auth-state.js';
import { createIdentities } from './identity.js';
import { isFromPerson, readIncoming } from './inbound.js';
import { createLease } from './lease.js';
import { chooseFromMenu, menuSchema, renderMessage, type Translator } from './menu.js';
import {
  CONNECTION_STATES,
  type ConnectionState,
  createWhatsAppMetrics,
  type WhatsAppMetrics,
} from './metrics.js';
import { createPacer, type PacingOptions } from './pacer.js';
import { type WhatsAppRedis, whatsappKeys } from './redis.js';

/** The part of a baileys socket the channel uses (a test can hand in a recording fake). */
export interface WhatsAppSocket {
  readonly ev: BaileysEventEmitter;
  sendMessage(jid: string, content: { text: string }): Promise<unknown>;
  end(error: Error | undefined): unknown;
  requestPairingCode(phoneNumber: string): Promise<string>;
  readonly signalRepository?: { lidMapping?: { getPNForLID(lid: string): Promise<string | null> } };
}

export type MakeWhatsAppSocket = (config: UserFacingSocketConfig) => WhatsAppSocket;

export interface WhatsAppChannelOptions {
  conversation: Conversation;
  i18n: Translator;
  redis: WhatsAppRedis;
  logger: Logger;
  /** Names this number's keys and metrics (the bot's own number, or any name). Default `default`. */
  numberId?: string;
  /** Prefix of every Redis key. Default `rampchat:wa:`. */
  keyPrefix?: string;
  /** Pair with an 8-character code for this phone number instead of a QR code. */
  pairingNumber?: string;
  /** WhatsApp Web socket URL (tests point it at a local server). */
  socketUrl?: string;
  registry?: Registry;
  makeSocket?: MakeWhatsAppSocket;
  pacing?: PacingOptions;
  /** Reconnection backoff: `baseMs * 2^attempt`, capped at `maxMs`, with jitter. */
  reconnect?: { baseMs?: number; maxMs?: number };
  /** The number's lease: its time to live and how often a waiting instance tries to take it. */
  lease?: { ttlMs?: number; retryMs?: number };
  /** How long a numbered menu can be answered. Default one day. */
  menuTtlSeconds?: number;
  /** How long `send` waits for a connection before failing. Default 60 s. */
  sendTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Shows a QR code to scan (default: printed in the terminal). */
  onQr?: (qr: string) => void;
  /** Shows the pairing code to type on the phone (default: printed in the terminal). */
  onPairingCode?: (code: string) => void;
  /** Baileys' own log level (default `warn`). */
  baileysLogLevel?: string;
}

export interface WhatsAppChannelEvents {
  state: [ConnectionState];
  reconnect: [{ attempt: number; delayMs: number; code: number }];
  loggedOut: [];
  leaseLost: [];
}

export interface WhatsAppChannel {
  readonly adapter: ChannelAdapter;
  /** Starts connecting in the background (waiting for the lease if another instance holds it). */
  start(): Promise<void>;
  /** Closes the connection (without logging out) and releases the lease. */
  stop(): Promise<void>;
  readonly state: ConnectionState;
  /** Resolves once every message received so far has been handed on (or answered). */
  idle(): Promise<void>;
  readonly events: EventEmitter<WhatsAppChannelEvents>;
  readonly metrics: WhatsAppMetrics;
}

const statusCode = (error: unknown): number =>
  (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode ??
  DisconnectReason.connectionClosed;

const userOf = (jid: string | undefined): string | undefined => (jid ? jidDecode(jid)?.user : undefined);

/** Creates the WhatsApp channel; call `start()` to connect. */
export function createWhatsAppChannel(opts: WhatsAppChannelOptions): WhatsAppChannel {
  const { conversation, i18n, redis, logger } = opts;
  const numberId = opts.numberId ?? 'default';
  const keys = whatsappKeys(opts.keyPrefix ?? 'rampchat:wa:', numberId);
  const identities = createIdentities(redis, keys);
  const pacer = createPacer(opts.pacing);
  const metrics = createWhatsAppMetrics(opts.registry ?? new Registry());
  const events = new EventEmitter<WhatsAppChannelEvents>();
  const log = logger.child({ channel: 'whatsapp', numberId });
  const baileysLogger = logger.child(
    { module: 'baileys' },
    { level: opts.baileysLogLevel ?? (logger.levelVal > 40 ? logger.level : 'warn') },
  );
  const makeSocket: MakeWhatsAppSocket = opts.makeSocket ?? ((config) => makeWASocket(config));
  const leaseTtlMs = opts.lease?.ttlMs ?? 30_000;
  const leaseRetryMs = opts.lease?.retryMs ?? 5_000;
  const lease = createLease(redis, keys.lease, leaseTtlMs);
  const backoffBaseMs = opts.reconnect?.baseMs ?? 1_000;
  const backoffMaxMs = opts.reconnect?.maxMs ?? 60_000;
  const menuTtlSeconds = opts.menuTtlSeconds ?? 86_400;
  const sendTimeoutMs = opts.sendTimeoutMs ?? 60_000;
  const onQr =
    opts.onQr ??
    ((qr: string) => {
      log.info('Scan this QR code with WhatsApp on the phone (Settings > Linked devices > Link a device)');
      qrcode.generate(qr, { small: true });
    });
  const onPairingCode =
    opts.onPairingCode ??
    ((code: string) => {
      log.info(
        'Type the pairing code shown in the terminal on the phone (Linked devices > Link with phone number)',
      );
      process.stdout.write(`WhatsApp pairing code: ${code.slice(0, 4)}-${code.slice(4)}\n`);
    });

  let state: ConnectionState = 'stopped';
  let stopped = true;
  let loop: Promise<void> | undefined;
  let socket: WhatsAppSocket | undefined;
  let openSocket: WhatsAppSocket | undefined;
  let openWaiters: Array<{ resolve: (s: WhatsAppSocket) => void; reject: (e: Error) => void }> = [];
  let wake: (() => void) | undefined;
  let leaseLost = false;
  let renewTimer: NodeJS.Timeout | undefined;
  let attempt = 0;
  const userQueues = new Map<string, Promise<void>>();

  function setState(next: ConnectionState): void {
    state = next;
    for (const s of CONNECTION_STATES)
      metrics.connectionState.set({ number: numberId, state: s }, s === next ? 1 : 0);
    events.emit('state', next);
  }
  setState('stopped');

  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  }

  function whenOpen(): Promise<WhatsAppSocket> {
    if (openSocket) return Promise.resolve(openSocket);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        openWaiters = openWaiters.filter((w) => w !== waiter);
        reject(new Error(`WhatsApp is not connected (waited ${sendTimeoutMs} ms)`));
      }, sendTimeoutMs);
      const waiter = {
        resolve: (s: WhatsAppSocket) => {
          clearTimeout(timer);
          resolve(s);
        },
        reject: (e: Error) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      openWaiters.push(waiter);
    });
  }

  /** Sends in the chat's turn; `afterSent` runs once WhatsApp took the message. */
  function deliver(jid: string, text: string, afterSent?: () => Promise<unknown>): Promise<void> {
    return pacer.enqueue(jid, async () => {
      const s = await whenOpen();
      await s.sendMessage(jid, { text });
      await afterSent?.();
    });
  }

  async function lastLocale(phone: string): Promise<Locale> {
    const stored: string | null = await redis.hGet(keys.locales, phone);
    return stored === 'sw' ? 'sw' : 'en';
  }

  // ---- outbound ----

  const adapter: ChannelAdapter = {
    name: 'whatsapp',
    capabilities: { editMessages: false, buttons: false },
    async send(userId: string, message: OutMessage, locale: Locale): Promise<void> {
      if (!(await identities.isContact(userId))) {
        metrics.refusedSends.inc({ number: numberId });
        log.warn({ phone: userId }, 'Not sending: this WhatsApp user never wrote to us first');
        return;
      }
      const { text, menu } = renderMessage(message, locale, i18n);
      await redis.hSet(keys.locales, userId, locale);
      // The menu answers are read against is the last one the user could see: saved once sent. A
      // notice's lettered choices are kept apart, so they never change what a typed number means.
      const saveMenu = menu
        ? () =>
            redis.set((menu.lettered ? keys.noticeMenu : keys.menu)(userId), JSON.stringify(menu), {
              expiration: { type: 'EX', value: menuTtlSeconds },
            })
        : undefined;
      await deliver(`${userId}@s.whatsapp.net`, text, saveMenu);
    },
  };

  // ---- inbound ----

  /** The sender's phone number, learning LID mappings on the way; undefined when WhatsApp hides it. */
  async function senderPhone(msg: WAMessage, s: WhatsAppSocket): Promise<string | undefined> {
    const jid = msg.key.remoteJid!;
    const alt = msg.key.remoteJidAlt;
    if (isPnUser(jid)) {
      const phone = userOf(jid)!;
      const lid = isLidUser(alt) ? userOf(alt) : undefined;
      if (lid) await identities.rememberLid(lid, phone);
      return phone;
    }
    const lid = userOf(jid)!;
    let phone = isPnUser(alt) ? userOf(alt) : undefined;
    if (!phone) {
      phone = await identities.phoneForLid(lid);
      if (phone) return phone;
      const pn = await s.signalRepository?.lidMapping?.getPNForLID(jid).catch(() => null);
      phone = userOf(pn ?? undefined);
    }
    if (phone) await identities.rememberLid(lid, phone);
    return phone;
  }

  /** A corrupt stored menu reads as no menu, so the text still reaches the conversation. */
  function parseJsonOrUndefined(raw: string): unknown {
    try {
      return JSON.parse(raw);
    } catch {
      log.warn('a stored WhatsApp menu is not JSON; reading the message as text');
      return undefined;
    }
  }

  async function toInput(phone: string, input: Input): Promise<Input> {
    if (input.kind !== 'text') return input;
    const [question, notice] = await Promise.all([
      redis.get(keys.menu(phone)),
      redis.get(keys.noticeMenu(phone)),
    ]);
    const read = (raw: string | null) => {
      if (!raw) return undefined;
      const parsed = menuSchema.safeParse(parseJsonOrUndefined(raw));
      return parsed.success ? parsed.data : undefined;
    };
    const id = chooseFromMenu(input.text, read(question), read(notice));
    return id ? { kind: 'button', id } : input;
  }

  /**
   * Reads a message as it arrives: who wrote, and what they meant given the menu they had seen
   * then. Returns what to do, run later in the user's order.
   */
  async function prepare(msg: WAMessage, s: WhatsAppSocket): Promise<(() => Promise<void>) | undefined> {
    if (!isFromPerson(msg)) return undefined;
    const incoming = readIncoming(msg);
    if (!incoming) return undefined;
    const phone = await senderPhone(msg, s);
    if (!phone) {
      const chat = msg.key.remoteJid!;
      return async () => {
        log.warn('A WhatsApp user wrote from a hidden number (LID only); asked them to show it');
        await deliver(chat, i18n.t('en', { id: 'wa-number-hidden' }));
      };
    }
    await identities.addContact(phone);
    if (incoming.kind === 'unsupported') {
      const locale = await lastLocale(phone);
      return () => deliver(`${phone}@s.whatsapp.net`, i18n.t(locale, { id: 'wa-text-only' }));
    }
    const user: UserRef = { channel: 'whatsapp', id: phone };
    const input = await toInput(phone, incoming.input);
    const mpesa = normalizeKenyanPhone(phone);
    return () =>
      conversation.handle(user, input, {
        updateId: msg.key.id!,
        ...(mpesa ? { hints: { phone: mpesa } } : {}),
      });
  }

  /** Handles one chat's messages in order, different chats side by side. */
  function receiveInOrder(msg: WAMessage, s: WhatsAppSocket): void {
    const chat = msg.key?.remoteJid ?? '';
    const prepared = prepare(msg, s);
    prepared.catch(() => undefined);
    const previous = userQueues.get(chat) ?? Promise.resolve();
    const next = previous
      .then(() => prepared)
      .then((action) => action?.())
      .catch((err) => log.error({ err }, 'Failed to handle a WhatsApp message'))
      .finally(() => {
        if (userQueues.get(chat) === next) userQueues.delete(chat);
      });
    userQueues.set(chat, next);
  }

  function onLidMapping({ lid, pn }: BaileysEventMap['lid-mapping.update']): void {
    const lidUser = userOf(lid);
    const phone = userOf(pn);
    if (lidUser && phone) {
      identities
        .rememberLid(lidUser, phone)
        .catch((err) => log.warn({ err }, 'Could not save a LID mapping'));
    }
  }

  // ---- connection ----

  /** Opens one socket; resolves with the status code it closed with. */
  async function connectOnce(): Promise<{ code: number; auth: RedisAuthState; saving: Promise<void> }> {
    setState('connecting');
    const auth = await loadRedisAuthState(redis, keys);
    let saving = Promise.resolve();
    return new Promise((resolve) => {
      const s = makeSocket({
        auth: { creds: auth.state.creds, keys: makeCacheableSignalKeyStore(auth.state.keys, baileysLogger) },
        logger: baileysLogger,
        markOnlineOnConnect: false,
        syncFullHistory: false,
        ...(opts.socketUrl ? { waWebSocketUrl: opts.socketUrl } : {}),
        ...(opts.connectTimeoutMs ? { connectTimeoutMs: opts.connectTimeoutMs } : {}),
        getMessage: async () => undefined,
      });
      socket = s;
      let pairingRequested = false;
      s.ev.on('creds.update', () => {
        saving = saving
          .then(() => auth.saveCreds())
          .catch((err) => log.error({ err }, 'Could not save WhatsApp credentials'));
      });
      s.ev.on('connection.update', (update) => {
        if (update.qr) {
          if (!opts.pairingNumber) onQr(update.qr);
          else if (!pairingRequested && !auth.state.creds.registered) {
            pairingRequested = true;
            s.requestPairingCode(opts.pairingNumber.replace(/\D/g, ''))
              .then(onPairingCode)
              .catch((err) => log.error({ err }, 'Could not request a WhatsApp pairing code'));
          }
        }
        if (update.connection === 'open') {
          attempt = 0;
          openSocket = s;
          for (const waiter of openWaiters.splice(0)) waiter.resolve(s);
          setState('open');
          log.info('WhatsApp connected');
        }
        if (update.connection === 'close') {
          if (socket === s) socket = undefined;
          if (openSocket === s) openSocket = undefined;
          resolve({ code: statusCode(update.lastDisconnect?.error), auth, saving });
        }
      });
      s.ev.on('messages.upsert', ({ messages, type }) => {
        if (type !== 'notify') return;
        for (const msg of messages) receiveInOrder(msg, s);
      });
      s.ev.on('lid-mapping.update', onLidMapping);
      s.ev.on('messaging-history.set', ({ lidPnMappings }) => {
        for (const mapping of lidPnMappings ?? []) onLidMapping(mapping);
      });
      if (stopped || leaseLost) s.end(undefined);
    });
  }

  function startRenewal(): void {
    stopRenewal();
    renewTimer = setInterval(
      () => {
        lease
          .renew()
          .catch((err) => {
            log.error({ err }, 'Could not renew the WhatsApp lease');
            return false;
          })
          .then((held) => {
            if (held || leaseLost || stopped) return;
            leaseLost = true;
            stopRenewal();
            log.error(
              'Lost the WhatsApp lease: closing this connection so only one instance serves the number',
            );
            events.emit('leaseLost');
            socket?.end(new Error('WhatsApp lease lost'));
            wake?.();
          });
      },
      Math.max(50, Math.floor(leaseTtlMs / 3)),
    );
  }

  function stopRenewal(): void {
    if (renewTimer) clearInterval(renewTimer);
    renewTimer = undefined;
  }

  function backoff(n: number): number {
    const capped = Math.min(backoffMaxMs, backoffBaseMs * 2 ** n);
    return Math.round(capped / 2 + (Math.random() * capped) / 2);
  }

  async function run(): Promise<void> {
    while (!stopped) {
      let held = false;
      try {
        held = await lease.acquire();
      } catch (err) {
        log.error({ err }, 'Could not take the WhatsApp lease');
      }
      if (!held) {
        setState('waiting_lease');
        await pause(leaseRetryMs);
        continue;
      }
      leaseLost = false;
      attempt = 0;
      startRenewal();
      while (!stopped && !leaseLost) {
        const { code, auth, saving } = await connectOnce();
        if (stopped || leaseLost) break;
        if (code === DisconnectReason.loggedOut) {
          metrics.loggedOut.inc({ number: numberId });
          log.error(
            'WhatsApp logged this number out (unlinked on the phone or banned). Its session was deleted; restart to pair it again.',
          );
          await saving;
          await auth.clear();
          stopRenewal();
          await lease.release();
          stopped = true;
          setState('logged_out');
          events.emit('loggedOut');
          return;
        }
        if (code === DisconnectReason.forbidden) {
          log.error('WhatsApp refused this number (403 forbidden): not reconnecting');
          stopRenewal();
          await lease.release();
          stopped = true;
          setState('closed');
          return;
        }
        const delayMs = backoff(attempt++);
        metrics.reconnects.inc({ number: numberId, code: String(code) });
        log.warn({ code, attempt, delayMs }, 'WhatsApp connection closed; reconnecting');
        setState('closed');
        events.emit('reconnect', { attempt, delayMs, code });
        await pause(delayMs);
      }
      stopRenewal();
    }
  }

  return {
    adapter,
    events,
    metrics,
    get state() {
      return state;
    },
    async idle() {
      while (userQueues.size) await Promise.allSettled([...userQueues.values()]);
    },
    async start() {
      if (!stopped) return;
      stopped = false;
      loop = run().catch((err) => {
        log.error({ err }, 'The WhatsApp connection loop failed');
        setState('closed');
      });
    },
    async stop() {
      const wasRunning = !stopped;
      stopped = true;
      wake?.();
      await socket?.end(undefined);
      await loop;
      for (const waiter of openWaiters.splice(0)) waiter.reject(new Error('The WhatsApp channel stopped'));
      stopRenewal();
      await Promise.allSettled([...userQueues.values()]);
      if (wasRunning) {
        await lease.release();
        setState('stopped');
      }
    },
  };
}
