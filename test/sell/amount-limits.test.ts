/**
 * The sell limits as the seller meets them: what they receive, the fee apart, checked where the
 * amount is typed, the same in the one-line command and the menu, in English and Kiswahili. The ramp
 * bounds the gross KES (10 to 30,000); with the M-Pesa fee on top a seller receives 9 to 29,984.
 */
import { describe, expect, it } from 'vitest';
import type { UserRef } from '../../src/chat/types.js';
import { loadI18n } from '../../src/i18n/index.js';
import { lastText, newUser } from './helpers.js';
import { sellRig } from './link-rig.js';

const s = sellRig();

const RANGE = { min: 9, max: 29_984, fee: 16 };
const ids = (user: UserRef) => s.h.texts(user).map((t) => t.id);
const i18n = loadI18n();

describe('the sell limits', () => {
  it('the one-line command refuses KES 30,000 at once, in what the seller receives', async () => {
    const user = newUser();
    await s.h.say(user, { kind: 'command', command: 'sell', args: '30000 KES USDT polygon 0712345678' });
    expect(lastText(s.h, user, 'sell-amount-outside')?.args).toEqual({ amount: 30_000, ...RANGE });
    expect(ids(user)).not.toContain('core-refused-amount-range');
    expect(ids(user)).not.toContain('sell-summary-title');
  });

  it('the menu refuses it at the amount step, the same way, before asking the phone', async () => {
    const user = newUser();
    await s.h.say(user, { kind: 'command', command: 'sell', args: 'USDT polygon' });
    expect(lastText(s.h, user, 'sell-amount-range')?.args).toEqual(RANGE);
    await s.h.say(user, { kind: 'text', text: '30000' });
    expect(lastText(s.h, user, 'sell-amount-outside')?.args).toEqual({ amount: 30_000, ...RANGE });
    expect(ids(user)).not.toContain('sell-ask-phone');
    await s.h.say(user, { kind: 'text', text: '29984' });
    expect(ids(user).at(-1)).toBe('sell-ask-phone');
  });

  it('the top of the range is accepted: KES 29,984 received, the fee shown apart', async () => {
    const user = newUser();
    await s.h.say(user, { kind: 'command', command: 'sell', args: '29984 KES USDT polygon 0712345678' });
    expect(lastText(s.h, user, 'sell-summary-title')).toBeDefined();
    expect(lastText(s.h, user, 'quote-receive-kes')?.args).toEqual({ amount: 'KES 29,984.00' });
    expect(lastText(s.h, user, 'quote-fee')?.args).toMatchObject({ feeKes: 'KES 16.00' });
  });

  it('reads the same in Kiswahili', async () => {
    const user = newUser();
    await s.h.say(user, { kind: 'button', id: 'lang:sw' });
    await s.h.say(user, { kind: 'command', command: 'sell', args: '30000 KES USDT polygon 0712345678' });
    const refusal = lastText(s.h, user, 'sell-amount-outside')!;
    expect(refusal.args).toEqual({ amount: 30_000, ...RANGE });
    const [en, sw] = (['en', 'sw'] as const).map((l) => i18n.t(l, refusal));
    for (const said of [en, sw]) for (const n of ['29,984', '30,000', '16']) expect(said).toContain(n);
  });
});
