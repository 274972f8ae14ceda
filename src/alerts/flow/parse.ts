/**
 * Reads an alert as typed: `USDT below 128`, `USDT polygon above KES 128.5`, `usdt chini ya 128`,
 * `USDT juu ya 130`. Words may come in any order; the token is checked against the listing later.
 */
import { parseNetwork } from '../../domain/networks.js';
import type { Network } from '../../domain/types.js';
import type { AlertSide } from '../../flows/types.js';

export interface AlertWords {
  token?: string;
  network?: Network;
  side?: AlertSide;
  /** KES per token. */
  level?: number;
  /** A figure that is not a price (`0`, `12,5,3`). */
  badLevel?: string;
  /** Words we could not place. */
  ignored: string[];
}

/** Two-word phrases first, so "chini ya" is one word for "below". */
const PHRASES: Array<[RegExp, string]> = [
  [/\bchini\s+ya\b/giu, ' below '],
  [/\bjuu\s+ya\b/giu, ' above '],
  [/\bless\s+than\b/giu, ' below '],
  [/\bmore\s+than\b/giu, ' above '],
];

const SIDE_WORDS: Record<string, AlertSide> = {
  below: 'below',
  under: 'below',
  '<': 'below',
  chini: 'below',
  above: 'above',
  over: 'above',
  '>': 'above',
  juu: 'above',
  zaidi: 'above',
};

const KES_WORDS = new Set(['kes', 'ksh', 'kshs', 'sh', '/=']);

/** The highest level accepted: far beyond any token's price in shillings, far below a typo's. */
export const MAX_LEVEL = 100_000_000;

/** `128`, `128.5`, `128,5`, `KES128`, `128/=`: KES per token, or undefined when it is not a figure. */
export function parseLevel(typed: string): number | undefined {
  const m = /^(?:kes|kshs?|sh)?\.?(\d{1,9}(?:[.,]\d{1,6})?)(?:kes|kshs?|\/=)?$/i.exec(typed.trim());
  if (!m) return undefined;
  const n = Number(m[1]!.replace(',', '.'));
  return Number.isFinite(n) && n > 0 && n <= MAX_LEVEL ? n : undefined;
}

/** Reads the words of an alert in any order (English or Kiswahili). */
export function parseAlertWords(input: string): AlertWords {
  let s = ` ${input.trim()} `;
  for (const [re, to] of PHRASES) s = s.replace(re, to);
  s = s.replace(/([<>])/g, ' $1 ');
  const out: AlertWords = { ignored: [] };
  for (const raw of s.split(/\s+/).filter(Boolean)) {
    const w = raw.toLowerCase().replace(/[!?;:]+$/, '');
    const side = SIDE_WORDS[w];
    if (side) {
      out.side = side;
      continue;
    }
    if (KES_WORDS.has(w) || w === 'ya' || w === 'at' || w === 'is' || w === 'when' || w === 'ikiwa') continue;
    const network = parseNetwork(w);
    if (network && !out.network) {
      out.network = network;
      continue;
    }
    if (/\d/.test(w)) {
      const level = parseLevel(w);
      if (level !== undefined) out.level = level;
      else out.badLevel = raw;
      continue;
    }
    if (/^[a-z][a-z0-9.]{1,11}$/i.test(w) && !out.token) {
      out.token = raw.toUpperCase();
      continue;
    }
    out.ignored.push(raw);
  }
  return out;
}
