/**
 * What the signing routes need of the sale behind a link, declared here so signing imports nothing
 * from `src/sell/`: the sell service satisfies `SigningService` as it is, and its intents are
 * `SigningIntent`s (the routes only hand back intents the service gave them).
 */
import type { Address, Hex, PublicClient } from 'viem';
import type { EvmCall } from '../chains/evm/index.js';
import type { Locale } from '../chat/types.js';
import type { Network } from '../domain/types.js';
import type { SellLink, SellUpdate } from '../flows/types.js';

/** Where a sale stands; only `open` links can be used, `filed`/`filing` ones were used. */
export type SigningIntentStatus =
  | 'open'
  | 'filing'
  | 'filed'
  | 'filing-unknown'
  | 'refused'
  | 'expired'
  | 'cancelled';

/** The fields of a sale (sell intent) the signing page and its routes read. */
export interface SigningIntent {
  id: string;
  locale: Locale;
  network: Network;
  token: { symbol: string; address: string; decimals: number };
  /** Tokens to send including the fee: decimal text, and base units as decimal text. */
  total: string;
  totalUnits: string;
  amountKes: number;
  phone: string;
  /** The wallet that must send, when the user named one. */
  wallet?: string;
  evm?: { chainId: number; escrow: string; escrowCall: 'current' | 'legacy' | 'permit'; local: boolean };
  algorand?: { receiver: string; assetId: string; note: string };
  /** Epoch ms. */
  expiresAt: number;
  status: SigningIntentStatus;
  /** Hashes reported but not yet confirmed deep enough. */
  pending: { hash: string }[];
  orderId?: string;
}

/** An EVM network as the routes use it: its RPC for the page, a client to read transactions. */
export interface SigningEvmRuntime {
  config: { rpcUrl: string };
  client: PublicClient;
}

/** The sell service's methods the signing routes call. */
export interface SigningService {
  intentByLink(token: string): Promise<SigningIntent | undefined>;
  /** True while the page may still be used. */
  linkAlive(intent: SigningIntent): boolean;
  linkOf(intent: SigningIntent): SellLink;
  evmRuntime(network: Network): SigningEvmRuntime | undefined;
  /** `approve(escrow, total)` (needed when `allowance` is short), then the tagged deposit. */
  evmCalls(
    intent: SigningIntent,
    from: Address,
  ): Promise<{ approve: EvmCall; withdraw: EvmCall; allowance: bigint }>;
  /** EIP-712 permit data for the page to sign (permit variant). */
  permitData(intent: SigningIntent, owner: Address): Promise<{ typedData: unknown; deadline: string }>;
  permitCall(intent: SigningIntent, p: { signature: Hex; deadline: bigint }): EvmCall;
  /** Checks a hash for an intent and files the order when it passes (`push`: tell the chat too). */
  reportHash(
    intentId: string,
    hash: string,
    opts: { push: boolean; source: string; address?: string },
  ): Promise<SellUpdate>;
}
