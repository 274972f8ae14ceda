/** History: past buys and sells of a saved (or typed) wallet, a page at a time. */
import { z } from 'zod';
import { NETWORK_INFO } from '../domain/networks.js';
import { type HistoryPage, type HistoryRecord, NETWORKS, type Network } from '../domain/types.js';
import { formatDateTime, formatKes, formatToken } from '../i18n/format.js';
import { failureTexts } from './failures.js';
import type { FlowDef, FlowStep } from './flow.js';
import {
  button,
  isEffectResult,
  navRow,
  plainButton,
  rows,
  send,
  shortAddress,
  text,
  unhandled,
} from './flow.js';
import { menuButton } from './menu.js';
import { parseWallet } from './parse.js';
import { directionSchema, networkSchema } from './schemas.js';
import type { Session } from './session.js';
import type { Button, Effect, Input, Locale, Text } from './types.js';

export const HISTORY_STEPS = ['wallet', 'network', 'address', 'loading', 'shown'] as const;

export const historyStateSchema = z.object({
  name: z.literal('history'),
  step: z.enum(HISTORY_STEPS),
  network: networkSchema.optional(),
  address: z.string().optional(),
  side: directionSchema,
  page: z.number().int().min(1),
  totalPages: z.number().int().min(0).optional(),
});
export type HistoryState = z.infer<typeof historyStateSchema>;

const displayNetwork = (n: Network): string => NETWORK_INFO[n].displayName;
const at = (session: Session, state: HistoryState, effects: Effect[]): FlowStep => ({
  session: { ...session, flow: state },
  effects,
});

function load(session: Session, state: HistoryState): FlowStep {
  return at(session, { ...state, step: 'loading' }, [
    { type: 'fetchHistory', side: state.side, address: state.address!, page: state.page },
  ]);
}

function askWallet(session: Session, state: HistoryState, notes: Text[] = []): FlowStep {
  const saved = NETWORKS.filter((n) => session.profile.wallets[n]);
  if (saved.length === 0) return askNetwork(session, state, notes);
  const buttons = saved.map((n) =>
    plainButton(`hist:w:${n}`, `${displayNetwork(n)} ${shortAddress(session.profile.wallets[n]!)}`),
  );
  return at(session, { ...state, step: 'wallet' }, [
    send([...notes, text('history-ask-wallet')], {
      buttons: [...rows(buttons, 1), [button('hist:other', 'history-button-other-wallet')], navRow(false)],
    }),
  ]);
}

function askNetwork(session: Session, state: HistoryState, notes: Text[] = []): FlowStep {
  return at(session, { ...state, step: 'network' }, [
    send([...notes, text('history-ask-network')], {
      buttons: [...rows(NETWORKS.map((n) => plainButton(`hist:net:${n}`, displayNetwork(n)))), navRow()],
    }),
  ]);
}

function askAddress(session: Session, state: HistoryState, notes: Text[] = []): FlowStep {
  return at(session, { ...state, step: 'address' }, [
    send([...notes, text('history-ask-address', { network: displayNetwork(state.network!) })], {
      buttons: [navRow()],
    }),
  ]);
}

function recordText(locale: Locale, r: HistoryRecord): Text {
  const args = {
    date: r.createdAt ? formatDateTime(locale, r.createdAt) : '-',
    kes: r.kesAmount !== undefined ? formatKes(locale, r.kesAmount) : '-',
    crypto: r.cryptoAmount ? formatToken(locale, r.cryptoAmount, r.symbol ?? '') : '-',
    orderId: r.orderId ?? r.id,
    receipt: r.receipt ?? '-',
  };
  return text(r.side === 'offramp' ? 'history-record-sell' : 'history-record-buy', args);
}

function showPage(session: Session, state: HistoryState, page: HistoryPage): FlowStep {
  const next: HistoryState = {
    ...state,
    step: 'shown',
    page: page.page || state.page,
    totalPages: page.totalPages,
  };
  const texts: Text[] = [
    text('history-title', {
      side: state.side,
      network: state.network ? displayNetwork(state.network) : '',
      address: shortAddress(state.address!),
    }),
  ];
  if (page.records.length === 0) texts.push(text('history-empty'));
  else texts.push(...page.records.map((r) => recordText(session.locale, r)));
  if (page.totalPages > 1) texts.push(text('history-page', { page: next.page, pages: page.totalPages }));
  const paging: Button[] = [];
  if (next.page > 1) paging.push(button(`hist:page:${next.page - 1}`, 'history-button-previous'));
  if (next.page < page.totalPages) paging.push(button(`hist:page:${next.page + 1}`, 'history-button-next'));
  const other = state.side === 'onramp' ? 'offramp' : 'onramp';
  const buttons: Button[][] = [
    ...(paging.length ? [paging] : []),
    [button(`hist:side:${other}`, other === 'offramp' ? 'history-button-sells' : 'history-button-buys')],
    [button('hist:wallets', 'history-button-other-wallet'), menuButton()],
  ];
  return at(session, next, [send(texts, { buttons })]);
}

function handle(session: Session, state: HistoryState, input: Input): FlowStep {
  if (isEffectResult(input)) {
    if (input.kind === 'history' && state.step === 'loading' && input.side === state.side) {
      return showPage(session, state, input.page);
    }
    if (input.kind === 'effectFailed' && input.effect === 'fetchHistory' && state.step === 'loading') {
      if (input.error.kind === 'not_found') {
        return showPage(session, state, { records: [], page: 1, limit: 10, totalPages: 0, totalCount: 0 });
      }
      return { session, effects: [], exit: failureTexts(input.error) };
    }
    return unhandled(session);
  }
  if (state.step === 'loading') return at(session, state, [send([text('buy-please-wait')])]);
  if (input.kind === 'button') {
    const [, kind, value = ''] = input.id.split(':');
    switch (kind) {
      case 'w': {
        const network = networkSchema.safeParse(value);
        const address = network.success ? session.profile.wallets[network.data] : undefined;
        if (address) return load(session, { ...state, network: network.data, address, page: 1 });
        break;
      }
      case 'other':
        return askNetwork(session, state);
      case 'wallets':
        return askWallet(session, { ...state, page: 1 });
      case 'net': {
        const network = networkSchema.safeParse(value);
        if (network.success) return askAddress(session, { ...state, network: network.data });
        break;
      }
      case 'page': {
        const page = Number(value);
        if (state.address && Number.isInteger(page) && page >= 1) return load(session, { ...state, page });
        break;
      }
      case 'side': {
        const side = directionSchema.safeParse(value);
        if (side.success && state.address) return load(session, { ...state, side: side.data, page: 1 });
        break;
      }
    }
    return at(session, state, [send([text('core-button-stale')], { buttons: [[menuButton()]] })]);
  }
  if (input.kind === 'text' && state.step === 'address' && state.network) {
    const wallet = parseWallet(state.network, input.text);
    if (wallet.ok) return load(session, { ...state, address: wallet.value, page: 1 });
    const args = { address: input.text.trim(), network: displayNetwork(state.network) };
    return askAddress(session, state, [
      text(wallet.problem === 'checksum' ? 'buy-wallet-bad-checksum' : 'buy-wallet-wrong-format', args),
    ]);
  }
  if (input.kind === 'text' && state.step === 'network') {
    const network = networkSchema.safeParse(input.text.trim().toLowerCase());
    if (network.success) return askAddress(session, { ...state, network: network.data });
  }
  return at(session, state, [send([text('core-not-understood')])]);
}

export const historyFlow: FlowDef<HistoryState> = {
  name: 'history',
  prefix: 'hist',
  commands: ['history', 'historia'],
  keywords: ['history', 'historia'],
  menu: { order: 40, label: text('core-menu-history') },
  start(session) {
    const state: HistoryState = { name: 'history', step: 'wallet', side: 'onramp', page: 1 };
    const saved = NETWORKS.filter((n) => session.profile.wallets[n]);
    if (saved.length === 1) {
      const network = saved[0]!;
      return load(session, { ...state, network, address: session.profile.wallets[network] });
    }
    return askWallet(session, state);
  },
  handle,
  back(session, state) {
    switch (state.step) {
      case 'address':
        return askNetwork(session, state);
      case 'network':
        return NETWORKS.some((n) => session.profile.wallets[n])
          ? askWallet(session, state)
          : { session, effects: [], exit: [] };
      case 'shown':
      case 'loading':
        return askWallet(session, { ...state, page: 1 });
      default:
        return { session, effects: [], exit: [] };
    }
  },
};
