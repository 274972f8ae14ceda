/**
 * Test doubles for the WhatsApp channel: a recording socket that speaks through baileys' own event
 * emitter (messages are real `proto.WebMessageInfo` objects), a recording conversation, and i18n
 * loaded from the real whatsapp.ftl plus a few test labels.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BaileysEventEmitter,
  makeEventBuffer,
  proto,
  type UserFacingSocketConfig,
  type WAMessage,
} from '@whiskeysockets/baileys';
import pino from 'pino';
import type { Conversation } from '../../../src/channels/types.js';
import type { WhatsAppSocket } from '../../../src/channels/whatsapp/index.js';
import type { UserRef } from '../../../src/chat/types.js';
import type { Input } from '../../../src/flows/types.js';
import { type I18n, loadI18n } from '../../../src/i18n/index.js';

export const silent = pino({ level: 'silent' });

export interface SentMessage {
  jid: string;
  /** The text, or a picture's caption. */
  text: string;
  image?: Buffer;
  /** A document message: its bytes, name and type as baileys would send them. */
  document?: { bytes: Buffer; fileName: string; mimetype: string };
  at: number;
}

/** A socket that records what it sends and emits through a real baileys event buffer. */
export class RecordingSocket implements WhatsAppSocket {
  readonly ev: BaileysEventEmitter = makeEventBuffer(silent);
  readonly sent: SentMessage[] = [];
  readonly pairingRequests: string[] = [];
  /** What baileys' own LID store would answer (`…@lid` -> `…@s.whatsapp.net`). */
  readonly knownLids = new Map<string, string>();
  ended = false;
  readonly signalRepository = {
    lidMapping: { getPNForLID: async (lid: string) => this.knownLids.get(lid) ?? null },
  };

  constructor(
    readonly config: UserFacingSocketConfig,
    open = true,
  ) {
    if (open) setImmediate(() => this.ev.emit('connection.update', { connection: 'open' }));
  }

  async sendMessage(
    jid: string,
    content:
      | { text: string }
      | { image: Buffer; caption: string }
      | { document: Buffer; mimetype: string; fileName: string; caption: string },
  ): Promise<undefined> {
    if (this.ended) throw new Error('socket closed');
    const at = Date.now();
    this.sent.push(
      'document' in content
        ? {
            jid,
            text: content.caption,
            document: { bytes: content.document, fileName: content.fileName, mimetype: content.mimetype },
            at,
          }
        : 'image' in content
          ? { jid, text: content.caption, image: content.image, at }
          : { jid, text: content.text, at },
    );
    return undefined;
  }

  end(error: Error | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.ev.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
  }

  async requestPairingCode(phoneNumber: string): Promise<string> {
    this.pairingRequests.push(phoneNumber);
    return 'ABCD1234';
  }

  /** Delivers messages as WhatsApp would for new messages. */
  receive(...messages: WAMessage[]): void {
    this.ev.emit('messages.upsert', { messages, type: 'notify' });
  }
}

let seq = 0;

/** A real proto message from `remoteJid`, with v7's alternate-address fields when given. */
export function message(
  remoteJid: string,
  content: proto.IMessage | string,
  extra: { fromMe?: boolean; remoteJidAlt?: string; participant?: string; id?: string } = {},
): WAMessage {
  const msg = proto.WebMessageInfo.fromObject({
    key: {
      remoteJid,
      fromMe: extra.fromMe ?? false,
      id: extra.id ?? `3EB0${(++seq).toString(16).padStart(8, '0')}`,
      ...(extra.participant ? { participant: extra.participant } : {}),
    },
    message: typeof content === 'string' ? { conversation: content } : content,
    messageTimestamp: Math.floor(Date.now() / 1000),
  }) as WAMessage;
  if (extra.remoteJidAlt) msg.key.remoteJidAlt = extra.remoteJidAlt;
  return msg;
}

export interface Handled {
  user: UserRef;
  input: Input;
  updateId?: string;
  phone?: string;
}

/** A conversation that records what it is handed and can answer through a callback. */
export function recordingConversation(
  answer?: (user: UserRef, input: Input) => Promise<void>,
): Conversation & { handled: Handled[] } {
  const handled: Handled[] = [];
  return {
    handled,
    async handle(user, input, opts) {
      handled.push({ user, input, updateId: opts?.updateId, phone: opts?.hints?.phone });
      await answer?.(user, input);
    },
  };
}

/** The real whatsapp.ftl files plus `wa-test-*` labels, loaded by the real i18n. */
export function testI18n(): I18n {
  const dir = mkdtempSync(join(tmpdir(), 'wa-locales-'));
  const labels: Record<string, string> = {
    en: 'wa-test-question = Buy { $amount } KES?\nwa-test-confirm = ✅ Confirm\nwa-test-cancel = Cancel order\nwa-test-pay = Pay online\n',
    sw: 'wa-test-question = Nunua KES { $amount }?\nwa-test-confirm = ✅ Thibitisha\nwa-test-cancel = Ghairi agizo\nwa-test-pay = Lipa mtandaoni\n',
  };
  for (const lang of ['en', 'sw']) {
    mkdirSync(join(dir, lang));
    copyFileSync(
      new URL(`../../../locales/${lang}/whatsapp.ftl`, import.meta.url),
      join(dir, lang, 'whatsapp.ftl'),
    );
    writeFileSync(join(dir, lang, 'test.ftl'), labels[lang]!);
  }
  return loadI18n(dir);
}

/** Waits until `check` returns a truthy value (polling), failing after `ms`. */
export async function waitFor<T>(
  check: () => T | undefined | null | Promise<T | undefined | null>,
  ms = 5000,
  what = 'condition',
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
