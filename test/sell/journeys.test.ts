/**
 * Sell journeys through the engine (the dev chain, the sandbox, Redis): what the user sees, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import { findButton, lastText, newUser, type SellHarness, startSellHarness, waitFor } from './helpers.js';

let chain: DevChain;
let h: SellHarness;

beforeAll(async () => {
  chain = await startDevChain();
  h = await startSellHarness({ devChain: chain });
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
});

describe('sell journeys', () => {
  it('cancelling a sale shows one menu, last: "cancelled… [Main menu]", no main menu before it', async () => {
    const user = newUser();
    await h.say(user, { kind: 'command', command: 'sell', args: '1000 KES USDT polygon 0712345678' });
    await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
    expect(lastText(h, user, 'sell-evm-sign')).toBeDefined();
    const before = h.messages(user).length;
    await h.say(user, { kind: 'button', id: 'nav:cancel' });
    await waitFor('the cancelled message', () => lastText(h, user, 'sell-cancelled'));
    const after = h.messages(user).slice(before);
    const ids = after.map((m) => m.texts.map((t) => t.id).join('+'));
    expect(ids).toEqual(['sell-cancel-requested', 'sell-cancelled']);
    expect(after[0]!.buttons ?? []).toEqual([]);
    expect(
      after
        .at(-1)!
        .buttons!.flat()
        .map((b) => b.id),
    ).toEqual(['menu:main']);
    // A number typed now answers that menu: "1" is the main menu.
    const mark = h.messages(user).length;
    await h.say(user, { kind: 'button', id: 'menu:main' });
    expect(
      h
        .texts(user)
        .slice(mark)
        .some((t) => t.id === 'core-menu-title'),
    ).toBe(true);
  });

  it('after "only from my wallet" the dev-wallet button is not offered (it signs from another account)', async () => {
    const user = newUser();
    const linkButtonIds = () =>
      h
        .messages(user)
        .at(-1)!
        .buttons!.flat()
        .map((b) => b.id);
    // Without a bound wallet, the local demo offers the dev wallet.
    await h.say(user, { kind: 'command', command: 'sell', args: '600 KES USDT polygon 0712345678' });
    await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
    expect(linkButtonIds()).toContain('sell:devsign');
    await h.say(user, { kind: 'button', id: 'nav:cancel' });
    await waitFor('the cancel', () => lastText(h, user, 'sell-cancelled'));
    // A wallet named in the order is bound (and saved): no dev-wallet button.
    const wallet = chain.accounts[5]!.address;
    await h.say(user, {
      kind: 'command',
      command: 'sell',
      args: `700 KES USDT polygon ${wallet} 0712345678`,
    });
    await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
    expect(lastText(h, user, 'sell-evm-sign')).toBeDefined();
    expect(linkButtonIds()).not.toContain('sell:devsign');
    await h.say(user, { kind: 'button', id: 'nav:cancel' });
    await waitFor('the second cancel', () => h.texts(user).filter((t) => t.id === 'sell-cancelled')[1]);
    // The saved wallet chosen on the summary ("only from my wallet"): no dev-wallet button either.
    await h.say(user, { kind: 'command', command: 'sell', args: '800 KES USDT polygon 0712345678' });
    await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-only-saved-wallet') });
    await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
    expect(h.texts(user).filter((t) => t.id === 'sell-evm-sign')).toHaveLength(3);
    expect(linkButtonIds()).not.toContain('sell:devsign');
    await h.say(user, { kind: 'button', id: 'sell:devsign' });
    expect(h.texts(user).at(-1)?.id).toBe('core-button-stale');
  });

  it('a token amount beyond the limits is explained in tokens and in KES, not with a generic range', async () => {
    const user = newUser();
    await h.say(user, { kind: 'command', command: 'sell', args: '1000 USDT polygon 0712345678' });
    const note = await waitFor('the refusal', () => lastText(h, user, 'sell-amount-tokens-above-max'));
    expect(note.args).toEqual({
      amount: '1,000 USDT',
      kes: 'KES 129,500.00',
      bound: 'KES 29,984.00',
      boundTokens: '231.660231 USDT',
    });
    expect(h.texts(user).map((t) => t.id)).not.toContain('core-refused-amount-range');
    expect(
      h.texts(user).at(-1)?.id === 'sell-ask-amount' || h.texts(user).at(-1)?.id === 'sell-amount-range',
    ).toBe(true);
    // Below the minimum too; then a good amount goes on to the summary.
    await h.say(user, { kind: 'text', text: '0.05 USDT' });
    expect(lastText(h, user, 'sell-amount-tokens-below-min')?.args).toMatchObject({ bound: 'KES 9.00' });
    await h.say(user, { kind: 'text', text: '10 USDT' });
    expect(lastText(h, user, 'sell-summary-title')).toBeDefined();
  });

  it('a token the sell path cannot take, typed, is named as such and the sellable ones are offered', async () => {
    const user = newUser();
    await h.say(user, { kind: 'command', command: 'sell', args: '500 KES MATIC polygon 0712345678' });
    expect(lastText(h, user, 'sell-token-unknown')?.args).toEqual({ token: 'MATIC' });
    expect(h.texts(user).map((t) => t.id)).not.toContain('sell-words-ignored');
    const offered = h
      .messages(user)
      .at(-1)!
      .buttons!.flat()
      .map((b) => b.id);
    expect(offered).toContain('sell:tok:USDT');
    expect(offered.some((id) => /MATIC|ETH|cKES|CELO/i.test(id))).toBe(false);
  });
});
