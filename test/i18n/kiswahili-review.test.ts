/**
 * The Kiswahili review holds: no English left in locales/sw except names (M-Pesa, USDT, Telegram,
 * Trust Wallet…), one word for each idea (nambari, never namba; kripto; gumzo), and the explorer
 * button fits Meta's 20-character limit instead of being cut to "Tazama kwenye explo…".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/channels/whatsapp-cloud/limits.js';
import { DEFAULT_LOCALES_DIR, loadI18n } from '../../src/i18n/index.js';

/** English words a Kiswahili reader met in the chat, and what replaced them. */
const ENGLISH_LEFTOVERS = [
  'explorer', // tovuti ya kufuatilia miamala; the button: "Tazama muamala"
  'hash', // kitambulisho cha muamala
  'escrow', // akaunti ya dhamana
  'checksum', // herufi za uhakiki
  'wallet', // pochi (names such as Trust Wallet are allowed below)
  'crypto', // kripto
  'sandbox', // huduma ya majaribio
  'link', // kiungo
  'refund', // marejesho
  'support', // huduma kwa wateja (the /support command is allowed)
];

/** Names that carry an English word and stay as they are. */
const NAMES = [/Trust Wallet/g, /Pera Wallet/g, /Coinbase Wallet/g, /WalletConnect/g];

/** Each message's text as a reader sees it: no ids, variables, selectors, commands, tags or settings names. */
function readerText(source: string): { id: string; text: string }[] {
  const out: { id: string; text: string }[] = [];
  let id = '';
  for (const line of source.split('\n')) {
    if (line.startsWith('#') || !line.trim()) continue;
    const head = /^([a-z][a-z0-9-]*) =(.*)$/.exec(line);
    if (head) id = head[1]!;
    let text = head ? head[2]! : line;
    text = text
      .replace(/\{\s*\$[\w-]+\s*(->)?\s*\}?/g, ' ') // { $var } and selector heads
      .replace(/\{\s*[a-z][\w-]*\s*\}/g, ' ') // message references
      .replace(/^\s*\*?\[[\w-]+\]/, ' ') // variant keys
      .replace(/<[^>]+>/g, ' ') // HTML tags
      .replace(/\/[a-z][\w-]*/gi, ' ') // commands and paths
      .replace(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g, ' '); // settings names (TELEGRAM_BOT_TOKEN)
    for (const name of NAMES) text = text.replace(name, ' ');
    out.push({ id, text });
  }
  return out;
}

const swDir = join(DEFAULT_LOCALES_DIR, 'sw');
const swTexts = readdirSync(swDir)
  .filter((f) => f.endsWith('.ftl'))
  .flatMap((f) => readerText(readFileSync(join(swDir, f), 'utf8')).map((t) => ({ ...t, file: f })));

describe('locales/sw after the review', () => {
  it('has no English word left for an idea Kiswahili has a word for', () => {
    const found = swTexts.flatMap(({ file, id, text }) =>
      ENGLISH_LEFTOVERS.filter((w) => new RegExp(`\\b${w}`, 'i').test(text)).map(
        (w) => `${file} ${id}: "${w}" in ${text.trim()}`,
      ),
    );
    expect(found).toEqual([]);
  });

  it('says "nambari" for a number everywhere, never "namba"', () => {
    const mixed = swTexts.filter(({ text }) => /\bnamba\b/i.test(text)).map(({ id }) => id);
    expect(mixed).toEqual([]);
    expect(swTexts.some(({ text }) => /\bnambari\b/i.test(text))).toBe(true);
  });

  it('the explorer button fits a WhatsApp link button whole, in both languages', () => {
    const i18n = loadI18n();
    for (const locale of ['en', 'sw'] as const) {
      const label = i18n.t(locale, { id: 'tracker-explorer-button' });
      expect([...label].length, label).toBeLessThanOrEqual(LIMITS.ctaText);
      expect(label.length, `${label} in UTF-16 units`).toBeLessThanOrEqual(LIMITS.ctaText);
    }
    expect(i18n.t('sw', { id: 'tracker-explorer-button' })).not.toMatch(/explo/i);
  });

  it('the devchain line of the terminal is in Kiswahili', () => {
    const line = loadI18n().t('sw', { id: 'terminal-devchain-starting' });
    expect(line).toMatch(/^Kuuza:/);
    expect(line).not.toMatch(/Selling|starting|chains/);
  });
});
