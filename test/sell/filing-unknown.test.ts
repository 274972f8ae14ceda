/**
 * When the off-ramp POST gets no answer, the order may or may not exist: the sell is marked
 * `filing-unknown`, handed to support, and never filed again, whoever reports the hash next.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import { createFileJournal, unfiledKey } from '../../src/recovery/index.js';
import { findButton, lastText, newUser, type SellHarness, startSellHarness, waitFor } from './helpers.js';

let chain: DevChain;
let h: SellHarness;
const journal = createFileJournal(join(mkdtempSync(join(tmpdir(), 'rampchat-journal-')), 'orders.jsonl'));

beforeAll(async () => {
  chain = await startDevChain();
  h = await startSellHarness({ devChain: chain, rampTimeoutMs: 300, verifyDelayMs: 1_000, journal });
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
});

it('a timed-out filing is escalated once and never re-filed', async () => {
  const user = newUser();
  await h.say(user, { kind: 'command', command: 'sell', args: '1000 KES USDT polygon 0712345678' });
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
  const url = String(lastText(h, user, 'sell-evm-sign')!.args!.url);
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-devsign') });
  await waitFor('the uncertain message', () => lastText(h, user, 'sell-uncertain'));
  const intent = (await h.sell.service.intentByLink(url.split('/').at(-1)!))!;
  expect(intent.status).toBe('filing-unknown');
  expect(h.escalations.filter((e) => e.intent.id === intent.id)).toMatchObject([
    { reason: 'filing_unknown' },
  ]);
  // With support now: recovery after an empty Redis leaves this payment to them (never re-files it).
  expect(await journal.read(0)).toContainEqual(
    expect.objectContaining({ kind: 'final', orderId: unfiledKey(intent.hash!) }),
  );

  // The same hash reported again is answered from the record, not filed again.
  const again = await h.sell.service.reportHash(intent.id, intent.hash!, { push: false, source: 'test' });
  expect(again).toEqual({ status: 'uncertain', hash: intent.hash });
  expect(h.escalations.filter((e) => e.intent.id === intent.id)).toHaveLength(1);
});
