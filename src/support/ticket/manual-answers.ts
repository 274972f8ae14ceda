/**
 * The manual form's answers: each typed or tapped answer is checked before the next question is
 * asked; a wrong one is said and the same question asked again. Confirming asks the desk to file
 * the ramp's manual form.
 */
import type { Text } from '../../chat/types.js';
import { parseNetwork } from '../../domain/networks.js';
import type { Direction, Network, TicketRequest } from '../../domain/types.js';
import type { FlowStep } from '../../flows/flow.js';
import { send, text, word, YES_WORDS } from '../../flows/flow.js';
import { listedSymbols } from '../../flows/form/assets.js';
import { matchSymbol, parsePhone, parseTokenAmount, parseWallet } from '../../flows/parse.js';
import type { Session } from '../../flows/session.js';
import type { Input } from '../../flows/types.js';
import { readDescription } from './by-order.js';
import { advance, chainsOf, prompt } from './manual-questions.js';
import { at, displayNetwork, type ManualStep, type TicketState } from './state.js';

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

/** Buy or sell, tapped or typed (`buy`, `nunua`, `onramp`, `1`; `sell`, `uza`, `offramp`, `2`). */
function readSide(typed: string | undefined, tapped: string | undefined): Direction | undefined {
  if (tapped === 'ticket:side:onramp' || (typed && /^(buy|nunua|on-?ramp|1)$/i.test(typed))) return 'onramp';
  if (tapped === 'ticket:side:offramp' || (typed && /^(sell|uza|off-?ramp|2)$/i.test(typed)))
    return 'offramp';
  return undefined;
}

/** Confirmed: the desk is asked to file the manual form. */
function fileManual(session: Session, state: TicketState): FlowStep {
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

/** One typed or tapped answer to the manual form's current question. */
export function answerManual(session: Session, state: TicketState, input: Input): FlowStep {
  const step = state.step as ManualStep;
  const typed = input.kind === 'text' ? input.text.trim() : undefined;
  const tapped = input.kind === 'button' ? input.id : undefined;
  const again = (problem: Text) => at(session, state, prompt(session, state, step, [problem]));
  switch (step) {
    case 'side': {
      const side = readSide(typed, tapped);
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
    case 'confirm':
      if (tapped === 'ticket:confirm' || (typed && YES_WORDS.includes(word(typed))))
        return fileManual(session, state);
      return again(text('support-ticket-choose'));
  }
}
