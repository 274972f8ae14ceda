/**
 * The three interactive messages: a call-to-action URL button, up to 3 reply buttons, and a list
 * of up to 10 rows (a title cut to 24 characters keeps the whole label in its description).
 */
import type { WireMessage } from '../graph.js';
import { clip, LIMITS } from '../limits.js';

/** A choice as shown: the id that travels back in the tap and its label. */
export interface Choice {
  id: string;
  label: string;
}

/** One URL button under `body`. */
export function linkButton(body: string, label: string, url: string): WireMessage {
  return {
    type: 'interactive',
    interactive: {
      type: 'cta_url',
      body: { text: body },
      action: { name: 'cta_url', parameters: { display_text: clip(label, LIMITS.ctaText), url } },
    },
  };
}

/** True when the choices fit as reply buttons (few enough, short enough titles). */
export const fitButtons = (items: Choice[]): boolean =>
  items.length <= LIMITS.buttons && items.every((i) => i.label.trim().length <= LIMITS.buttonTitle);

/** Reply buttons under `body`. */
export function replyButtons(body: string, items: Choice[]): WireMessage {
  return {
    type: 'interactive',
    interactive: {
      type: 'button',
      body: { text: body },
      action: {
        buttons: items.map((i) => ({
          type: 'reply',
          reply: { id: i.id, title: clip(i.label, LIMITS.buttonTitle) },
        })),
      },
    },
  };
}

/** A list under `body`, opened by a button titled `button`, its one section titled `section`. */
export function listOf(body: string, items: Choice[], button: string, section: string): WireMessage {
  return {
    type: 'interactive',
    interactive: {
      type: 'list',
      body: { text: body },
      action: {
        button: clip(button, LIMITS.listButton),
        sections: [{ title: clip(section, LIMITS.sectionTitle), rows: items.map(listRow) }],
      },
    },
  };
}

function listRow(i: Choice) {
  const title = clip(i.label, LIMITS.rowTitle);
  const cut = title !== i.label.trim();
  return { id: i.id, title, ...(cut ? { description: clip(i.label, LIMITS.rowDescription) } : {}) };
}
