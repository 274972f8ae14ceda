/** Reading WhatsApp messages: which to ignore, and what input a message carries. */
import {
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isJidStatusBroadcast,
  isLidUser,
  isPnUser,
  normalizeMessageContent,
  type WAMessage,
} from '@whiskeysockets/baileys';
import type { Input } from '../../flows/types.js';

/** What a message asks of us: an input for the engine, "send text please", or nothing. */
export type Incoming =
  | { kind: 'input'; input: Input }
  /** Media, stickers, locations, contacts: we only read text. */
  | { kind: 'unsupported' };

/** True for a one-to-one chat with a person, written by them (not us, a group, a status or a channel). */
export function isFromPerson(msg: WAMessage): boolean {
  const jid = msg.key?.remoteJid;
  if (!jid || !msg.key.id || msg.key.fromMe || msg.broadcast) return false;
  if (isJidGroup(jid) || isJidBroadcast(jid) || isJidStatusBroadcast(jid) || isJidNewsletter(jid))
    return false;
  return Boolean(isPnUser(jid) || isLidUser(jid));
}

const MEDIA = [
  'imageMessage',
  'videoMessage',
  'audioMessage',
  'documentMessage',
  'documentWithCaptionMessage',
  'stickerMessage',
  'contactMessage',
  'contactsArrayMessage',
  'locationMessage',
  'liveLocationMessage',
  'ptvMessage',
] as const;

const COMMAND = /^\/([A-Za-z0-9_]{1,32})(?:@\S+)?(?:\s+([\s\S]*))?$/;

/**
 * The input a message carries: text, `/command args`, or a native button reply (old clients).
 * Undefined for what needs no answer (reactions, edits, deletions, receipts).
 */
export function readIncoming(msg: WAMessage): Incoming | undefined {
  const content = normalizeMessageContent(msg.message);
  if (!content) return undefined;
  const text = content.conversation ?? content.extendedTextMessage?.text;
  if (typeof text === 'string') {
    const trimmed = text.trim();
    if (!trimmed) return undefined;
    const command = COMMAND.exec(trimmed);
    if (command) {
      return {
        kind: 'input',
        input: { kind: 'command', command: command[1]!.toLowerCase(), args: (command[2] ?? '').trim() },
      };
    }
    return { kind: 'input', input: { kind: 'text', text: trimmed } };
  }
  const buttonId =
    content.buttonsResponseMessage?.selectedButtonId ??
    content.listResponseMessage?.singleSelectReply?.selectedRowId ??
    content.templateButtonReplyMessage?.selectedId;
  if (buttonId) return { kind: 'input', input: { kind: 'button', id: buttonId } };
  if (MEDIA.some((type) => content[type])) return { kind: 'unsupported' };
  return undefined;
}
