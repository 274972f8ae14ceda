/**
 * Junk hashes cannot strand a deposit: a hash counts against the user's limit only once it failed
 * verification, a hash that verifies is accepted whatever the limit says, malformed text is refused
 * with the format expected (and not counted), and `POST /sign/<token>/hash` takes same-origin JSON
 * only. The attack: ten junk hashes (and more) posted by a link holder, then the real deposit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import { lastText, newUser, type SellHarness, startSellHarness, waitFor } from './helpers.js';
import { type LinkRig, linkRig, randomHash } from './link-rig.js';

let chain: DevChain;
let h: SellHarness;
let rig: LinkRig;

beforeAll(async () => {
  chain = await startDevChain({ accountCount: 12 });
  // The default limit: 10 failing hashes per user per hour.
  h = await startSellHarness({ devChain: chain, confirmations: 2 });
  rig = linkRig(h, chain);
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
});

describe('junk hashes from a link holder', () => {
  it('ten junk hashes (and more) posted to the page, then the real deposit: filed', async () => {
    const user = newUser();
    const account = await rig.seller();
    const url = await rig.confirmSale(user, '900 KES USDT polygon 0712345678');
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push((await rig.report(url, randomHash())).body);
    expect(answers.slice(0, 10).every((a) => a.status === 'checking')).toBe(true);
    expect(answers.slice(10)).toMatchObject([
      { status: 'refused', reason: 'too_many_page' },
      { status: 'refused', reason: 'too_many_page' },
    ]);
    // The link holder's junk changes nothing in the seller's chat: not one word about it.
    const ids = () => h.texts(user).map((t) => t.id);
    expect(ids().filter((id) => id.startsWith('sell-checking') || id.startsWith('sell-refused'))).toEqual([]);
    const filed = await rig.report(url, await rig.sign(url, account));
    expect(filed.body).toMatchObject({ status: 'filed' });
    await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    expect(h.escalations).toEqual([]);
    expect(ids().filter((id) => id.startsWith('sell-checking') || id.startsWith('sell-refused'))).toEqual([]);
  });

  it('the same typed in chat: junk, then the real deposit’s hash, filed', async () => {
    const user = newUser();
    const account = await rig.seller();
    const url = await rig.confirmSale(user, '950 KES USDT polygon 0712345678');
    for (let i = 0; i < 12; i++) await h.say(user, { kind: 'text', text: randomHash() });
    expect(lastText(h, user, 'sell-refused-too-many')).toBeDefined();
    const hash = await rig.sign(url, account);
    await h.say(user, { kind: 'text', text: hash });
    await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
  });

  it('junk after a deposit that waits for confirmations does not push it out of view', async () => {
    const user = newUser();
    const account = await rig.seller();
    const url = await rig.confirmSale(user, '980 KES USDT polygon 0712345678');
    const hash = await rig.sign(url, account, 0);
    expect((await rig.report(url, hash)).body).toMatchObject({ status: 'checking' });
    for (let i = 0; i < 25; i++) await rig.report(url, randomHash());
    const intent = await h.sell.service.intentByLink(url.split('/').at(-1)!);
    expect(intent!.pending.map((p) => p.hash)).toContain(hash.toLowerCase());
    await chain.mine(2);
    await waitFor('the watcher to file', () => lastText(h, user, 'sell-filed'));
  });

  it('malformed hashes are refused with the format expected and never counted', async () => {
    const user = newUser();
    const account = await rig.seller();
    const url = await rig.confirmSale(user, '990 KES USDT polygon 0712345678');
    for (let i = 0; i < 12; i++) {
      const r = await rig.report(url, i % 2 ? '0x1234' : `0x${'ab'.repeat(40)}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ status: 'refused', reason: 'malformed_evm' });
      expect(String(r.body.error)).toContain('0x followed by 64 hexadecimal characters');
    }
    await h.say(user, { kind: 'text', text: '0x1234' });
    expect(h.texts(user).at(-1)?.id).toBe('sell-refused-malformed-evm');
    // An Algorand transaction id on an EVM sale: not a hash of this network.
    expect((await rig.report(url, 'A'.repeat(52))).body).toMatchObject({ reason: 'malformed_evm' });
    // Nothing counted: a junk hash is still checked, then the deposit files.
    expect((await rig.report(url, randomHash())).body).toMatchObject({ status: 'checking' });
    expect((await rig.report(url, await rig.sign(url, account))).body).toMatchObject({ status: 'filed' });
  });

  it('the hash route takes same-origin JSON only', async () => {
    const user = newUser();
    const url = await rig.confirmSale(user, '995 KES USDT polygon 0712345678');
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
    expect((await rig.post(url, body, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await rig.post(url, body, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await rig.post(url, body, { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await rig.post(url, body, { origin: own, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect(
      (
        await rig.post(url, JSON.stringify({ hash: randomHash() }), {
          'content-type': 'application/json; charset=utf-8',
        })
      ).status,
    ).toBe(200);
  });
});
