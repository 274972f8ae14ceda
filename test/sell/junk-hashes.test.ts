/**
 * Junk hashes cannot strand a deposit: a hash counts against the user's limit only once it failed
 * verification, a hash that verifies is accepted whatever the limit says, malformed text is refused
 * with the format expected (and not counted), and `POST /sign/<token>/hash` takes same-origin JSON
 * only. The attack: ten junk hashes (and more) posted by a link holder, then the real deposit.
 */
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevAccount, type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import type { UserRef } from '../../src/chat/types.js';
import { findButton, lastText, newUser, type SellHarness, startSellHarness, waitFor } from './helpers.js';

let chain: DevChain;
let h: SellHarness;
let accountSeq = 3;

beforeAll(async () => {
  chain = await startDevChain({ accountCount: 12 });
  // The default limit: 10 failing hashes per user per hour.
  h = await startSellHarness({ devChain: chain, confirmations: 2 });
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
});

const randomHash = () =>
  `0x${Array.from({ length: 64 }, () => Math.floor(Math.random() * 16).toString(16)).join('')}`;

async function seller(): Promise<DevAccount> {
  const account = chain.accounts[accountSeq++]!;
  await chain.mintTokens(chain.tokens.usdt, account.address, 1_000_000_000n);
  return account;
}

async function confirmSale(user: UserRef, args: string): Promise<string> {
  await h.say(user, { kind: 'command', command: 'sell', args });
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
  return String(lastText(h, user, 'sell-evm-sign')!.args!.url);
}

/** Signs the served deposit as the seller; mines `extraBlocks` on top. */
async function sign(url: string, account: DevAccount, extraBlocks = 1): Promise<Hex> {
  const body = (await (await fetch(`${url}/tx?from=${account.address}`)).json()) as {
    allowance: string;
    total: string;
    approve: { to: Hex; data: Hex };
    withdraw: { to: Hex; data: Hex };
  };
  const wallet = chain.walletClient(account);
  if (BigInt(body.allowance) < BigInt(body.total))
    await wallet.sendTransaction({ to: body.approve.to, data: body.approve.data, value: 0n });
  const hash = await wallet.sendTransaction({ to: body.withdraw.to, data: body.withdraw.data, value: 0n });
  await chain.publicClient.waitForTransactionReceipt({ hash });
  if (extraBlocks > 0) await chain.mine(extraBlocks);
  return hash;
}

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/hash`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const report = (url: string, hash: string, headers?: Record<string, string>) =>
  post(url, JSON.stringify({ hash }), headers);

describe('junk hashes from a link holder', () => {
  it('ten junk hashes (and more) posted to the page, then the real deposit: filed', async () => {
    const user = newUser();
    const account = await seller();
    const url = await confirmSale(user, '900 KES USDT polygon 0712345678');
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push((await report(url, randomHash())).body);
    expect(answers.slice(0, 10).every((a) => a.status === 'checking')).toBe(true);
    expect(answers.slice(10)).toMatchObject([
      { status: 'refused', reason: 'too_many' },
      { status: 'refused', reason: 'too_many' },
    ]);
    // The link holder's junk changes nothing in the seller's chat: not one word about it.
    const ids = () => h.texts(user).map((t) => t.id);
    expect(ids().filter((id) => id.startsWith('sell-checking') || id.startsWith('sell-refused'))).toEqual([]);
    const filed = await report(url, await sign(url, account));
    expect(filed.body).toMatchObject({ status: 'filed' });
    await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect(h.escalations).toEqual([]);
    expect(ids().filter((id) => id.startsWith('sell-checking') || id.startsWith('sell-refused'))).toEqual([]);
  });

  it('the same typed in chat: junk, then the real deposit’s hash, filed', async () => {
    const user = newUser();
    const account = await seller();
    const url = await confirmSale(user, '950 KES USDT polygon 0712345678');
    for (let i = 0; i < 12; i++) await h.say(user, { kind: 'text', text: randomHash() });
    expect(lastText(h, user, 'sell-refused-too-many')).toBeDefined();
    const hash = await sign(url, account);
    await h.say(user, { kind: 'text', text: hash });
    await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
  });

  it('junk after a deposit that waits for confirmations does not push it out of view', async () => {
    const user = newUser();
    const account = await seller();
    const url = await confirmSale(user, '980 KES USDT polygon 0712345678');
    const hash = await sign(url, account, 0);
    expect((await report(url, hash)).body).toMatchObject({ status: 'checking' });
    for (let i = 0; i < 25; i++) await report(url, randomHash());
    const intent = await h.sell.service.intentByLink(url.split('/').at(-1)!);
    expect(intent!.pending.map((p) => p.hash)).toContain(hash.toLowerCase());
    await chain.mine(2);
    await waitFor('the watcher to file', () => lastText(h, user, 'sell-filed'));
  });

  it('malformed hashes are refused with the format expected and never counted', async () => {
    const user = newUser();
    const account = await seller();
    const url = await confirmSale(user, '990 KES USDT polygon 0712345678');
    for (let i = 0; i < 12; i++) {
      const r = await report(url, i % 2 ? '0x1234' : `0x${'ab'.repeat(40)}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ status: 'refused', reason: 'malformed_evm' });
      expect(String(r.body.error)).toContain('0x followed by 64 hexadecimal characters');
    }
    await h.say(user, { kind: 'text', text: '0x1234' });
    expect(h.texts(user).at(-1)?.id).toBe('sell-refused-malformed-evm');
    // An Algorand transaction id on an EVM sale: not a hash of this network.
    expect((await report(url, 'A'.repeat(52))).body).toMatchObject({ reason: 'malformed_evm' });
    // Nothing counted: a junk hash is still checked, then the deposit files.
    expect((await report(url, randomHash())).body).toMatchObject({ status: 'checking' });
    expect((await report(url, await sign(url, account))).body).toMatchObject({ status: 'filed' });
  });

  it('the hash route takes same-origin JSON only', async () => {
    const user = newUser();
    const url = await confirmSale(user, '995 KES USDT polygon 0712345678');
    const own = new URL(url).origin;
    const body = JSON.stringify({ hash: randomHash() });
    const plain = await fetch(`${url}/hash`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body,
    });
    expect(plain.status).toBe(415);
    const none = await fetch(`${url}/hash`, { method: 'POST', body: new Blob([body]) });
    expect(none.status).toBe(415);
    expect((await post(url, body, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(url, body, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await post(url, body, { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await post(url, body, { origin: own, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect(
      (
        await post(url, JSON.stringify({ hash: randomHash() }), {
          'content-type': 'application/json; charset=utf-8',
        })
      ).status,
    ).toBe(200);
  });
});
