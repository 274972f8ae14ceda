/**
 * OutMessages as Cloud API messages: reply buttons (up to 3, titles up to 20 characters), a list
 * (up to 10 rows, titles 24, descriptions 72), a call-to-action URL button for a link, and a
 * numbered text menu where a message offers more choices than a list holds. The same `Button` ids
 * every channel gets travel back in the user's tap.
 */
import type { Button, Locale, OutMessage } from '../../chat/types.js';
import { choiceKey } from '../choices.js';
import type { Menu, Translator } from '../whatsapp/menu.js';
import type { WireMessage } from './graph.js';

/** Meta's limits (characters). */
export const LIMITS = {
  text: 4096,
  body: 1024,
  buttons: 3,
  buttonTitle: 20,
  rows: 10,
  rowTitle: 24,
  rowDescription: 72,
  sectionTitle: 24,
  listButton: 20,
  ctaText: 20,
  id: 200,
} as const;

/** The choices of a message as the user can answer them by typing. */
export interface TypedMenu extends Menu {
  /** Shown as buttons or a list (no numbers on screen): only the words answer it. */
  labelsOnly?: boolean;
}

export interface Rendered {
  /** In order; the last one carries the choices when there are any. */
  parts: WireMessage[];
  menu?: TypedMenu;
  /** The last part holds a question's buttons or list (taps on older ones are stale). */
  interactive: boolean;
  /** The whole message on one line, for a template parameter and for the agents. */
  summary: string;
}

/** Cuts to `max` characters (code points), marking the cut. */
export function clip(s: string, max: number): string {
  const chars = [...s.trim()];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

const isHttps = (url: string) => /^https:\/\/[^\s]+$/.test(url);

/** Splits paragraphs into texts of at most `limit` characters, cutting inside one only when it must. */
export function chunkParagraphs(paragraphs: string[], limit: number = LIMITS.text): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const p of paragraphs.flatMap((p) => cutLong(p, limit))) {
    if (!current) current = p;
    else if (current.length + 2 + p.length <= limit) current += `\n\n${p}`;
    else {
      chunks.push(current);
      current = p;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}

function cutLong(p: string, limit: number): string[] {
  const out: string[] = [];
  let rest = p;
  while (rest.length > limit) {
    const cut = rest.lastIndexOf('\n', limit);
    const at = cut > limit / 2 ? cut : limit;
    out.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^\n/, '');
  }
  if (rest) out.push(rest);
  return out;
}

const text = (body: string): WireMessage => ({ type: 'text', text: { body, preview_url: false } });

/**
 * Paragraphs as leading texts plus a body of at most 1024 characters for the interactive message
 * that ends them: as many of the last paragraphs as fit, or `fallback` when even the last is longer.
 */
function withBody(paragraphs: string[], fallback: string): { lead: WireMessage[]; body: string } {
  let taken = 0;
  let body = '';
  for (let i = paragraphs.length - 1; i >= 0; i--) {
    const next = body ? `${paragraphs[i]}\n\n${body}` : paragraphs[i]!;
    if (next.length > LIMITS.body) break;
    body = next;
    taken++;
  }
  const rest = paragraphs.slice(0, paragraphs.length - taken);
  return { lead: chunkParagraphs(rest).map(text), body: body || fallback };
}

/** Renders one OutMessage in a user's language. */
export function renderCloud(message: OutMessage, locale: Locale, i18n: Translator): Rendered {
  const say = (id: string) => i18n.t(locale, { id });
  const paragraphs = message.texts.map((t) => i18n.t(locale, t)).filter((p) => p.trim());
  const all = (message.buttons ?? []).flat();
  const label = (b: Button) => i18n.t(locale, b.label);
  const links = all.filter((b) => b.url !== undefined);
  const ctaLinks = links.filter((b) => isHttps(b.url!));
  const lines = links.filter((b) => !isHttps(b.url!)).map((b) => `🔗 ${label(b)}: ${b.url}`);
  const choices = all.filter((b) => b.url === undefined && b.id.length <= LIMITS.id);
  const lettered = message.notice === true;
  const items = choices.map((b) => ({ id: b.id, label: label(b) }));
  const summary = [...paragraphs, ...links.map((b) => `${label(b)}: ${b.url}`)]
    .join(' · ')
    .replace(/\s+/g, ' ')
    .trim();

  // More choices than a list holds: a numbered (or, for a notice, lettered) text menu.
  if (items.length > LIMITS.rows) {
    const shown = lettered ? items.slice(0, 26) : items;
    const menuLines = shown.map((item, i) => `*${choiceKey(i, lettered)}.* ${item.label}`);
    const extra = [...ctaLinks.map((b) => `🔗 ${label(b)}: ${b.url}`), ...lines];
    const hint = `_${say(lettered ? 'wa-menu-hint-letters' : 'wa-menu-hint')}_`;
    const parts = chunkParagraphs([...paragraphs, ...extra, menuLines.join('\n'), hint]).map(text);
    return {
      parts,
      menu: { items: shown, locale, ...(lettered ? { lettered } : {}) },
      interactive: false,
      summary,
    };
  }

  const parts: WireMessage[] = [];
  let remaining = [...paragraphs, ...(lines.length ? [lines.join('\n')] : [])];
  if (ctaLinks.length) {
    // One URL button per message: the first link is the button, the others are lines in its body.
    const [first, ...others] = ctaLinks;
    const otherLines = others.map((b) => `🔗 ${label(b)}: ${b.url}`);
    const { lead, body } = withBody(
      [...remaining, ...(otherLines.length ? [otherLines.join('\n')] : [])],
      say('wa-cloud-open-link'),
    );
    parts.push(...lead, {
      type: 'interactive',
      interactive: {
        type: 'cta_url',
        body: { text: body },
        action: {
          name: 'cta_url',
          parameters: { display_text: clip(label(first!), LIMITS.ctaText), url: first!.url },
        },
      },
    });
    remaining = [];
  }
  if (!items.length) {
    parts.push(...chunkParagraphs(remaining).map(text));
    return { parts, interactive: false, summary };
  }

  const { lead, body } = withBody(remaining, say('wa-cloud-choose'));
  parts.push(...lead);
  const buttonsFit =
    items.length <= LIMITS.buttons && items.every((i) => [...i.label].length <= LIMITS.buttonTitle);
  if (buttonsFit) {
    parts.push({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: body },
        action: { buttons: items.map((i) => ({ type: 'reply', reply: { id: i.id, title: i.label } })) },
      },
    });
  } else {
    parts.push({
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: body },
        action: {
          button: clip(say('wa-cloud-list-button'), LIMITS.listButton),
          sections: [
            {
              title: clip(say('wa-cloud-list-section'), LIMITS.sectionTitle),
              rows: items.map((i) => {
                const title = clip(i.label, LIMITS.rowTitle);
                const cut = title !== i.label.trim();
                return {
                  id: i.id,
                  title,
                  ...(cut ? { description: clip(i.label, LIMITS.rowDescription) } : {}),
                };
              }),
            },
          ],
        },
      },
    });
  }
  return {
    parts,
    menu: { items, locale, labelsOnly: true, ...(lettered ? { lettered } : {}) },
    interactive: true,
    summary,
  };
}
