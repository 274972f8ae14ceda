/** Turns channel-neutral messages into Telegram HTML text and keyboards. */
import type { InlineKeyboardButton, InlineKeyboardMarkup, ReplyKeyboardMarkup } from 'grammy/types';
import type { Button, Locale, Text } from '../../../chat/types.js';
import { cutUtf16 } from '../../text-limits.js';

/** What the adapter needs from the project's i18n (`loadI18n()` satisfies it). */
export interface TelegramI18n {
  t(locale: Locale, text: Text): string;
  has?(id: string): boolean;
}

/** Telegram's limit on a message's text. */
export const MAX_MESSAGE_LENGTH = 4096;
/** Telegram's limit on a picture's caption. */
export const MAX_CAPTION_LENGTH = 1024;
/** Telegram's limit on callback data, in bytes. */
export const MAX_CALLBACK_DATA_BYTES = 64;

/** Thrown when a message cannot be represented on Telegram (a flow bug, not a user error). */
export class TelegramRenderError extends Error {
  override name = 'TelegramRenderError';
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Escapes text for Telegram's HTML parse mode. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c] as string);
}

const TAG = /^<\/?(b|strong|i|em|u|ins|s|strike|del|code|pre|blockquote|tg-spoiler|a(?=[\s>/]))(\s[^<>]*)?>/i;
const ENTITY = /^&(lt|gt|amp|quot|#\d{1,7}|#x[0-9a-fA-F]{1,6});/;

/**
 * Keeps the formatting tags Telegram understands in a rendered template and escapes every other
 * `<` and `&`, so a stray character in a translation cannot make Telegram refuse the message.
 */
export function sanitizeHtml(html: string): string {
  // Copied in runs between the `<` and `&` (most templates have a few or none), not a character at a time.
  let out = '';
  let copied = 0;
  for (let i = 0; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (c !== 60 && c !== 38) continue; // `<`, `&`
    const kept = c === 60 ? TAG.exec(html.slice(i, i + 300)) : ENTITY.exec(html.slice(i, i + 12));
    out += html.slice(copied, i);
    if (kept) {
      out += kept[0];
      i += kept[0].length - 1;
    } else out += c === 60 ? '&lt;' : '&amp;';
    copied = i + 1;
  }
  return copied === 0 ? html : out + html.slice(copied);
}

/** Removes tags and decodes entities: the plain text a client would show. */
export function htmlToPlain(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-fA-F]+);/g, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&amp;/g, '&');
}

/** Renders one Text as Telegram HTML: every string argument is escaped before formatting. */
export function renderHtml(i18n: TelegramI18n, locale: Locale, text: Text): string {
  const args = text.args
    ? Object.fromEntries(
        Object.entries(text.args).map(([k, v]) => [k, typeof v === 'string' ? escapeHtml(v) : v]),
      )
    : undefined;
  return sanitizeHtml(i18n.t(locale, args ? { id: text.id, args } : { id: text.id }));
}

/** Renders a Text for a place without parse mode (button labels): plain, nothing escaped. */
export function renderPlain(i18n: TelegramI18n, locale: Locale, text: Text): string {
  return i18n.t(locale, text);
}

/**
 * Joins rendered paragraphs with blank lines into messages no longer than Telegram allows. A
 * paragraph longer than the limit on its own is cut at a line break (or hard) as a last resort.
 */
export function joinParagraphs(paragraphs: string[], limit = MAX_MESSAGE_LENGTH): string[] {
  const pieces: string[] = [];
  for (const p of paragraphs) {
    if (p.length <= limit) {
      pieces.push(p);
      continue;
    }
    let rest = p;
    while (rest.length > limit) {
      const cut = rest.lastIndexOf('\n', limit);
      const at = cut > limit / 2 ? cut : limit;
      pieces.push(rest.slice(0, at));
      rest = rest.slice(at).replace(/^\n/, '');
    }
    if (rest) pieces.push(rest);
  }
  const chunks: string[] = [];
  let current = '';
  for (const p of pieces) {
    if (current === '') current = p;
    else if (current.length + 2 + p.length <= limit) current += `\n\n${p}`;
    else {
      chunks.push(current);
      current = p;
    }
  }
  if (current !== '') chunks.push(current);
  return chunks;
}

export interface KeyboardIssue {
  button: string;
  problem: string;
}

/**
 * Builds an inline keyboard. Link buttons must be https (others are dropped and reported); callback
 * data must be 1-64 bytes (otherwise TelegramRenderError: the id could never travel back).
 */
export function inlineKeyboard(
  rows: Button[][] | undefined,
  label: (text: Text) => string,
  onIssue: (issue: KeyboardIssue) => void = () => {},
): InlineKeyboardMarkup | undefined {
  if (!rows?.length) return undefined;
  const keyboard: InlineKeyboardButton[][] = [];
  for (const row of rows) {
    const out: InlineKeyboardButton[] = [];
    for (const b of row) {
      const text = label(b.label);
      if (b.url !== undefined) {
        if (!isHttpsUrl(b.url)) {
          onIssue({ button: b.id, problem: 'link buttons must use https; dropped' });
          continue;
        }
        out.push({ text, url: b.url });
        continue;
      }
      const bytes = Buffer.byteLength(b.id, 'utf8');
      if (bytes < 1 || bytes > MAX_CALLBACK_DATA_BYTES) {
        throw new TelegramRenderError(
          `Button id "${b.id.slice(0, 80)}" is ${bytes} bytes; Telegram callback data must be 1-${MAX_CALLBACK_DATA_BYTES} bytes`,
        );
      }
      out.push({ text, callback_data: b.id });
    }
    if (out.length) keyboard.push(out);
  }
  return keyboard.length ? { inline_keyboard: keyboard } : undefined;
}

/** The one-button reply keyboard that shares the user's own phone number. */
export function phoneKeyboard(label: string, placeholder?: string): ReplyKeyboardMarkup {
  return {
    keyboard: [[{ text: label, request_contact: true }]],
    one_time_keyboard: true,
    resize_keyboard: true,
    ...(placeholder ? { input_field_placeholder: cutUtf16(placeholder, 64) } : {}),
  };
}

function isHttpsUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}
