import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SERVICE_WALLET, USDC_ASSET_ID } from '../../src/chains/algorand/index.js';
import type { UserRef } from '../../src/chat/types.js';
import { isRampError } from '../../src/ramp/errors.js';
import type { FakeAlgorand } from '../fakes/algorand.js';
import { type AlgorandRig, startAlgorandRig } from './algorand-rig.js';
import { lastText, newUser, type SellHarness, waitFor } from './helpers.js';

let rig: AlgorandRig;
let fake: FakeAlgorand;
let h: SellHarness;

beforeAll(async () => {
  rig = await startAlgorandRig();
  ({ fake, h } = rig);
});
afterAll(async () => {
  await rig?.close();
});

const newWallet = () => rig.newWallet();
const readyWallet = () => rig.readyWallet();
const startSale = (user: UserRef, args: string) => rig.startSale(user, args);
const pay: AlgorandRig['pay'] = (intent, sender, over) => rig.pay(intent, sender, over);

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
    // One fee, the ramp's: the transfer is what it quoted for KES 1,000 (fee included), as shown.
    const quote = await h.ramp.getQuote({
      type: 'offramp',
      network: 'algorand',
      token: 'USDC',
      fiatCurrency: 'KES',
      fiatAmount: '1000',
    });
    expect(intent.totalUnits).toBe(String(Math.round(Number(quote.inputAmount) * 1e6)));
    expect(lastText(h, user, 'quote-pay-token')?.args?.amount).toBe(`${Number(quote.inputAmount)} USDC`);
    expect(lastText(h, user, 'sell-algorand-pay')?.args?.total).toBe(String(Number(quote.inputAmount)));
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
    // Support has it; the sale stays open for its own payment, and the chat is not told of another.
    await waitFor('the hand-over', () => h.escalations.find((e) => e.hash === txId));
    expect(h.escalations.find((e) => e.hash === txId)).toMatchObject({ reason: 'sell_refused' });
    expect((await h.sell.service.intentOf(intent.id))?.status).toBe('open');
    expect(lastText(h, user, 'sell-refused-wrong-amount')).toBeUndefined();
    expect(await ordersOf(sender)).toBe(0);
  });

  it('refuses a close-out transfer as a wrong amount', async () => {
    const user = newUser();
    const sender = readyWallet();
    const intent = await startSale(user, '950 KES USDC algorand 0712345678');
    const txId = pay(intent, sender, { closeTo: newWallet() });
    await waitFor('the hand-over', () => h.escalations.find((e) => e.hash === txId));
    expect((await h.sell.service.intentOf(intent.id))?.refusal).toBeUndefined();
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
