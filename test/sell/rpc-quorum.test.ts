/**
 * A sale on a network with two RPC endpoints (the sell flow through the engine, real viem against two
 * in-process hardhat chains with the same id and contract addresses): a deposit that only one
 * endpoint knows is not filed, however the page insists; once both know it (here: the second
 * endpoint points at the same chain), it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import { createDevSigner } from '../../src/sell/local/devsign.js';
import { findButton, lastText, newUser, type SellHarness, startSellHarness } from './helpers.js';

let chain: DevChain;
let stale: DevChain;
let split: SellHarness;
let agreeing: SellHarness;

beforeAll(async () => {
  [chain, stale] = await Promise.all([startDevChain(), startDevChain()]);
  split = await startSellHarness({ devChain: chain, fallbackRpcUrls: [stale.rpcUrl] });
  agreeing = await startSellHarness({ devChain: chain, fallbackRpcUrls: [`${chain.rpcUrl}/`] });
});
afterAll(async () => {
  await split?.close();
  await agreeing?.close();
  await Promise.all([chain?.close(), stale?.close()]);
});

async function depositFor(h: SellHarness, amount: number) {
  const user = newUser();
  await h.say(user, {
    kind: 'command',
    command: 'sell',
    args: `${amount} KES USDT polygon ${chain.devAccount.address} 0712345678`,
  });
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
  const url = String(lastText(h, user, 'sell-evm-sign')!.args!.url);
  const intent = (await h.sell.service.intentByLink(url.split('/').at(-1)!))!;
  const hash = await createDevSigner(h.sell.service, chain.walletClient())(intent);
  return { intent, hash };
}

describe('verification with two RPC endpoints', () => {
  it('does not file a deposit one endpoint does not know', async () => {
    const { intent, hash } = await depositFor(split, 800);
    const update = await split.sell.service.reportHash(intent.id, hash, { push: false, source: 'test' });
    expect(update).toMatchObject({ status: 'checking' });
    expect(await split.sell.service.intentOf(intent.id)).toMatchObject({ status: 'open' });
  });

  it('files it when both endpoints agree', async () => {
    const { intent, hash } = await depositFor(agreeing, 810);
    const update = await agreeing.sell.service.reportHash(intent.id, hash, { push: false, source: 'test' });
    expect(update).toMatchObject({ status: 'filed' });
  });
});
