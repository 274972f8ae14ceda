import algosdk from 'algosdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSenderReady, USDC_ASSET_ID } from '../../../src/chains/algorand/index.js';
import { type FakeAlgorand, startFakeAlgorand } from '../../fakes/algorand.js';

const addr = () => algosdk.generateAccount().addr.toString();
const minFeeMicroAlgo = 1000n;
const assetId = USDC_ASSET_ID;

describe('checkSenderReady (real algosdk against the fake algod)', () => {
  let fake: FakeAlgorand;
  let algod: algosdk.Algodv2;
  beforeAll(async () => {
    fake = await startFakeAlgorand();
    algod = fake.algod();
  });
  afterAll(() => fake.close());

  it('is ready when opted in, with ALGO above the minimum balance and enough USDC', async () => {
    const address = addr();
    // Minimum balance with one asset: 0.2 ALGO; 0.205 ALGO leaves 5000 microAlgos to spend.
    fake.addAccount({ address, microAlgos: 205_000n, assets: [{ assetId, amount: 30_000_000n }] });
    const check = await checkSenderReady(algod, {
      address,
      assetId,
      minFeeMicroAlgo,
      amountBaseUnits: 30_000_000n,
    });
    expect(check).toEqual({ ok: true, algoSpendable: 5000n, assetBalance: 30_000_000n });
    const accountCall = fake.calls.find((c) => c.path === `/v2/accounts/${address}`);
    expect(accountCall?.query.exclude).toBe('all');
  });

  it('refuses a wallet that has not opted in to the asset', async () => {
    const address = addr();
    fake.addAccount({ address, microAlgos: 5_000_000n, assets: [{ assetId: 12345n, amount: 1n }] });
    const check = await checkSenderReady(algod, { address, assetId, minFeeMicroAlgo });
    expect(check).toMatchObject({ ok: false, reason: 'not_opted_in', algoSpendable: 4_800_000n });
  });

  it('refuses an unfunded wallet the node has never seen as not opted in', async () => {
    const check = await checkSenderReady(algod, { address: addr(), assetId, minFeeMicroAlgo });
    expect(check).toMatchObject({ ok: false, reason: 'not_opted_in', algoSpendable: 0n });
  });

  it('refuses a wallet with too little ALGO above its minimum balance for the fee', async () => {
    const address = addr();
    fake.addAccount({ address, microAlgos: 200_999n, assets: [{ assetId, amount: 50_000_000n }] });
    const check = await checkSenderReady(algod, { address, assetId, minFeeMicroAlgo });
    expect(check).toMatchObject({ ok: false, reason: 'insufficient_algo', algoSpendable: 999n });
    if (!check.ok) expect(check.detail).toContain('999');
  });

  it('accepts exactly the fee balance', async () => {
    const address = addr();
    fake.addAccount({ address, microAlgos: 201_000n, assets: [{ assetId, amount: 1n }] });
    expect((await checkSenderReady(algod, { address, assetId, minFeeMicroAlgo })).ok).toBe(true);
  });

  it('refuses when the USDC balance is below the total, only when a total is given', async () => {
    const address = addr();
    fake.addAccount({ address, microAlgos: 1_000_000n, assets: [{ assetId, amount: 9_999_999n }] });
    const short = await checkSenderReady(algod, {
      address,
      assetId,
      minFeeMicroAlgo,
      amountBaseUnits: 10_000_000n,
    });
    expect(short).toMatchObject({ ok: false, reason: 'insufficient_asset', assetBalance: 9_999_999n });
    expect((await checkSenderReady(algod, { address, assetId, minFeeMicroAlgo })).ok).toBe(true);
  });

  it('refuses a frozen holding', async () => {
    const address = addr();
    fake.addAccount({ address, microAlgos: 1_000_000n, assets: [{ assetId, amount: 50n, frozen: true }] });
    expect(await checkSenderReady(algod, { address, assetId, minFeeMicroAlgo })).toMatchObject({
      ok: false,
      reason: 'asset_frozen',
    });
  });

  it('refuses an invalid address without asking the node', async () => {
    const before = fake.calls.length;
    const check = await checkSenderReady(algod, { address: 'NOT-AN-ADDRESS', assetId, minFeeMicroAlgo });
    expect(check).toMatchObject({ ok: false, reason: 'invalid_address' });
    expect(fake.calls.length).toBe(before);
  });

  it('throws when algod refuses the token', async () => {
    const guarded = await startFakeAlgorand({ algodToken: 'right' });
    try {
      await expect(
        checkSenderReady(guarded.algod('wrong'), { address: addr(), assetId, minFeeMicroAlgo }),
      ).rejects.toThrow(/401/);
    } finally {
      await guarded.close();
    }
  });
});
