import { afterAll, describe, expect, it } from 'vitest';
import { initialSession } from '../../src/flows/index.js';
import { loadI18n } from '../../src/i18n/index.js';
import {
  ALGO_WALLET,
  Driver,
  missingCoreTexts,
  textOf,
  WALLET,
  WALLET_BAD_CHECKSUM,
  WALLET_LOWER,
} from './helpers.js';

describe('settings', () => {
  it('shows language, phone and wallet count', () => {
    const d = new Driver(initialSession({ phone: '0712345678' }));
    const out = d.button('menu:settings');
    expect(textOf(out, 'settings-phone-current')?.args).toEqual({ phone: '+254 712 345 678' });
    expect(textOf(out, 'settings-wallets-count')?.args).toEqual({ count: 0 });
    expect(out.buttonIds).toEqual(['set:lang', 'set:phone', 'set:wallets', 'menu:main']);
  });

  it('views, changes and deletes the saved phone', () => {
    const d = new Driver();
    d.command('settings');
    expect(d.button('set:phone').ids).toContain('settings-phone-none');
    d.button('set:phone:change');
    expect(d.text('0812345678').ids).toContain('core-phone-invalid');
    expect(d.session.profile.phone).toBeUndefined();
    expect(d.text('0712 345 678').ids).toContain('settings-phone-saved');
    expect(d.session.profile.phone).toBe('254712345678');
    d.button('set:phone');
    d.button('set:phone:change');
    d.contact('+254 110 000 001');
    expect(d.session.profile.phone).toBe('254110000001');
    d.button('set:phone');
    expect(d.button('set:phone:delete').ids).toContain('settings-phone-deleted');
    expect(d.session.profile.phone).toBeUndefined();
  });

  it('saves, refuses and deletes wallets per network', () => {
    const d = new Driver();
    d.command('settings');
    d.button('set:wallets');
    d.button('set:w:polygon');
    expect(d.text(WALLET_BAD_CHECKSUM).ids).toContain('buy-wallet-bad-checksum');
    expect(d.text(ALGO_WALLET).ids).toContain('buy-wallet-algorand-on-evm');
    expect(d.text(WALLET_LOWER).ids).toContain('settings-wallet-saved');
    expect(d.session.profile.wallets).toEqual({ polygon: WALLET });
    d.button('set:w:algorand');
    d.text(ALGO_WALLET);
    expect(d.session.profile.wallets.algorand).toBe(ALGO_WALLET);
    const edit = d.button('set:w:polygon');
    expect(edit.buttonIds).toContain('set:wdel:polygon');
    d.button('set:wdel:polygon');
    expect(d.session.profile.wallets).toEqual({ algorand: ALGO_WALLET });
  });

  it('an Algorand typo is its checksum, never "capital letters"; a 0x address is named as EVM (#25)', () => {
    const i18n = loadI18n();
    const d = new Driver();
    d.command('settings');
    d.button('set:wallets');
    d.button('set:w:algorand');
    const typo = `${ALGO_WALLET.slice(0, -1)}A`;
    const out = d.text(typo);
    expect(out.ids).toContain('buy-wallet-bad-checksum-algorand');
    expect(out.ids).not.toContain('buy-wallet-bad-checksum');
    for (const locale of ['en', 'sw'] as const) {
      const said = i18n.t(locale, textOf(out, 'buy-wallet-bad-checksum-algorand')!);
      expect(said).not.toMatch(/capital letters|herufi zake kubwa/);
    }
    const evm = d.text(WALLET_LOWER);
    expect(textOf(evm, 'buy-wallet-evm-on-algorand')?.args).toEqual({
      address: WALLET_LOWER,
      network: 'Algorand',
    });
    expect(d.session.profile.wallets).toEqual({});
    expect(d.text(ALGO_WALLET).ids).toContain('settings-wallet-saved');
  });

  it('back climbs the settings pages, then leaves', () => {
    const d = new Driver();
    d.command('settings');
    d.button('set:wallets');
    d.button('set:w:celo');
    d.text('back');
    expect(d.flow).toMatchObject({ step: 'wallets' });
    d.text('back');
    expect(d.flow).toMatchObject({ step: 'main' });
    d.text('back');
    expect(d.flow).toEqual({ name: 'menu' });
  });
});

afterAll(() => {
  expect(missingCoreTexts()).toEqual([]);
});
