/**
 * Amounts and dates as they appear in chat, per locale. Flows put these already-formatted strings
 * in Text args, so every channel shows the same thing.
 */
import { negotiateLanguages } from '@fluent/langneg';
import { LOCALES, type Locale } from '../chat/types.js';
import { roundDecimal } from '../domain/decimal.js';

const KES_PREFIX: Record<Locale, string> = { en: 'KES', sw: 'KSh' };

function groupThousands(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function groupDecimalText(text: string): string {
  const negative = text.startsWith('-');
  const [int = '0', frac] = (negative ? text.slice(1) : text).split('.');
  const out = frac ? `${groupThousands(int)}.${frac}` : groupThousands(int);
  return negative ? `-${out}` : out;
}

/** `1234.5` -> "KES 1,234.50" (en) / "KSh 1,234.50" (sw). */
export function formatKes(locale: Locale, amount: number | string): string {
  const rounded = roundDecimal(amount, 2) ?? String(amount);
  const [int, frac = ''] = rounded.split('.');
  return `${KES_PREFIX[locale]} ${groupDecimalText(`${int}.${frac.padEnd(2, '0')}`)}`;
}

/**
 * An amount of whole shillings as amount buttons show it, the same in buy, sell and quote:
 * `1000` -> "KES 1,000" (en) / "KSh 1,000" (sw); an amount with cents keeps them ("KES 12.50").
 */
export function formatKesButton(locale: Locale, amount: number): string {
  return Number.isInteger(amount)
    ? `${KES_PREFIX[locale]} ${groupThousands(String(amount))}`
    : formatKes(locale, amount);
}

/**
 * A token amount from decimal text, rounded to at most `maxDecimals` (6) without a float
 * round-trip: ("0.7738740133106331", "USDT") -> "0.773874 USDT".
 */
export function formatToken(
  _locale: Locale,
  amount: string | number,
  symbol: string,
  maxDecimals = 6,
): string {
  const rounded = roundDecimal(amount, maxDecimals);
  return `${rounded === undefined ? String(amount) : groupDecimalText(rounded)} ${symbol}`;
}

/** A plain decimal number with thousands separators, at most `maxDecimals` decimals. */
export function formatNumber(_locale: Locale, amount: string | number, maxDecimals = 2): string {
  const rounded = roundDecimal(amount, maxDecimals);
  return rounded === undefined ? String(amount) : groupDecimalText(rounded);
}

const EAT_OFFSET_MS = 3 * 60 * 60 * 1000;

/** An ISO timestamp in Kenyan time (EAT, UTC+3): "2025-07-10 15:31 EAT". Bad input is returned as is. */
export function formatDateTime(_locale: Locale, iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const local = new Date(ms + EAT_OFFSET_MS).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 16)} EAT`;
}

/** The supported locale closest to a client's language code ("sw-KE" -> "sw", "fr" -> "en"). */
export function pickLocale(code?: string): Locale {
  if (!code) return 'en';
  const [best] = negotiateLanguages([code], [...LOCALES], { strategy: 'lookup', defaultLocale: 'en' });
  return (LOCALES as readonly string[]).includes(best ?? '') ? (best as Locale) : 'en';
}
