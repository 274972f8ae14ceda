/**
 * What the ticker sends: a crossed alert (with "Buy now" / "Sell now" that open the flow at the
 * token and network, asking only the amount and what else is missing) and the day-before note.
 * Amounts are plain figures; the texts put KES / KSh in front, as the tracker's do.
 */
import type { OutMessage } from '../chat/types.js';
import { button, text } from '../flows/flow.js';
import { displayNetwork } from '../flows/form/asset-steps.js';
import { formatDateTime, formatNumber } from '../i18n/format.js';
import { ALERTS_LIST, buyNowButtonId } from './flow/state.js';
import type { AlertRecord } from './store/record.js';

const kes = (n: number) => {
  const [int, frac = ''] = formatNumber('en', n, 2).split('.');
  return `${int}.${frac.padEnd(2, '0')}`;
};

export function firedMessage(rec: AlertRecord, rate: number): OutMessage {
  const args = {
    token: rec.token,
    network: displayNetwork(rec.network),
    rate: kes(rate),
    level: kes(rec.level),
  };
  const act =
    rec.side === 'below'
      ? button(buyNowButtonId(rec.token, rec.network), 'alerts-button-buy-now')
      : button(`menu:sell:${rec.token} ${rec.network}`, 'alerts-button-sell-now');
  return {
    texts: [text(rec.side === 'below' ? 'alerts-fired-below' : 'alerts-fired-above', args)],
    buttons: [[act], [button(ALERTS_LIST, 'alerts-button-list')]],
    notice: true,
  };
}

export function expiringMessage(rec: AlertRecord): OutMessage {
  return {
    texts: [
      text('alerts-expiring', {
        token: rec.token,
        network: displayNetwork(rec.network),
        level: kes(rec.level),
        expires: formatDateTime('en', new Date(rec.expiresAt).toISOString()),
      }),
    ],
    buttons: [
      [button(`al:renew:${rec.slot}`, 'alerts-button-renew'), button(ALERTS_LIST, 'alerts-button-list')],
    ],
    notice: true,
  };
}
