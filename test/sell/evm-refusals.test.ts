/**
 * EVM deposits the sale refuses, reported by the page or pasted in chat: another wallet than the
 * bound one, a wrong amount, no tag or another order's, a hash another sale claimed, a second
 * payment. Nothing is filed for them; support gets what moved tokens; the sale goes on.
 */
import { type Address, encodeFunctionData, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { buildApproveCall, buildWithdrawCall, escrowAbi } from '../../src/chains/evm/index.js';
import { lastText, newUser, waitFor } from './helpers.js';
import { sellRig } from './link-rig.js';

const s = sellRig({ confirmations: 2 }, { accountCount: 20 });

const approve = (spender: Address, amount: bigint) =>
  buildApproveCall({ token: s.chain.tokens.usdt, spender, amount });

describe('EVM deposits a sale refuses', () => {
  it('refuses a hash sent by another wallet than the bound one, and files nothing', async () => {
    const user = newUser();
    const bound = await s.rig.seller();
    const thief = await s.rig.seller();
    const url = await s.rig.confirmSale(user, `600 KES USDT polygon ${bound.address} 0712345678`);
    expect((await s.rig.served(url, thief.address)).status).toBe(409);
    // The other wallet signs the right calldata anyway and the user pastes its hash.
    const { body } = await s.rig.served(url, bound.address);
    const wallet = s.chain.walletClient(thief);
    await wallet.sendTransaction({ to: body.approve.to, data: body.approve.data, value: 0n });
    const hash = await wallet.sendTransaction({ to: body.withdraw.to, data: body.withdraw.data, value: 0n });
    await s.chain.mine(1);
    await s.h.say(user, { kind: 'text', text: hash });
    expect(lastText(s.h, user, 'sell-refused-wrong-sender')).toBeDefined();
    expect(s.h.escalations.some((e) => e.hash === hash)).toBe(false);
    // The sale is still open: the bound wallet can still sign and file.
    const good = await s.rig.sign(url, bound);
    expect((await s.rig.report(url, good)).body.status).toBe('filed');
  });

  it('refuses a wrong amount that reached the escrow and hands it to support; the sale stays open', async () => {
    const user = newUser();
    const account = await s.rig.seller();
    const url = await s.rig.confirmSale(user, '800 KES USDT polygon 0712345678');
    const intent = (await s.h.sell.service.intentByLink(url.split('/').at(-1)!))!;
    const wallet = s.chain.walletClient(account);
    const total = BigInt(intent.totalUnits) - 1n;
    await wallet.sendTransaction(approve(intent.evm!.escrow as Address, total));
    const call = buildWithdrawCall({
      escrow: intent.evm!.escrow as Address,
      variant: 'current',
      token: s.chain.tokens.usdt,
      total,
      fee: BigInt(intent.feeUnits),
      tag: intent.evm!.tag as Hex,
    });
    const hash = await wallet.sendTransaction({ to: call.to, data: call.data, value: 0n });
    await s.chain.mine(1);
    const { body } = await s.rig.report(url, hash);
    expect(body).toMatchObject({ status: 'refused', reason: 'wrong_amount', escalated: true });
    expect(s.h.escalations.find((e) => e.hash === hash)).toMatchObject({ reason: 'sell_refused' });
    // A deposit that does not match the sale is the page's and support's: the sale goes on, and
    // the seller's chat hears only about its own deposit.
    expect((await s.h.sell.service.intentOf(intent.id))?.status).toBe('open');
    expect(lastText(s.h, user, 'sell-refused-wrong-amount')).toBeUndefined();
  });

  it("refuses a deposit without this order's tag and one tagged for another order", async () => {
    const user = newUser();
    const other = newUser();
    const account = await s.rig.seller();
    const url = await s.rig.confirmSale(user, '900 KES USDT polygon 0712345678');
    const otherUrl = await s.rig.confirmSale(other, '900 KES USDT polygon 0733000111');
    const intent = (await s.h.sell.service.intentByLink(url.split('/').at(-1)!))!;
    const wallet = s.chain.walletClient(account);
    await wallet.sendTransaction(approve(intent.evm!.escrow as Address, BigInt(intent.totalUnits) * 3n));
    const untagged = encodeFunctionData({
      abi: escrowAbi,
      functionName: 'withdrawToEscrow',
      args: [s.chain.tokens.usdt, BigInt(intent.totalUnits), BigInt(intent.feeUnits)],
    });
    const missing = await wallet.sendTransaction({
      to: intent.evm!.escrow as Address,
      data: untagged,
      value: 0n,
    });
    await s.chain.mine(1);
    expect((await s.rig.report(url, missing)).body).toMatchObject({
      status: 'refused',
      reason: 'not_this_order',
    });

    // The other order's calldata, signed by this seller: its tag is not this order's.
    const foreign = await s.rig.sign(otherUrl, account);
    expect((await s.rig.report(url, foreign)).body).toMatchObject({
      status: 'refused',
      reason: 'not_this_order',
    });
    // Answered on the page only.
    expect(lastText(s.h, user, 'sell-refused-not-this-order')).toBeUndefined();
  });

  it('refuses a hash already claimed by another sale, and files nothing twice', async () => {
    const first = newUser();
    const second = newUser();
    const account = await s.rig.seller();
    const url = await s.rig.confirmSale(first, '1000 KES USDT polygon 0712345678');
    const secondUrl = await s.rig.confirmSale(second, '1000 KES USDT polygon 0799000111');
    const hash = await s.rig.sign(url, account);
    const filed = await s.rig.report(url, hash);
    expect(filed.body.status).toBe('filed');
    await s.h.say(second, { kind: 'text', text: hash });
    expect(lastText(s.h, second, 'sell-refused-reused')).toBeDefined();
    expect((await s.rig.report(secondUrl, hash)).body).toMatchObject({ status: 'refused', reason: 'reused' });
  });

  it('a second payment to a sale already filed goes to support and leaves the filed sale as it was', async () => {
    const user = newUser();
    const account = await s.rig.seller();
    const url = await s.rig.confirmSale(user, '1000 KES USDT polygon 0712345678');
    const token = url.split('/').at(-1)!;
    const { body: calls } = await s.rig.served(url, account.address);
    const first = await s.rig.sign(url, account);
    const filed = await s.rig.report(url, first);
    expect(filed.body.status).toBe('filed');
    // The wallet sends the same deposit again (a second tap in the wallet), then the user pastes it.
    const wallet = s.chain.walletClient(account);
    await wallet.sendTransaction({ to: calls.approve.to, data: calls.approve.data, value: 0n });
    const second = await wallet.sendTransaction({
      to: calls.withdraw.to,
      data: calls.withdraw.data,
      value: 0n,
    });
    await s.chain.publicClient.waitForTransactionReceipt({ hash: second });
    await s.chain.mine(2);
    await s.h.say(user, { kind: 'text', text: second });
    await waitFor('the refusal', () => lastText(s.h, user, 'sell-refused-intent-used'));
    expect(s.h.escalations.some((e) => JSON.stringify(e).includes(second))).toBe(true);
    // The sale keeps its filed order and its first hash; the second is only listed as refused.
    const intent = (await s.h.sell.service.intentByLink(token))!;
    expect(intent).toMatchObject({ status: 'filed', hash: first, orderId: filed.body.orderId });
    expect(intent.refused).toContain(second);
  });
});
