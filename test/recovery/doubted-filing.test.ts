/**
 * A sale filing whose answer was lost (the ramp acted, the gateway answered 502), then Redis emptied
 * before the ramp's history was asked (issue #31, traced in chaos seed 42). The journal notes the
 * filing as in doubt; recovery puts the sale back, the watcher finds the order in the ramp's history,
 * and the seller hears "filed" and gets the M-Pesa receipt once: one order, never a second filing.
 * Real Redis, the in-process dev chain, the sandbox over HTTP behind a proxy that loses the answer.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import { createFileJournal, recoverLostOrders } from '../../src/recovery/index.js';
import { createDevSigner } from '../../src/sell/local/devsign.js';
import { flushPrefix } from '../helpers/redis.js';
import {
  findButton,
  lastText,
  logger,
  newUser,
  type SellHarness,
  startSellHarness,
  waitFor,
} from '../sell/helpers.js';

let chain: DevChain;
let h: SellHarness;
const journal = createFileJournal(join(mkdtempSync(join(tmpdir(), 'rampchat-doubt-')), 'orders.jsonl'));
/** Filing POSTs seen; only the first loses its answer, unless `unsent` (every one lost unsent). */
let filings = 0;
let unsent = false;

beforeAll(async () => {
  chain = await startDevChain();
  h = await startSellHarness({
    devChain: chain,
    journal,
    filingStaleMs: 1_500,
    loseAnswer: (method, path) => {
      if (method !== 'POST' || !path.includes('offramp-order')) return false;
      filings += 1;
      return unsent ? 'unsent' : filings === 1;
    },
  });
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
});

/** A seller at the signing step: their sale's link token and intent. */
async function startSale() {
  const user = newUser();
  await h.say(user, { kind: 'command', command: 'sell', args: '1000 KES USDT polygon 0712345678' });
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
  const token = String(lastText(h, user, 'sell-evm-sign')!.args!.url)
    .split('/')
    .at(-1)!;
  const intent = (await h.sell.service.intentByLink(token))!;
  return { user, token, intent };
}

/** One recovery pass, as the gate runs it after an emptied Redis. */
const recoverPass = () =>
  recoverLostOrders({
    journal,
    ramp: h.ramp,
    tracker: h.tracker,
    logger,
    project: 'rampchat-test',
    sales: (entries, known) => h.sell.service.recoverSales(entries, known),
  });

const receipts = (user: ReturnType<typeof newUser>) =>
  h.texts(user).filter((t) => t.id === 'tracker-offramp-done' || t.id === 'tracker-offramp-done-noname');

it('a filing whose answer was lost, then an emptied Redis: restored, one order, one receipt', async () => {
  const { user, token, intent } = await startSale();
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-devsign') });

  // The ramp made the order, the answer was lost: the sale waits to look it up in the history.
  await waitFor('the lost answer', () => filings === 1);
  const { hash } = (await waitFor('the filing', async () =>
    (await h.sell.service.intentOf(intent.id))?.hash ? h.sell.service.intentOf(intent.id) : undefined,
  )) as { hash: string };
  const orders = () => h.sandbox.offrampOrders().filter((o) => o.hash.toLowerCase() === hash.toLowerCase());
  const [order] = orders();
  expect(orders()).toHaveLength(1);
  expect((await h.sell.service.intentOf(intent.id))?.status).toBe('filing');

  // Redis comes back empty before the lookup; the payout meanwhile goes through at the ramp.
  await flushPrefix(h.redis, h.prefix);
  await new Promise((r) => setTimeout(r, 400));

  // Before recovery: a pasted hash is kept ("on its way"), the link says "restoring".
  await h.say(user, { kind: 'text', text: hash });
  await waitFor('the answer to the pasted hash', () => lastText(h, user, 'sell-checking'));
  expect(h.texts(user).map((t) => t.id)).not.toContain('sell-hash-no-sale');
  expect((await fetch(`${h.sell.publicUrl}/sign/${token}`)).status).toBe(503);

  const report = await recoverPass();
  expect(report.failed).toBe(0);
  // Put back: the link finds its sale again, and the hash pasted again is the one being filed.
  expect((await fetch(`${h.sell.publicUrl}/sign/${token}`)).status).not.toBe(404);
  const checking = () => h.texts(user).filter((t) => t.id === 'sell-checking').length;
  const seen = checking();
  await h.say(user, { kind: 'text', text: hash });
  await waitFor('the answer to the hash pasted again', () => checking() === seen + 1);
  expect(h.texts(user).map((t) => t.id)).not.toContain('sell-hash-no-sale');

  const filed = await waitFor('the filed message', () => lastText(h, user, 'sell-filed'), 15_000);
  expect(filed.args!.orderId).toBe(order!.id);
  await waitFor('the receipt', () => receipts(user)[0], 15_000);
  // A second pass (the gate ran it again) changes nothing.
  await recoverPass();
  await new Promise((r) => setTimeout(r, 2_500));
  expect(receipts(user)).toHaveLength(1);
  expect(h.texts(user).filter((t) => t.id === 'sell-filed')).toHaveLength(1);
  expect(orders()).toHaveLength(1);
  expect(filings).toBe(1);
  expect(h.escalations).toEqual([]);
});

it('a process that died between its filing POST and the answer, then an emptied Redis: the paid order is told', async () => {
  const { user, intent } = await startSale();
  const hash = (await createDevSigner(h.sell.service, chain.walletClient())(intent)).toLowerCase();
  const sender = chain.walletClient().account.address;
  // What the dead process did: journaled the filing, posted it; nothing after.
  await journal.intent({
    user,
    side: 'offramp',
    network: intent.network,
    token: intent.token,
    phone: intent.phone,
    walletAddress: sender,
    txHash: hash,
    amountKes: intent.amountKes,
    tokenAmount: intent.total,
  });
  const { orderId } = await h.ramp.createOfframpOrder({
    chain: intent.network,
    hash,
    phone: intent.phone,
    tokenAddress: intent.token.address,
    userAddress: sender,
    project: 'rampchat-test',
  });
  await flushPrefix(h.redis, h.prefix);
  await waitFor(
    'the payout at the ramp',
    async () => (await h.ramp.getOfframpStatus(orderId)).status === 'SUCCESS',
  );

  const report = await recoverPass();
  expect(report).toMatchObject({ failed: 0 });
  const receipt = await waitFor('the receipt', () => receipts(user)[0], 15_000);
  expect(String(receipt.args!.receipt)).not.toBe('');
  await new Promise((r) => setTimeout(r, 1_000));
  expect(receipts(user)).toHaveLength(1);
  expect(
    h.sandbox
      .offrampOrders()
      .filter((o) => o.hash.toLowerCase() === hash)
      .map((o) => o.id),
  ).toEqual([orderId]);
});

it('a sale put back whose filing still cannot be settled: support has it, the seller is told what to do', async () => {
  unsent = true;
  const before = filings;
  const { user, intent } = await startSale();
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-devsign') });
  await waitFor('the lost answer', () => filings === before + 1);
  const { hash } = (await waitFor('the filing', async () => {
    const held = await h.sell.service.intentOf(intent.id);
    return held?.status === 'filing' ? held : undefined;
  })) as { hash: string };
  await flushPrefix(h.redis, h.prefix);

  await recoverPass();
  const told = await waitFor('the message', () => lastText(h, user, 'sell-restore-failed'), 20_000);
  expect(String(told.args!.hash).toLowerCase()).toBe(hash.toLowerCase());
  expect(h.escalations.filter((e) => e.intent.id === intent.id)).toMatchObject([
    { reason: 'filing_unknown', hash },
  ]);
  // The bound on filing POSTs holds across the emptied Redis: three in all, none after support has it.
  await new Promise((r) => setTimeout(r, 2_000));
  expect(filings - before).toBe(3);
  expect(h.texts(user).filter((t) => t.id === 'sell-restore-failed')).toHaveLength(1);
  expect(h.sandbox.offrampOrders().filter((o) => o.hash.toLowerCase() === hash.toLowerCase())).toEqual([]);
  unsent = false;
});
