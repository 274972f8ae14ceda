/** Lenient readers of what users type: amounts, phones, wallets, and one-line commands. */
import { normalizeWalletAddress } from '../domain/address.js';
import { normalizeDecimal } from '../domain/decimal.js';
import { isEvmNetwork, parseNetwork } from '../domain/networks.js';
import { normalizeKenyanPhone } from '../domain/phone.js';
import type { Direction, Network } from '../domain/types.js';

const KES_WORD = /^(kes|ksh|kshs|sh|shs|shillings?|shilingi|bob)\.?$/i;
const KES_AFFIX = /^(?:kes|kshs?|shs?)\.?\s*|\s*(?:kes|kshs?|shs?|bob|\/=)\.?$|\s+(?:shillings?|shilingi)$/gi;
const HAS_KES_AFFIX =
  /^(?:kes|kshs?|shs?)\.?\s*\d|\d\s*(?:kes|kshs?|shs?|bob|\/=)\.?$|\d\s+(?:shillings?|shilingi)$/i;

export type AmountProblem = 'invalid' | 'not-whole' | 'not-positive';
export type Parsed<T, P> = { ok: true; value: T } | { ok: false; problem: P };

/**
 * Points as thousands marks: "1.000", "2.500", "1.000.000". Shillings have two decimals, so a point
 * followed by exactly three digits is never cents; whoever types "1.000" means a thousand, not KES 1.
 */
const POINT_THOUSANDS = /^\d{1,3}(\.\d{3})+$/;

function amountText(input: string): string | undefined {
  const t = input.trim().replace(KES_AFFIX, '').trim();
  const thousands = /^(\d+(?:\.\d+)?)\s*k$/i.exec(t);
  if (thousands) return timesThousand(thousands[1]!);
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) return t.replace(/,/g, '');
  if (/^(\d+(\.\d*)?|\.\d+)$/.test(t) || POINT_THOUSANDS.test(t)) return t;
  return undefined;
}

/** "5" -> "5000", "2.5" -> "2500", "1.2345" -> "1234.5": exact, no float. */
function timesThousand(value: string): string {
  const [int, frac = ''] = value.split('.');
  const digits = `${int}${frac.padEnd(3, '0')}`;
  const whole = digits.slice(0, int!.length + 3).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(int!.length + 3);
  return rest ? `${whole}.${rest}` : whole;
}

/**
 * Whole Kenyan shillings: "500", "1,000", "1.000" (a thousand), "5k", "KES 2000", "ksh500",
 * "500 bob", "1500.00", "500/=".
 */
export function parseKesAmount(input: string): Parsed<number, AmountProblem> {
  const typed = amountText(input);
  if (typed === undefined) return { ok: false, problem: 'invalid' };
  const t = POINT_THOUSANDS.test(typed) ? typed.replace(/\./g, '') : typed;
  const [int, frac = ''] = t.split('.');
  if (/[1-9]/.test(frac)) return { ok: false, problem: 'not-whole' };
  const value = Number(int || '0');
  if (!Number.isSafeInteger(value) || value <= 0) return { ok: false, problem: 'not-positive' };
  return { ok: true, value };
}

/** A positive token amount as exact decimal text ("0.5", "12", "1,000.25"); at most 18 decimals. */
export function parseTokenAmount(input: string): Parsed<string, AmountProblem> {
  const t = amountText(input);
  const value = t === undefined ? undefined : normalizeDecimal(t);
  if (value === undefined || (t?.split('.')[1]?.length ?? 0) > 18) return { ok: false, problem: 'invalid' };
  if (!/[1-9]/.test(value) || value.startsWith('-')) return { ok: false, problem: 'not-positive' };
  return { ok: true, value };
}

export type WalletProblem = 'checksum' | 'format';

/**
 * A wallet address for a network in canonical form, or why not: `checksum` for an EVM address
 * whose mixed case is a wrong EIP-55 checksum (or a bad Algorand checksum), `format` otherwise.
 */
export function parseWallet(network: Network, input: string): Parsed<string, WalletProblem> {
  const raw = input.trim();
  const value = normalizeWalletAddress(network, raw);
  if (value) return { ok: true, value };
  if (isEvmNetwork(network) && /^0x[0-9a-fA-F]{40}$/.test(raw) && !/^0x0{40}$/.test(raw)) {
    return { ok: false, problem: 'checksum' };
  }
  if (network === 'algorand' && /^[A-Z2-7]{58}$/.test(raw)) return { ok: false, problem: 'checksum' };
  return { ok: false, problem: 'format' };
}

/** Kenyan mobile number as `254XXXXXXXXX`, or undefined. */
export const parsePhone = (input: string): string | undefined => normalizeKenyanPhone(input);

const looksLikeWallet = (t: string): boolean => /^0x[0-9a-z]{4,}$/i.test(t) || /^[A-Z2-7]{58}$/.test(t);
const looksLikePhone = (t: string): boolean => {
  // One decimal point not after a 0 or 254 prefix is an amount ("105.540223 USDT"), not a phone.
  if (/^\d+\.\d+$/.test(t) && !/^(0|254)/.test(t)) return false;
  const digits = t.replace(/[\s\-.()]/g, '');
  return /^\+\d{6,}$/.test(digits) || /^\d{9,}$/.test(digits);
};

const DIRECTION_WORDS: Record<string, Direction> = {
  buy: 'onramp',
  nunua: 'onramp',
  onramp: 'onramp',
  'on-ramp': 'onramp',
  sell: 'offramp',
  uza: 'offramp',
  offramp: 'offramp',
  'off-ramp': 'offramp',
};

/** Direction from a word: buy/nunua/onramp or sell/uza/offramp. */
export const parseDirection = (input: string): Direction | undefined =>
  DIRECTION_WORDS[input.trim().toLowerCase()];

/** A listed token symbol, matched case-insensitively; returns the listed spelling. */
export function matchSymbol(input: string, symbols: readonly string[]): string | undefined {
  const t = input.trim().toLowerCase();
  return symbols.find((s) => s.toLowerCase() === t);
}

/** What a one-line command or a free message held, in any order. Nothing here is validated against a network yet. */
export interface OrderWords {
  /** Amount text as typed (without "KES"); `kes` when the user wrote KES/KSh next to it. */
  amount?: { text: string; kes: boolean };
  token?: string;
  network?: Network;
  /** Raw wallet text: checked once the network is known. */
  wallet?: string;
  phone?: string;
  /** Something that looked like a phone but is not a Kenyan mobile number. */
  badPhone?: string;
  direction?: Direction;
  /** Words we could not place. */
  ignored: string[];
}

/**
 * Reads `500 KES USDT polygon 0xAbC… 0712345678` in any order, case-insensitively. A word that is
 * both a network and a token ("celo") fills the network first, then the token.
 */
export function parseOrderWords(input: string, symbols: readonly string[]): OrderWords {
  const out: OrderWords = { ignored: [] };
  const ambiguous: string[] = [];
  const words = input
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/[,;]+$/, ''))
    .filter(Boolean);
  let kesSeen = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (KES_WORD.test(w)) {
      kesSeen = true;
      continue;
    }
    const direction = parseDirection(w);
    if (direction && !out.direction) {
      out.direction = direction;
      continue;
    }
    if (looksLikeWallet(w)) {
      out.wallet = w;
      continue;
    }
    const network = parseNetwork(w);
    const symbol = matchSymbol(w, symbols);
    if (network && symbol) {
      ambiguous.push(symbol);
      continue;
    }
    if (network) {
      out.network = network;
      continue;
    }
    if (symbol) {
      out.token = symbol;
      continue;
    }
    // "+254 712 345 678" and "0712 345 678" arrive split: join the digit groups that follow.
    let candidate = w;
    let consumed = 0;
    if (/^(\+?254|0[17])\d*$/.test(w)) {
      const maxDigits = w.startsWith('0') ? 10 : 12;
      let joined = w;
      let n = 0;
      while (
        /^\d{1,4}$/.test(words[i + n + 1] ?? '') &&
        joined.replace('+', '').length + (words[i + n + 1] ?? '').length <= maxDigits
      ) {
        joined += words[i + n + 1];
        n++;
      }
      if (n > 0 && looksLikePhone(joined)) {
        candidate = joined;
        consumed = n;
      }
    }
    i += consumed;
    if (looksLikePhone(candidate)) {
      const phone = parsePhone(candidate);
      if (phone) out.phone = phone;
      else out.badPhone = candidate;
      continue;
    }
    const amount = amountText(w);
    if (amount !== undefined && !out.amount) {
      out.amount = { text: amount, kes: HAS_KES_AFFIX.test(w) };
      continue;
    }
    out.ignored.push(w);
  }
  for (const symbol of ambiguous) {
    const asNetwork = parseNetwork(symbol);
    if (!out.network && asNetwork) out.network = asNetwork;
    else if (!out.token) out.token = symbol;
  }
  if (out.amount && kesSeen) out.amount.kes = true;
  return out;
}
