/**
 * A process that dies while filing a sell. The tokens are on the (dev) chain and the dead process
 * left its marks in Redis (the hash and filing slot claimed; maybe `filing` recorded; maybe the POST
 * reached the ramp), but no order was recorded. A second process's sell service (same Redis, the
 * sandbox over HTTP, the real tracker) must finish it: re-filing the same hash, which the ramp answers
 * with the existing order when it already has one, or handing it to support once when it cannot tell.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmPublicClient, type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import type { UserRef } from '../../src/chat/types.js';
import { RampServerError } from '../../src/ramp/errors.js';
import { createRampClient } from '../../src/ramp/index.js';
import type { RampClient } from '../../src/ramp/types.js';
import { MAX_FILING_ATTEMPTS } from '../../src/sell/filing/file.js';
import { createRedisIntentStore, createSellService, type SellEscalation } from '../../src/sell/index.js';
import { filingClaim, filingSlot, hashClaim, type SellIntent } from '../../src/sell/intents/intents.js';
import { createDevSigner } from '../../src/sell/local/devsign.js';
import type { Tracker } from '../../src/tracker/index.js';
import {
  findButton,
  lastText,
  logger,
  newUser,
  type SellHarness,
  startSellHarness,
  waitFor,
} from './helpers.js';

const STALE_MS = 2_000;
let chain: DevChain;
let h: SellHarness;

beforeAll(async () => {
  chain = await startDevChain();
  // The sandbox takes a while to check a filed hash, so a short-timeout client can miss its answer.
  h = await startSellHarness({ devChain: chain, verifyDelayMs: 400 });
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
});

/** The second process: its own sell service on the same Redis, with a clock the test moves. */
function secondProcess(ramp: RampClient = h.ramp, tracker: Tracker = h.tracker) {
  let offset = 0;
  const escalations: SellEscalation[] = [];
  const service = createSellService({
    intents: createRedisIntentStore(h.redis, h.prefix),
    ramp,
    tracker,
    logger,
    evm: [{ config: h.network!, client: createEvmPublicClient(h.network!, { pollingIntervalMs: 100 }) }],
    publicUrl: h.sell.publicUrl,
    linkTtlMs: 30 * 60_000,
    project: 'rampchat-test',
    deliver: (user, input) => h.engine.handle(user, input),
    schedule: async () => {},
    onEscalate: async (c) => void escalations.push(c),
    pollIntervalMs: 100,
    filingStaleMs: STALE_MS,
    now: () => Date.now() + offset,
  });
  return {
    service,
    escalations,
    later: () => {
      offset += STALE_MS + 1;
    },
  };
}

/** A confirmed sell whose tokens are on the chain, reported to nobody yet. */
async function depositedSell(): Promise<{ user: UserRef; intent: SellIntent; hash: string; sender: string }> {
  const user = newUser();
  await h.say(user, { kind: 'command', command: 'sell', args: '1000 KES USDT polygon 0712345678' });
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
  const url = String(lastText(h, user, 'sell-evm-sign')!.args!.url);
  const intent = (await h.sell.service.intentByLink(url.split('/').at(-1)!))!;
  const wallet = chain.walletClient();
  const hash = (await createDevSigner(h.sell.service, wallet)(intent)).toLowerCase();
  return { user, intent, hash, sender: wallet.account.address };
}

const intents = () => createRedisIntentStore(h.redis, h.prefix);

/** What the dead process did once the hash was verified: claimed the hash and the filing slot. */
async function claimAsDeadProcess(intent: SellIntent, hash: string) {
  expect(await intents().claim(hashClaim(intent.network, hash), intent.id)).toBeUndefined();
  expect(await intents().claim(filingClaim(intent.id), filingSlot(hash, Date.now()))).toBeUndefined();
}

const offrampOrders = async (sender: string, hash: string) => {
  try {
    return (await h.ramp.getHistory('offramp', sender, { limit: 100 })).records.filter(
      (r) => r.txHash?.toLowerCase() === hash,
    );
  } catch (err) {
    if ((err as { kind?: string }).kind === 'not_found') return [];
    throw err;
  }
};

describe('a sell whose process died while filing', () => {
  it('filed, but its tracking could not start (Redis blinked): filed again into that order and tracked', async () => {
    const { user, intent, hash, sender } = await depositedSell();
    const failing = {
      ...h.tracker,
      track: async () => Promise.reject(new Error('Socket closed unexpectedly')),
    };
    const a = secondProcess(h.ramp, failing as Tracker);
    expect(await a.service.reportHash(intent.id, hash, { push: false, source: 'test' })).toEqual({
      status: 'checking',
      hash,
    });
    expect((await a.service.intentOf(intent.id))?.status).toBe('filing');
    const [first] = await offrampOrders(sender, hash);
    expect(first?.orderId).toBeDefined();

    const b = secondProcess();
    b.later();
    expect(await b.service.poll(intent.id)).toEqual({ done: true });
    expect(await b.service.intentOf(intent.id)).toMatchObject({ status: 'filed', orderId: first!.orderId });
    expect((await offrampOrders(sender, hash)).map((o) => o.orderId)).toEqual([first!.orderId]);
    await waitFor(
      'the payout message',
      () => lastText(h, user, 'tracker-offramp-done-noname') ?? lastText(h, user, 'tracker-offramp-done'),
    );
    expect(b.escalations).toEqual([]);
  });

  it('after claiming the filing slot, before recording anything: filed once the slot is stale', async () => {
    const { user, intent, hash, sender } = await depositedSell();
    await claimAsDeadProcess(intent, hash);
    const b = secondProcess();

    // A fresh slot may belong to a live process: left alone; the link cannot be cancelled under it.
    expect(await b.service.poll(intent.id)).toEqual({ next: 100 });
    expect(await h.sell.service.cancel(intent.id)).toEqual({ status: 'cancel-too-late' });
    expect((await b.service.intentOf(intent.id))?.status).toBe('open');
    expect(await offrampOrders(sender, hash)).toEqual([]);

    b.later();
    expect(await b.service.poll(intent.id)).toEqual({ done: true });
    const after = (await b.service.intentOf(intent.id))!;
    expect(after).toMatchObject({ status: 'filed', hash });
    const orders = await offrampOrders(sender, hash);
    expect(orders.map((o) => o.orderId)).toEqual([after.orderId]);
    await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect(lastText(h, user, 'sell-filed')!.args).toMatchObject({ orderId: after.orderId });
    await waitFor(
      'the payout message',
      () => lastText(h, user, 'tracker-offramp-done-noname') ?? lastText(h, user, 'tracker-offramp-done'),
    );
    expect(b.escalations).toEqual([]);
  });

  /** A process claimed the sale, recorded `filing` and posted; the ramp created the order, and the process died. */
  const filedBehindTheProcess = async (
    intent: Awaited<ReturnType<typeof depositedSell>>['intent'],
    hash: Awaited<ReturnType<typeof depositedSell>>['hash'],
    sender: Awaited<ReturnType<typeof depositedSell>>['sender'],
  ) => {
    await claimAsDeadProcess(intent, hash);
    await intents().update(intent.id, (i) => ({
      ...i,
      status: 'filing',
      hash,
      sender,
      updatedAt: Date.now(),
    }));
    return h.ramp.createOfframpOrder({
      chain: intent.network,
      hash,
      phone: intent.phone,
      tokenAddress: intent.token.address,
      userAddress: sender,
      project: 'rampchat-test',
    });
  };

  it('after the POST reached the ramp, before the order was recorded: mapped to that order', async () => {
    const { user, intent, hash, sender } = await depositedSell();
    const first = await filedBehindTheProcess(intent, hash, sender);
    const b = secondProcess();
    expect(await b.service.poll(intent.id)).toEqual({ next: 100 });

    b.later();
    expect(await b.service.poll(intent.id)).toEqual({ done: true });
    expect(await b.service.intentOf(intent.id)).toMatchObject({ status: 'filed', orderId: first.orderId });
    expect((await offrampOrders(sender, hash)).map((o) => o.orderId)).toEqual([first.orderId]);
    await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect(lastText(h, user, 'sell-filed')!.args).toMatchObject({ orderId: first.orderId });
    await waitFor(
      'the payout message',
      () => lastText(h, user, 'tracker-offramp-done-noname') ?? lastText(h, user, 'tracker-offramp-done'),
    );
    expect(b.escalations).toEqual([]);

    // Nothing left to do, and the page or chat reporting the hash again gets the same order.
    expect(await b.service.poll(intent.id)).toEqual({ done: true });
    expect(await b.service.reportHash(intent.id, hash, { push: false, source: 'test' })).toMatchObject({
      status: 'filed',
      orderId: first.orderId,
    });
  });

  it('a live filing whose answer was lost (Redis down): found in the ramp history, never posted again', async () => {
    const { user, intent, hash, sender } = await depositedSell();
    // The live process claimed, recorded `filing` and posted; the POST timed out while Redis was
    // down, so neither the order nor `filing-unknown` could be recorded. The ramp did create it.
    const first = await filedBehindTheProcess(intent, hash, sender);
    let posts = 0;
    const counting: RampClient = Object.assign(Object.create(h.ramp) as RampClient, {
      createOfframpOrder: (...args: Parameters<RampClient['createOfframpOrder']>) => {
        posts += 1;
        return h.ramp.createOfframpOrder(...args);
      },
    });
    const b = secondProcess(counting);
    b.later();
    expect(await b.service.poll(intent.id)).toEqual({ done: true });
    expect(await b.service.intentOf(intent.id)).toMatchObject({ status: 'filed', orderId: first.orderId });
    expect(posts).toBe(0);
    expect((await offrampOrders(sender, hash)).map((o) => o.orderId)).toEqual([first.orderId]);
    await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect(b.escalations).toEqual([]);
  });

  it('re-filed without an answer: reconciled from the ramp history at the next pass, one order, no support', async () => {
    const { user, intent, hash, sender } = await depositedSell();
    await claimAsDeadProcess(intent, hash);
    const impatient = createRampClient({
      baseUrl: h.sandbox.url,
      apiKey: h.sandbox.options.apiKey,
      apiSecret: h.sandbox.options.apiSecret,
      timeoutMs: 150,
    });
    const b = secondProcess(impatient);
    b.later();
    // The POST times out (the sandbox is still checking the hash): the answer is lost, the filing held.
    expect(await b.service.poll(intent.id)).toEqual({ next: 100 });
    expect((await b.service.intentOf(intent.id))?.status).toBe('filing');
    await waitFor(
      'the order the timed-out POST made',
      async () => (await offrampOrders(sender, hash)).length === 1,
    );
    // Next pass, once stale: found in the history and taken, not posted again, not handed to support.
    b.later();
    expect(await b.service.poll(intent.id)).toEqual({ done: true });
    const [order] = await offrampOrders(sender, hash);
    expect(await b.service.intentOf(intent.id)).toMatchObject({ status: 'filed', orderId: order!.orderId });
    await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect(b.escalations).toEqual([]);
    expect(await offrampOrders(sender, hash)).toHaveLength(1);
  });

  it(`answers lost ${MAX_FILING_ATTEMPTS} times with nothing in the history: filing-unknown and handed to support once`, async () => {
    const { user, intent, hash } = await depositedSell();
    await claimAsDeadProcess(intent, hash);
    let posts = 0;
    const lost: RampClient = Object.assign(Object.create(h.ramp) as RampClient, {
      createOfframpOrder: async () => {
        posts += 1;
        throw new RampServerError('Bad gateway', { status: 502 });
      },
    });
    const b = secondProcess(lost);
    for (let i = 1; i < MAX_FILING_ATTEMPTS; i++) {
      b.later();
      expect(await b.service.poll(intent.id)).toEqual({ next: 100 });
      expect(b.escalations).toEqual([]);
    }
    b.later();
    expect(await b.service.poll(intent.id)).toEqual({ done: true });
    expect(posts).toBe(MAX_FILING_ATTEMPTS);
    expect((await b.service.intentOf(intent.id))?.status).toBe('filing-unknown');
    await waitFor('the uncertain message', () => lastText(h, user, 'sell-uncertain'));
    expect(b.escalations).toMatchObject([{ reason: 'filing_unknown', hash }]);
    b.later();
    expect(await b.service.poll(intent.id)).toEqual({ done: true });
    expect(await b.service.reportHash(intent.id, hash, { push: false, source: 'test' })).toEqual({
      status: 'uncertain',
      hash,
    });
    expect(b.escalations).toHaveLength(1);
    expect(posts).toBe(MAX_FILING_ATTEMPTS);
  });
});
