/**
 * The WhatsApp channel over baileys (an unofficial WhatsApp Web client): one paced, leased
 * connection per number, auth state in Redis, numbered text menus instead of buttons.
 */
import { EventEmitter } from 'node:events';
import makeWASocket from '@whiskeysockets/baileys';
import { Registry } from 'prom-client';
import qrcode from 'qrcode-terminal';
import type { Logger } from '../../log/logger.js';
import type { ChannelAdapter, Conversation } from '../types.js';
import type { WhatsAppDeps } from './deps.js';
import { type ConnectionState, createWhatsAppMetrics, type WhatsAppMetrics } from './metrics.js';
import { Receiver } from './receive.js';
import { type WhatsAppKeys, type WhatsAppRedis, whatsappKeys } from './redis.js';
import type { Translator } from './send/menu.js';
import { type BaileysOutboxDeps, createBaileysOutbox } from './send/outbox.js';
import { createWhatsAppPacing, type PacingOptions } from './send/pacer.js';
import { createWhatsAppAdapter } from './send/send.js';
import { type WhatsAppChannelEvents, WhatsAppConnection } from './session/connection.js';
import { createIdentities } from './session/identity.js';
import { createLease } from './session/lease.js';
import type { MakeWhatsAppSocket, SocketSettings } from './session/socket.js';

export type { MakeWhatsAppSocket, WhatsAppSocket } from './session/socket.js';

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
  /** Where the pictures messages name are kept (src/store/media.ts). */
  media?: BaileysOutboxDeps['media'];
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

/** How a socket is made and paired: the options' choices, or printing to the terminal. */
function socketSettings(opts: WhatsAppChannelOptions, log: Logger, keys: WhatsAppKeys): SocketSettings {
  const { logger } = opts;
  return {
    redis: opts.redis,
    keys,
    log,
    baileysLogger: logger.child(
      { module: 'baileys' },
      { level: opts.baileysLogLevel ?? (logger.levelVal > 40 ? logger.level : 'warn') },
    ),
    makeSocket: opts.makeSocket ?? ((config) => makeWASocket(config)),
    ...(opts.socketUrl ? { socketUrl: opts.socketUrl } : {}),
    ...(opts.connectTimeoutMs ? { connectTimeoutMs: opts.connectTimeoutMs } : {}),
    ...(opts.pairingNumber ? { pairingNumber: opts.pairingNumber } : {}),
    onQr:
      opts.onQr ??
      ((qr: string) => {
        log.info('Scan this QR code with WhatsApp on the phone (Settings > Linked devices > Link a device)');
        qrcode.generate(qr, { small: true });
      }),
    onPairingCode:
      opts.onPairingCode ??
      ((code: string) => {
        log.info(
          'Type the pairing code shown in the terminal on the phone (Linked devices > Link with phone number)',
        );
        process.stdout.write(`WhatsApp pairing code: ${code.slice(0, 4)}-${code.slice(4)}\n`);
      }),
  };
}

/** How long a stop lets the sends in flight finish. */
const HAND_OVER_MS = 3000;

/** Creates the WhatsApp channel; call `start()` to connect. */
export function createWhatsAppChannel(opts: WhatsAppChannelOptions): WhatsAppChannel {
  const { redis } = opts;
  const numberId = opts.numberId ?? 'default';
  const keys = whatsappKeys(opts.keyPrefix ?? 'rampchat:wa:', numberId);
  const metrics = createWhatsAppMetrics(opts.registry ?? new Registry());
  const events = new EventEmitter<WhatsAppChannelEvents>();
  const leaseTtlMs = opts.lease?.ttlMs ?? 30_000;
  const log = opts.logger.child({ channel: 'whatsapp', numberId });
  const pacing = createWhatsAppPacing(opts.pacing ?? {}, keys, redis, log);
  // The connection hands received messages to the receiver, which answers through the connection.
  const connection: WhatsAppConnection = new WhatsAppConnection({
    socket: socketSettings(opts, log, keys),
    lease: createLease(redis, keys.lease, leaseTtlMs),
    leaseTtlMs,
    leaseRetryMs: opts.lease?.retryMs ?? 5_000,
    backoff: { baseMs: opts.reconnect?.baseMs ?? 1_000, maxMs: opts.reconnect?.maxMs ?? 60_000 },
    sendTimeoutMs: opts.sendTimeoutMs ?? 60_000,
    numberId,
    metrics,
    events,
    log,
    received: (msg, s) => receiver.receive(msg, s),
    lidMapping: (mapping) => receiver.lidMapping(mapping),
  });
  const outbox = createBaileysOutbox({
    ...{ redis, keys, pacing, log, media: opts.media },
    socket: () => connection.whenOpen(),
  });
  // Worked only while this instance holds the number's connection; left to the next holder after.
  events.on('state', (state) => {
    if (state === 'open') void outbox.start();
    else if (state === 'waiting_lease' || state === 'stopped') void outbox.handOver(HAND_OVER_MS);
  });
  const deps: WhatsAppDeps = {
    conversation: opts.conversation,
    i18n: opts.i18n,
    redis,
    keys,
    identities: createIdentities(redis, keys),
    metrics,
    numberId,
    log,
    menuTtlSeconds: opts.menuTtlSeconds ?? 86_400,
    // Into the number's outbox, at the chat's turn by the class of the work sending it.
    deliver: async (jid, text, menu, media, scope) => {
      const { kind, ref } = media ?? {};
      const file =
        media?.kind === 'document' ? { document: { ref, filename: media.filename, mime: media.mime } } : {};
      const body = { text, ...(menu ? { menu } : {}), ...(kind === 'photo' ? { image: ref } : file) };
      await outbox.submit(jid, scope?.cls ?? 'reply', body, { scope });
    },
  };
  const receiver = new Receiver(deps);
  return {
    adapter: createWhatsAppAdapter(deps),
    events,
    metrics,
    get state() {
      return connection.state;
    },
    idle: () => receiver.idle(),
    async start() {
      connection.start();
    },
    async stop() {
      // Bounded: what waits for its turn stays in the outbox for the next holder of the number.
      await outbox.handOver(HAND_OVER_MS);
      await connection.stop(() => receiver.settle());
    },
  };
}
