/** What a buy asks and shows: its own questions, the summary with Confirm, and why an answer was not understood. */
import type { Button, Text } from '../../chat/types.js';
import type { Network } from '../../domain/types.js';
import { formatKes, formatKesButton } from '../../i18n/format.js';
import { button, displayPhone, navRow, plainButton, rows, send, shortAddress, text } from '../flow.js';
import { displayNetwork, otherFamilyWallet } from '../form/asset-steps.js';
import type { AssetStep } from '../form/form.js';
import { quoteTexts } from '../quote/quote-view.js';
import type { Session } from '../session.js';
import type { Effect } from '../types.js';
import type { AskStep, BuyState } from './buy-state.js';
import { buyConfirmButtonId } from './buy-state.js';

const QUICK_AMOUNTS = [500, 1000, 2000];

/** The question of one of the buy's own steps. */
export function ask(
  session: Session,
  state: BuyState,
  step: Exclude<AskStep, AssetStep>,
  notes: Text[],
): Effect {
  const { locale, profile } = session;
  switch (step) {
    case 'amount': {
      const texts = [...notes, text('buy-ask-amount')];
      if (state.limits) {
        texts.push(
          text('buy-amount-range', {
            min: formatKes(locale, state.limits.min),
            max: formatKes(locale, state.limits.max),
          }),
        );
      }
      const quick = QUICK_AMOUNTS.filter(
        (n) => !state.limits || (n >= state.limits.min && n <= state.limits.max),
      ).map((n) => plainButton(`buy:amt:${n}`, formatKesButton(locale, n)));
      return send(texts, { buttons: [...rows(quick), navRow(false)] });
    }
    case 'wallet': {
      const network = state.network!;
      const saved = profile.wallets[network];
      const buttons: Button[][] = saved
        ? [[button('buy:wallet:saved', 'buy-button-saved-wallet', { address: shortAddress(saved) })]]
        : [];
      return send([...notes, text('buy-ask-wallet', { network: displayNetwork(network) })], {
        buttons: [...buttons, navRow()],
      });
    }
    case 'phone': {
      const saved = profile.phone;
      const buttons: Button[][] = saved
        ? [[button('buy:phone:saved', 'buy-button-saved-phone', { phone: displayPhone(saved) })]]
        : [];
      return send([...notes, text('buy-ask-phone')], { buttons: [...buttons, navRow()], requestPhone: true });
    }
  }
}

/** True when the STK push would go to a number the channel has not proven to be the user's. */
export function isThirdPartyPhone(session: Session, phone: string): boolean {
  return !session.profile.ownsTypedPhones && session.profile.ownPhone !== phone;
}

/** The quote summary with Confirm and the buttons to change each choice. */
export function summary(session: Session, state: BuyState, notes: Text[]): Effect {
  const quote = state.quote!;
  const thirdParty = isThirdPartyPhone(session, state.phone!);
  return send(
    [
      ...notes,
      text('buy-summary-title'),
      ...quoteTexts(session.locale, quote, state.token!),
      text('buy-summary-details', {
        wallet: state.wallet!,
        network: displayNetwork(state.network!),
        phone: displayPhone(state.phone!),
      }),
      ...(thirdParty ? [text('buy-third-party-note', { phone: displayPhone(state.phone!) })] : []),
      text(thirdParty ? 'buy-summary-confirm-third-party' : 'buy-summary-confirm'),
    ],
    {
      buttons: [
        [
          button(
            buyConfirmButtonId(state.id),
            thirdParty ? 'buy-button-confirm-third-party' : 'buy-button-confirm',
          ),
        ],
        [
          button('buy:change:amount', 'buy-button-change-amount'),
          button('buy:change:token', 'buy-button-change-token'),
        ],
        [
          button('buy:change:wallet', 'buy-button-change-wallet'),
          button('buy:change:phone', 'buy-button-change-phone'),
        ],
        navRow(),
      ],
    },
  );
}

/** Why a typed answer to one of the buy's own steps was not understood. */
export function notUnderstood(step: Exclude<AskStep, AssetStep>, typed: string, state: BuyState): Text {
  switch (step) {
    case 'amount':
      return text('buy-amount-invalid', { amount: typed });
    case 'wallet':
      return text('buy-wallet-wrong-format', {
        address: typed,
        network: state.network ? displayNetwork(state.network) : '',
      });
    case 'phone':
      return text('buy-phone-invalid', { phone: typed });
  }
}

/** Why a typed wallet address does not fit the network. */
export function walletProblemText(problem: 'checksum' | 'format', network: Network, address: string): Text {
  const otherFamily = problem === 'format' ? otherFamilyWallet(network, address) : undefined;
  if (otherFamily) return otherFamily;
  // The capital-letter checksum is EVM's (EIP-55); Algorand's is its last characters.
  if (problem === 'checksum' && network === 'algorand')
    return text('buy-wallet-bad-checksum-algorand', { address });
  return problem === 'checksum'
    ? text('buy-wallet-bad-checksum', { address, network: displayNetwork(network) })
    : text('buy-wallet-wrong-format', { address, network: displayNetwork(network) });
}
