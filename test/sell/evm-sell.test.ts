/**
 * Selling on an EVM chain end to end: the sell flow through the engine, the intent and its signing
 * link, the seller's wallet signing the served calldata on the in-process hardhat chain, the hash
 * reported by the page (HTTP) or pasted in chat, verification, the hash claim, the order filed in
 * the sandbox with the phone bound at Confirm, and the tracker's receipt in the chat.
 */
import { decodeFunctionData, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DevAccount,
  type DevChain,
  escrowAbi,
  splitSellTag,
  startDevChain,
} from '../../src/chains/evm/index.js';
import type { UserRef } from '../../src/chat/types.js';
import { findButton, lastText, newUser, type SellHarness, startSellHarness, waitFor } from './helpers.js';
import { type LinkRig, linkRig } from './link-rig.js';

let chain: DevChain;
let h: SellHarness;
let rig: LinkRig;

beforeAll(async () => {
  chain = await startDevChain({ accountCount: 20 });
  h = await startSellHarness({ devChain: chain, confirmations: 2 });
  rig = linkRig(h, chain);
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
});

const seller = () => rig.seller();
const confirmSale = (user: UserRef, args: string) => rig.confirmSale(user, args);
const served = (url: string, from: Hex) => rig.served(url, from);
const sign = (url: string, account: DevAccount, extra?: number) => rig.sign(url, account, extra);
const report = (url: string, hash: string) => rig.report(url, hash);

describe('EVM sell through the signing page', () => {
  it('files the order with the phone bound at Confirm and posts the M-Pesa receipt', async () => {
    const user = newUser();
    const account = await seller();
    const url = await confirmSale(user, '1000 KES USDT polygon 0712345678');
    // A later profile change cannot reach the intent: the phone was bound at Confirm.
    await h.say(user, { kind: 'contact', phone: '0722000111' });

    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('eip6963:requestProvider');

    const hash = await sign(url, account);
    const { body } = await report(url, hash);
    expect(body.status).toBe('filed');
    const orderId = String(body.orderId);
    expect(h.sandbox.order(orderId)).toMatchObject({ phone: '254712345678', hash });

    await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    await waitFor('the payout receipt', () =>
      h.texts(user).find((t) => t.id === 'tracker-offramp-done' || t.id === 'tracker-offramp-done-noname'),
    );
    // Single use: the link is dead once its hash is accepted.
    expect((await fetch(url)).status).toBe(410);
    expect((await report(url, hash)).status).toBe(410);
  });

  it('one fee, the ramp’s: the seller sends what the ramp quoted for KES 1,000, the escrow call carries it and its fee, the order pays KES 1,000', async () => {
    const user = newUser();
    const account = await seller();
    const quote = await h.ramp.getQuote({
      type: 'offramp',
      network: 'polygon',
      token: 'USDT',
      fiatCurrency: 'KES',
      fiatAmount: '1000',
    });
    expect(quote).toMatchObject({ inputAmount: '7.768340', estimatedOutputKes: 1000, fee: { kes: 6 } });
    const url = await confirmSale(user, '1000 KES USDT polygon 0712345678');
    expect(lastText(h, user, 'quote-pay-token')?.args).toEqual({ amount: '7.76834 USDT' });
    expect(lastText(h, user, 'quote-fee')?.args).toMatchObject({ feeKes: 'KES 6.00' });
    expect(lastText(h, user, 'quote-receive-kes')?.args).toEqual({ amount: 'KES 1,000.00' });
    expect(lastText(h, user, 'sell-evm-sign')?.args).toMatchObject({ total: '7.76834' });
    const { body } = await served(url, account.address);
    expect(body.total).toBe('7768340');
    const { args } = decodeFunctionData({ abi: escrowAbi, data: splitSellTag(body.withdraw.data).callData });
    // withdrawToEscrow(_tokenAddress, _amount: the total including the fee, _feeAmount: the quote's fee).
    expect(args).toEqual([chain.tokens.usdt, 7_768_340n, 46_332n]);
    const filed = await report(url, await sign(url, account));
    expect(filed.body.status).toBe('filed');
    const order = h.sandbox.order(String(filed.body.orderId)) as { grossKes: number; feeKes: number };
    expect(order.feeKes).toBe(6);
    expect(Math.round((order.grossKes - order.feeKes) * 100) / 100).toBe(1000);
    const page = await h.tracker.ordersOf(user, 1, 10);
    expect(page.orders.find((o) => o.orderId === filed.body.orderId)).toMatchObject({
      tokenAmount: '7.76834',
      // The escrow's fee, kept with the order for the monthly statement.
      feeToken: '0.046332',
      amountKes: 1000,
    });
    // The fee the escrow call named is kept with the order: the sale's receipt shows it as charged.
    expect((await h.tracker.recordOf(String(filed.body.orderId)))?.order.fee).toBe('0.046332');
  });

  it("the seller's history shows the tokens they sent, fee included", async () => {
    const user = newUser();
    const account = await seller();
    const url = await confirmSale(user, '1000 KES USDT polygon 0712345678');
    const intent = (await h.sell.service.intentByLink(url.split('/').at(-1)!))!;
    const filed = await report(url, await sign(url, account));
    expect(filed.body.status).toBe('filed');
    const page = await h.tracker.ordersOf(user, 1, 10);
    expect(page.orders.find((o) => o.orderId === filed.body.orderId)).toMatchObject({
      side: 'offramp',
      tokenAmount: intent.total,
    });
  });

  it('a double Confirm creates one intent and one link', async () => {
    const user = newUser();
    await h.say(user, { kind: 'command', command: 'sell', args: '500 KES USDT polygon 0712345678' });
    const confirm = findButton(h, user, 'sell-button-confirm');
    await Promise.all([
      h.say(user, { kind: 'button', id: confirm }),
      h.say(user, { kind: 'button', id: confirm }),
    ]);
    const links = h.texts(user).filter((t) => t.id === 'sell-evm-sign');
    expect(links).toHaveLength(1);
    expect(h.texts(user).some((t) => t.id === 'sell-already-confirmed')).toBe(true);
  });

  it('the intent store hands out one intent per key, even to concurrent callers in two flows', async () => {
    const user = newUser();
    const request = {
      network: 'polygon' as const,
      token: { symbol: 'USDT', address: chain.tokens.usdt, decimals: 6 },
      total: '5',
      fee: '0.046332',
      amountKes: 641,
      exchangeRate: 129.5,
      phone: '254712345678',
    };
    const links = await Promise.all(
      [1, 2, 3].map((n) =>
        h.sell.service.createIntent(user, 'en', `sell:same-key-${user.id}`, {
          ...request,
          phone: `25471234567${n}`,
        }),
      ),
    );
    expect(new Set(links.map((l) => l.intentId)).size).toBe(1);
    expect(new Set(links.map((l) => l.signUrl)).size).toBe(1);
  });

  it('waits for confirmations, then files once the watcher sees enough blocks', async () => {
    const user = newUser();
    const account = await seller();
    const url = await confirmSale(user, '700 KES USDT polygon 0712345678');
    const hash = await sign(url, account, 0);
    const { body } = await report(url, hash);
    expect(body).toMatchObject({ status: 'checking', hash });
    expect(lastText(h, user, 'sell-filed')).toBeUndefined();
    await chain.mine(2);
    await waitFor('the watcher to file', () => lastText(h, user, 'sell-filed'));
  });

  it('maps a duplicate answer to the existing order and tracks it', async () => {
    const user = newUser();
    const account = await seller();
    const url = await confirmSale(user, '1200 KES USDT polygon 0712345678');
    const hash = await sign(url, account);
    // Someone files the hash first, straight at the ramp.
    const early = await h.ramp.createOfframpOrder({
      chain: 'polygon',
      hash,
      phone: '254712345678',
      tokenAddress: chain.tokens.usdt,
      userAddress: account.address,
      project: 'someone-else',
    });
    const { body } = await report(url, hash);
    expect(body).toMatchObject({ status: 'filed', orderId: early.orderId, existing: true });
    await waitFor('the existing-order message', () => lastText(h, user, 'sell-filed-existing'));
    await waitFor('the payout receipt', () =>
      h.texts(user).find((t) => t.id === 'tracker-offramp-done' || t.id === 'tracker-offramp-done-noname'),
    );
  });

  it('the dev wallet button signs on the local chain and files the order', async () => {
    const user = newUser();
    await confirmSale(user, '1000 KES USDT polygon 0712345678');
    await chain.mintTokens(chain.tokens.usdt, chain.devAccount.address, 10_000_000_000n);
    const devsign = findButton(h, user, 'sell-button-devsign');
    const mining = setInterval(() => void chain.mine(1).catch(() => {}), 150);
    try {
      await h.say(user, { kind: 'button', id: devsign });
      await waitFor('the dev-signed sale to file', () => lastText(h, user, 'sell-filed'));
    } finally {
      clearInterval(mining);
    }
  });
});

describe('a deposit made after the sale was cancelled is never stranded', () => {
  /** Fetches the calls while the link is alive (as the open page did), cancels, then signs them. */
  async function depositAfterCancel(user: UserRef, account: DevAccount, url: string): Promise<Hex> {
    const { body } = await served(url, account.address);
    await h.say(user, { kind: 'command', command: 'cancel', args: '' });
    expect(lastText(h, user, 'sell-cancelled')).toBeDefined();
    expect((await fetch(url)).status).toBe(410);
    const wallet = chain.walletClient(account);
    await wallet.sendTransaction({ to: body.approve.to, data: body.approve.data, value: 0n });
    const hash = await wallet.sendTransaction({ to: body.withdraw.to, data: body.withdraw.data, value: 0n });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    await chain.mine(2);
    return hash;
  }

  it('the open page reports it and it is filed, saying it came after the cancel', async () => {
    const user = newUser();
    const account = await seller();
    const url = await confirmSale(user, `700 KES USDT polygon ${account.address} 0712345678`);
    const hash = await depositAfterCancel(user, account, url);

    const reported = await report(url, hash);
    expect(reported.status).toBe(200);
    expect(reported.body.status).toBe('filed');
    const late = await waitFor('the late payment message', () =>
      lastText(h, user, 'sell-filed-after-cancel'),
    );
    expect(h.sandbox.order(String(late.args!.orderId))).toMatchObject({ phone: '254712345678' });
  });

  it('the hash pasted in chat after the cancel is checked against that sale and filed', async () => {
    const user = newUser();
    const account = await seller();
    const url = await confirmSale(user, `710 KES USDT polygon ${account.address} 0712345678`);
    const hash = await depositAfterCancel(user, account, url);

    await h.say(user, { kind: 'text', text: hash });
    expect(lastText(h, user, 'sell-hash-received')).toBeDefined();
    const late = await waitFor('the late payment message', () =>
      lastText(h, user, 'sell-filed-after-cancel'),
    );
    expect(late.args?.orderId).toBeTruthy();
    expect(h.texts(user).map((t) => t.id)).not.toContain('core-not-understood');
  });

  it('a hash pasted with no sale to check it against is answered, not misread', async () => {
    const user = newUser();
    await h.say(user, { kind: 'text', text: `0x${'ab'.repeat(32)}` });
    expect(lastText(h, user, 'sell-hash-no-sale')).toBeDefined();
  });
});

describe('a pasted hash the chain does not know', () => {
  it('is answered "not found on <network>", not "on its way", and still looked for', async () => {
    const user = newUser();
    await confirmSale(user, '720 KES USDT polygon 0712345678');
    const hash = `0x${'cd'.repeat(32)}`;
    await h.say(user, { kind: 'text', text: hash });
    const unseen = await waitFor('the answer', () => lastText(h, user, 'sell-checking-unseen'));
    expect(unseen.args).toMatchObject({ hash, network: expect.stringContaining('Polygon') });
    expect(h.texts(user).map((t) => t.id)).not.toContain('sell-checking');
  });
});
