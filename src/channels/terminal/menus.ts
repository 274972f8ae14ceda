/**
 * What a typed line means: the menus last printed to each user (a question's, numbered; a notice's,
 * lettered) and the turn each was printed in, so a number, a letter or a label presses a button,
 * `/command args` is a command, and anything else is text.
 */
import type { Button } from '../../chat/types.js';
import type { Input } from '../../flows/types.js';

export interface Menu {
  buttons: Button[];
  labels: string[];
  turn: number;
}

/** Per user: the question's menu, the last notice's menu, and how many lines they have typed. */
export interface MenuBook {
  menus: Map<string, Menu>;
  notices: Map<string, Menu>;
  turns: Map<string, number>;
}

export const createMenuBook = (): MenuBook => ({ menus: new Map(), notices: new Map(), turns: new Map() });

/** A label as a person would type it: no emoji, single spaces, lower case. */
export function normalizeLabel(label: string): string {
  return label
    .normalize('NFKC')
    .replace(/\p{Extended_Pictographic}|\uFE0F|\u200D/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLocaleLowerCase();
}

/** Parses `/buy 500 usdt` (and `/buy@bot …`) into a command input. */
export function parseCommand(line: string): Input | undefined {
  const m = /^\/([A-Za-z0-9_]+)(?:@\S+)?(?:\s+([\s\S]*))?$/.exec(line);
  if (!m) return undefined;
  return { kind: 'command', command: (m[1] ?? '').toLowerCase(), args: (m[2] ?? '').trim() };
}

/** A number answers the question's menu, a letter the last notice's; a label either (question first). */
export function toInput(book: MenuBook, userId: string, line: string): Input {
  const menu = book.menus.get(userId);
  const notice = book.notices.get(userId);
  if (/^\d+$/.test(line)) {
    const b = menu?.buttons[Number(line) - 1];
    if (b) return { kind: 'button', id: b.id };
  }
  if (/^[a-zA-Z]$/.test(line) && notice) {
    const b = notice.buttons[line.toUpperCase().charCodeAt(0) - 65];
    if (b) return { kind: 'button', id: b.id };
  }
  const wanted = normalizeLabel(line);
  for (const m of [menu, notice]) {
    const i = wanted && m ? m.labels.findIndex((l) => normalizeLabel(l) === wanted) : -1;
    if (i >= 0) return { kind: 'button', id: m!.buttons[i]!.id };
  }
  return parseCommand(line) ?? { kind: 'text', text: line };
}
