/**
 * The case card: the first, pinned message of a case topic, edited as facts arrive. Pure: it turns
 * a case (and what the tracker keeps about its order) into texts; the topic manager renders them.
 */

import type { Text } from '../../chat/types.js';
import { explorerTxUrl, NETWORK_INFO } from '../../domain/networks.js';
import { maskPhone } from '../../domain/phone.js';
import type { Network } from '../../domain/types.js';
import { formatNumber } from '../../i18n/format.js';
import type { OrderEvent } from '../../tracker/store/timeline.js';
import type { CaseEvent, SupportCase } from './case.js';

/** What the tracker stores about the case's order, as far as an agent needs it. */
export interface TrackerFacts {
  stage?: string;
  status?: string;
  polls?: number;
  posted?: string;
  receipt?: string;
  lastError?: string;
  outcome?: string;
  /** The crypto release guard: intent, unknown or sent (with the transfer's hash). */
  deposit?: { state: string; hash?: string };
  /** What happened to the order, oldest first (the tracker's timeline). */
  timeline?: OrderEvent[];
  /** The order as the user made it (amounts as they saw them, wallet, token). */
  order?: OrderFacts;
  /** What the user was last told about the order, in the tracker's own texts. */
  told?: Text[];
}

/** The tracked order's facts a card shows and a manual ticket needs. */
export interface OrderFacts {
  side: 'onramp' | 'offramp';
  network: Network;
  wallet: string;
  token: { symbol: string; address: string; decimals: number };
  /** On-ramp: KES asked for; off-ramp: KES the recipient should get. */
  amountKes: number;
  /** On-ramp: KES paid, fee included. */
  paidKes?: number;
  tokenAmount?: string;
  phone: string;
  /** Off-ramp: the escrow transaction that funded it. */
  txHash?: string;
}

/** How many events the card lists (the newest); the topic has the full conversation. */
export const CARD_EVENTS = 12;
/** How many entries of the order's timeline the card lists (the newest). */
export const CARD_ORDER_EVENTS = 10;
const EVENT_TEXT_CHARS = 80;

const t = (id: string, args?: Text['args']): Text => (args ? { id, args } : { id });

/** `0x5e1f9c…a3b4`: the full hash, with its explorer link, is in the card's head. */
const shortHash = (hash: string) => (hash.length > 16 ? `${hash.slice(0, 8)}…${hash.slice(-4)}` : hash);

const short = (s: string | undefined) =>
  s && s.length > EVENT_TEXT_CHARS ? `${s.slice(0, EVENT_TEXT_CHARS)}…` : (s ?? '');

/** One history line's content (without the time). */
export function eventText(e: CaseEvent): Text {
  const agent = e.name ?? (e.by.startsWith('agent:') ? e.by.slice('agent:'.length) : e.by);
  switch (e.kind) {
    case 'opened':
      return t('support-event-opened', { reason: e.reason ?? 'user' });
    case 'escalated':
      return t('support-event-escalated', { reason: e.reason ?? 'other' });
    case 'reopened':
      return t('support-event-reopened', { by: agent });
    case 'user':
      return t('support-event-user-message', { text: short(e.text) });
    case 'agent':
      return t('support-event-agent-message', { agent, text: short(e.text) });
    case 'status':
      return t('support-event-status', { agent, status: e.status ?? '?' });
    case 'ticket':
      return t('support-event-ticket', { ticketId: e.ticketId ?? '?', by: agent });
    case 'resolved':
      return e.text
        ? t('support-event-resolved', { agent, text: short(e.text) })
        : t('support-event-resolved-plain', { agent });
    case 'note':
      return t('support-event-note', { text: short(e.text) });
  }
}

/** One line of the order's timeline (without the time). */
export function orderEventText(e: OrderEvent, side: 'onramp' | 'offramp' = 'onramp'): Text {
  switch (e.kind) {
    case 'created':
      return t('support-order-created');
    case 'status':
      if (e.status === 'FAILED' || e.status === 'CANCELLED')
        // A payout has no M-Pesa prompt or PIN: its failure is said in payout words.
        return t(side === 'offramp' ? 'support-order-payout-failed' : 'support-order-status-failed', {
          status: e.status,
          reason: e.reason ?? 'unknown',
        });
      return e.receipt
        ? t('support-order-status-receipt', { status: e.status ?? '?', receipt: e.receipt })
        : t('support-order-status', { status: e.status ?? '?' });
    case 'deposit_intent':
      return t('support-order-deposit-intent');
    case 'deposit_sent':
      return t('support-order-deposit-sent', { hash: shortHash(e.hash ?? '?') });
    case 'deposit_unknown':
      return t('support-order-deposit-unknown', { reason: e.reason ?? '?' });
    case 'deposit_refused':
      return t('support-order-deposit-refused', { reason: e.reason ?? '?' });
    case 'reconciled':
      return t('support-order-reconciled', { hash: shortHash(e.hash ?? '?') });
    case 'escalated':
      return t('support-order-escalated', { reason: e.reason ?? 'other' });
    case 'final':
      return t('support-order-final', { outcome: e.outcome ?? 'other' });
  }
}

/** A phone or user id an agent may see: phones masked, Telegram chat ids as they are. */
export function displayUser(c: SupportCase): string {
  return c.user.channel === 'whatsapp' ? maskPhone(c.user.id) : c.user.id;
}

/** The topic's name: `D-abc12-XY · 2547••••5678` (at most 128 characters). */
export function topicName(c: SupportCase): string {
  const who = c.phone ? maskPhone(c.phone) : `${c.user.channel} ${displayUser(c)}`;
  return `${c.orderId ?? c.id} · ${who}`.slice(0, 128);
}

/**
 * A history line: `• <time> <what>`, the time (epoch ms) shown in the desk's language, `what`
 * rendered plain and passed as an (escaped) argument.
 */
export interface HistoryLine {
  at: number;
  what: Text;
}

/** The card: head lines, the order's timeline, then the case's history (whose oldest lines may be dropped to fit). */
export interface CardTexts {
  head: Text[];
  /** The order's timeline, newest last. */
  order: HistoryLine[];
  /** Said when the order's timeline has more entries than shown. */
  orderMore?: Text;
  more?: Text;
  history: HistoryLine[];
}

/** The card's lines, in order. */
export function cardTexts(c: SupportCase, facts?: TrackerFacts): CardTexts {
  const head: Text[] = [
    t('support-card-title', { caseId: c.id, status: c.status }),
    t('support-card-reason', { reason: c.reason }),
    t('support-card-channel', { channel: c.user.channel, user: displayUser(c) }),
  ];
  if (c.phone) head.push(t('support-card-phone', { phone: maskPhone(c.phone) }));
  if (c.userLocale || c.lastRead)
    head.push(t('support-card-reading', { locale: c.userLocale ?? 'unknown', read: c.lastRead ?? 'none' }));
  if (c.orderId && c.notOwner) {
    // Someone else's order (or one rampchat does not know): nothing of it on the card.
    head.push(t('support-card-not-owner', { orderId: c.orderId }));
  } else if (c.orderId) {
    head.push(t('support-card-order', { orderId: c.orderId, side: c.side ?? 'onramp' }));
    head.push(...moneyLines(c, facts?.order));
    const status = orderStatus(c, facts);
    if (status) head.push(t('support-card-state', { status }));
  } else {
    head.push(t('support-card-order-none'));
  }
  const receipt = c.receipt ?? facts?.receipt;
  if (receipt) head.push(t('support-card-receipt', { receipt }));
  const o = c.notOwner ? undefined : facts?.order;
  const side = c.side ?? o?.side ?? 'onramp';
  const network = c.network ?? o?.network;
  // A sale's tokens went to the escrow first; a buy's were released to the wallet.
  const hash = side === 'offramp' ? (o?.txHash ?? c.txHash) : (c.txHash ?? facts?.deposit?.hash);
  if (hash && !c.notOwner)
    head.push(
      network
        ? t('support-card-tx-kind', { side, hash, url: explorerTxUrl(network, hash) })
        : t('support-card-tx-kind-plain', { side, hash }),
    );
  const wallet = c.wallet ?? o?.wallet;
  if (wallet && !c.notOwner) head.push(t('support-card-wallet', { wallet }));
  if (c.ticketId) {
    const filed = [...c.events].reverse().find((e) => e.kind === 'ticket' && e.ticketId === c.ticketId);
    head.push(
      t('support-card-ticket-state', {
        ticketId: c.ticketId,
        by: filed ? (filed.name ?? filed.by.replace(/^agent:/, '')) : 'system',
      }),
    );
  }
  const error = c.lastError ?? facts?.lastError;
  if (error) head.push(t('support-card-error', { error: error.slice(0, 300) }));
  if (facts?.stage)
    head.push(
      t('support-card-tracker-stage', {
        stage: facts.outcome ? `${facts.stage} (${facts.outcome})` : facts.stage,
        polls: facts.polls ?? 0,
      }),
    );
  if (facts?.deposit) head.push(t('support-card-deposit', { state: facts.deposit.state }));
  if (facts?.told?.length && !c.notOwner) head.push(t('support-card-told'), ...facts.told);
  head.push(nextStep(c, facts));

  const events = c.events.slice(-CARD_EVENTS);
  const more =
    c.events.length > events.length
      ? t('support-card-history-more', { count: c.events.length - events.length })
      : undefined;
  const history = events.map((e) => ({ at: e.at, what: eventText(e) }));

  const timeline = facts?.timeline ?? [];
  const shown = timeline.slice(-CARD_ORDER_EVENTS);
  const order = shown.map((e) => ({ at: e.at, what: orderEventText(e, c.side ?? facts?.order?.side) }));
  const orderMore =
    timeline.length > shown.length
      ? t('support-card-history-more', { count: timeline.length - shown.length })
      : undefined;
  return { head, order, ...(orderMore ? { orderMore } : {}), more, history };
}

/** KES as the user saw it: "1,500.00". */
const kes = (amount: number) => {
  const [int, frac = ''] = formatNumber('en', amount, 2).split('.');
  return `${int}.${frac.padEnd(2, '0')}`;
};

/** Tokens rounded to the token's decimals (at most 6), as the user saw them. */
const tokens = (amount: string | undefined, decimals = 6) =>
  amount ? formatNumber('en', amount, Math.min(6, decimals)) : '?';

/** The money lines: paid, fee and received for a buy; sent and to receive for a sale. */
function moneyLines(c: SupportCase, o: OrderFacts | undefined): Text[] {
  const network = o?.network ?? c.network;
  const symbol = o?.token.symbol ?? c.symbol;
  const amountKes = o?.amountKes ?? c.amountKes;
  const tokenAmount = o?.tokenAmount ?? c.tokenAmount;
  if (amountKes === undefined || !symbol || !network) return [];
  const where = NETWORK_INFO[network].displayName;
  const sent = tokens(tokenAmount, o?.token.decimals);
  if ((o?.side ?? c.side) === 'offramp')
    return [t('support-card-money-sale', { tokens: sent, symbol, network: where, kes: kes(amountKes) })];
  if (o?.paidKes !== undefined && o.paidKes > amountKes)
    return [
      t('support-card-money-buy-fee', {
        paid: kes(o.paidKes),
        amount: kes(amountKes),
        fee: kes(Math.round((o.paidKes - amountKes) * 100) / 100),
        tokens: sent,
        symbol,
        network: where,
      }),
    ];
  return [t('support-card-money-buy', { paid: kes(amountKes), tokens: sent, symbol, network: where })];
}

/** What the agent should do next, from the case and the order's state. */
function nextStep(c: SupportCase, facts: TrackerFacts | undefined): Text {
  if (c.status === 'closed') return t('support-card-next', { step: 'closed' });
  if (!c.orderId) return t('support-card-next', { step: 'ask-order' });
  if (c.notOwner) return t('support-card-next', { step: 'not-owner' });
  const status = orderStatus(c, facts);
  if (facts?.deposit?.state === 'unknown') return t('support-card-next', { step: 'release-unknown' });
  if (status === 'FAILED' || status === 'CANCELLED')
    return t('support-card-next', { step: c.ticketId ? 'follow-ticket' : 'file-ticket' });
  if (status === 'SUCCESS')
    return t('support-card-next', {
      step:
        (c.side ?? facts?.order?.side) === 'onramp' && !facts?.deposit?.hash && !c.txHash
          ? 'check-release'
          : 'success',
    });
  if (status === 'PENDING') return t('support-card-next', { step: 'pending' });
  return t('support-card-next', { step: 'check-status' });
}

/** The order's state: the tracker's once it is final, else the newer of the case's and the tracker's. */
function orderStatus(c: SupportCase, facts: TrackerFacts | undefined): string | undefined {
  if (facts?.stage === 'final' && facts.status) return facts.status;
  return c.lastStatus ?? facts?.status;
}
