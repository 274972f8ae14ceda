/**
 * When the off-ramp POST gets no answer, the order may or may not exist. The filing is held, and once
 * it is stale the ramp's history is asked: the order the lost POST made is taken (never a second
 * POST), and the seller hears "filed" as usual, without support.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import { createFileJournal } from '../../src/recovery/index.js';
import { findButton, lastText, newUser, type SellHarness, startSellHarness, waitFor } from './helpers.js';

let chain: DevChain;
let h: SellHarness;
const journal = createFileJournal(join(mkdtempSync(join(tmpdir(), 'rampchat-journal-')), 'orders.jsonl'));

beforeAll(async () => {
  chain = await startDevChain();
  // The sandbox takes 1 s to check a filed hash, the client waits 300 ms: the first answer is lost.
  h = await startSellHarness({
    devChain: chain,
    rampTimeoutMs: 300,
    verifyDelayMs: 1_000,
    filingStaleMs: 2_000,
    journal,
  });
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
});

it('a timed-out filing is reconciled from the ramp history: one order, filed, no support', async () => {
  const user = newUser();
  await h.say(user, { kind: 'command', command: 'sell', args: '1000 KES USDT polygon 0712345678' });
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
  const url = String(lastText(h, user, 'sell-evm-sign')!.args!.url);
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-devsign') });
  const intent = (await h.sell.service.intentByLink(url.split('/').at(-1)!))!;
  await waitFor(
    'the lost answer',
    async () => (await h.sell.service.intentOf(intent.id))?.status === 'filing',
  );
  expect(lastText(h, user, 'sell-uncertain')).toBeUndefined();

  const filed = await waitFor('the filed message', () => lastText(h, user, 'sell-filed'), 15_000);
  const held = (await h.sell.service.intentOf(intent.id))!;
  expect(held).toMatchObject({ status: 'filed', orderId: filed.args!.orderId, filingAttempts: 1 });
  const orders = h.sandbox.offrampOrders().filter((o) => o.hash.toLowerCase() === held.hash);
  expect(orders.map((o) => o.id)).toEqual([filed.args!.orderId]);
  expect(h.escalations.filter((e) => e.intent.id === intent.id)).toEqual([]);
  expect(lastText(h, user, 'sell-uncertain')).toBeUndefined();
});
