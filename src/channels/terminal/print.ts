/**
 * An OutMessage as terminal lines: its texts, links as `label: url`, buttons as `[1] label` (a
 * notice's as `[A] label`, at most 26), noting the menu shown so a typed answer can press it.
 */
import type { Button, Locale, OutMessage } from '../../chat/types.js';
import type { I18n } from '../../i18n/index.js';
import { choiceKey } from '../choices.js';
import type { MenuBook } from './menus.js';

/** The lines of `message` for `userId`; the menu it shows replaces the one shown before. */
export function render(
  book: MenuBook,
  i18n: I18n,
  message: OutMessage,
  locale: Locale,
  userId: string,
): string {
  const lines = message.texts.map((t) => i18n.t(locale, t));
  const pressable: Button[] = [];
  const labels: string[] = [];
  for (const row of message.buttons ?? []) {
    for (const b of row) {
      const label = i18n.t(locale, b.label);
      if (b.url) {
        lines.push(`${label}: ${b.url}`);
        continue;
      }
      if (message.notice && pressable.length >= 26) continue;
      pressable.push(b);
      labels.push(label);
      lines.push(`[${choiceKey(pressable.length - 1, message.notice === true)}] ${label}`);
    }
  }
  const turn = book.turns.get(userId) ?? 0;
  if (message.notice) {
    if (pressable.length) book.notices.set(userId, { buttons: pressable, labels, turn });
  } else if (pressable.length) book.menus.set(userId, { buttons: pressable, labels, turn });
  else if (book.menus.get(userId)?.turn !== turn) book.menus.delete(userId);
  if (message.requestPhone) lines.push(i18n.t(locale, { id: 'terminal-phone-hint' }));
  return lines.join('\n');
}
