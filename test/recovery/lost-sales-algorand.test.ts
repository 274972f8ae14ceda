/**
 * An Algorand sale Redis lost before its payment was found (issue #22): no hash was reported, its
 * link expired, and recovery finds the payment by the sale's note through the indexer and files it.
 * Real Redis, the fake algod + indexer, the sandbox over HTTP.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFileJournal, type JournalEntry } from '../../src/recovery/index.js';
import { flushPrefix } from '../helpers/redis.js';
import { type AlgorandRig, startAlgorandRig } from '../sell/algorand-rig.js';
import { lastText, newUser, waitFor } from '../sell/helpers.js';

let rig: AlgorandRig;
const journal = createFileJournal(join(mkdtempSync(join(tmpdir(), 'rampchat-lost-algo-')), 'orders.jsonl'));

beforeAll(async () => {
  rig = await startAlgorandRig({ journal });
});
afterAll(async () => {
  await rig?.close();
});

it('a payment for a sale Redis lost is found by its note past the link expiry, and filed once', async () => {
  const { h } = rig;
  const user = newUser();
  const sender = rig.readyWallet();
  const intent = await rig.startSale(user, `1000 KES USDC algorand ${sender} 0712345678`);
  await flushPrefix(h.redis, h.prefix);
  const txId = rig.pay(intent, sender);

  const expired = (await journal.read(0)).map(
    (e): JournalEntry =>
      e.kind === 'sale' && e.intent.id === intent.id
        ? { ...e, intent: { ...e.intent, expiresAt: Date.now() - 1_000 } }
        : e,
  );
  const known = { filed: new Set<string>() };
  expect(await h.sell.service.recoverSales(expired, known)).toMatchObject({ resumed: 1 });
  const filed = await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
  const records = (await h.ramp.getHistory('offramp', sender)).records;
  expect(records.map((r) => r.orderId)).toEqual([filed.args!.orderId]);
  expect(records[0]!.txHash?.toUpperCase()).toBe(txId.toUpperCase());
  // Filed: a pass run again leaves it alone.
  expect(await h.sell.service.recoverSales(await journal.read(0), known)).toMatchObject({ resumed: 0 });
});
