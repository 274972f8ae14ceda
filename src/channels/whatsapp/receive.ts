/**
 * From a received message to the conversation: who wrote (phone numbers, learning LID mappings on
 * the way), and what they meant given the menu they had seen then. Each chat's messages are
 * handled in order, different chats side by side.
 */
import { type BaileysEventMap, isLidUser, isPnUser, type WAMessage } from '@whiskeysockets/baileys';
import type { UserRef } from '../../chat/types.js';
import { normalizeKenyanPhone } from '../../domain/phone.js';
import type { Input } from '../../flows/types.js';
import { lastLocale, type WhatsAppDeps } from './deps.js';
import { isFromPerson, readIncoming } from './inbound.js';
import { chooseFromMenu, menuSchema } from './send/menu.js';
import { userOf, type WhatsAppSocket } from './session/socket.js';

/** The sender's phone number, learning LID mappings on the way; undefined when WhatsApp hides it. */
async function senderPhone(
  deps: WhatsAppDeps,
  msg: WAMessage,
  s: WhatsAppSocket,
): Promise<string | undefined> {
  const { identities } = deps;
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
function parseJsonOrUndefined(deps: WhatsAppDeps, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    deps.log.warn('a stored WhatsApp menu is not JSON; reading the message as text');
    return undefined;
  }
}

/** A typed number or letter picked from the last menu becomes that button. */
async function toInput(deps: WhatsAppDeps, phone: string, input: Input): Promise<Input> {
  if (input.kind !== 'text') return input;
  const [question, notice] = await Promise.all([
    deps.redis.get(deps.keys.menu(phone)),
    deps.redis.get(deps.keys.noticeMenu(phone)),
  ]);
  const read = (raw: string | null) => {
    if (!raw) return undefined;
    const parsed = menuSchema.safeParse(parseJsonOrUndefined(deps, raw));
    return parsed.success ? parsed.data : undefined;
  };
  const id = chooseFromMenu(input.text, read(question), read(notice));
  return id ? { kind: 'button', id } : input;
}

/**
 * Reads a message as it arrives: who wrote, and what they meant given the menu they had seen
 * then. Returns what to do, run later in the user's order.
 */
async function prepare(
  deps: WhatsAppDeps,
  msg: WAMessage,
  s: WhatsAppSocket,
): Promise<(() => Promise<void>) | undefined> {
  if (!isFromPerson(msg)) return undefined;
  const incoming = readIncoming(msg);
  if (!incoming) return undefined;
  const phone = await senderPhone(deps, msg, s);
  if (!phone) {
    const chat = msg.key.remoteJid!;
    return async () => {
      deps.log.warn('A WhatsApp user wrote from a hidden number (LID only); asked them to show it');
      await deps.deliver(chat, deps.i18n.t('en', { id: 'wa-number-hidden' }));
    };
  }
  await deps.identities.addContact(phone);
  if (incoming.kind === 'unsupported') {
    const locale = await lastLocale(deps, phone);
    return () => deps.deliver(`${phone}@s.whatsapp.net`, deps.i18n.t(locale, { id: 'wa-text-only' }));
  }
  const user: UserRef = { channel: 'whatsapp', id: phone };
  const input = await toInput(deps, phone, incoming.input);
  const mpesa = normalizeKenyanPhone(phone);
  return () =>
    deps.conversation.handle(user, input, {
      updateId: msg.key.id!,
      ...(mpesa ? { hints: { phone: mpesa } } : {}),
    });
}

/** Received messages, queued per chat. */
export class Receiver {
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly deps: WhatsAppDeps) {}

  /** Handles one chat's messages in order, different chats side by side. */
  receive(msg: WAMessage, s: WhatsAppSocket): void {
    const chat = msg.key?.remoteJid ?? '';
    const prepared = prepare(this.deps, msg, s);
    prepared.catch(() => undefined);
    const previous = this.queues.get(chat) ?? Promise.resolve();
    const next = previous
      .then(() => prepared)
      .then((action) => action?.())
      .catch((err) => this.deps.log.error({ err }, 'Failed to handle a WhatsApp message'))
      .finally(() => {
        if (this.queues.get(chat) === next) this.queues.delete(chat);
      });
    this.queues.set(chat, next);
  }

  /** Saves a LID-to-phone mapping WhatsApp told us about. */
  lidMapping({ lid, pn }: BaileysEventMap['lid-mapping.update']): void {
    const lidUser = userOf(lid);
    const phone = userOf(pn);
    if (lidUser && phone) {
      this.deps.identities
        .rememberLid(lidUser, phone)
        .catch((err) => this.deps.log.warn({ err }, 'Could not save a LID mapping'));
    }
  }

  /** Resolves once every message received so far has been handed on (or answered). */
  async idle(): Promise<void> {
    while (this.queues.size) await Promise.allSettled([...this.queues.values()]);
  }

  /** Waits for the messages being handled now. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.queues.values()]);
  }
}
