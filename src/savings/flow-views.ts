/** How the standing buys flow shows plans: a cadence in words, the list with its buttons, the summary before Confirm. */
import type { Button, Text } from '../chat/types.js';
import { NETWORK_INFO } from '../domain/networks.js';
import type { FlowStep } from '../flows/flow.js';
import { button, displayPhone, navRow, send, shortAddress, text } from '../flows/flow.js';
import { menuButton } from '../flows/menu/menu.js';
import type { Session } from '../flows/session.js';
import type { FlowContext, PlanView } from '../flows/types.js';
import { formatDateTime, formatKes } from '../i18n/format.js';
import { ask, at, type Draft, exit, type SavingsState } from './flow-state.js';
import { type Cadence, nextDue, parseCadence } from './schedule.js';
/** How a cadence reads: "every Friday at 09:00" (the locale's words). */
export function cadenceTexts(c: Cadence): Text {
  const hour = `${String(c.hour).padStart(2, '0')}:00`;
  if (c.every === 'daily') return text('savings-every-day', { hour });
  if (c.every === 'weekly') return text('savings-every-week', { day: c.day, hour });
  return text('savings-every-month', { day: c.day, hour });
}

export const when = (locale: Session['locale'], ms: number) =>
  formatDateTime(locale, new Date(ms).toISOString());

/** One plan in the list, with its buttons. */
export function planLines(
  session: Session,
  p: PlanView,
  index: number,
): { texts: Text[]; buttons: Button[] } {
  const c = parseCadence(p.cadence)!;
  const texts: Text[] = [
    text(p.status === 'active' ? 'savings-list-plan' : 'savings-list-plan-paused', {
      n: index + 1,
      kes: formatKes(session.locale, p.amountKes),
      token: p.token,
      network: NETWORK_INFO[p.network].displayName,
      wallet: shortAddress(p.wallet),
      next: p.nextDue ? when(session.locale, p.nextDue) : '-',
    }),
    cadenceTexts(c),
    ...p.recent.map((r) =>
      text(`savings-run-${r.status}`, { run: r.no, period: r.period, orderId: r.orderId ?? '-' }),
    ),
  ];
  const n = String(index + 1);
  const buttons = [
    p.status === 'active'
      ? button(`save:pause:${p.id}`, 'savings-button-pause', { n })
      : button(`save:resume:${p.id}`, 'savings-button-resume', { n }),
    button(`save:change:${p.id}`, 'savings-button-change', { n }),
    button(`save:cancel:${p.id}`, 'savings-button-cancel', { n }),
  ];
  return { texts, buttons };
}

export function listed(session: Session, plans: PlanView[]): FlowStep {
  if (!plans.length) return exit(session, [text('savings-list-empty'), text('savings-usage')]);
  const parts = plans.map((p, i) => planLines(session, p, i));
  return at(session, { name: 'savings', step: 'waiting' }, [
    send([text('savings-list-title'), ...parts.flatMap((p) => p.texts)], {
      buttons: [...parts.map((p) => p.buttons), [menuButton()]],
    }),
  ]);
}

/** The summary before Confirm: what, how often, where, from which phone, and the first run. */
export function summary(session: Session, state: SavingsState, d: Draft, ctx: FlowContext): FlowStep {
  const c = parseCadence(d.cadence)!;
  return ask(
    session,
    { ...state, step: 'confirm', draft: d },
    [
      text('savings-summary', {
        kes: formatKes(session.locale, d.amountKes),
        token: d.token!,
        network: NETWORK_INFO[d.network!].displayName,
        wallet: d.wallet!,
        phone: displayPhone(d.phone!),
        first: when(session.locale, nextDue(c, ctx.now)),
      }),
      cadenceTexts(c),
      text('savings-summary-note'),
    ],
    [[button('save:confirm', 'savings-button-confirm')], navRow(false)],
  );
}
