/**
 * Selling USDC on Algorand: the payment request (ARC-26, Pera link, QR), the watcher finding the
 * transfer by its note through real algosdk against the fake algod + indexer, a pasted transaction
 * id, and the refusals (nothing filed, support when the tokens reached the service wallet).
 */
import algosdk from 'algosdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SERVICE_WALLET, USDC_ASSET_ID } from '../../src/chains/algorand/index.js';
import type { UserRef } from '../../src/flows/types.js';
import { isRampError } from '../../src/ramp/errors.js';
import type { SellIntent } from '../../src/sell/index.js';
import { type FakeAlgorand, startFakeAlgorand } from '../fakes/algorand.js';
import { findButton, lastText, newUser, type SellHarness, startSellHarness, waitFor } from './helpers.js';

let fake: FakeAlgorand;
let h: SellHarness;

beforeAll(async () => {
  fake = await startFakeAlgorand({ round: 1000 });
  h = await startSellHarness({
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

const newWallet = () => algosdk.generateAccount().addr.toString();

/** A seller wallet that can pay: opted in to USDC, with ALGO for the fee. */
function readyWallet(): string {
  const address = newWallet();
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
  const qr = lastText(h, user, 'sell-algorand-qr');
  expect(qr, JSON.stringify(h.texts(user).map((t) => t.id))).toBeDefined();
  const token = String(qr!.args!.url).split('/').at(-2)!;
  return (await h.sell.service.intentByLink(token))!;
}

/** Adds a transfer in the next round (the chain head moves with it). */
function pay(
  intent: SellIntent,
  sender: string,
  over: Partial<Parameters<FakeAlgorand['addAssetTransfer']>[0]> = {},
) {
  const round = fake.round() + 1n;
  fake.setRound(round);
  return fake.addAssetTransfer({
    sender,
    receiver: DEFAULT_SERVICE_WALLET,
    assetId: USDC_ASSET_ID,
    amount: BigInt(intent.totalUnits),
    note: intent.algorand!.note,
    round,
    ...over,
  });
}

async function ordersOf(sender: string): Promise<number> {
  try {
    return (await h.ramp.getHistory('offramp', sender)).records.length;
  } catch (err) {
    if (isRampError(err) && err.kind === 'not_found') return 0;
    throw err;
  }
}

const settle = () => new Promise((r) => setTimeout(r, 700));

describe('Algorand sell', () => {
  it('asks for the exact total with the note, then finds the payment by its note and files it', async () => {
    const user = newUser();
    const sender = readyWallet();
    const intent = await startSale(user, `1000 KES USDC algorand ${sender} 0712345678`);
    const pera = h
      .messages(user)
      .at(-1)!
      .buttons!.flat()
      .find((b) => b.label.id === 'sell-button-pera');
    expect(pera?.url).toContain(
      `https://perawallet.app/qr/perawallet/${DEFAULT_SERVICE_WALLET}?amount=${intent.totalUnits}`,
    );
    expect(pera?.url).toContain(`asset=${USDC_ASSET_ID}`);
    const qr = await fetch(String(lastText(h, user, 'sell-algorand-qr')!.args!.url));
    expect(qr.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await qr.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');

    const txId = pay(intent, sender);
    await waitFor('the watcher to file', () => lastText(h, user, 'sell-filed'));
    const after = (await h.sell.service.intentOf(intent.id))!;
    expect(after).toMatchObject({ status: 'filed', hash: txId, sender });
    expect(h.sandbox.order(after.orderId!)).toMatchObject({
      phone: '254712345678',
      hash: txId,
      chain: 'algorand',
    });
    await waitFor('the payout receipt', () =>
      h.texts(user).find((t) => t.id === 'tracker-offramp-done' || t.id === 'tracker-offramp-done-noname'),
    );
  });

  it('accepts a pasted transaction id', async () => {
    const user = newUser();
    const sender = readyWallet();
    const intent = await startSale(user, '800 KES USDC algorand 0712345678');
    const txId = pay(intent, sender);
    await h.say(user, { kind: 'text', text: `https://allo.info/tx/${txId}` });
    await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect(await ordersOf(sender)).toBe(1);
  });

  it('refuses a wrong amount carrying this note, files nothing and hands it to support', async () => {
    const user = newUser();
    const sender = readyWallet();
    const intent = await startSale(user, '900 KES USDC algorand 0712345678');
    const txId = pay(intent, sender, { amount: BigInt(intent.totalUnits) - 1n });
    await waitFor('the refusal', () => lastText(h, user, 'sell-refused-wrong-amount'));
    expect(h.escalations.find((e) => e.hash === txId)).toMatchObject({ reason: 'sell_refused' });
    expect(await ordersOf(sender)).toBe(0);
  });

  it('refuses a close-out transfer as a wrong amount', async () => {
    const user = newUser();
    const sender = readyWallet();
    const intent = await startSale(user, '950 KES USDC algorand 0712345678');
    pay(intent, sender, { closeTo: newWallet() });
    await waitFor('the refusal', () => lastText(h, user, 'sell-refused-wrong-amount'));
    expect(await ordersOf(sender)).toBe(0);
  });

  it('refuses a pasted transfer with another note, and one from before the sale', async () => {
    const user = newUser();
    const sender = readyWallet();
    const intent = await startSale(user, '1100 KES USDC algorand 0712345678');
    const otherNote = pay(intent, sender, { note: 'rampchat:0000000000000000' });
    await h.say(user, { kind: 'text', text: otherNote });
    expect(lastText(h, user, 'sell-refused-not-this-order')).toBeDefined();

    const before = fake.addAssetTransfer({
      sender,
      receiver: DEFAULT_SERVICE_WALLET,
      assetId: USDC_ASSET_ID,
      amount: BigInt(intent.totalUnits),
      note: intent.algorand!.note,
      round: BigInt(intent.algorand!.minRound),
    });
    await h.say(user, { kind: 'text', text: before });
    expect(lastText(h, user, 'sell-refused-too-old')).toBeDefined();
    await settle();
    expect(await ordersOf(sender)).toBe(0);
    expect(h.escalations.some((e) => e.hash === otherNote || e.hash === before)).toBe(false);
  });

  it('refuses a transaction already used by another sale', async () => {
    const first = newUser();
    const second = newUser();
    const sender = readyWallet();
    const intent = await startSale(first, '1000 KES USDC algorand 0712345678');
    await startSale(second, '1000 KES USDC algorand 0799000111');
    const txId = pay(intent, sender);
    await waitFor('the first sale to file', () => lastText(h, first, 'sell-filed'));
    await h.say(second, { kind: 'text', text: txId });
    expect(lastText(h, second, 'sell-refused-reused')).toBeDefined();
    expect(await ordersOf(sender)).toBe(1);
  });

  it('tells a seller whose wallet has not opted in to USDC before the payment request', async () => {
    const user = newUser();
    const sender = newWallet();
    fake.addAccount({ address: sender, microAlgos: 5_000_000n });
    await startSale(user, `1000 KES USDC algorand ${sender} 0712345678`);
    const last = h
      .messages(user)
      .at(-1)!
      .texts.map((t) => t.id);
    expect(last.indexOf('sell-sender-not-opted-in')).toBeGreaterThanOrEqual(0);
    expect(last.indexOf('sell-sender-not-opted-in')).toBeLessThan(last.indexOf('sell-algorand-pay'));
  });
});

describe('Algorand sell cancelled while the payment is on its way', () => {
  it('still finds a payment that lands after Cancel, files it and tells the user, so no USDC is stranded', async () => {
    const user = newUser();
    const sender = readyWallet();
    const intent = await startSale(user, `900 KES USDC algorand ${sender} 0712345678`);
    await h.say(user, { kind: 'command', command: 'cancel', args: '' });
    await waitFor('the sale to be cancelled', async () =>
      (await h.sell.service.intentOf(intent.id))?.status === 'cancelled' ? true : undefined,
    );

    const txId = pay(intent, sender);
    await waitFor('the watcher to file the late payment', () => lastText(h, user, 'sell-filed-after-cancel'));
    expect(lastText(h, user, 'sell-filed')).toBeUndefined();
    const after = (await h.sell.service.intentOf(intent.id))!;
    expect(after).toMatchObject({ status: 'filed', hash: txId, sender });
    expect(await ordersOf(sender)).toBe(1);
  });
});
