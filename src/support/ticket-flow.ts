/**
 * Refund tickets. From an order (`ticket:<orderId>`, `/ticket D-…`): a short description, then the
 * ramp's orderID form. Without an order id: the manual form, field by field (side, phone, chain,
 * token, token address, wallet, amount, description), each checked before the next is asked.
 * Filing goes through the support desk, which files once per order and notes it on the case.
 */
import { z } from 'zod';
import type { Button, Text } from '../chat/types.js';
import { NETWORK_INFO, parseNetwork } from '../domain/networks.js';
import { findOrderId, ORDER_ID_PATTERN, sideOfOrder } from '../domain/order-id.js';
import type { Direction, Network, TicketRequest, TokenInfo } from '../domain/types.js';
import { NETWORKS } from '../domain/types.js';
import { findToken, listedSymbols } from '../flows/assets.js';
import type { FlowDef, FlowStart, FlowStep } from '../flows/flow.js';
import {
  button,
  displayPhone,
  isEffectResult,
  navRow,
  plainButton,
  rows,
  send,
  shortAddress,
  text,
  unhandled,
  word,
  YES_WORDS,
} from '../flows/flow.js';
import { menuButton } from '../flows/menu.js';
import { matchSymbol, parsePhone, parseTokenAmount, parseWallet } from '../flows/parse.js';
import { directionSchema, networkSchema, tokenInfoSchema } from '../flows/schemas.js';
import type { Session } from '../flows/session.js';
import type { EffectError, EffectResult, Input } from '../flows/types.js';
import { talkButton } from './flow.js';

const MANUAL_STEPS = [
  'side',
  'phone',
  'chain',
  'symbol',
  'tokenAddress',
  'wallet',
  'amount',
  'description',
  'confirm',
] as const;
type ManualStep = (typeof MANUAL_STEPS)[number];

export const ticketStateSchema = z.object({
  name: z.literal('ticket'),
  step: z.enum(['order', 'describe', 'filing', 'loading', ...MANUAL_STEPS]),
  orderId: z.string().regex(ORDER_ID_PATTERN).optional(),
  side: directionSchema.optional(),
  phone: z
    .string()
    .regex(/^254[17]\d{8}$/)
    .optional(),
  chain: networkSchema.optional(),
  symbol: z.string().min(1).max(20).optional(),
  tokenAddress: z.string().min(1).max(80).optional(),
  userAddress: z.string().min(1).max(80).optional(),
  amount: z.string().min(1).max(40).optional(),
  description: z.string().min(1).max(500).optional(),
  assets: z.array(tokenInfoSchema).optional(),
});
export type TicketState = z.infer<typeof ticketStateSchema>;

export const TICKET_NEW = 'ticket:new';
export const TICKET_MANUAL = 'ticket:manual';
export const MIN_DESCRIPTION = 3;
export const MAX_DESCRIPTION = 500;

/** The description sent with a one-tap ticket: data for the ramp's team, not a chat text. */
export const defaultDescription = (orderId: string): string =>
  `Refund requested from the chat for order ${orderId}: the order failed or is stuck.`;

const at = (session: Session, state: TicketState, effects: FlowStep['effects'] = []): FlowStep => ({
  session: { ...session, flow: state },
  effects,
});

const displayNetwork = (n: Network) => NETWORK_INFO[n].displayName;
const sideText = (side: Direction) => (side === 'onramp' ? 'onramp' : 'offramp');

function askOrder(session: Session, notes: Text[] = []): FlowStep {
  return at(session, { name: 'ticket', step: 'order' }, [
    send([...notes, text('support-ticket-ask-order')], {
      buttons: [[button(TICKET_MANUAL, 'support-ticket-button-no-order')], navRow(false)],
    }),
  ]);
}

function askDescription(session: Session, orderId: string, notes: Text[] = []): FlowStep {
  return at(session, { name: 'ticket', step: 'describe', orderId, side: sideOfOrder(orderId) }, [
    send([...notes, text('support-ticket-ask-description', { orderId })], {
      buttons: [[button('ticket:desc:default', 'support-ticket-button-default-description')], navRow(false)],
    }),
  ]);
}

/** Checks a description: trimmed, 3 to 500 characters. */
function readDescription(input: string): { ok: true; value: string } | { ok: false; problem: Text } {
  const value = input.trim().replace(/\s+/g, ' ');
  if (value.length < MIN_DESCRIPTION)
    return { ok: false, problem: text('support-ticket-description-short', { min: MIN_DESCRIPTION }) };
  if (value.length > MAX_DESCRIPTION)
    return { ok: false, problem: text('support-ticket-description-long', { max: MAX_DESCRIPTION }) };
  return { ok: true, value };
}

function fileByOrder(session: Session, state: TicketState, description: string): FlowStep {
  const orderId = state.orderId!;
  const request: TicketRequest = { side: sideOfOrder(orderId), orderId, description };
  return at(session, { ...state, step: 'filing', description }, [
    send([text('support-ticket-filing', { orderId })]),
    { type: 'support', request: { action: 'fileTicket', request } },
  ]);
}

// ------------------------------------------------------------------ manual form

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

function chainsOf(state: TicketState): Network[] {
  const listed = [...new Set((state.assets ?? []).map((t) => t.network))];
  return listed.length ? listed : [...NETWORKS];
}

function prompt(session: Session, state: TicketState, step: ManualStep, notes: Text[]): FlowStep['effects'] {
  const { profile } = session;
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
    case 'phone': {
      const saved = profile.phone;
      const buttons = saved
        ? [
            [
              button('ticket:phone:saved', 'support-ticket-button-saved-phone', {
                phone: displayPhone(saved),
              }),
            ],
          ]
        : [];
      return [
        send([...notes, text('support-ticket-ask-phone')], {
          buttons: [...buttons, navRow()],
          requestPhone: true,
        }),
      ];
    }
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
    case 'wallet': {
      const saved = profile.wallets[state.chain!];
      const buttons = saved
        ? [
            [
              button('ticket:wallet:saved', 'support-ticket-button-saved-wallet', {
                address: shortAddress(saved),
              }),
            ],
          ]
        : [];
      return [ask('support-ticket-ask-wallet', { network: displayNetwork(state.chain!) }, buttons)];
    }
    case 'amount':
      return [ask('support-ticket-ask-amount', { symbol: state.symbol! })];
    case 'description':
      return [ask('support-ticket-ask-manual-description')];
    case 'confirm':
      return [
        send(
          [
            ...notes,
            text('support-ticket-summary', {
              side: sideText(state.side!),
              phone: displayPhone(state.phone!),
              network: displayNetwork(state.chain!),
              symbol: state.symbol!,
              tokenAddress: state.tokenAddress!,
              wallet: state.userAddress!,
              amount: state.amount!,
              description: state.description!,
            }),
          ],
          { buttons: [[button('ticket:confirm', 'support-ticket-button-file')], navRow()] },
        ),
      ];
  }
}

/** Fills what can be derived (the token address of a listed token), then asks the next field. */
function advance(session: Session, input: TicketState, notes: Text[] = []): FlowStep {
  const state = { ...input };
  if (state.chain && state.symbol && !state.tokenAddress) {
    const listed = findToken(state.assets ?? [], state.chain, state.symbol);
    if (listed) state.tokenAddress = listed.address;
  }
  const step = missing(state);
  return at(session, { ...state, step }, prompt(session, state, step, notes));
}

function readTokenAddress(network: Network, input: string): string | undefined {
  const raw = input.trim();
  if (network === 'algorand') return /^\d{1,20}$/.test(raw) ? raw : undefined;
  const parsed = parseWallet(network, raw);
  return parsed.ok ? parsed.value : undefined;
}

const walletTexts = {
  checksum: 'support-ticket-bad-wallet-checksum',
  format: 'support-ticket-bad-wallet',
} as const;

/** One typed or tapped answer to the manual form's current question. */
function answerManual(session: Session, state: TicketState, input: Input): FlowStep {
  const step = state.step as ManualStep;
  const typed = input.kind === 'text' ? input.text.trim() : undefined;
  const tapped = input.kind === 'button' ? input.id : undefined;
  const again = (problem: Text) => at(session, state, prompt(session, state, step, [problem]));
  switch (step) {
    case 'side': {
      const side =
        tapped === 'ticket:side:onramp' || (typed && /^(buy|nunua|on-?ramp|1)$/i.test(typed))
          ? 'onramp'
          : tapped === 'ticket:side:offramp' || (typed && /^(sell|uza|off-?ramp|2)$/i.test(typed))
            ? 'offramp'
            : undefined;
      if (!side) return again(text('support-ticket-choose'));
      return advance(session, { ...state, side });
    }
    case 'phone': {
      const raw =
        tapped === 'ticket:phone:saved'
          ? session.profile.phone
          : input.kind === 'contact'
            ? input.phone
            : typed;
      if (!raw) return again(text('support-ticket-choose'));
      const phone = parsePhone(raw);
      if (!phone) return again(text('support-ticket-bad-phone', { phone: raw }));
      return advance(session, { ...state, phone });
    }
    case 'chain': {
      const chain = tapped?.startsWith('ticket:chain:')
        ? parseNetwork(tapped.slice('ticket:chain:'.length))
        : typed
          ? parseNetwork(typed)
          : undefined;
      if (!chain || !chainsOf(state).includes(chain)) return again(text('support-ticket-choose'));
      return advance(session, { ...state, chain, symbol: undefined, tokenAddress: undefined });
    }
    case 'symbol': {
      const listed = listedSymbols((state.assets ?? []).filter((t) => t.network === state.chain));
      const raw = tapped?.startsWith('ticket:sym:') ? tapped.slice('ticket:sym:'.length) : typed;
      if (!raw || !/^[A-Za-z0-9.]{1,20}$/.test(raw)) return again(text('support-ticket-bad-symbol'));
      return advance(session, { ...state, symbol: matchSymbol(raw, listed) ?? raw.toUpperCase() });
    }
    case 'tokenAddress': {
      const address = typed ? readTokenAddress(state.chain!, typed) : undefined;
      if (!address)
        return again(text('support-ticket-bad-token-address', { network: displayNetwork(state.chain!) }));
      return advance(session, { ...state, tokenAddress: address });
    }
    case 'wallet': {
      const raw = tapped === 'ticket:wallet:saved' ? session.profile.wallets[state.chain!] : typed;
      if (!raw) return again(text('support-ticket-choose'));
      const wallet = parseWallet(state.chain!, raw);
      if (!wallet.ok)
        return again(text(walletTexts[wallet.problem], { network: displayNetwork(state.chain!) }));
      return advance(session, { ...state, userAddress: wallet.value });
    }
    case 'amount': {
      const amount = typed ? parseTokenAmount(typed) : undefined;
      if (!amount?.ok) return again(text('support-ticket-bad-amount'));
      return advance(session, { ...state, amount: amount.value });
    }
    case 'description': {
      if (!typed) return again(text('support-ticket-choose'));
      const d = readDescription(typed);
      if (!d.ok) return again(d.problem);
      return advance(session, { ...state, description: d.value });
    }
    case 'confirm': {
      if (tapped === 'ticket:confirm' || (typed && YES_WORDS.includes(word(typed)))) {
        const request: TicketRequest = {
          side: state.side!,
          phone: state.phone!,
          amount: state.amount!,
          description: state.description!,
          userAddress: state.userAddress!,
          symbol: state.symbol!,
          tokenAddress: state.tokenAddress!,
          chain: state.chain!,
        };
        return at(session, { ...state, step: 'filing' }, [
          send([text('support-ticket-filing-manual')]),
          { type: 'support', request: { action: 'fileTicket', request } },
        ]);
      }
      return again(text('support-ticket-choose'));
    }
  }
}

// ------------------------------------------------------------------ results

const REFUSED_ORDER = /no failed (or pending )?transaction found/i;
const MISSING_FIELDS = /provide all required inputs/i;

/** Why the ramp would not take the ticket, in the user's words, with a way to a person. */
function refusalTexts(state: TicketState, error: EffectError): Text[] {
  const message = error.message ?? '';
  const orderId = state.orderId;
  if (orderId && (REFUSED_ORDER.test(message) || error.kind === 'not_found')) {
    return [
      text(
        sideOfOrder(orderId) === 'onramp'
          ? 'support-ticket-refused-onramp-order'
          : 'support-ticket-refused-offramp-order',
        { orderId },
      ),
      text('support-ticket-offer-person'),
    ];
  }
  if (MISSING_FIELDS.test(message))
    return [text('support-ticket-refused-fields'), text('support-ticket-offer-person')];
  if (error.kind === 'validation' && message)
    return [
      text('support-ticket-refused', { reason: message.slice(0, 300) }),
      text('support-ticket-offer-person'),
    ];
  return [text('support-ticket-unavailable'), text('support-ticket-offer-person')];
}

function filed(session: Session, state: TicketState, input: EffectResult): FlowStep | undefined {
  if (input.kind === 'support' && input.outcome.action === 'ticketManual') {
    const { caseId, orderId, uncertain } = input.outcome;
    return {
      session: { ...session, flow: { name: 'menu' } },
      effects: [
        send(
          [
            uncertain
              ? text('support-ticket-uncertain', { caseId })
              : text('support-ticket-not-owner', { orderId, caseId }),
          ],
          { buttons: [[menuButton()]] },
        ),
      ],
    };
  }
  if (input.kind === 'support' && input.outcome.action === 'fileTicket') {
    const { ticket, existing } = input.outcome;
    const orderId = input.outcome.orderId ?? state.orderId;
    const texts = orderId
      ? [
          text(existing ? 'support-ticket-existing' : 'support-ticket-filed', {
            ticketId: ticket.id,
            orderId,
          }),
        ]
      : [text('support-ticket-filed-manual', { ticketId: ticket.id })];
    texts.push(text('support-ticket-next'));
    return {
      session: { ...session, flow: { name: 'menu' } },
      effects: [send(texts, { buttons: [[talkButton(orderId)], [menuButton()]] })],
    };
  }
  if (input.kind === 'effectFailed' && input.effect === 'support') {
    return {
      session: { ...session, flow: { name: 'menu' } },
      effects: [
        send(refusalTexts(state, input.error), { buttons: [[talkButton(state.orderId)], [menuButton()]] }),
      ],
    };
  }
  return undefined;
}

// ------------------------------------------------------------------ the flow

function begin(session: Session, how: FlowStart): FlowStep {
  const b = how.button ?? '';
  if (b === TICKET_MANUAL) return startManual(session);
  const fromButton = b.startsWith('ticket:') ? b.slice('ticket:'.length) : undefined;
  if (fromButton && ORDER_ID_PATTERN.test(fromButton)) return askDescription(session, fromButton);
  const fromArgs = how.args ? findOrderId(how.args) : undefined;
  if (fromArgs) return askDescription(session, fromArgs);
  return askOrder(session);
}

function startManual(session: Session): FlowStep {
  return at(session, { name: 'ticket', step: 'loading' }, [{ type: 'fetchAssets' }]);
}

export const ticketFlow: FlowDef<TicketState> = {
  name: 'ticket',
  prefix: 'ticket',
  commands: ['ticket', 'tiketi', 'refund'],
  keywords: ['ticket', 'tiketi', 'refund'],
  startButtons: ['ticket:'],
  // A description takes any text, so a word like "agent" in it is not read as a keyword.
  takesFreeText: (state) => state.step === 'describe' || state.step === 'description',
  start: (session, _ctx, how) => begin(session, how),
  handle(session, state, input) {
    if (isEffectResult(input)) {
      if (state.step === 'loading' && input.kind === 'assets') {
        const assets: TokenInfo[] = input.assets.tokens;
        return advance(session, { ...state, assets });
      }
      if (state.step === 'loading' && input.kind === 'effectFailed' && input.effect === 'fetchAssets') {
        // Without the listed assets the form still works: every network, typed token addresses.
        return advance(session, { ...state, assets: [] }, [text('support-ticket-assets-unavailable')]);
      }
      if (state.step === 'filing') return filed(session, state, input) ?? unhandled(session);
      return unhandled(session);
    }
    if (input.kind === 'button' && input.id !== TICKET_MANUAL) {
      const rest = input.id.slice('ticket:'.length);
      if (input.id === TICKET_NEW || ORDER_ID_PATTERN.test(rest)) return begin(session, { button: input.id });
    }
    if (input.kind === 'button' && input.id === TICKET_MANUAL) return startManual(session);
    switch (state.step) {
      case 'order': {
        const orderId = input.kind === 'text' ? findOrderId(input.text) : undefined;
        if (orderId) return askDescription(session, orderId);
        const shown = input.kind === 'text' ? input.text.trim().slice(0, 40) : '';
        return askOrder(session, [text('support-ticket-bad-order', { text: shown })]);
      }
      case 'describe': {
        if (input.kind === 'button' && input.id === 'ticket:desc:default')
          return fileByOrder(session, state, defaultDescription(state.orderId!));
        if (input.kind !== 'text') return askDescription(session, state.orderId!);
        const d = readDescription(input.text);
        if (!d.ok) return askDescription(session, state.orderId!, [d.problem]);
        return fileByOrder(session, state, d.value);
      }
      case 'filing':
        return at(session, state, [send([text('support-ticket-wait')])]);
      case 'loading':
        return at(session, state);
      default:
        return answerManual(session, state, input);
    }
  },
  back(session, state) {
    const step = state.step as ManualStep;
    if (!MANUAL_STEPS.includes(step) || step === 'side') return { session, effects: [], exit: [] };
    let previous = MANUAL_STEPS[MANUAL_STEPS.indexOf(step) - 1]!;
    const derived = state.chain && state.symbol && findToken(state.assets ?? [], state.chain, state.symbol);
    if (previous === 'tokenAddress' && derived) previous = 'symbol';
    const cleared: TicketState = { ...state };
    for (const field of CLEARS[previous]) delete cleared[field];
    return advance(session, cleared);
  },
  cancel(session) {
    return { session, effects: [], exit: [text('support-ticket-cancelled')] };
  },
  orphan(session, input) {
    if (
      input.kind === 'support' &&
      (input.outcome.action === 'fileTicket' || input.outcome.action === 'ticketManual')
    ) {
      const state: TicketState = { name: 'ticket', step: 'filing', orderId: input.outcome.orderId };
      const step = filed(session, state, input);
      return step ? { ...step, session } : undefined;
    }
    return undefined;
  },
};
