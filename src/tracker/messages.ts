/** The tracker's chat messages: one status message per order, texts from locales/<lang>/tracker.ftl. */

import type { Button, OutMessage, Text } from '../chat/types.js';
import { explorerTxUrl, NETWORK_INFO } from '../domain/networks.js';
import { maskPhone } from '../domain/phone.js';
import type { OfframpOrderState } from '../domain/types.js';
import type { TrackedOrder } from '../flows/types.js';
import { formatNumber } from '../i18n/format.js';
import type { EscalationReason } from './types.js';

/** KES as "1,500.00"; the texts put the currency (KES / KSh) in front. */
const kes = (amount: number | string) => {
  const [int, frac = ''] = formatNumber('en', amount, 2).split('.');
  return `${int}.${frac.padEnd(2, '0')}`;
};
/** Tokens rounded to the token's decimals (at most 6), never through a float. */
const tokens = (order: TrackedOrder) =>
  order.tokenAmount ? formatNumber('en', order.tokenAmount, Math.min(6, order.token.decimals)) : '-';

export const replaceKeyOf = (orderId: string) => `order:${orderId}`;
export const ticketButtonId = (orderId: string) => `ticket:${orderId}`;

/** `0x742d35…f44e`: enough to recognise a wallet without filling the screen. */
export function shortAddress(address: string): string {
  return address.length > 14 ? `${address.slice(0, 8)}…${address.slice(-4)}` : address;
}

/**
 * The ramp's failure description in plain words (M-Pesa result texts, off-ramp failure reasons). A
 * payout (`offramp`) is spoken of as a payout: it has no M-Pesa prompt or PIN on the user's side.
 */
export function failureReasonText(
  description: string | undefined,
  side: 'onramp' | 'offramp' = 'onramp',
): Text {
  const d = (description ?? '').trim();
  if (side === 'offramp') {
    if (/cancel/i.test(d)) return { id: 'tracker-payout-reason-cancelled' };
    if (/time\s*-?d?\s*out|expired|no response/i.test(d)) return { id: 'tracker-payout-reason-timeout' };
    if (/limit/i.test(d)) return { id: 'tracker-payout-reason-limit' };
    if (/invalid|not registered|unknown (msisdn|number)/i.test(d))
      return { id: 'tracker-payout-reason-number' };
    if (!d || /^transaction (initiated|failed)$/i.test(d) || /^(withdrawal|payment) failed$/i.test(d))
      return { id: 'tracker-reason-unknown' };
    return { id: 'tracker-reason-other', args: { detail: d.slice(0, 160) } };
  }
  if (/insufficient/i.test(d)) return { id: 'tracker-reason-insufficient-balance' };
  if (/cancel/i.test(d)) return { id: 'tracker-reason-cancelled' };
  if (/time\s*-?d?\s*out|expired|no response/i.test(d)) return { id: 'tracker-reason-timeout' };
  if (/\bpin\b|initiator|credentials/i.test(d)) return { id: 'tracker-reason-wrong-pin' };
  if (/limit/i.test(d)) return { id: 'tracker-reason-limit' };
  if (!d || /^transaction (initiated|failed)$/i.test(d) || /^(withdrawal|payment) failed$/i.test(d)) {
    return { id: 'tracker-reason-unknown' };
  }
  return { id: 'tracker-reason-other', args: { detail: d.slice(0, 160) } };
}

/** Support's "Talk to a person" about an order (routed by the support flow's `support:` start buttons). */
export const talkButtonId = (orderId: string) => `support:order:${orderId}`;

/** The finished order's receipt as a picture (claimed by src/receipts' flow, `rc:` start buttons). */
export const receiptButtonId = (orderId: string) => `rc:${orderId}`;
const receiptRow = (orderId: string): Button[] => [
  { id: receiptButtonId(orderId), label: { id: 'receipts-button' } },
];

/** A failed order's ways on: a refund ticket, or a person about that order. */
const ticketButton = (orderId: string): Button[][] => [
  [{ id: ticketButtonId(orderId), label: { id: 'tracker-ticket-button' } }],
  [{ id: talkButtonId(orderId), label: { id: 'tracker-talk-button' } }],
];

export function onrampPendingMessage(order: TrackedOrder): OutMessage {
  return {
    texts: [{ id: 'tracker-onramp-pending', args: { amount: kes(order.amountKes), orderId: order.orderId } }],
    replaceKey: replaceKeyOf(order.orderId),
  };
}

export function onrampPaidMessage(order: TrackedOrder, receipt: string | undefined): OutMessage {
  return {
    texts: [
      {
        id: 'tracker-onramp-paid',
        args: { orderId: order.orderId, receipt: receipt ?? '-', symbol: order.token.symbol },
      },
    ],
    replaceKey: replaceKeyOf(order.orderId),
  };
}

export function onrampDoneMessage(
  order: TrackedOrder,
  receipt: string | undefined,
  hash: string,
): OutMessage {
  const url = explorerTxUrl(order.network, hash);
  return {
    texts: [
      {
        id: 'tracker-onramp-done',
        args: {
          amount: kes(order.amountKes),
          receipt: receipt ?? '-',
          tokens: tokens(order),
          symbol: order.token.symbol,
          network: NETWORK_INFO[order.network].displayName,
          wallet: shortAddress(order.walletAddress),
        },
      },
      { id: 'tracker-tx-hash', args: { hash, url } },
    ],
    buttons: [
      [{ id: `explorer:${order.orderId}`, label: { id: 'tracker-explorer-button' }, url }],
      receiptRow(order.orderId),
      [{ id: buyAgainButtonId(order), label: { id: 'tracker-buy-again-button' } }],
    ],
    replaceKey: replaceKeyOf(order.orderId),
  };
}

/** Starts the same buy again (amount, token, network; the saved wallet and phone fill the rest). */
export const buyAgainButtonId = (order: TrackedOrder): string =>
  `menu:buy:${order.amountKes} ${order.token.symbol} ${order.network}`;

/** A buy's prompt the user cancelled (no money taken): said "cancelled", in the chat and the history. */
export function onrampCancelled(status: 'FAILED' | 'CANCELLED', description: string | undefined): boolean {
  if (status === 'CANCELLED') return true;
  return failureReasonText(description).id === 'tracker-reason-cancelled';
}

export function onrampFailedMessage(
  order: TrackedOrder,
  status: 'FAILED' | 'CANCELLED',
  description: string | undefined,
): OutMessage {
  const reason = failureReasonText(description ?? (status === 'CANCELLED' ? 'cancelled' : undefined));
  // A prompt the user cancelled took no money: the way on is to try again, not a refund ticket.
  const cancelled = onrampCancelled(status, description);
  return {
    texts: [
      {
        id: cancelled ? 'tracker-onramp-cancelled' : 'tracker-onramp-failed',
        args: { amount: kes(order.amountKes), orderId: order.orderId },
      },
      reason,
      { id: cancelled ? 'tracker-try-again-hint' : 'tracker-ticket-hint' },
    ],
    buttons: cancelled
      ? [[{ id: buyAgainButtonId(order), label: { id: 'tracker-try-again-button' } }]]
      : ticketButton(order.orderId),
    replaceKey: replaceKeyOf(order.orderId),
  };
}

export function offrampPendingMessage(order: TrackedOrder): OutMessage {
  return {
    texts: [
      {
        id: 'tracker-offramp-pending',
        args: { amount: kes(order.amountKes), phone: maskPhone(order.phone), orderId: order.orderId },
      },
    ],
    replaceKey: replaceKeyOf(order.orderId),
  };
}

/** `"254700000001 - Jane Doe"` -> `"Jane Doe"`: the provider prefixes the name with the full phone. */
export function receiverDisplayName(name: string | undefined): string | undefined {
  const n = name?.replace(/^\s*\+?\d[\d\s]*-\s*/, '').trim();
  return n ? n : undefined;
}

export function offrampDoneMessage(order: TrackedOrder, state: OfframpOrderState): OutMessage {
  const amount = kes(state.amountKes ?? order.amountKes);
  const phone = maskPhone(state.phone ?? order.phone);
  const name = receiverDisplayName(state.receiverName);
  return {
    texts: [
      name
        ? {
            id: 'tracker-offramp-done',
            args: { amount, phone, name, receipt: state.receipt ?? '-' },
          }
        : { id: 'tracker-offramp-done-noname', args: { amount, phone, receipt: state.receipt ?? '-' } },
    ],
    buttons: [receiptRow(order.orderId)],
    replaceKey: replaceKeyOf(order.orderId),
  };
}

export function offrampFailedMessage(order: TrackedOrder, state: OfframpOrderState): OutMessage {
  return {
    texts: [
      {
        id: 'tracker-offramp-failed',
        args: { amount: kes(order.amountKes), phone: maskPhone(order.phone), orderId: order.orderId },
      },
      failureReasonText(state.failureReason ?? state.message, 'offramp'),
      { id: 'tracker-payout-ticket-hint' },
    ],
    buttons: ticketButton(order.orderId),
    replaceKey: replaceKeyOf(order.orderId),
  };
}

export function escalatedMessage(order: TrackedOrder, reason: EscalationReason): OutMessage {
  const id =
    reason === 'horizon'
      ? order.side === 'onramp'
        ? 'tracker-escalated-onramp-horizon'
        : 'tracker-escalated-offramp-horizon'
      : 'tracker-escalated-deposit';
  return {
    texts: [{ id, args: { orderId: order.orderId } }],
    replaceKey: replaceKeyOf(order.orderId),
  };
}
