import { describe, expect, it } from 'vitest';
import { loadI18n } from '../../src/i18n/index.js';
import {
  failureReasonText,
  offrampDoneMessage,
  onrampDoneMessage,
  receiverDisplayName,
} from '../../src/tracker/messages.js';
import { LISK_USDT, WALLET } from './helpers.js';

describe('tracker messages', () => {
  it('speaks of a failed payout as a payout, never of a PIN prompt', () => {
    expect(failureReasonText('Transaction timeout', 'offramp').id).toBe('tracker-payout-reason-timeout');
    expect(failureReasonText('Request cancelled by user', 'offramp').id).toBe(
      'tracker-payout-reason-cancelled',
    );
    expect(failureReasonText('The initiator information is invalid.', 'offramp').id).not.toBe(
      'tracker-reason-wrong-pin',
    );
    expect(failureReasonText('Withdrawal failed', 'offramp').id).toBe('tracker-reason-unknown');
  });

  it('puts the failure reason in plain words', () => {
    expect(failureReasonText('Insufficient balance').id).toBe('tracker-reason-insufficient-balance');
    expect(failureReasonText('Request cancelled by user').id).toBe('tracker-reason-cancelled');
    expect(failureReasonText('Transaction cancelled by user').id).toBe('tracker-reason-cancelled');
    expect(failureReasonText('Transaction timeout').id).toBe('tracker-reason-timeout');
    expect(failureReasonText('DS timeout user cannot be reached').id).toBe('tracker-reason-timeout');
    expect(failureReasonText('The initiator information is invalid.').id).toBe('tracker-reason-wrong-pin');
    expect(failureReasonText(undefined).id).toBe('tracker-reason-unknown');
    expect(failureReasonText('Transaction initiated').id).toBe('tracker-reason-unknown');
    expect(failureReasonText('System busy')).toEqual({
      id: 'tracker-reason-other',
      args: { detail: 'System busy' },
    });
  });

  it('drops the phone the provider puts in front of the receiver name', () => {
    expect(receiverDisplayName('254700000001 - Jane Doe')).toBe('Jane Doe');
    expect(receiverDisplayName('Jane Doe')).toBe('Jane Doe');
    expect(receiverDisplayName('254700000001 - ')).toBeUndefined();
  });

  it('every tracker text exists in English and Kiswahili and renders its arguments', () => {
    const i18n = loadI18n();
    const order = {
      orderId: 'D-abcde-XY',
      side: 'onramp' as const,
      user: { channel: 'terminal' as const, id: 'local' },
      network: 'lisk' as const,
      walletAddress: WALLET,
      token: LISK_USDT,
      amountKes: 1500,
      tokenAmount: '11.5800000001',
      phone: '254712345678',
      createdAt: 0,
    };
    const hash = `0x${'ab'.repeat(32)}`;
    const done = onrampDoneMessage(order, 'TGA6EIIORA', hash);
    const en = done.texts.map((t) => i18n.t('en', t)).join('\n');
    expect(en).toContain('TGA6EIIORA');
    expect(en).toContain(hash);
    expect(en).toContain('KES 1,500.00');
    expect(en).toContain('11.58 USDT');
    expect(done.buttons?.[0]?.[0]?.url).toBe(`https://blockscout.lisk.com/tx/${hash}`);
    const sw = done.texts.map((t) => i18n.t('sw', t)).join('\n');
    expect(sw).not.toBe(en);
    expect(sw).toContain('TGA6EIIORA');
    expect(sw).toContain('KSh 1,500.00');
    const off = offrampDoneMessage(
      { ...order, side: 'offramp' },
      {
        orderId: 'WD-x',
        status: 'SUCCESS',
        receiverName: '254712345678 - Jane Doe',
        receipt: 'TB21GOZTI9',
        amountKes: '995.00',
      },
    );
    expect(i18n.t('en', off.texts[0]!)).toContain('Jane Doe (2547••••5678)');
    const ids = i18n.ids('en').filter((id) => id.startsWith('tracker-'));
    expect(ids.length).toBeGreaterThan(20);
    for (const id of ids) expect(i18n.hasIn('sw', id)).toBe(true);
  });
});
