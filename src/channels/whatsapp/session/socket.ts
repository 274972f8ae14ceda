/**
 * One baileys socket, from opening to close: auth state from Redis (credentials saved as they
 * change), pairing by QR code or by code, and the socket's events handed to the connection.
 */
import {
  type BaileysEventEmitter,
  type BaileysEventMap,
  DisconnectReason,
  jidDecode,
  makeCacheableSignalKeyStore,
  type UserFacingSocketConfig,
  type WAMessage,
} from '@whiskeysockets/baileys';
import type { Logger } from '../../../log/logger.js';
import type { WhatsAppKeys, WhatsAppRedis } from '../redis.js';
import { loadRedisAuthState, type RedisAuthState } from './auth-state.js';

/** The part of a baileys socket the channel uses (a test can hand in a recording fake). */
export interface WhatsAppSocket {
  readonly ev: BaileysEventEmitter;
  sendMessage(
    jid: string,
    content:
      | { text: string }
      | { image: Buffer; caption: string }
      | { document: Buffer; mimetype: string; fileName: string; caption: string },
  ): Promise<unknown>;
  end(error: Error | undefined): unknown;
  requestPairingCode(phoneNumber: string): Promise<string>;
  readonly signalRepository?: { lidMapping?: { getPNForLID(lid: string): Promise<string | null> } };
}

export type MakeWhatsAppSocket = (config: UserFacingSocketConfig) => WhatsAppSocket;

/** The user part of a JID (the phone number or LID). */
export const userOf = (jid: string | undefined): string | undefined =>
  jid ? jidDecode(jid)?.user : undefined;

const statusCode = (error: unknown): number =>
  (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode ??
  DisconnectReason.connectionClosed;

/** How sockets are made and paired. */
export interface SocketSettings {
  redis: WhatsAppRedis;
  keys: WhatsAppKeys;
  log: Logger;
  baileysLogger: Logger;
  makeSocket: MakeWhatsAppSocket;
  socketUrl?: string;
  connectTimeoutMs?: number;
  /** Pair with a code for this phone number instead of a QR code. */
  pairingNumber?: string;
  onQr: (qr: string) => void;
  onPairingCode: (code: string) => void;
}

/** What the connection does on the socket's events. */
export interface SocketHooks {
  created(s: WhatsAppSocket): void;
  opened(s: WhatsAppSocket): void;
  closed(s: WhatsAppSocket): void;
  received(msg: WAMessage, s: WhatsAppSocket): void;
  lidMapping(mapping: BaileysEventMap['lid-mapping.update']): void;
  /** True when the socket should be closed as soon as it is made (stopping, or the lease is lost). */
  unwanted(): boolean;
}

/** How a socket closed, with the auth state to clear on a logout once `saving` is done. */
export interface SocketClosed {
  code: number;
  auth: RedisAuthState;
  saving: Promise<void>;
}

/** Opens one socket; resolves with the status code it closed with. */
export async function connectOnce(settings: SocketSettings, hooks: SocketHooks): Promise<SocketClosed> {
  const { log, baileysLogger } = settings;
  const auth = await loadRedisAuthState(settings.redis, settings.keys);
  let saving = Promise.resolve();
  return new Promise((resolve) => {
    const s = settings.makeSocket({
      auth: { creds: auth.state.creds, keys: makeCacheableSignalKeyStore(auth.state.keys, baileysLogger) },
      logger: baileysLogger,
      markOnlineOnConnect: false,
      syncFullHistory: false,
      ...(settings.socketUrl ? { waWebSocketUrl: settings.socketUrl } : {}),
      ...(settings.connectTimeoutMs ? { connectTimeoutMs: settings.connectTimeoutMs } : {}),
      getMessage: async () => undefined,
    });
    hooks.created(s);
    let pairingRequested = false;
    s.ev.on('creds.update', () => {
      saving = saving
        .then(() => auth.saveCreds())
        .catch((err) => log.error({ err }, 'Could not save WhatsApp credentials'));
    });
    s.ev.on('connection.update', (update) => {
      if (update.qr) {
        if (!settings.pairingNumber) settings.onQr(update.qr);
        else if (!pairingRequested && !auth.state.creds.registered) {
          pairingRequested = true;
          s.requestPairingCode(settings.pairingNumber.replace(/\D/g, ''))
            .then(settings.onPairingCode)
            .catch((err) => log.error({ err }, 'Could not request a WhatsApp pairing code'));
        }
      }
      if (update.connection === 'open') hooks.opened(s);
      if (update.connection === 'close') {
        hooks.closed(s);
        resolve({ code: statusCode(update.lastDisconnect?.error), auth, saving });
      }
    });
    s.ev.on('messages.upsert', ({ messages, type }) => {
      if (type !== 'notify') return;
      for (const msg of messages) hooks.received(msg, s);
    });
    s.ev.on('lid-mapping.update', hooks.lidMapping);
    s.ev.on('messaging-history.set', ({ lidPnMappings }) => {
      for (const mapping of lidPnMappings ?? []) hooks.lidMapping(mapping);
    });
    if (hooks.unwanted()) s.end(undefined);
  });
}
