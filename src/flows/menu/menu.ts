/** The main menu: the resting state between flows. Its entries come from the flow table. */
import * as z from 'zod';
import type { Button, Text } from '../../chat/types.js';
import type { FlowDef } from '../flow.js';
import { button, rows, send, text, word } from '../flow.js';
import { parsePhone } from '../parse.js';
import type { Session } from '../session.js';
import type { Effect, FlowContext } from '../types.js';

export const menuStateSchema = z.object({ name: z.literal('menu') });
export type MenuState = z.infer<typeof menuStateSchema>;

const GREETINGS = [
  'hi',
  'hello',
  'hey',
  'habari',
  'mambo',
  'jambo',
  'hujambo',
  'sasa',
  'niaje',
  'salama',
  'shikamoo',
  'vipi',
  'start',
];

/**
 * True when the text is a greeting (answered with the menu): a greeting word, alone or with a few
 * words after it ("habari yako", "habari za asubuhi", "hi there"), and no figures.
 */
export function isGreeting(typed: string): boolean {
  const words = word(typed)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return GREETINGS.includes(words[0] ?? '') && words.length <= 4 && !/\d/.test(typed);
}

/**
 * The menu message: `texts` first, then what a flow notes (a live sale, with its buttons first), then
 * one button per flow with a menu entry, and `extra` buttons last (the one-tap language switch).
 */
export function menuMessage(
  defs: readonly FlowDef[],
  texts: Text[],
  session?: Session,
  ctx?: FlowContext,
  extra: Button[] = [],
): Effect {
  const entries: Button[] = [...defs]
    .filter((d) => d.menu)
    .sort((a, b) => (a.menu?.order ?? 0) - (b.menu?.order ?? 0))
    .map((d) => ({ id: `menu:${d.name}`, label: d.menu!.label }));
  const notes = session && ctx ? defs.flatMap((d) => d.menuNote?.(session, ctx) ?? []) : [];
  const buttons = [...notes.flatMap((n) => n.buttons), ...rows(entries, 2)];
  return send([...texts, ...notes.flatMap((n) => n.texts), text('core-menu-title')], {
    buttons: extra.length ? [...buttons, extra] : buttons,
  });
}

/** At rest: greetings show the menu, a shared contact is saved, anything else is not understood. */
export const menuFlow: FlowDef<MenuState> = {
  name: 'menu',
  prefix: 'menu',
  start: (session) => ({ session: { ...session, flow: { name: 'menu' } }, effects: [], exit: [] }),
  handle(session, _state, input) {
    if (input.kind === 'contact') {
      const phone = parsePhone(input.phone);
      if (!phone) return { session, effects: [], exit: [text('core-phone-invalid', { phone: input.phone })] };
      return {
        session: { ...session, profile: { ...session.profile, phone } },
        effects: [],
        exit: [text('settings-phone-saved')],
      };
    }
    if (input.kind === 'text' && isGreeting(input.text)) {
      return { session, effects: [], exit: [text('core-greeting')] };
    }
    if (input.kind === 'text' || input.kind === 'button') {
      return { session, effects: [], exit: [text('core-not-understood')] };
    }
    return { session, effects: [], unhandled: true };
  },
};

export const menuButton = (): Button => button('menu:main', 'core-button-menu');
