/**
 * Whoever holds a seller's signing link cannot end the sale nor fill the seller's chat: junk hashes
 * posted to the page are answered there and limited per link, a deposit of a worthless token tagged
 * for the sale is refused without ending it, the seller's real deposit is filed and paid after it,
 * and the seller can always cancel (a well-formed hash the chain does not know is not "on its way").
 * Real Redis, the sandbox, the hardhat chain with the test escrow.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevAccount, type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import type { UserRef } from '../../src/chat/types.js';
import { createFileJournal, type FileJournal } from '../../src/recovery/journal.js';
import { lastText, newUser, type SellHarness, startSellHarness, waitFor } from './helpers.js';
import { type LinkRig, linkRig, randomHash } from './link-rig.js';

let chain: DevChain;
let h: SellHarness;
let rig: LinkRig;
let dir: string;
let journal: FileJournal;

beforeAll(async () => {
  chain = await startDevChain({ accountCount: 12 });
  dir = await mkdtemp(join(tmpdir(), 'rampchat-link-holder-'));
  journal = createFileJournal(join(dir, 'orders.jsonl'), { secret: 'k'.repeat(40) });
  h = await startSellHarness({ devChain: chain, confirmations: 1, journal, searchIntervalMs: 1000 });
  rig = linkRig(h, chain);
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
  journal?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const tokenOf = (url: string) => url.split('/').at(-1)!;
const intentOf = async (url: string) => (await h.sell.service.intentByLink(tokenOf(url)))!;

/**
 * A link holder's deposit of a worthless token tagged for the sale: the served deposit call with
 * another token, from an account holding only that token. Resolves with its hash.
 */
async function worthlessDeposit(url: string, attacker: DevAccount): Promise<Hex> {
  const fake = await chain.deployToken({ name: 'Tether USD', symbol: 'USDT' });
  await chain.mintTokens(fake, attacker.address, 1_000_000_000n);
  const served = (await (await fetch(`${url}/tx?from=${attacker.address}`)).json()) as {
    token: string;
    approve: { data: Hex };
    withdraw: { to: Hex; data: Hex };
  };
  const wallet = chain.walletClient(attacker);
  await wallet.sendTransaction({ to: fake, data: served.approve.data, value: 0n });
  const real = served.token.slice(2).toLowerCase();
  const data = served.withdraw.data.toLowerCase().replace(real, fake.slice(2).toLowerCase()) as Hex;
  const hash = await wallet.sendTransaction({ to: served.withdraw.to, data, value: 0n });
  await chain.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

/**
 * Texts the seller's chat got after `from` (message index) that speak of other transactions than
 * `own`, the seller's deposit ("on its way" about it is the chat's to hear).
 */
const strayTexts = (user: UserRef, own: string, from = 0) =>
  h
    .messages(user)
    .slice(from)
    .flatMap((m) => m.texts)
    .filter((t) => /^sell-(checking|refused|escalated|nothing-moved)/.test(t.id))
    .filter((t) => !(t.id === 'sell-checking' && String(t.args?.hash).toLowerCase() === own.toLowerCase()))
    .map((t) => t.id);

const paid = (user: UserRef) =>
  h.texts(user).find((t) => t.id === 'tracker-offramp-done' || t.id === 'tracker-offramp-done-noname');

describe('the seller can always end a sale', () => {
  it('after a well-formed hash the chain does not know, typed in the chat: cancelled, and /sell works', async () => {
    const user = newUser();
    await rig.confirmSale(user, '610 KES USDT polygon 0712345678');
    await h.say(user, { kind: 'text', text: `0x${'ab'.repeat(32)}` });
    expect(lastText(h, user, 'sell-checking-unseen')).toBeDefined();
    await h.say(user, { kind: 'button', id: 'nav:cancel' });
    await waitFor('the cancel', () => lastText(h, user, 'sell-cancelled'));
    expect(lastText(h, user, 'sell-checking')).toBeUndefined();
    await h.say(user, { kind: 'command', command: 'sell', args: '620 KES USDT polygon 0712345678' });
    expect(lastText(h, user, 'sell-live-exists')).toBeUndefined();
    expect(lastText(h, user, 'sell-summary-title')).toBeDefined();
  });

  it('after junk posted to the page: /cancel cancels', async () => {
    const user = newUser();
    const url = await rig.confirmSale(user, '630 KES USDT polygon 0712345678');
    for (let i = 0; i < 3; i++) await rig.report(url, randomHash());
    await h.say(user, { kind: 'command', command: 'cancel', args: '' });
    await waitFor('the cancel', () => lastText(h, user, 'sell-cancelled'));
    expect((await intentOf(url)).status).toBe('cancelled');
  });

  it('left for the menu: /cancel there ends it', async () => {
    const user = newUser();
    const url = await rig.confirmSale(user, '635 KES USDT polygon 0712345678');
    await h.say(user, { kind: 'text', text: 'menu' });
    await h.say(user, { kind: 'command', command: 'cancel', args: '' });
    await waitFor('the cancel', () => lastText(h, user, 'sell-cancelled'));
    expect(lastText(h, user, 'core-nothing-to-cancel')).toBeUndefined();
    expect((await intentOf(url)).status).toBe('cancelled');
  });
});

describe('a link holder', () => {
  it('a worthless-token deposit does not end the sale; the real deposit after it is filed', async () => {
    const user = newUser();
    const account = await rig.seller();
    const url = await rig.confirmSale(user, '640 KES USDT polygon 0712345678');
    const worthless = await worthlessDeposit(url, chain.accounts[11]!);
    const refused = await rig.report(url, worthless);
    expect(refused).toMatchObject({ status: 200, body: { status: 'refused', reason: 'wrong_token' } });
    expect((await intentOf(url)).status).toBe('open');
    const own = await rig.sign(url, account);
    expect((await rig.report(url, own)).body).toMatchObject({ status: 'filed' });
    await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect(strayTexts(user, own)).toEqual([]);
  });

  it('after a worthless-token deposit, the real one is filed from the chat, and found by the search unreported', async () => {
    const pasted = newUser();
    const found = newUser();
    const [a, b] = [await rig.seller(), await rig.seller()];
    const pastedUrl = await rig.confirmSale(pasted, '660 KES USDT polygon 0712345678');
    const foundUrl = await rig.confirmSale(found, '670 KES USDT polygon 0712345678');
    for (const url of [pastedUrl, foundUrl])
      await rig.report(url, await worthlessDeposit(url, chain.accounts[11]!));
    await h.say(pasted, { kind: 'text', text: await rig.sign(pastedUrl, a) });
    await waitFor('the pasted deposit filed', () => lastText(h, pasted, 'sell-filed'));
    // Signed, never reported: the escrow search finds it past the refused one.
    const own = await rig.sign(foundUrl, b);
    await waitFor('the found deposit filed', () => lastText(h, found, 'sell-filed'), 20_000);
    expect(strayTexts(found, own)).toEqual([]);
  }, 30_000);

  it('junk from one address is limited across links too (30 per address)', async () => {
    const from = { 'x-forwarded-for': '198.51.100.7' };
    const statuses: number[] = [];
    for (let sale = 0; sale < 4; sale++) {
      const url = await rig.confirmSale(newUser(), `${680 + sale} KES USDT polygon 0712345678`);
      for (let i = 0; i < 9; i++) statuses.push((await rig.report(url, randomHash(), from)).status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429, 429, 429, 429, 429]);
  });

  it('400 junk posts and a worthless-token deposit: the chat hears only its sale, the deposit is paid, the journal stays small', async () => {
    const user = newUser();
    const account = await rig.seller();
    const url = await rig.confirmSale(user, '650 KES USDT polygon 0712345678');
    const mark = h.messages(user).length;
    const answers: number[] = [];
    for (let i = 0; i < 400; i += 40) {
      const batch = Array.from({ length: 40 }, () => rig.report(url, randomHash()));
      for (const r of await Promise.all(batch)) answers.push(r.status);
    }
    // Ten checked on chain (the per-link limit), the rest refused on the page only.
    expect(answers.filter((s) => s === 200)).toHaveLength(10);
    expect(answers.filter((s) => s === 429)).toHaveLength(390);
    const worthless = await worthlessDeposit(url, chain.accounts[10]!);
    expect((await rig.report(url, worthless)).body).toMatchObject({ reason: 'wrong_token' });
    // The seller's own deposit, over the link's limit: still checked, filed and paid.
    const own = await rig.sign(url, account);
    expect((await rig.report(url, own)).body).toMatchObject({ status: 'filed' });
    await waitFor('the payout', () => paid(user), 20_000);
    expect(strayTexts(user, own, mark)).toEqual([]);
    // Filed, its payout's progress and receipt, and at most "on its way" about the seller's own deposit.
    const said = h
      .messages(user)
      .slice(mark)
      .flatMap((m) => m.texts.map((t) => t.id));
    expect(
      said.filter((id) => !/^(sell-filed|sell-checking|tracker-offramp-(pending|done))/.test(id)),
    ).toEqual([]);
    expect(said.length).toBeLessThanOrEqual(5);

    const intent = await intentOf(url);
    const lines = (
      await Promise.all((await readdir(dir)).map((f) => readFile(join(dir, f), 'utf8').catch(() => '')))
    ).join('\n');
    const mine = lines.split('\n').filter((l) => l.includes(intent.id));
    expect(mine.filter((l) => l.includes('"salehash"')).length).toBeLessThanOrEqual(3);
    expect(lines).not.toContain(tokenOf(url));
  }, 60_000);
});
