/**
 * How the alerts flow shows alerts and the store's answers: one alert's words, the list, one alert
 * with its actions, and the message for each outcome.
 */
import type { Button, Locale, Text } from '../../chat/types.js';
import type { FlowStep } from '../../flows/flow.js';
import { button, rows, send, text } from '../../flows/flow.js';
import { displayNetwork } from '../../flows/form/asset-steps.js';
import { menuButton } from '../../flows/menu/menu.js';
import type { Session } from '../../flows/session.js';
import type { AlertSide, AlertsOutcome, AlertView, Effect } from '../../flows/types.js';
import { formatDateTime, formatKes } from '../../i18n/format.js';
import { ALERTS_LIST, type AlertsState, at, MAX_ALERTS } from './state.js';

export const sideText = (side: AlertSide): string => side;

/** The words of one alert, as every message shows it. */
export function alertArgs(locale: Locale, a: Omit<AlertView, 'slot' | 'expiresAt'> & { expiresAt?: number }) {
  return {
    token: a.token,
    network: displayNetwork(a.network),
    side: sideText(a.side),
    level: formatKes(locale, a.level),
    ...(a.expiresAt !== undefined
      ? { expires: formatDateTime(locale, new Date(a.expiresAt).toISOString()) }
      : {}),
  };
}

export function listMessage(session: Session, alerts: AlertView[]): Effect {
  if (!alerts.length)
    return send([text('alerts-none')], {
      buttons: [[button('al:new', 'alerts-button-new')], [menuButton()]],
    });
  const texts: Text[] = [text('alerts-list-title', { count: alerts.length, max: MAX_ALERTS })];
  for (const a of alerts) texts.push(text('alerts-item', { slot: a.slot, ...alertArgs(session.locale, a) }));
  const picks: Button[] = alerts.map((a) =>
    button(`al:pick:${a.slot}`, 'alerts-button-pick', { slot: a.slot, token: a.token }),
  );
  const last: Button[] =
    alerts.length < MAX_ALERTS ? [button('al:new', 'alerts-button-new'), menuButton()] : [menuButton()];
  return send(texts, { buttons: [...rows(picks, 2), last] });
}

export function oneAlert(session: Session, a: AlertView): Effect {
  return send([text('alerts-item', { slot: a.slot, ...alertArgs(session.locale, a) })], {
    buttons: [
      [
        button(`al:chg:${a.slot}`, 'alerts-button-change'),
        button(`al:renew:${a.slot}`, 'alerts-button-renew'),
      ],
      [button(`al:del:${a.slot}`, 'alerts-button-delete'), button(ALERTS_LIST, 'alerts-button-list')],
    ],
  });
}

const doneButtons = () => [[button(ALERTS_LIST, 'alerts-button-list'), menuButton()]];

export function onOutcome(session: Session, state: AlertsState, o: AlertsOutcome): FlowStep {
  const shown = (effects: Effect[], listed = state.listed) =>
    at(session, { name: 'alerts', step: 'shown', ...(listed ? { listed } : {}) }, effects);
  switch (o.action) {
    case 'set':
      return shown([
        send(
          [
            text(o.changed ? 'alerts-changed' : 'alerts-set', {
              slot: o.alert.slot,
              ...alertArgs(session.locale, o.alert),
            }),
          ],
          { buttons: doneButtons() },
        ),
      ]);
    case 'full':
      return { session, effects: [], exit: [text('alerts-full', { max: o.max })] };
    case 'list':
      return at(session, { name: 'alerts', step: 'listing', listed: o.alerts }, [
        listMessage(session, o.alerts),
      ]);
    case 'deleted':
      return shown(
        [send([text('alerts-deleted', { slot: o.slot })], { buttons: doneButtons() })],
        state.listed?.filter((a) => a.slot !== o.slot),
      );
    case 'renewed':
      return shown([
        send([text('alerts-renewed', { slot: o.alert.slot, ...alertArgs(session.locale, o.alert) })], {
          buttons: doneButtons(),
        }),
      ]);
    case 'missing':
      return shown([send([text('alerts-missing', { slot: o.slot })], { buttons: doneButtons() })]);
  }
}
