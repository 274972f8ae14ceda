/**
 * The manual form's questions (a ticket without an order id): side, phone, chain, token, token
 * address, wallet, amount, description, then a summary to confirm. The next question is always the
 * first field still empty; what can be derived (a listed token's address) is filled in, not asked.
 * Going back forgets the previous answer and the answers that depend on it.
 */
import type { Button, Text } from '../../chat/types.js';
import type { Direction, Network } from '../../domain/types.js';
import { NETWORKS } from '../../domain/types.js';
import type { FlowStep } from '../../flows/flow.js';
import {
  button,
  displayPhone,
  navRow,
  plainButton,
  rows,
  send,
  shortAddress,
  text,
} from '../../flows/flow.js';
import { findToken, listedSymbols } from '../../flows/form/assets.js';
import type { Session } from '../../flows/session.js';
import { at, displayNetwork, MANUAL_STEPS, type ManualStep, type TicketState } from './state.js';

/** What going back to a step forgets: its own answer and the answers that depend on it. */
const CLEARS: Record<ManualStep, ReadonlyArray<keyof TicketState>> = {
  side: ['side'],
  phone: ['phone'],
  chain: ['chain', 'symbol', 'tokenAddress', 'userAddress'],
  symbol: ['symbol', 'tokenAddress'],
  tokenAddress: ['tokenAddress'],
  wallet: ['userAddress'],
  amount: ['amount'],
  description: ['description'],
  confirm: [],
};

/** The first manual field still empty. */
function missing(state: TicketState): ManualStep {
  if (!state.side) return 'side';
  if (!state.phone) return 'phone';
  if (!state.chain) return 'chain';
  if (!state.symbol) return 'symbol';
  if (!state.tokenAddress) return 'tokenAddress';
  if (!state.userAddress) return 'wallet';
  if (!state.amount) return 'amount';
  if (!state.description) return 'description';
  return 'confirm';
}

/** The networks the ramp lists assets on (every network when the list is unknown). */
export function chainsOf(state: TicketState): Network[] {
  const listed = [...new Set((state.assets ?? []).map((t) => t.network))];
  return listed.length ? listed : [...NETWORKS];
}

const sideText = (side: Direction) => (side === 'onramp' ? 'onramp' : 'offramp');

/** The user's saved phone, one tap away. */
function savedPhoneButtons(session: Session): Button[][] {
  const saved = session.profile.phone;
  return saved
    ? [[button('ticket:phone:saved', 'support-ticket-button-saved-phone', { phone: displayPhone(saved) })]]
    : [];
}

/** The user's saved wallet on the chosen network, one tap away. */
function savedWalletButtons(session: Session, state: TicketState): Button[][] {
  const saved = session.profile.wallets[state.chain!];
  return saved
    ? [
        [
          button('ticket:wallet:saved', 'support-ticket-button-saved-wallet', {
            address: shortAddress(saved),
          }),
        ],
      ]
    : [];
}

/** Every answer, to confirm before filing. */
const summary = (state: TicketState): Text =>
  text('support-ticket-summary', {
    side: sideText(state.side!),
    phone: displayPhone(state.phone!),
    network: displayNetwork(state.chain!),
    symbol: state.symbol!,
    tokenAddress: state.tokenAddress!,
    wallet: state.userAddress!,
    amount: state.amount!,
    description: state.description!,
  });

/** Asks a step's question, after `notes` (what was wrong with the last answer). */
export function prompt(
  session: Session,
  state: TicketState,
  step: ManualStep,
  notes: Text[],
): FlowStep['effects'] {
  const ask = (id: string, args?: Text['args'], buttons: Button[][] = []) =>
    send([...notes, text(id, args)], { buttons: [...buttons, navRow()] });
  switch (step) {
    case 'side':
      return [
        ask('support-ticket-ask-side', undefined, [
          [button('ticket:side:onramp', 'support-ticket-side-onramp')],
          [button('ticket:side:offramp', 'support-ticket-side-offramp')],
        ]),
      ];
    case 'phone':
      return [
        send([...notes, text('support-ticket-ask-phone')], {
          buttons: [...savedPhoneButtons(session), navRow()],
          requestPhone: true,
        }),
      ];
    case 'chain':
      return [
        ask(
          'support-ticket-ask-chain',
          undefined,
          rows(chainsOf(state).map((n) => plainButton(`ticket:chain:${n}`, displayNetwork(n)))),
        ),
      ];
    case 'symbol': {
      const symbols = listedSymbols((state.assets ?? []).filter((t) => t.network === state.chain));
      return [
        ask(
          'support-ticket-ask-symbol',
          { network: displayNetwork(state.chain!) },
          rows(symbols.map((s) => plainButton(`ticket:sym:${s}`, s))),
        ),
      ];
    }
    case 'tokenAddress':
      return [
        ask('support-ticket-ask-token-address', {
          symbol: state.symbol!,
          network: displayNetwork(state.chain!),
        }),
      ];
    case 'wallet':
      return [
        ask(
          'support-ticket-ask-wallet',
          { network: displayNetwork(state.chain!) },
          savedWalletButtons(session, state),
        ),
      ];
    case 'amount':
      return [ask('support-ticket-ask-amount', { symbol: state.symbol! })];
    case 'description':
      return [ask('support-ticket-ask-manual-description')];
    case 'confirm':
      return [
        send([...notes, summary(state)], {
          buttons: [[button('ticket:confirm', 'support-ticket-button-file')], navRow()],
        }),
      ];
  }
}

/** Fills what can be derived (the token address of a listed token), then asks the next field. */
export function advance(session: Session, input: TicketState, notes: Text[] = []): FlowStep {
  const state = { ...input };
  if (state.chain && state.symbol && !state.tokenAddress) {
    const listed = findToken(state.assets ?? [], state.chain, state.symbol);
    if (listed) state.tokenAddress = listed.address;
  }
  const step = missing(state);
  return at(session, { ...state, step }, prompt(session, state, step, notes));
}

/**
 * Back to the previous question (skipping a token address that was derived), forgetting its answer
 * and what depends on it; undefined at the first question or outside the form.
 */
export function stepBack(session: Session, state: TicketState): FlowStep | undefined {
  const step = state.step as ManualStep;
  if (!MANUAL_STEPS.includes(step) || step === 'side') return undefined;
  let previous = MANUAL_STEPS[MANUAL_STEPS.indexOf(step) - 1]!;
  const derived = state.chain && state.symbol && findToken(state.assets ?? [], state.chain, state.symbol);
  if (previous === 'tokenAddress' && derived) previous = 'symbol';
  const cleared: TicketState = { ...state };
  for (const field of CLEARS[previous]) delete cleared[field];
  return advance(session, cleared);
}
