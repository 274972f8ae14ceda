/**
 * The receipt flow as a pure transition: the button or /receipt asks for the `receipt` effect (a
 * picture, except in the terminal), the picture goes by reference under a short caption, the
 * terminal gets the receipt's lines, and a refusal is said in words.
 */
import { describe, expect, it } from 'vitest';
import type { ReceiptView } from '../../src/flows/types.js';
import { loadI18n } from '../../src/i18n/index.js';
import { Driver, onlyEffect } from '../flows/helpers.js';

const i18n = loadI18n();
const HASH = `0x${'ab12'.repeat(16)}`;
const view: ReceiptView = {
  orderId: 'D-abc',
  side: 'onramp',
  network: 'polygon',
  symbol: 'USDT',
  decimals: 6,
  kes: 506,
  tokens: '3.861004',
  fee: '6.00',
  mpesa: 'UKS7LKMVMZ',
  txHash: HASH,
  explorerUrl: `https://polygonscan.com/tx/${HASH}`,
  at: Date.parse('2026-11-28T09:00:00Z'),
};

/** A driver whose user is on Telegram (the helper's is the terminal's). */
function onTelegram(): Driver {
  const d = new Driver();
  Object.defineProperty(d, 'user', { value: { channel: 'telegram', id: '42' } });
  return d;
}

describe('the receipt flow', () => {
  it('a tap on Receipt asks for the picture, and sends it by reference with the explorer link', () => {
    const d = onTelegram();
    expect(onlyEffect(d.button('rc:D-abc'))).toEqual({ type: 'receipt', orderId: 'D-abc', picture: true });
    const out = d.feed({
      kind: 'receipt',
      outcome: { status: 'ready', receipt: { ...view, ref: 'receipt:D-abc:en' } },
    });
    const [message] = out.sends;
    expect(message!.media).toEqual({ kind: 'photo', ref: 'receipt:D-abc:en', filename: 'receipt-D-abc.png' });
    expect(out.ids[0]).toBe('receipts-caption');
    expect(message!.buttons![0]![0]!.url).toBe(view.explorerUrl);
  });

  it('the terminal gets the lines as text, with the link', () => {
    const d = new Driver();
    expect(onlyEffect(d.command('receipt', ' D-abc '))).toEqual({
      type: 'receipt',
      orderId: 'D-abc',
      picture: false,
    });
    const out = d.feed({ kind: 'receipt', outcome: { status: 'ready', receipt: view } });
    const [message] = out.sends;
    expect(message!.media).toBeUndefined();
    const lines = message!.texts.map((t) => i18n.t('en', t));
    expect(lines).toEqual([
      'Receipt · crypto bought with M-Pesa',
      'You paid: KES 506.00',
      'You received: 3.861004 USDT',
      'Network: Polygon',
      'Fee (included): KES 6.00',
      'M-Pesa code: UKS7LKMVMZ',
      'Transaction: 0xab12ab12…ab12ab12',
      'Order: D-abc',
      'Date: 2026-11-28 12:00 EAT',
    ]);
    expect(message!.buttons![0]![0]!.url).toBe(view.explorerUrl);
    expect(i18n.t('sw', message!.texts[1]!)).toBe('Ulilipa: KES 506.00');
  });

  it('a refusal is said in words over the menu; an id that is no order id asks which order', () => {
    const d = onTelegram();
    d.button('rc:D-xyz');
    const out = d.feed({
      kind: 'receipt',
      outcome: { status: 'refused', orderId: 'D-xyz', reason: 'unfinished' },
    });
    expect(out.ids[0]).toBe('receipts-unfinished');
    expect(out.sends[0]!.texts[0]!.args).toEqual({ orderId: 'D-xyz' });
    expect(d.flow.name).toBe('menu');
    const forged = d.button('rc:../../etc');
    expect(forged.effects.some((e) => e.type === 'receipt')).toBe(false);
    expect(forged.ids[0]).toBe('receipts-ask');
    expect(d.command('receipt').ids[0]).toBe('receipts-ask');
  });
});
