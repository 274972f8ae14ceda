/**
 * The signing page in a real browser (the `current` escrow call): headless Chromium opens the link
 * from the chat with an injected EIP-1193 wallet (announced through EIP-6963) answered in Node as a
 * dev-chain account. Covers the full sale (add the chain, approve, deposit, filed, receipt), a
 * sufficient allowance (no approve), a bound wallet the injected account is not, a browser without a
 * wallet (en and sw), and dead links (used, expired).
 */
import { erc20Abi, maxUint256 } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevAccount, type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import { loadI18n } from '../../src/i18n/index.js';
import { lastText, newUser, type SellHarness, startSellHarness, waitFor } from '../sell/helpers.js';
import {
  type Browser,
  connect,
  hasChromium,
  launchBrowser,
  pageWithWallet,
  startSale,
  statusOf,
  waitForStatus,
} from './helpers.js';

const i18n = loadI18n();

let chain: DevChain;
let browser: Browser;

beforeAll(async () => {
  if (!hasChromium) return;
  [chain, browser] = await Promise.all([startDevChain(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await chain?.close();
});

describe.skipIf(!hasChromium)('selling through the signing page in Chromium', () => {
  let h: SellHarness;
  let accountSeq = 3;

  /** A fresh hardhat account holding test USDT. */
  async function seller(): Promise<DevAccount> {
    const account = chain.accounts[accountSeq++]!;
    await chain.mintTokens(chain.tokens.usdt, account.address, 1_000_000_000n);
    return account;
  }

  const receiptPosted = (user: ReturnType<typeof newUser>) =>
    waitFor('the payout receipt', () =>
      h.texts(user).find((t) => t.id === 'tracker-offramp-done' || t.id === 'tracker-offramp-done-noname'),
    );

  beforeAll(async () => {
    h = await startSellHarness({ devChain: chain, confirmations: 1 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('connects, adds the chain, approves, deposits, and the chat gets the order and the receipt', async () => {
    const user = newUser();
    const account = chain.devAccount;
    const url = await startSale(h, user, `1000 KES USDT polygon ${account.address} 0712345678`);
    // The wallet starts on another chain; switching fails with 4902 until the page adds the chain.
    const { page, wallet } = await pageWithWallet(browser.context, { chain, account, startChainId: 1 });
    await page.goto(url);
    await connect(page);
    await waitForStatus(page, /WD-/);

    expect(wallet.seen).toEqual(
      expect.arrayContaining(['wallet_switchEthereumChain', 'wallet_addEthereumChain', 'eth_call']),
    );
    expect(wallet.chainId()).toBe(chain.chainId);
    expect(wallet.sent.map((t) => t.to)).toEqual([chain.tokens.usdt, chain.escrow]);
    const filed = await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    const orderId = String(filed.args!.orderId);
    expect(await statusOf(page)).toBe(i18n.t('en', { id: 'sell-page-filed', args: { orderId } }));
    expect(h.sandbox.order(orderId)).toMatchObject({ phone: '254712345678', hash: wallet.sent[1]!.hash });
    await receiptPosted(user);

    // The link is single-use: it now answers 410 with the "already used" page naming the order.
    const again = await page.goto(url);
    expect(again?.status()).toBe(410);
    expect(await page.locator('body').textContent()).toContain(
      i18n.t('en', { id: 'sell-page-used', args: { orderId } }),
    );
    await page.close();
  });

  it('switches a wallet that added the chain but stayed on another one before sending anything', async () => {
    const user = newUser();
    const account = await seller();
    const url = await startSale(h, user, `500 KES USDT polygon ${account.address} 0712345678`);
    const { page, wallet } = await pageWithWallet(browser.context, {
      chain,
      account,
      startChainId: 1,
      addWithoutSwitch: true,
    });
    await page.goto(url);
    await connect(page);
    await waitForStatus(page, /WD-/);
    expect(wallet.seen.filter((m) => m === 'wallet_switchEthereumChain')).toHaveLength(2);
    expect(wallet.chainId()).toBe(chain.chainId);
    expect(wallet.sent.map((t) => t.to)).toEqual([chain.tokens.usdt, chain.escrow]);
    await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    await page.close();
  });

  it('skips the approval when the allowance already covers the total: one transaction only', async () => {
    const user = newUser();
    const account = await seller();
    await chain.walletClient(account).writeContract({
      address: chain.tokens.usdt,
      abi: erc20Abi,
      functionName: 'approve',
      args: [chain.escrow, maxUint256],
    });
    const url = await startSale(h, user, `500 KES USDT polygon ${account.address} 0712345678`);
    const { page, wallet } = await pageWithWallet(browser.context, { chain, account });
    await page.goto(url);
    await connect(page);
    await waitForStatus(page, /WD-/);

    expect(wallet.seen).not.toContain('wallet_switchEthereumChain');
    expect(wallet.sent).toHaveLength(1);
    expect(wallet.sent[0]!.to).toBe(chain.escrow);
    const filed = await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect(h.sandbox.order(String(filed.args!.orderId))).toMatchObject({
      phone: '254712345678',
      hash: wallet.sent[0]!.hash,
    });
    await receiptPosted(user);
    await page.close();
  });

  it('refuses clearly when the injected account is not the bound wallet, sending nothing', async () => {
    const user = newUser();
    const bound = chain.devAccount.address;
    const other = await seller();
    const url = await startSale(h, user, `500 KES USDT polygon ${bound} 0712345678`);
    const { page, wallet } = await pageWithWallet(browser.context, { chain, account: other });
    await page.goto(url);
    expect(await page.locator('body').textContent()).toContain(
      i18n.t('en', { id: 'sell-page-bound-wallet', args: { wallet: bound } }),
    );
    await connect(page);
    const status = await waitForStatus(page, new RegExp(bound));
    expect(status).toBe(i18n.t('en', { id: 'sell-page-wrong-wallet', args: { wallet: bound } }));
    expect(await page.locator('#status').getAttribute('class')).toBe('err');
    expect(wallet.seen).not.toContain('eth_sendTransaction');
    expect(wallet.seen).not.toContain('eth_signTypedData_v4');
    expect(wallet.sent).toEqual([]);
    // Nothing happened to the sale: the link still works for the right wallet.
    expect((await page.goto(url))?.status()).toBe(200);
    expect(lastText(h, user, 'sell-filed')).toBeUndefined();
    await page.close();
  });

  for (const locale of ['en', 'sw'] as const) {
    it(`without a wallet (and no WalletConnect id) names the wallets that work and the chat fallback (${locale})`, async () => {
      const user = newUser();
      if (locale === 'sw') await h.say(user, { kind: 'command', command: 'language', args: 'sw' });
      const url = await startSale(h, user, '500 KES USDT polygon 0712345678');
      const page = await browser.context.newPage();
      const res = await page.goto(url);
      expect(res?.status()).toBe(200);
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      const expected = i18n.t(locale, { id: 'sell-page-no-wallet' });
      await waitForStatus(page, new RegExp(expected.slice(0, 20)));
      expect(await statusOf(page)).toBe(expected);
      expect(expected).toMatch(/MetaMask/);
      expect(await page.locator('#wallets button').count()).toBe(0);
      expect(await page.locator('h1').textContent()).toBe(i18n.t(locale, { id: 'sell-page-title' }));
      await page.close();
    });
  }

  it('answers 404 with a clear page for a link that never existed', async () => {
    const url = await startSale(h, newUser(), '500 KES USDT polygon 0712345678');
    const page = await browser.context.newPage();
    const res = await page.goto(url.replace(/[^/]+$/, 'A'.repeat(32)));
    expect(res?.status()).toBe(404);
    expect(await page.locator('body').textContent()).toContain(i18n.t('en', { id: 'sell-page-unknown' }));
    await page.close();
  });
});

describe.skipIf(!hasChromium)('a deposit waiting for confirmations in Chromium', () => {
  let h: SellHarness;

  beforeAll(async () => {
    h = await startSellHarness({ devChain: chain, confirmations: 3 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('never offers a second deposit, also after a reload, and files once the depth is reached', async () => {
    const user = newUser();
    const account = chain.devAccount;
    const url = await startSale(h, user, `500 KES USDT polygon ${account.address} 0712345678`);
    const { page, wallet } = await pageWithWallet(browser.context, { chain, account });
    await page.goto(url);
    await connect(page);
    await waitFor('the deposit', () => wallet.sent.length === 2);
    const hash = wallet.sent[1]!.hash;
    const status = await waitForStatus(page, new RegExp(hash));
    expect(status).toBe(i18n.t('en', { id: 'sell-page-checking', args: { hash } }));
    expect(await page.locator('#wallets button').count()).toBe(0);
    // A wallet that announces itself only now (a slow extension, or the page's own late look for
    // window.ethereum) is not offered either.
    await page.evaluate(() => {
      const provider = { request: async () => [] };
      const detail = { info: { name: 'Late wallet', uuid: 'late-wallet' }, provider };
      window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
    });
    await page.waitForTimeout(500);
    expect(await page.locator('#wallets button').count()).toBe(0);

    // The seller reloads the page and taps the wallet again: nothing more is sent.
    expect((await page.reload())?.status()).toBe(200);
    await connect(page);
    const again = await waitForStatus(page, new RegExp(hash));
    expect(again).toBe(i18n.t('en', { id: 'sell-page-already-sent', args: { hash } }));
    expect(wallet.sent).toHaveLength(2);

    await chain.mine(3);
    const filed = await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect(h.sandbox.order(String(filed.args!.orderId))).toMatchObject({ hash });
    await page.close();
  });
});

const LINK_TTL_MS = 4_000;

describe.skipIf(!hasChromium)('an expiring signing link in Chromium', () => {
  let h: SellHarness;

  beforeAll(async () => {
    // Long enough for a loaded machine's Chromium to open the page and ask for the calls while the
    // link lives (at 1 s, CI once got "link expired or used" before the approval was even asked).
    h = await startSellHarness({ devChain: chain, confirmations: 1, linkTtlMs: LINK_TTL_MS });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('shows the expired page (410) in the sale language once the link has expired', async () => {
    const user = newUser();
    await h.say(user, { kind: 'command', command: 'language', args: 'sw' });
    const url = await startSale(h, user, '500 KES USDT polygon 0712345678');
    const page = await browser.context.newPage();
    expect((await page.goto(url))?.status()).toBe(200);
    await waitFor('the link to expire', async () => (await fetch(url)).status === 410, 2 * LINK_TTL_MS);
    const res = await page.goto(url);
    expect(res?.status()).toBe(410);
    expect(await page.getAttribute('html', 'lang')).toBe('sw');
    expect(await page.locator('body').textContent()).toContain(i18n.t('sw', { id: 'sell-page-expired' }));
    expect(await page.locator('#wallets').count()).toBe(0);
    await page.close();
  });

  it('still takes the report of a deposit sent just before the link expired', async () => {
    const user = newUser();
    const account = chain.devAccount;
    const url = await startSale(h, user, `500 KES USDT polygon ${account.address} 0712345678`);
    const { page, wallet } = await pageWithWallet(browser.context, {
      chain,
      account,
      // The seller confirms the deposit in the wallet only after the link has expired.
      beforeSend: async (tx) => {
        if (tx.to.toLowerCase() !== chain.escrow.toLowerCase()) return;
        await waitFor('the link to expire', async () => (await fetch(url)).status === 410, 2 * LINK_TTL_MS);
      },
    });
    await page.goto(url);
    await connect(page);
    await waitForStatus(page, /WD-/, 10_000 + LINK_TTL_MS);
    expect(wallet.sent.map((t) => t.to)).toEqual([chain.tokens.usdt, chain.escrow]);
    const filed = await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect(h.sandbox.order(String(filed.args!.orderId))).toMatchObject({ hash: wallet.sent[1]!.hash });
    await page.close();
  });

  it('shows the hash to paste in the chat when reporting it from the page fails', async () => {
    const user = newUser();
    const account = chain.devAccount;
    const url = await startSale(h, user, `500 KES USDT polygon ${account.address} 0712345678`);
    const { page, wallet } = await pageWithWallet(browser.context, { chain, account });
    await page.route('**/hash', (route) => route.abort('connectionreset'));
    await page.goto(url);
    await connect(page);
    await waitFor('the deposit', () => wallet.sent.length === 2);
    const hash = wallet.sent[1]!.hash;
    const status = await waitForStatus(page, new RegExp(hash));
    expect(status).toBe(i18n.t('en', { id: 'sell-page-report-failed', args: { hash } }));
    await page.close();
  });
});
