/**
 * History: the caller's own orders (made through rampchat, recorded with their owner), newest first,
 * each with what really became of it. Never looked up by wallet address: addresses are public, so
 * a typed wallet would show a stranger's order ids, amounts and M-Pesa receipts.
 */
import * as z from 'zod';
import type { Button, Locale, Text } from '../../chat/types.js';
import { NETWORK_INFO } from '../../domain/networks.js';
import { formatDateTime, formatKes, formatToken } from '../../i18n/format.js';
import { failureTexts } from '../failures.js';
import type { FlowDef, FlowStep } from '../flow.js';
import { button, at as flowAt, isEffectResult, rows, send, text, unhandled } from '../flow.js';
import type { Session } from '../session.js';
import type { Effect, Input, OwnOrder, OwnOrdersPage, SavingsOutcome } from '../types.js';
import { menuButton } from './menu.js';

type StandingRuns = Extract<SavingsOutcome, { action: 'runs' }>['runs'];

/** Orders per page. */
export const HISTORY_PAGE_SIZE = 5;

// Steps of the wallet-based history of earlier versions stay readable; they are answered as stale.
export const HISTORY_STEPS = ['wallet', 'network', 'address', 'loading', 'shown'] as const;

export const historyStateSchema = z.object({
  name: z.literal('history'),
  step: z.enum(HISTORY_STEPS),
  page: z.number().int().min(1),
  totalPages: z.number().int().min(0).optional(),
});
export type HistoryState = z.infer<typeof historyStateSchema>;

const at = flowAt<HistoryState>;

function load(session: Session, state: HistoryState): FlowStep {
  return at(session, { ...state, step: 'loading' }, [
    { type: 'fetchOwnOrders', page: state.page, limit: HISTORY_PAGE_SIZE },
  ]);
}

/**
 * One order as a line: what, when, and its real outcome (receipt and hash when it completed). A buy
 * names its amount as the chat said it ("your KES 500.00 purchase") and the fee on top, when known.
 */
export function orderText(locale: Locale, o: OwnOrder): Text {
  const fee = o.paidKes !== undefined && o.paidKes > o.amountKes ? o.paidKes - o.amountKes : undefined;
  return text(`history-${o.side === 'offramp' ? 'sell' : 'buy'}-${o.outcome}`, {
    date: formatDateTime(locale, new Date(o.createdAt).toISOString()),
    kes: formatKes(locale, o.amountKes),
    ...(o.side === 'onramp'
      ? {
          amount: formatKes(locale, o.amountKes),
          fee: fee === undefined ? 'none' : formatKes(locale, fee),
          total: formatKes(locale, o.paidKes ?? o.amountKes),
        }
      : {}),
    crypto: o.tokenAmount ? formatToken(locale, o.tokenAmount, o.symbol) : o.symbol,
    network: NETWORK_INFO[o.network].displayName,
    orderId: o.orderId,
    receipt: o.receipt ?? '-',
    hash: o.txHash ?? '-',
  });
}

function showPage(session: Session, state: HistoryState, page: OwnOrdersPage): FlowStep {
  const next: HistoryState = { ...state, step: 'shown', page: page.page, totalPages: page.totalPages };
  const texts: Text[] = [text('history-own-title')];
  if (page.orders.length === 0) texts.push(text('history-own-empty'));
  else
    texts.push(
      ...page.orders.flatMap((o) => [
        // A standing buy's run names itself above its order (src/savings).
        ...(o.planRun ? [text('savings-history-run', { run: o.planRun })] : []),
        orderText(session.locale, o),
      ]),
    );
  if (page.totalPages > 1) texts.push(text('history-page', { page: next.page, pages: page.totalPages }));
  const paging: Button[] = [];
  if (next.page > 1) paging.push(button(`hist:page:${next.page - 1}`, 'history-button-previous'));
  if (next.page < page.totalPages) paging.push(button(`hist:page:${next.page + 1}`, 'history-button-next'));
  // A completed order's receipt is a tap away (src/receipts claims `rc:` ids); this month's
  // statement as a PDF and a CSV (src/statements).
  const receipts = page.orders
    .filter((o) => o.outcome === 'completed')
    .map((o) => button(`rc:${o.orderId}`, 'receipts-button-order', { orderId: o.orderId }));
  const statement = button('stmt:month:', 'history-button-statement');
  const shown = send(texts, {
    buttons: [...rows(receipts, 2), ...(paging.length ? [paging] : []), [statement, menuButton()]],
  });
  // The first page also names the standing buys' runs that bought nothing (src/savings answers).
  const runs: Effect[] = next.page === 1 ? [{ type: 'savings', request: { action: 'runs' } }] : [];
  return at(session, next, [shown, ...runs]);
}

/** Standing buys' skipped and missed runs, under the orders (paid runs are orders above). */
function standingRuns(session: Session, state: HistoryState, runs: StandingRuns): FlowStep {
  if (!runs.length) return at(session, state, []);
  return at(session, state, [
    send([
      text('savings-history-runs'),
      ...runs.map((r) =>
        text(`savings-history-${r.status === 'skipped' ? 'skipped' : 'missed'}`, {
          run: r.no,
          period: r.period,
          kes: formatKes(session.locale, r.amountKes),
          token: r.token,
        }),
      ),
    ]),
  ]);
}

function handle(session: Session, state: HistoryState, input: Input): FlowStep {
  if (isEffectResult(input)) {
    if (input.kind === 'ownOrders' && state.step === 'loading') return showPage(session, state, input.page);
    if (input.kind === 'savings' && input.outcome.action === 'runs')
      return standingRuns(session, state, input.outcome.runs);
    // Standing buys could not be read: the orders said it all.
    if (input.kind === 'effectFailed' && input.effect === 'savings') return at(session, state, []);
    if (input.kind === 'effectFailed' && input.effect === 'fetchOwnOrders' && state.step === 'loading')
      return { session, effects: [], exit: failureTexts(input.error) };
    return unhandled(session);
  }
  if (state.step === 'loading') return at(session, state, [send([text('buy-please-wait')])]);
  if (input.kind === 'button') {
    const [, kind, value = ''] = input.id.split(':');
    const page = Number(value);
    if (kind === 'page' && Number.isInteger(page) && page >= 1) return load(session, { ...state, page });
    return at(session, state, [send([text('core-button-stale')], { buttons: [[menuButton()]] })]);
  }
  return at(session, state, [send([text('core-not-understood')], { buttons: [[menuButton()]] })]);
}

export const historyFlow: FlowDef<HistoryState> = {
  name: 'history',
  prefix: 'hist',
  commands: ['history', 'historia'],
  keywords: ['history', 'historia'],
  menu: { order: 40, label: text('core-menu-history') },
  start: (session) => load(session, { name: 'history', step: 'loading', page: 1 }),
  handle,
  back: (session) => ({ session, effects: [], exit: [] }),
};
