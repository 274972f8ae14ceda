/**
 * OutMessages as Cloud API messages: reply buttons (up to 3, titles up to 20 characters), a list
 * (up to 10 rows, titles 24, descriptions 72), a call-to-action URL button for a link, and a
 * numbered text menu where a message offers more choices than a list holds. The same `Button` ids
 * every channel gets travel back in the user's tap.
 */
import type { Button, Locale, OutMessage } from '../../../chat/types.js';
import { choiceKey } from '../../choices.js';
import type { Menu, Translator } from '../../whatsapp/send/menu.js';
import type { WireMessage } from '../graph.js';
import { clip, LIMITS } from '../limits.js';
import { type Choice, fitButtons, linkButton, listOf, replyButtons } from './interactive.js';
import { chunkParagraphs, text, withBody } from './paragraphs.js';

export { LIMITS } from '../limits.js';

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

/** A message read in the user's language and sorted into what each kind of part can carry. */
interface Sorted {
  locale: Locale;
  say: (id: string) => string;
  label: (b: Button) => string;
  paragraphs: string[];
  /** Links a URL button can open (https). */
  ctaLinks: Button[];
  /** The other links, as text lines. */
  lines: string[];
  choices: Choice[];
  /** A notice's choices are lettered (a question's numbered). */
  lettered: boolean;
  summary: string;
}

const isHttps = (url: string) => /^https:\/\/[^\s]+$/.test(url);

function sort(message: OutMessage, locale: Locale, i18n: Translator): Sorted {
  const paragraphs = message.texts.map((t) => i18n.t(locale, t)).filter((p) => p.trim());
  const all = (message.buttons ?? []).flat();
  const label = (b: Button) => i18n.t(locale, b.label);
  const links = all.filter((b) => b.url !== undefined);
  const summary = [...paragraphs, ...links.map((b) => `${label(b)}: ${b.url}`)]
    .join(' · ')
    .replace(/\s+/g, ' ')
    .trim();
  return {
    locale,
    say: (id) => i18n.t(locale, { id }),
    label,
    paragraphs,
    ctaLinks: links.filter((b) => isHttps(b.url!)),
    lines: links.filter((b) => !isHttps(b.url!)).map((b) => `🔗 ${label(b)}: ${b.url}`),
    choices: all
      .filter((b) => b.url === undefined && b.id.length <= LIMITS.id)
      .map((b) => ({ id: b.id, label: label(b) })),
    lettered: message.notice === true,
    summary,
  };
}

/** More choices than a list holds: a numbered (or, for a notice, lettered) text menu. */
function textMenu(m: Sorted): Rendered {
  const { lettered, label } = m;
  const shown = lettered ? m.choices.slice(0, 26) : m.choices;
  const menuLines = shown.map((item, i) => `*${choiceKey(i, lettered)}.* ${item.label}`);
  const extra = [...m.ctaLinks.map((b) => `🔗 ${label(b)}: ${b.url}`), ...m.lines];
  const hint = `_${m.say(lettered ? 'wa-menu-hint-letters' : 'wa-menu-hint')}_`;
  const parts = chunkParagraphs([...m.paragraphs, ...extra, menuLines.join('\n'), hint]).map(text);
  return {
    parts,
    menu: { items: shown, locale: m.locale, ...(lettered ? { lettered } : {}) },
    interactive: false,
    summary: m.summary,
  };
}

/** One URL button per message: the first link is the button, the others are lines in its body. */
function withLinkButton(m: Sorted, paragraphs: string[]): WireMessage[] {
  const [first, ...others] = m.ctaLinks;
  const otherLines = others.map((b) => `🔗 ${m.label(b)}: ${b.url}`);
  const { lead, body } = withBody(
    [...paragraphs, ...(otherLines.length ? [otherLines.join('\n')] : [])],
    m.say('wa-cloud-open-link'),
  );
  return [...lead, linkButton(body, m.label(first!), first!.url!)];
}

/** Renders one OutMessage in a user's language. */
export function renderCloud(message: OutMessage, locale: Locale, i18n: Translator): Rendered {
  const m = sort(message, locale, i18n);
  const { choices: items, summary } = m;
  if (items.length > LIMITS.rows) return textMenu(m);

  const parts: WireMessage[] = [];
  let remaining = [...m.paragraphs, ...(m.lines.length ? [m.lines.join('\n')] : [])];
  if (message.media) {
    // The picture or document first, the texts its caption; its bytes are uploaded at its turn (media.ts).
    const caption = clip(remaining.join('\n\n'), LIMITS.caption);
    const { kind, ref } = message.media;
    const file = kind === 'document' ? { filename: message.media.filename, mime: message.media.mime } : {};
    parts.push({
      type: kind === 'document' ? 'document' : 'image',
      [kind === 'document' ? 'document' : 'image']: { ref, ...file, ...(caption ? { caption } : {}) },
    });
    remaining = [];
  }
  if (m.ctaLinks.length) {
    parts.push(...withLinkButton(m, remaining));
    remaining = [];
  }
  if (!items.length) {
    parts.push(...chunkParagraphs(remaining).map(text));
    return { parts, interactive: false, summary };
  }

  const { lead, body } = withBody(remaining, m.say('wa-cloud-choose'));
  parts.push(
    ...lead,
    fitButtons(items)
      ? replyButtons(body, items)
      : listOf(body, items, m.say('wa-cloud-list-button'), m.say('wa-cloud-list-section')),
  );
  return {
    parts,
    menu: { items, locale, labelsOnly: true, ...(m.lettered ? { lettered: m.lettered } : {}) },
    interactive: true,
    summary,
  };
}
