/**
 * Sales Redis lost before they were filed (issue #22). The sale is journaled when its link is issued
 * and its hash when first reported; Redis then comes back empty while the deposit waits for
 * confirmations. Recovery (or the seller pasting the hash) verifies and files it once; a sale with no
 * hash past its expiry and nothing on chain gets told its link died; the dead link's page says what
 * to do instead of failing. Real Redis, the in-process dev chain, the sandbox over HTTP.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import type { UserRef } from '../../src/chat/types.js';
import {
  createFileJournal,
  createRecoveryGate,
  type JournalEntry,
  recoverLostOrders,
  unfiledKey,
} from '../../src/recovery/index.js';
import type { SellIntent } from '../../src/sell/intents/intents.js';
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

const CONFIRMATIONS = 4;
let chain: DevChain;
let h: SellHarness;
const journal = createFileJournal(join(mkdtempSync(join(tmpdir(), 'rampchat-lost-')), 'orders.jsonl'));

beforeAll(async () => {
  chain = await startDevChain();
  h = await startSellHarness({ devChain: chain, confirmations: CONFIRMATIONS, journal });
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
});

/** A confirmed sale: its user, link token and intent. */
async function confirmedSale(): Promise<{ user: UserRef; token: string; intent: SellIntent }> {
  const user = newUser();
  await h.say(user, { kind: 'command', command: 'sell', args: '1000 KES USDT polygon 0712345678' });
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
  const url = String(lastText(h, user, 'sell-evm-sign')!.args!.url);
  const token = url.split('/').at(-1)!;
  return { user, token, intent: (await h.sell.service.intentByLink(token))! };
}

const deposit = async (intent: SellIntent) =>
  (await createDevSigner(h.sell.service, chain.walletClient())(intent)).toLowerCase();

const postHash = (token: string, hash: string) =>
  fetch(`${h.sell.publicUrl}/sign/${token}/hash`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ hash }),
  });

const ordersFor = async (hash: string) => {
  const wallet = chain.walletClient().account.address;
  try {
    return (await h.ramp.getHistory('offramp', wallet, { limit: 100 })).records.filter(
      (r) => r.txHash?.toLowerCase() === hash,
    );
  } catch (err) {
    if ((err as { kind?: string }).kind === 'not_found') return [];
    throw err;
  }
};

/** Redis comes back empty: every key of this deployment is gone (the journal on disk remains). */
const emptyRedis = () => flushPrefix(h.redis, h.prefix);

describe('a sale Redis lost while its deposit waited for confirmations', () => {
  it('is journaled from its link on, and recovery verifies, files and tracks it once', async () => {
    const { user, token, intent } = await confirmedSale();
    const sale = (await journal.read(0)).find((e) => e.kind === 'sale' && e.intent.id === intent.id);
    expect(sale).toMatchObject({
      intent: {
        id: intent.id,
        linkKey: expect.any(String),
        phone: '254712345678',
        network: 'polygon',
        totalUnits: intent.totalUnits,
        feeUnits: intent.feeUnits,
        expiresAt: intent.expiresAt,
        evm: { escrow: intent.evm!.escrow, tag: intent.evm!.tag },
      },
    });

    const hash = await deposit(intent);
    const answer = await postHash(token, hash);
    expect(await answer.json()).toMatchObject({ status: 'checking', hash });
    expect(await journal.read(0)).toContainEqual(
      expect.objectContaining({ kind: 'salehash', intentId: intent.id, hash }),
    );

    await emptyRedis();
    // Until recovery has put the sale back, its link says so (and the page tries again by itself),
    // never "does not exist" (issue #31).
    const page = await fetch(`${h.sell.publicUrl}/sign/${token}`);
    expect(page.status).toBe(503);
    expect(page.headers.get('refresh')).toBe('3');
    expect(await page.text()).toMatch(/restoring this sale.*tries again by itself/);
    const late = await postHash(token, hash);
    expect(late.status).toBe(503);
    expect((await late.json()).error).toMatch(/restoring this sale/);

    await chain.mine(CONFIRMATIONS + 1);
    // The app's recovery pass hands the journaled sales to the sell service.
    const report = await recoverLostOrders({
      journal,
      ramp: h.ramp,
      tracker: h.tracker,
      logger,
      project: 'rampchat-test',
      sales: (entries, filed) => h.sell.service.recoverSales(entries, filed),
    });
    expect(report).toMatchObject({ resumed: 1, told: 0, failed: 0 });
    // The journal keeps no token that opens the link, only its keyed hash: the link finds its sale
    // again (used now: 410, where it was unknown before recovery: 404).
    expect((sale as { intent: Record<string, unknown> }).intent.linkToken).toBeUndefined();
    expect((await fetch(`${h.sell.publicUrl}/sign/${token}`)).status).toBe(410);
    const known = { filed: new Set<string>() };
    const filed = await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect((await ordersFor(hash)).map((o) => o.orderId)).toEqual([filed.args!.orderId]);
    await waitFor(
      'the payout message',
      () => lastText(h, user, 'tracker-offramp-done-noname') ?? lastText(h, user, 'tracker-offramp-done'),
    );

    // The pass finished (the gate's mark is gone): a link no sale is behind is unknown again.
    const { turn } = await createRecoveryGate(h.redis, h.prefix, { leaseMs: 5_000 }).enter();
    await turn!.leave(true);
    const unknown = await fetch(`${h.sell.publicUrl}/sign/${'u'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toMatch(/no longer valid.*paste your transaction hash in the chat/);

    // Passes run again (Redis kept, or lost once more) never file it a second time.
    expect(await h.sell.service.recoverSales(await journal.read(0), known)).toEqual({
      resumed: 0,
      told: 0,
      failed: 0,
    });
    await emptyRedis();
    expect(await h.sell.service.recoverSales(await journal.read(0), known)).toEqual({
      resumed: 0,
      told: 0,
      failed: 0,
    });
    expect(await ordersFor(hash)).toHaveLength(1);
  });

  it('a hash pasted in chat for it is found in the journal, verified and filed', async () => {
    const { user, intent } = await confirmedSale();
    const hash = await deposit(intent);
    await emptyRedis();
    await chain.mine(CONFIRMATIONS + 1);

    await h.say(user, { kind: 'text', text: hash });
    const filed = await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect(h.texts(user).map((t) => t.id)).not.toContain('sell-hash-no-sale');
    expect((await ordersFor(hash)).map((o) => o.orderId)).toEqual([filed.args!.orderId]);
  });

  it('one whose hash went to support is not filed again, neither by recovery nor from a pasted hash', async () => {
    const { user, token, intent } = await confirmedSale();
    const hash = await deposit(intent);
    await postHash(token, hash);
    // The sell path handed this hash to support (e.g. the ramp never answered its filing).
    await journal.final(unfiledKey(hash));
    await emptyRedis();
    await chain.mine(CONFIRMATIONS + 1);

    expect(await h.sell.service.recoverSales(await journal.read(0), { filed: new Set() })).toEqual({
      resumed: 0,
      told: 0,
      failed: 0,
    });
    await h.say(user, { kind: 'text', text: hash });
    await waitFor('the answer', () => lastText(h, user, 'sell-hash-no-sale'));
    expect(await ordersFor(hash)).toEqual([]);
  });

  it('a hash pasted in chat while recovery files it is kept: "on its way", not "no sale", and filed once', async () => {
    const { user, intent } = await confirmedSale();
    const hash = await deposit(intent);
    await emptyRedis();
    await chain.mine(CONFIRMATIONS + 1);
    // A recovery pass journaled its filing and is asking the ramp right now.
    await journal.intent({
      user,
      side: 'offramp',
      network: intent.network,
      token: intent.token,
      phone: intent.phone,
      walletAddress: chain.walletClient().account.address,
      txHash: hash,
      amountKes: intent.amountKes,
    });
    await h.say(user, { kind: 'text', text: hash });
    const answer = await waitFor('the answer', () => lastText(h, user, 'sell-checking'));
    expect(String(answer.args!.hash).toLowerCase()).toBe(hash);
    expect(h.texts(user).map((t) => t.id)).not.toContain('sell-hash-no-sale');
    // Not filed from the chat: the pass that journaled it files it, once.
    expect(await ordersFor(hash)).toEqual([]);
  });

  it('with no hash and no wallet bound, past its expiry: its deposit is found in the escrow by total and tag, and filed', async () => {
    const { user, intent } = await confirmedSale();
    expect(intent.wallet).toBeUndefined();
    // Another deposit of the same total, tagged for another sale, must not be taken for this one.
    const other = await confirmedSale();
    const decoy = await deposit(other.intent);
    const hash = await deposit(intent);
    await emptyRedis();
    await chain.mine(CONFIRMATIONS + 1);
    const expired = (await journal.read(0)).map(
      (e): JournalEntry =>
        e.kind === 'sale' && e.intent.id === intent.id
          ? { ...e, intent: { ...e.intent, expiresAt: Date.now() - 1_000 } }
          : e,
    );
    const only = expired.filter((e) => e.kind !== 'sale' || e.intent.id === intent.id);
    expect(await h.sell.service.recoverSales(only, { filed: new Set() })).toMatchObject({ resumed: 1 });
    const filed = await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect((await ordersFor(hash)).map((o) => o.orderId)).toEqual([filed.args!.orderId]);
    expect(await ordersFor(decoy)).toEqual([]);
    expect(h.texts(user).map((t) => t.id)).not.toContain('sell-link-lost');
  });

  it('with no hash, past its expiry and nothing on chain: its user is told the link died, once', async () => {
    const { user, intent } = await confirmedSale();
    await emptyRedis();
    // The journal as it reads once the link expired.
    const expired = (await journal.read(0)).map(
      (e): JournalEntry =>
        e.kind === 'sale' && e.intent.id === intent.id
          ? { ...e, intent: { ...e.intent, expiresAt: Date.now() - 1_000 } }
          : e,
    );
    const known = { filed: new Set<string>() };
    expect(await h.sell.service.recoverSales(expired, known)).toMatchObject({ told: 1 });
    await waitFor('the lost-link message', () => lastText(h, user, 'sell-link-lost'));
    const again = (await journal.read(0)).map(
      (e): JournalEntry =>
        e.kind === 'sale' && e.intent.id === intent.id
          ? { ...e, intent: { ...e.intent, expiresAt: Date.now() - 1_000 } }
          : e,
    );
    expect(await h.sell.service.recoverSales(again, known)).toMatchObject({ told: 0 });
    expect(h.texts(user).filter((t) => t.id === 'sell-link-lost')).toHaveLength(1);
  });
});
