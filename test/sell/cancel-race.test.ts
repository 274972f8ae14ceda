/**
 * Cancel against a payment being filed: the user is never told "cancelled" and then paid without a
 * word. A cancel that comes after a verified payment began filing is answered "too late"; one that
 * came first is followed by a plain "your payment arrived after the cancel" with the order.
 */
import algosdk from 'algosdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SERVICE_WALLET, USDC_ASSET_ID } from '../../src/chains/algorand/index.js';
import type { UserRef } from '../../src/flows/types.js';
import type { SellIntent } from '../../src/sell/index.js';
import { type FakeAlgorand, startFakeAlgorand } from '../fakes/algorand.js';
import { findButton, lastText, newUser, type SellHarness, startSellHarness, waitFor } from './helpers.js';

let fake: FakeAlgorand;
let h: SellHarness;

beforeAll(async () => {
  fake = await startFakeAlgorand({ round: 1000 });
  h = await startSellHarness({
    // The sandbox takes this long to accept a filed hash: the filing stays in progress meanwhile.
    verifyDelayMs: 600,
    algorand: {
      algodUrl: fake.algodUrl,
      algodToken: '',
      indexerUrl: fake.indexerUrl,
      indexerToken: '',
      serviceWallet: DEFAULT_SERVICE_WALLET,
      usdcAssetId: USDC_ASSET_ID,
      minFeeBalanceMicroAlgo: 1000n,
      confirmations: 1,
    },
  });
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
});

function readyWallet(): string {
  const address = algosdk.generateAccount().addr.toString();
  fake.addAccount({
    address,
    microAlgos: 5_000_000n,
    assets: [{ assetId: USDC_ASSET_ID, amount: 1_000_000_000n }],
  });
  return address;
}

async function startSale(user: UserRef, args: string): Promise<SellIntent> {
  await h.say(user, { kind: 'command', command: 'sell', args });
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
  const token = String(lastText(h, user, 'sell-algorand-qr')!.args!.url)
    .split('/')
    .at(-2)!;
  return (await h.sell.service.intentByLink(token))!;
}

function pay(intent: SellIntent, sender: string): string {
  const round = fake.round() + 1n;
  fake.setRound(round);
  return fake.addAssetTransfer({
    sender,
    receiver: DEFAULT_SERVICE_WALLET,
    assetId: USDC_ASSET_ID,
    amount: BigInt(intent.totalUnits),
    note: intent.algorand!.note,
    round,
  });
}

const ids = (user: UserRef) => h.texts(user).map((t) => t.id);

describe('cancelling a sale whose payment is being filed', () => {
  it('answers "too late" (never "cancelled") and the payment is filed', async () => {
    const user = newUser();
    const sender = readyWallet();
    const intent = await startSale(user, `950 KES USDC algorand ${sender} 0712345678`);
    const txId = pay(intent, sender);
    const reported = h.sell.service.reportHash(intent.id, txId, { push: true, source: 'test' });
    await waitFor('the filing to start', async () =>
      (await h.sell.service.intentOf(intent.id))?.status === 'filing' ? true : undefined,
    );

    await h.say(user, { kind: 'command', command: 'cancel', args: '' });
    expect(lastText(h, user, 'sell-cancel-paid')).toBeDefined();
    expect(await reported).toMatchObject({ status: 'filed', hash: txId });
    await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect(ids(user)).not.toContain('sell-cancelled');
    expect(await h.sell.service.intentOf(intent.id)).toMatchObject({ status: 'filed', hash: txId });
  });

  it('after a cancel that came first, says plainly that the payment arrived after it and is paid out', async () => {
    const user = newUser();
    const sender = readyWallet();
    const intent = await startSale(user, `960 KES USDC algorand ${sender} 0712345678`);
    await h.say(user, { kind: 'command', command: 'cancel', args: '' });
    expect(lastText(h, user, 'sell-cancelled')).toBeDefined();

    const txId = pay(intent, sender);
    const outcome = await h.sell.service.reportHash(intent.id, txId, { push: true, source: 'test' });
    expect(outcome).toMatchObject({ status: 'filed', hash: txId, afterCancel: true });
    const late = await waitFor('the late payment message', () =>
      lastText(h, user, 'sell-filed-after-cancel'),
    );
    expect(late.args?.orderId).toBe((await h.sell.service.intentOf(intent.id))!.orderId);
    expect(ids(user).indexOf('sell-cancelled')).toBeLessThan(ids(user).indexOf('sell-filed-after-cancel'));
    expect(ids(user)).not.toContain('sell-filed');
  });
});
