/**
 * The permit route on a network configured for withdrawWithPermit: a well-formed signature that is
 * not a valid secp256k1 signature is the client's mistake, answered 400 with a reason, never 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import { findButton, lastText, newUser, type SellHarness, startSellHarness } from '../sell/helpers.js';

let chain: DevChain;
let h: SellHarness;

beforeAll(async () => {
  chain = await startDevChain();
  h = await startSellHarness({ devChain: chain, escrowCall: 'permit' });
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
});

describe('POST /sign/<token>/permit', () => {
  it('answers 400 with a reason to a well-formed but invalid signature', async () => {
    const user = newUser();
    await h.say(user, { kind: 'command', command: 'sell', args: '1000 KES USDT polygon 0712345678' });
    await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
    const url = String(lastText(h, user, 'sell-evm-sign')!.args!.url);
    const res = await fetch(`${url}/permit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        owner: chain.devAccount.address,
        signature: `0x${'ff'.repeat(65)}`,
        deadline: String(Math.floor(Date.now() / 1000) + 600),
      }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/invalid permit signature/);
  });
});
