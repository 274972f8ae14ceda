/**
 * WhatsApp shows no buttons to unofficial clients, so choices become a numbered text menu and the
 * user answers with the number or the word.
 */
import * as z from 'zod';
import type { Locale, OutMessage, Text } from '../../../chat/types.js';
import { choiceKey } from '../../choices.js';

/** What the channel needs from i18n. */
export interface Translator {
  t(locale: Locale, text: Text): string;
}

export const menuSchema = z.object({
  items: z.array(z.object({ id: z.string(), label: z.string() })),
  locale: z.enum(['en', 'sw']),
  /** A notice's choices are lettered (A, B, …); a question's are numbered. */
  lettered: z.boolean().optional(),
});

/** The last menu a user was shown: item n (or letter n) answers with `items[n-1].id`. */
export type Menu = z.infer<typeof menuSchema>;

export interface Rendered {
  text: string;
  /** Present when the message offered choices. */
  menu?: Menu;
}

/** Turns an OutMessage into one WhatsApp text: paragraphs, numbered choices, link lines. */
export function renderMessage(message: OutMessage, locale: Locale, i18n: Translator): Rendered {
  const parts = message.texts.map((t) => i18n.t(locale, t));
  const items: Menu['items'] = [];
  const lines: string[] = [];
  const lettered = message.notice === true;
  for (const button of (message.buttons ?? []).flat()) {
    const label = i18n.t(locale, button.label);
    if (button.url) {
      lines.push(`🔗 ${label}: ${button.url}`);
    } else if (!lettered || items.length < 26) {
      items.push({ id: button.id, label });
      lines.push(`*${choiceKey(items.length - 1, lettered)}.* ${label}`);
    }
  }
  if (lines.length) parts.push(lines.join('\n'));
  if (items.length)
    parts.push(`_${i18n.t(locale, { id: lettered ? 'wa-menu-hint-letters' : 'wa-menu-hint' })}_`);
  return {
    text: parts.join('\n\n'),
    ...(items.length ? { menu: { items, locale, ...(lettered ? { lettered } : {}) } } : {}),
  };
}

/** Lower case, letters and digits only, single spaces: "✅ Confirm!" and "confirm" compare equal. */
function comparable(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The button id a reply chooses, or undefined: a number ("2", "2.") from the question's menu, a
 * letter ("A", "a.") from the last notice's, a label ("Cancel") from the question's, then the
 * notice's. A number never picks a notice's choice, so a notice arriving mid-flow cannot change
 * what a typed number means.
 */
export function chooseFromMenu(
  text: string,
  menu: Menu | undefined,
  notice?: Menu | undefined,
): string | undefined {
  const numbered = /^\s*(\d{1,2})\s*[.)]?\s*$/.exec(text);
  if (numbered) return menu && !menu.lettered ? menu.items[Number(numbered[1]) - 1]?.id : undefined;
  const letter = /^\s*([a-zA-Z])\s*[.)]?\s*$/.exec(text);
  if (letter && notice?.lettered) {
    const id = notice.items[letter[1]!.toUpperCase().charCodeAt(0) - 65]?.id;
    if (id) return id;
  }
  const wanted = comparable(text);
  if (!wanted) return undefined;
  for (const m of [menu, notice]) {
    const id = m?.items.find((item) => comparable(item.label) === wanted)?.id;
    if (id) return id;
  }
  return undefined;
}
