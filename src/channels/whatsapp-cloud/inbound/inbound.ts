/**
 * Messages in over the Cloud API: what input a user's message carries for the conversation. A tap
 * on a reply button or a list row is the same `button` input a Telegram tap is; typed words that
 * name one of the last choices shown count as that choice; media gets "text only, please".
 */
import * as z from 'zod';
import type { Input } from '../../../flows/types.js';
import { selfContained } from '../../choices.js';
import { chooseFromMenu, menuSchema } from '../../whatsapp/send/menu.js';
import type { TypedMenu } from '../render/render.js';
import type { InboundMessage } from './schemas.js';

/** What a message asks of us. */
export type Incoming =
  /** `tapOn`: the id of the message whose button or row was tapped. */
  | { kind: 'input'; input: Input; tapOn?: string }
  /** Media, locations, contacts, stickers: we read text only. */
  | { kind: 'unsupported' }
  /** Reactions, system notices: nothing to answer. */
  | { kind: 'ignore' };

const COMMAND = /^\/([A-Za-z0-9_]{1,32})(?:@\S+)?(?:\s+([\s\S]*))?$/;
const MEDIA = new Set([
  'image',
  'audio',
  'video',
  'document',
  'sticker',
  'location',
  'contacts',
  'order',
  'unsupported',
]);

/** The text of a message as input: `/command args`, or text. */
function textInput(raw: string): Input | undefined {
  const trimmed = raw.trim();
  if (!trimmed) return undefined;
  const command = COMMAND.exec(trimmed);
  if (command)
    return { kind: 'command', command: command[1]!.toLowerCase(), args: (command[2] ?? '').trim() };
  return { kind: 'text', text: trimmed };
}

export function readMessage(msg: InboundMessage): Incoming {
  if (msg.type === 'text' && msg.text) {
    const input = textInput(msg.text.body);
    return input ? { kind: 'input', input } : { kind: 'ignore' };
  }
  if (msg.type === 'interactive' && msg.interactive) {
    const reply = msg.interactive.button_reply ?? msg.interactive.list_reply;
    if (!reply) return { kind: 'ignore' };
    return {
      kind: 'input',
      input: { kind: 'button', id: reply.id },
      ...(msg.context?.id ? { tapOn: msg.context.id } : {}),
    };
  }
  if (msg.type === 'button' && msg.button) {
    // A template's quick reply: its words, like a typed answer.
    const input = textInput(msg.button.text);
    return input ? { kind: 'input', input } : { kind: 'ignore' };
  }
  return MEDIA.has(msg.type) ? { kind: 'unsupported' } : { kind: 'ignore' };
}

export const typedMenuSchema = menuSchema.extend({ labelsOnly: z.boolean().optional() });

/** Lower case, letters and digits only: "✅ Confirm!" and "confirm" compare equal. */
const comparable = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The button id a typed answer names, or undefined. Under buttons and lists only the words count
 * (no numbers are on screen, so "2" stays the figure 2); under a numbered menu, numbers too.
 */
export function typedChoice(text: string, question?: TypedMenu, notice?: TypedMenu): string | undefined {
  const wanted = comparable(text);
  if (!wanted) return undefined;
  const numbered = (m?: TypedMenu) => (m && !m.labelsOnly ? m : undefined);
  const byNumber = chooseFromMenu(text, numbered(question), numbered(notice));
  if (byNumber) return byNumber;
  for (const m of [question, notice]) {
    if (!m?.labelsOnly) continue;
    const id = m.items.find((item) => comparable(item.label) === wanted)?.id;
    if (id) return id;
  }
  return undefined;
}

/** A tap on a button of an older question than the one the user is answering. */
export function isStaleTap(id: string, tapOn: string | undefined, question: string | undefined): boolean {
  return !selfContained(id) && tapOn !== undefined && question !== undefined && tapOn !== question;
}
