/**
 * WhatsApp shows no buttons to unofficial clients, so choices become a numbered text menu and the
 * user answers with the number or the word.
 */
import { z } from 'zod';
import type { Locale, OutMessage, Text } from '../../flows/types.js';

/** What the channel needs from i18n. */
export interface Translator {
  t(locale: Locale, text: Text): string;
}

export const menuSchema = z.object({
  items: z.array(z.object({ id: z.string(), label: z.string() })),
  locale: z.enum(['en', 'sw']),
});

/** The last numbered menu a user was shown: item n answers with `items[n-1].id`. */
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
  for (const button of (message.buttons ?? []).flat()) {
    const label = i18n.t(locale, button.label);
    if (button.url) {
      lines.push(`🔗 ${label}: ${button.url}`);
    } else {
      items.push({ id: button.id, label });
      lines.push(`*${items.length}.* ${label}`);
    }
  }
  if (lines.length) parts.push(lines.join('\n'));
  if (items.length) parts.push(`_${i18n.t(locale, { id: 'wa-menu-hint' })}_`);
  return { text: parts.join('\n\n'), ...(items.length ? { menu: { items, locale } } : {}) };
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

/** The button id a reply chooses from the menu ("2", "2.", "Cancel", "cancel"), or undefined. */
export function chooseFromMenu(text: string, menu: Menu | undefined): string | undefined {
  if (!menu?.items.length) return undefined;
  const numbered = /^\s*(\d{1,2})\s*[.)]?\s*$/.exec(text);
  if (numbered) return menu.items[Number(numbered[1]) - 1]?.id;
  const wanted = comparable(text);
  if (!wanted) return undefined;
  return menu.items.find((item) => comparable(item.label) === wanted)?.id;
}
