/** What every endpoint handler shares: request and reply types, reply builders, input schemas. */
import * as z from 'zod';
import type { Network } from '../domain/types.js';
import { CURRENT_TOKENS, LEGACY_TOKENS, type SandboxToken } from './catalog.js';
import type { SandboxState } from './state.js';

export type Generation = 'current' | 'legacy';

export interface Reply {
  status: number;
  body: unknown;
}

export interface HashCheck {
  chain: string;
  hash: string;
  tokenAddress: string;
  userAddress?: string;
}

/**
 * A refusal text, or undefined when the transfer is fine. May also return `{ amount }` (the tokens sent,
 * fee included: the whole transfer, priced like a quote of that many tokens) so the payout reflects
 * the real transfer.
 */
export type VerifyOfframpHash = (
  o: HashCheck,
) => Promise<string | undefined | { refusal?: string; amount?: string }>;

export interface HandlerEnv {
  state: SandboxState;
  kesPerUsd: number;
  extraTokens: SandboxToken[];
  verifyOfframpHash?: VerifyOfframpHash;
  origin: string;
}

export interface Req {
  generation: Generation;
  body: unknown;
  params: Record<string, string>;
  query: URLSearchParams;
}

export type Handler = (env: HandlerEnv, req: Req) => Promise<Reply> | Reply;

export const ok = (body: unknown, status = 200): Reply => ({ status, body });
export const refuse = (status: number, message: string, extra?: object): Reply => ({
  status,
  body: { status: 'error', message, ...extra },
});
/** The validation shape `{statusCode, message, error}`. */
export const invalid = (message: string, error: string): Reply => ({
  status: 400,
  body: { statusCode: 400, message, error },
});

const NUMERIC = /^\s*\d+(\.\d+)?\s*$/;
export const amountLike = z.union([
  z.number().finite().nonnegative(),
  z
    .string()
    .regex(NUMERIC)
    .transform((s) => Number(s)),
]);
/** Amount text as sent, trimmed (a number becomes `String(n)`), for answers that echo it. */
export const amountText = z.union([
  z.number().finite().nonnegative().transform(String),
  z
    .string()
    .regex(NUMERIC)
    .transform((s) => s.trim()),
]);
export const textLike = z.union([z.string().trim().min(1), z.number().finite().transform(String)]);
export const phoneLike = z.union([z.string().trim(), z.number().int().transform(String)]);
export const PHONE = /^254\d{9}$/;
export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const ALGORAND_ADDRESS = /^[A-Z2-7]{58}$/;
export const isWallet = (a: string) => EVM_ADDRESS.test(a) || ALGORAND_ADDRESS.test(a);

/**
 * An optional field: sent empty (`""`, blanks) or null it reads as absent, as the real service reads
 * its optional fields (one client sends `category: ""` when none is chosen).
 */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    schema.optional(),
  );

export const issuesText = (e: z.ZodError) =>
  e.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');

/** Tokens a network accepts in a generation (legacy also accepts the current list). */
export function tokensOf(env: HandlerEnv, network: Network): SandboxToken[] {
  return [...env.extraTokens, ...CURRENT_TOKENS, ...LEGACY_TOKENS].filter((t) => t.network === network);
}

/** The token at an address; an unknown address is priced as a USD stablecoin named USDT. */
export function tokenAt(env: HandlerEnv, address: string, network?: Network): SandboxToken {
  const all = [...env.extraTokens, ...CURRENT_TOKENS, ...LEGACY_TOKENS];
  const a = address.toLowerCase();
  const found =
    all.find((t) => t.address.toLowerCase() === a && (!network || t.network === network)) ??
    (a === '0x0000000000000000000000000000000000000000'
      ? undefined
      : all.find((t) => t.address.toLowerCase() === a));
  return (
    found ?? { network: network ?? 'polygon', symbol: 'USDT', name: 'Token', decimals: 6, address, usd: 1 }
  );
}
