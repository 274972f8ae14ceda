/**
 * The signing page's other escrow calls in Chromium (EVM_<NET>_ESCROW_CALL): `permit` (the wallet
 * signs EIP-2612 typed data, no approve; the escrow's withdrawWithPermit pulls the tokens) and
 * `legacy` (approve, then the 4-input withdrawToEscrow with the exchange rate). Each sale is verified
 * on the chain, filed with the bound phone and paid out.
 */
import { decodeFunctionData, erc20Abi, type Hex, slice, toFunctionSelector } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevChain, escrowAbi, splitSellTag, startDevChain } from '../../src/chains/evm/index.js';
import type { UserRef } from '../../src/chat/types.js';
import { lastText, newUser, type SellHarness, startSellHarness, waitFor } from '../sell/helpers.js';
import {
  type Browser,
  connect,
  hasChromium,
  launchBrowser,
  pageWithWallet,
  startSale,
  waitForStatus,
} from './helpers.js';

const selector = (signature: string) => toFunctionSelector(signature);
const LEGACY_DEPOSIT = selector('withdrawToEscrow(address,uint256,uint256,uint256)');
const PERMIT_DEPOSIT = selector(
  'withdrawWithPermit(address,uint256,uint256,uint256,uint256,uint8,bytes32,bytes32)',
);

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

async function filedAndPaid(h: SellHarness, user: UserRef, hash: Hex): Promise<string> {
  const filed = await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
  const orderId = String(filed.args!.orderId);
  expect(h.sandbox.order(orderId)).toMatchObject({ phone: '254712345678', hash });
  await waitFor('the payout receipt', () =>
    h.texts(user).find((t) => t.id === 'tracker-offramp-done' || t.id === 'tracker-offramp-done-noname'),
  );
  return orderId;
}

const allowance = (token: Hex, owner: Hex) =>
  chain.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, chain.escrow],
  });

describe.skipIf(!hasChromium)('the permit escrow call in Chromium', () => {
  let h: SellHarness;
  beforeAll(async () => {
    h = await startSellHarness({ devChain: chain, confirmations: 1, escrowCall: 'permit' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('signs an EIP-2612 permit, sends only withdrawWithPermit, and the sale is filed and paid', async () => {
    const user = newUser();
    const account = chain.accounts[3]!;
    await chain.mintTokens(chain.tokens.permitToken, account.address, 1_000_000_000n);
    const url = await startSale(h, user, `1000 KES USDC polygon ${account.address} 0712345678`);
    const { page, wallet } = await pageWithWallet(browser.context, { chain, account });
    await page.goto(url);
    await connect(page);
    await waitForStatus(page, /WD-/);

    expect(wallet.seen).toContain('eth_signTypedData_v4');
    // No approve: exactly one transaction, the tagged withdrawWithPermit into the escrow.
    expect(wallet.sent).toHaveLength(1);
    const [deposit] = wallet.sent as [(typeof wallet.sent)[0]];
    expect(deposit.to).toBe(chain.escrow);
    expect(slice(deposit.data, 0, 4)).toBe(PERMIT_DEPOSIT);
    const call = decodeFunctionData({ abi: escrowAbi, data: splitSellTag(deposit.data).callData });
    const total = call.args[1] as bigint;
    // What the wallet was asked to sign: a permit for exactly the total, to the escrow.
    expect(wallet.signed).toEqual([
      expect.objectContaining({
        primaryType: 'Permit',
        domain: expect.objectContaining({
          chainId: chain.chainId,
          verifyingContract: chain.tokens.permitToken,
        }),
        message: expect.objectContaining({
          owner: account.address,
          spender: chain.escrow,
          value: total.toString(),
        }),
      }),
    ]);
    // The permit was used up by the deposit.
    expect(await allowance(chain.tokens.permitToken, account.address)).toBe(0n);
    await filedAndPaid(h, user, deposit.hash);
    await page.close();
  });

  it('falls back to approve and the legacy deposit when the token has no permit', async () => {
    const user = newUser();
    const account = chain.accounts[4]!;
    await chain.mintTokens(chain.tokens.usdt, account.address, 1_000_000_000n);
    const url = await startSale(h, user, `1000 KES USDT polygon ${account.address} 0712345678`);
    const { page, wallet } = await pageWithWallet(browser.context, { chain, account });
    await page.goto(url);
    await connect(page);
    await waitForStatus(page, /WD-/);

    expect(wallet.signed).toEqual([]);
    expect(wallet.sent.map((t) => t.to)).toEqual([chain.tokens.usdt, chain.escrow]);
    expect(slice(wallet.sent[1]!.data, 0, 4)).toBe(LEGACY_DEPOSIT);
    await filedAndPaid(h, user, wallet.sent[1]!.hash);
    await page.close();
  });

  it('approves instead when the wallet cannot sign typed data', async () => {
    const user = newUser();
    const account = chain.accounts[6]!;
    await chain.mintTokens(chain.tokens.permitToken, account.address, 1_000_000_000n);
    const url = await startSale(h, user, `1000 KES USDC polygon ${account.address} 0712345678`);
    const { page, wallet } = await pageWithWallet(browser.context, {
      chain,
      account,
      unsupported: ['eth_signTypedData_v4'],
    });
    await page.goto(url);
    await connect(page);
    await waitForStatus(page, /WD-/);

    expect(wallet.seen).toContain('eth_signTypedData_v4');
    expect(wallet.sent.map((t) => t.to)).toEqual([chain.tokens.permitToken, chain.escrow]);
    expect(slice(wallet.sent[1]!.data, 0, 4)).toBe(LEGACY_DEPOSIT);
    await filedAndPaid(h, user, wallet.sent[1]!.hash);
    await page.close();
  });
});

describe.skipIf(!hasChromium)('the legacy escrow call in Chromium', () => {
  let h: SellHarness;
  beforeAll(async () => {
    h = await startSellHarness({ devChain: chain, confirmations: 1, escrowCall: 'legacy' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('approves, sends the 4-input withdrawToEscrow with the rate, and the sale is filed and paid', async () => {
    const user = newUser();
    const account = chain.accounts[5]!;
    await chain.mintTokens(chain.tokens.usdt, account.address, 1_000_000_000n);
    const url = await startSale(h, user, `1000 KES USDT polygon ${account.address} 0712345678`);
    const { page, wallet } = await pageWithWallet(browser.context, { chain, account });
    await page.goto(url);
    await connect(page);
    await waitForStatus(page, /WD-/);

    expect(wallet.sent.map((t) => t.to)).toEqual([chain.tokens.usdt, chain.escrow]);
    const deposit = wallet.sent[1]!;
    expect(slice(deposit.data, 0, 4)).toBe(LEGACY_DEPOSIT);
    const call = decodeFunctionData({ abi: escrowAbi, data: splitSellTag(deposit.data).callData });
    expect(call.args).toHaveLength(4);
    // The exchange rate (KES per token × 1e6) is set, unlike the current call's.
    expect(call.args[2] as bigint).toBeGreaterThan(0n);
    await filedAndPaid(h, user, deposit.hash);
    await page.close();
  });
});
