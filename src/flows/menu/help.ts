/**
 * Help and support. "Talk to a person" (`support:open`) and "refund ticket" (`ticket:new`) keep
 * their ids; until a support flow is registered ahead of help, they answer how to reach support.
 */
import * as z from 'zod';
import type { FlowDef } from '../flow.js';
import { button, send, text } from '../flow.js';
import { menuButton } from './menu.js';

export const helpStateSchema = z.object({ name: z.literal('help') });
export type HelpState = z.infer<typeof helpStateSchema>;

export const SUPPORT_OPEN = 'support:open';
export const TICKET_NEW = 'ticket:new';

const helpButtons = () => [
  [button(SUPPORT_OPEN, 'help-button-person')],
  [button(TICKET_NEW, 'help-button-ticket')],
  [menuButton()],
];

const supportInfo = (session: Parameters<FlowDef['start']>[0]) => ({
  session: { ...session, flow: { name: 'help' as const } },
  effects: [send([text('help-support-info')], { buttons: [[menuButton()]] })],
});

export const helpFlow: FlowDef<HelpState> = {
  name: 'help',
  prefix: 'help',
  commands: ['help', 'msaada'],
  keywords: ['help', 'msaada', 'support', 'usaidizi'],
  menu: { order: 50, label: text('core-menu-help') },
  startButtons: ['support:', 'ticket:'],
  start(session, _ctx, how) {
    if (how.button?.startsWith('support:') || how.button?.startsWith('ticket:')) return supportInfo(session);
    return {
      session: { ...session, flow: { name: 'help' } },
      effects: [
        send(
          [
            text('help-intro'),
            text('help-commands'),
            text('help-commands-alerts'),
            text('help-commands-charts'),
            text('help-commands-statements'),
          ],
          {
            buttons: helpButtons(),
          },
        ),
      ],
    };
  },
  handle(session, _state, input) {
    if (input.kind === 'button' && (input.id === SUPPORT_OPEN || input.id === TICKET_NEW)) {
      return supportInfo(session);
    }
    if (input.kind === 'text' || input.kind === 'button' || input.kind === 'contact') {
      return { session, effects: [], exit: [text('core-not-understood')] };
    }
    return { session, effects: [], unhandled: true };
  },
};
