import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRef } from '../../src/chat/types.js';
import { type AlgorandRig, startAlgorandRig } from './algorand-rig.js';
import { lastText, newUser, type SellHarness, waitFor } from './helpers.js';

let rig: AlgorandRig;
let h: SellHarness;

beforeAll(async () => {
  rig = await startAlgorandRig({ verifyDelayMs: 600 });
  ({ h } = rig);
});
afterAll(async () => {
  await rig?.close();
});

const readyWallet = () => rig.readyWallet();
const startSale = (user: UserRef, args: string) => rig.startSale(user, args);
const pay: AlgorandRig['pay'] = (intent, sender, over) => rig.pay(intent, sender, over);

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
