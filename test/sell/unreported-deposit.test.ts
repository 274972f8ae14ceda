/**
 * A deposit nobody reported (the page closed before it could post the hash, a link holder never
 * did, the user cancelled after signing) is found in the escrow by the sale's total and tag, verified
 * and filed: never stranded, never told "expired". A deposit of the same total tagged for another
 * sale is left to that sale. Real Redis, the in-process dev chain, the sandbox over HTTP.
 */
import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevAccount, type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import type { UserRef } from '../../src/chat/types.js';
import { findButton, lastText, newUser, type SellHarness, startSellHarness, waitFor } from './helpers.js';

let chain: DevChain;
let h: SellHarness;
let accountSeq = 3;

beforeAll(async () => {
  chain = await startDevChain({ accountCount: 12 });
  h = await startSellHarness({
    devChain: chain,
    confirmations: 2,
    linkTtlMs: 8_000,
    // The dev chain runs some seconds ahead of the clock; the grace absorbs it as it would a slow block.
    graceMs: 30_000,
    searchIntervalMs: 1_000,
  });
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
});

async function seller(): Promise<DevAccount> {
  const account = chain.accounts[accountSeq++]!;
  await chain.mintTokens(chain.tokens.usdt, account.address, 1_000_000_000n);
  return account;
}

async function confirmSale(user: UserRef, args: string): Promise<string> {
  await h.say(user, { kind: 'command', command: 'sell', args });
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
  return String(lastText(h, user, 'sell-evm-sign')!.args!.url);
}

type Call = { to: Address; data: Hex };
async function calls(url: string, from: Address) {
  const res = await fetch(`${url}/tx?from=${from}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { approve: Call; withdraw: Call };
}

/** Signs the served calls in the seller's wallet and reports nothing. */
async function signSilently(account: DevAccount, served: { approve: Call; withdraw: Call }): Promise<Hex> {
  const wallet = chain.walletClient(account);
  await wallet.sendTransaction({ ...served.approve, value: 0n });
  const hash = await wallet.sendTransaction({ ...served.withdraw, value: 0n });
  await chain.publicClient.waitForTransactionReceipt({ hash });
  // One more block for the second confirmation, stamped with the clock (hardhat_mine would run the
  // chain's time ahead of the sale's window).
  await chain.mintTokens(chain.tokens.usdt, account.address, 1n);
  return hash;
}

const filedOrders = (hash: string) =>
  h.sandbox.offrampOrders().filter((o) => o.hash.toLowerCase() === hash.toLowerCase());

describe('a deposit whose hash nobody reported', () => {
  it('is found in the escrow and filed while the link is open; the seller is paid, not told "expired"', async () => {
    const user = newUser();
    const account = await seller();
    const url = await confirmSale(user, `800 KES USDT polygon ${account.address} 0712345678`);
    const hash = await signSilently(account, await calls(url, account.address));
    const filed = await waitFor(
      'the sale filed from the escrow search',
      () => lastText(h, user, 'sell-filed'),
      15_000,
    );
    expect(filedOrders(hash)).toHaveLength(1);
    expect(filedOrders(hash)[0]).toMatchObject({ phone: '254712345678' });
    expect(filed.args?.orderId).toBe(filedOrders(hash)[0]!.id);
    await new Promise((r) => setTimeout(r, 12_000));
    expect(h.texts(user).map((t) => t.id)).not.toContain('sell-expired');
    expect(filedOrders(hash)).toHaveLength(1);
  }, 40_000);

  it('made after a cancel (the page had the calls) is found and filed, said to have come after the cancel', async () => {
    const user = newUser();
    const account = await seller();
    const url = await confirmSale(user, `810 KES USDT polygon ${account.address} 0712345678`);
    const served = await calls(url, account.address);
    await h.say(user, { kind: 'command', command: 'cancel', args: '' });
    expect(lastText(h, user, 'sell-cancelled')).toBeDefined();
    const hash = await signSilently(account, served);
    await waitFor('the late payment filed', () => lastText(h, user, 'sell-filed-after-cancel'), 20_000);
    expect(filedOrders(hash)).toHaveLength(1);
  }, 40_000);

  it('is found although junk posted to the link waits as pending hashes (junk does not hide a deposit)', async () => {
    const user = newUser();
    const account = await seller();
    const url = await confirmSale(user, `830 KES USDT polygon ${account.address} 0712345678`);
    const served = await calls(url, account.address);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${url}/hash`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ hash: `0x${String(i).repeat(64)}` }),
      });
      expect(res.status).toBeLessThan(500);
    }
    const intent = await h.sell.service.intentByLink(url.split('/').at(-1)!);
    expect(intent?.pending.length).toBeGreaterThan(0);
    const hash = await signSilently(account, served);
    await waitFor('the sale filed from the escrow search', () => lastText(h, user, 'sell-filed'), 10_000);
    expect(filedOrders(hash)).toHaveLength(1);
  }, 40_000);

  it('of the same total but tagged for another sale is filed for that sale only', async () => {
    const a = newUser();
    const b = newUser();
    const account = await seller();
    const urlA = await confirmSale(a, `820 KES USDT polygon ${account.address} 0712345678`);
    await confirmSale(b, `820 KES USDT polygon ${account.address} 0722345678`);
    // The seller signs sale A's calls; sale B (same total) must not take that deposit.
    const hash = await signSilently(account, await calls(urlA, account.address));
    await waitFor('sale A filed', () => lastText(h, a, 'sell-filed'), 15_000);
    await waitFor('sale B told its link expired', () => lastText(h, b, 'sell-expired'), 25_000);
    expect(filedOrders(hash)).toHaveLength(1);
    expect(filedOrders(hash)[0]).toMatchObject({ phone: '254712345678' });
    expect(lastText(h, b, 'sell-filed')).toBeUndefined();
  }, 40_000);

  it('junk posted to the page does not hold back the expiry: the seller is told the link expired', async () => {
    const user = newUser();
    const url = await confirmSale(user, '770 KES USDT polygon 0712345678');
    for (const hash of [`0x${'cd'.repeat(32)}`, `0x${'ef'.repeat(32)}`]) {
      const res = await fetch(`${url}/hash`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ hash }),
      });
      expect(res.status).toBe(200);
    }
    await waitFor('the expiry notice', () => lastText(h, user, 'sell-expired'), 20_000);
  }, 30_000);
});
