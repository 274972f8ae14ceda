/**
 * The token and network steps of an order form, answered from the listed assets the flow cached:
 * the two questions with their buttons, what a tap chose, and keeping token, network and wallet
 * consistent with the listing.
 */

import type { Text } from '../../chat/types.js';
import { isEvmNetwork, NETWORK_INFO } from '../../domain/networks.js';
import type { Network, TokenInfo } from '../../domain/types.js';
import { navRow, plainButton, rows, send, text } from '../flow.js';
import { parseWallet, type WalletProblem } from '../parse.js';
import { networkSchema } from '../schemas.js';
import type { Effect } from '../types.js';
import { findToken, listedSymbols, networksFor } from './assets.js';

/** The fields a token-and-network choice reads and fills. */
export interface AssetChoice {
  assets?: TokenInfo[];
  token?: string;
  network?: Network;
}

/** A flow's button prefix and text ids for its token and network steps. */
export interface AssetStepIds {
  /** Button id prefix: "buy" gives "buy:tok:USDT" and "buy:net:polygon". */
  readonly prefix: string;
  /** Whether the token question offers Back (not when it is the form's first question). */
  readonly tokenBack: boolean;
  readonly askToken: string;
  /** `{ $token }`. */
  readonly askNetwork: string;
  /** A typed token that is not listed, `{ $token }`. */
  readonly tokenUnknown: string;
  /** A typed network that is not known, `{ $network }`. */
  readonly networkUnknown: string;
  /** `{ $token }` `{ $network }`. */
  readonly notOnNetwork: string;
  /** Say `tokenUnknown` when a chosen token turns out unlisted, instead of dropping it quietly. */
  readonly warnUnlistedToken?: boolean;
}

export const displayNetwork = (network: Network): string => NETWORK_INFO[network].displayName;

/** "Which token?" with a button per listed symbol. */
export function askToken(ids: AssetStepIds, tokens: readonly TokenInfo[], notes: Text[]): Effect {
  const symbols = listedSymbols(tokens).map((s) => plainButton(`${ids.prefix}:tok:${s}`, s));
  return send([...notes, text(ids.askToken)], { buttons: [...rows(symbols), navRow(ids.tokenBack)] });
}

/** "On which network?" with a button per network that lists the token. */
export function askNetwork(
  ids: AssetStepIds,
  tokens: readonly TokenInfo[],
  token: string | undefined,
  notes: Text[],
): Effect {
  const networks = networksFor(tokens, token ?? '').map((n) =>
    plainButton(`${ids.prefix}:net:${n}`, displayNetwork(n)),
  );
  return send([...notes, text(ids.askNetwork, { token: token ?? '' })], {
    buttons: [...rows(networks), navRow()],
  });
}

/**
 * Makes token and network agree with the listing: drops an unlisted token and a network that does
 * not carry the token (saying so in `notes`), and with `auto` fills either when only one is left.
 * What the user named and was refused is never filled with something else in the same step: the
 * question is asked, so nothing is silently substituted.
 */
export function settleAsset<S extends AssetChoice>(
  input: S,
  ids: AssetStepIds,
  notes: Text[],
  auto = true,
): S {
  const state = { ...input };
  const tokens = state.assets ?? [];
  const symbols = listedSymbols(tokens);
  let tokenRefused = false;
  let networkRefused = false;
  if (state.token && !symbols.includes(state.token)) {
    if (ids.warnUnlistedToken) notes.push(text(ids.tokenUnknown, { token: state.token }));
    state.token = undefined;
    tokenRefused = true;
  }
  if (auto && !tokenRefused && !state.token && symbols.length === 1) state.token = symbols[0];
  if (state.token && state.network && !findToken(tokens, state.network, state.token)) {
    notes.push(text(ids.notOnNetwork, { token: state.token, network: displayNetwork(state.network) }));
    state.network = undefined;
    networkRefused = true;
  }
  if (auto && !networkRefused && state.token && !state.network) {
    const networks = networksFor(tokens, state.token);
    if (networks.length === 1) state.network = networks[0];
  }
  return state;
}

/** The listed token a `tok` tap chose, or undefined for a stale one. */
export const tappedToken = (state: AssetChoice, value: string): string | undefined =>
  listedSymbols(state.assets ?? []).includes(value) ? value : undefined;

/** The network a `net` tap chose, or undefined for an unknown one. */
export const tappedNetwork = (value: string): Network | undefined => networkSchema.safeParse(value).data;

/** The listed token the state's token and network name. */
export const chosenToken = (state: AssetChoice): TokenInfo | undefined =>
  state.network && state.token ? findToken(state.assets ?? [], state.network, state.token) : undefined;

/**
 * An address of the other family of networks than the one chosen: an Algorand address on an EVM
 * network, or a 0x address on Algorand. Said so (with the way on), instead of only "not valid".
 */
export function otherFamilyWallet(network: Network, address: string): Text | undefined {
  const raw = address.trim();
  const shown = { address: raw, network: displayNetwork(network) };
  if (isEvmNetwork(network) && /^[A-Z2-7]{58}$/.test(raw)) return text('buy-wallet-algorand-on-evm', shown);
  if (network === 'algorand' && /^0x[0-9a-fA-F]{40}$/.test(raw))
    return text('buy-wallet-evm-on-algorand', shown);
  return undefined;
}

/**
 * Puts a typed wallet in its canonical form once the network is known; a wallet that is not valid
 * there is dropped with `problemText` in `notes`.
 */
export function checkWallet<S extends AssetChoice & { wallet?: string }>(
  state: S,
  notes: Text[],
  problemText: (problem: WalletProblem, network: Network, address: string) => Text,
): S {
  if (!state.network || !state.wallet) return state;
  const wallet = parseWallet(state.network, state.wallet);
  if (wallet.ok) return { ...state, wallet: wallet.value };
  notes.push(problemText(wallet.problem, state.network, state.wallet));
  return { ...state, wallet: undefined };
}
