/** Choosing tokens and networks from the listed assets a flow cached. */
import type { Network, TokenInfo } from '../../domain/types.js';

/** Token symbols in listing order, each once. */
export function listedSymbols(tokens: readonly TokenInfo[]): string[] {
  return [...new Set(tokens.map((t) => t.symbol))];
}

/** Networks that list a token symbol. */
export function networksFor(tokens: readonly TokenInfo[], symbol: string): Network[] {
  return [...new Set(tokens.filter((t) => t.symbol === symbol).map((t) => t.network))];
}

export function findToken(
  tokens: readonly TokenInfo[],
  network: Network,
  symbol: string,
): TokenInfo | undefined {
  return tokens.find((t) => t.network === network && t.symbol === symbol);
}
